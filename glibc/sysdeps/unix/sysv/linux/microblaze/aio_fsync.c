/* Synchronize I/O in given file descriptor.  Linux/microblaze version.
   Copyright The GNU Toolchain Authors.
   This file is part of the GNU C Library.

   The GNU C Library is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   The GNU C Library is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with the GNU C Library; if not, see
   <https://www.gnu.org/licenses/>.  */

/* Before glibc @OSYNC_NODE_VERSION@, <fcntl.h> defined O_SYNC on microblaze as 04000000,
   the kernel's __O_SYNC bit without the O_DSYNC bit that the other
   ports include.  Programs built then still pass that value to
   aio_fsync, where it means O_SYNC.  */
#define AIO_FSYNC_OLD_O_SYNC 04000000

#include <rt/aio_fsync.c>
