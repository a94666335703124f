/* Open flags from callers built against old and new <fcntl.h>.  Linux/hppa.
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

/* Before glibc 2.12, hppa's O_SYNC was 0100000, the bit that is
   __O_FULLSYNC today and that the kernel widens to file integrity, and
   its O_DSYNC was today's O_DSYNC.  So an old program's O_DSYNC always
   meant O_DSYNC, and the old versions of the open functions do what
   the new ones do.  */
#define OPEN_FLAGS_OLD_OSYNC_IS_DSYNC 0

#include <sysdeps/unix/sysv/linux/open-flags.h>
