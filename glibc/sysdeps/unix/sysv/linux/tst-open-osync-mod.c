/* A library built as before glibc 2.12: it calls the old open.
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

/* The only symbol this library needs from libc is the first version of
   open, so its version needs are those of a library built against
   glibc 2.11 or earlier: glibc.io.legacy_osync=full applies to it.  */

#include <fcntl.h>
#include <first-versions.h>
#include <shlib-compat.h>

#if TEST_COMPAT (libc, FIRST_VERSION_libc_open, @OSYNC_NODE_ID@)
extern int compat_open (const char *, int, ...);
compat_symbol_reference (libc, compat_open, open, FIRST_VERSION_libc_open);

int
tst_open_osync_old_open (const char *file, int flags)
{
  int fd = compat_open (file, flags);
  /* Not a tail call: the return address that open sees, by which
     glibc.io.legacy_osync=full tells the callers apart, must be in
     this object.  */
  __asm__ volatile ("" : "+r" (fd));
  return fd;
}
#endif
