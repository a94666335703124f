/* An object whose newest symbol version is GLIBC_2.11, calling open.
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

/* It calls the first version of open and needs execvpe@GLIBC_2.11, so
   that its newest symbol version is that of glibc 2.11: for
   glibc.io.legacy_osync=1, an object built before glibc 2.12.
   tst-open-osync-mod212.c, built from this file, needs
   recvmmsg@GLIBC_2.12 instead, and is not one.  */

#include <fcntl.h>
#include <first-versions.h>
#include <shlib-compat.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef OLD_OPEN
# define OLD_OPEN tst_open_osync_old_open_211
#endif

#if TEST_COMPAT (libc, GLIBC_2_0, GLIBC_2_12)
extern int compat_open (const char *, int, ...);
compat_symbol_reference (libc, compat_open, open, FIRST_VERSION_libc_open);

# ifdef NEED_GLIBC_2_12
extern int newest (int, struct mmsghdr *, unsigned int, int,
		   struct timespec *);
compat_symbol_reference (libc, newest, recvmmsg, GLIBC_2_12);
# else
extern int newest (const char *, char *const[], char *const[]);
compat_symbol_reference (libc, newest, execvpe, GLIBC_2_11);
# endif
/* Never called: it makes this object need that version.  */
void *const tst_open_osync_newest_need = (void *) newest;

int
OLD_OPEN (const char *file, int flags)
{
  int fd = compat_open (file, flags);
  /* Not a tail call: the return address that open sees, by which
     glibc.io.legacy_osync=1 tells the callers apart, must be in this
     object.  */
  __asm__ volatile ("" : "+r" (fd));
  return fd;
}
#endif
