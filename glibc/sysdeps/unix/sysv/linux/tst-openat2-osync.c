/* Test that openat2 passes O_RSYNC to the kernel as it is.
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

/* openat2 does not translate its flags: a kernel that does not
   implement O_RSYNC refuses it with EINVAL, whatever
   glibc.io.rsync says, and one that does keeps it (F_GETFL).  The
   O_RSYNC of older headers, the value of O_SYNC, still gives O_SYNC.
   The open functions, by contrast, drop O_RSYNC on such a kernel
   (tst-open-osync).  */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <support/check.h>
#include <support/support.h>
#include <support/temp_file.h>
#include <support/xunistd.h>

static int
do_test (void)
{
  char *path;
  xclose (create_temp_file ("tst-openat2-osync-", &path));

  struct open_how how = { .flags = O_RDWR | O_RSYNC | O_DSYNC };
  int fd = openat2 (AT_FDCWD, path, &how, sizeof how);
  if (fd == -1 && errno == ENOSYS)
    FAIL_UNSUPPORTED ("the kernel has no openat2");
  /* The kernel alone decides; open with O_RSYNC on the same kernel
     tells whether it implements the bit (F_GETFL keeps it).  */
  int ofd = xopen (path, O_RDWR | O_RSYNC | O_DSYNC, 0);
  bool kernel_rsync = (fcntl (ofd, F_GETFL) & O_RSYNC) != 0;
  xclose (ofd);
  printf ("info: kernel O_RSYNC %s\n", kernel_rsync ? "yes" : "no");
  if (kernel_rsync)
    {
      TEST_VERIFY_EXIT (fd >= 0);
      TEST_VERIFY (fcntl (fd, F_GETFL) & O_RSYNC);
      xclose (fd);
    }
  else
    {
      TEST_COMPARE (fd, -1);
      TEST_COMPARE (errno, EINVAL);
    }

  /* The O_RSYNC of a program built against older headers.  */
  how.flags = O_RDWR | O_SYNC;
  fd = openat2 (AT_FDCWD, path, &how, sizeof how);
  TEST_VERIFY_EXIT (fd >= 0);
  TEST_COMPARE (fcntl (fd, F_GETFL) & (O_SYNC | O_RSYNC), O_SYNC);
  xclose (fd);

  free (path);
  return 0;
}

#include <support/test-driver.c>
