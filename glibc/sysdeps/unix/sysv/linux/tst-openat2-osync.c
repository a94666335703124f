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
   implement O_RSYNC as an open flag bit refuses it with EINVAL, and one
   that does keeps it (F_GETFL), or refuses it with EOPNOTSUPP for a
   file that cannot honour it.  A kernel that takes O_RSYNC only from
   openat2, as OPENAT2_RSYNC, sets the bit for it, which the open
   functions rely on there.  The O_RSYNC of older headers, the value of
   O_SYNC, still gives O_SYNC.  The open functions, by contrast, drop
   O_RSYNC on a kernel without it (tst-open-osync).  */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <support/check.h>
#include <support/support.h>
#include <support/temp_file.h>
#include <support/xunistd.h>

/* The openat2-only flag of a kernel that takes O_RSYNC only from
   openat2 (open-flags.c).  */
#define OPENAT2_RSYNC ((uint64_t) 1 << @OSYNC_OPENAT2_RSYNC_SHIFT@)

static int
do_test (void)
{
  /* Whether the kernel implements O_RSYNC, asked as glibc asks it: an
     empty path fails with ENOENT once the flags are accepted.  */
  struct { uint64_t flags, mode, resolve; } probe =
    { .flags = O_RDONLY | O_DSYNC | O_RSYNC };
  errno = 0;
  long int r = syscall (SYS_openat2, AT_FDCWD, "", &probe, sizeof probe);
  int err = errno;
  if (r == -1 && err == ENOSYS)
    FAIL_UNSUPPORTED ("the kernel has no openat2");
  if (r == -1 && err != ENOENT && err != EINVAL)
    FAIL_UNSUPPORTED ("openat2 fails with %s here (a sandbox?)",
		      strerrorname_np (err));
  TEST_COMPARE (r, -1);
  bool kernel_rsync = err == ENOENT;
  bool kernel_openat2 = false;
  if (!kernel_rsync)
    {
      probe.flags = O_RDONLY | O_DSYNC | OPENAT2_RSYNC;
      errno = 0;
      r = syscall (SYS_openat2, AT_FDCWD, "", &probe, sizeof probe);
      kernel_openat2 = r == -1 && errno == ENOENT;
    }
  printf ("info: kernel O_RSYNC %s\n",
	  kernel_rsync ? "yes (carrier open)"
	  : kernel_openat2 ? "yes (carrier openat2)" : "no");

  char *path;
  xclose (create_temp_file ("tst-openat2-osync-", &path));

  struct open_how how = { .flags = O_RDWR | O_RSYNC | O_DSYNC };
  int fd = openat2 (AT_FDCWD, path, &how, sizeof how);
  err = errno;
  if (!kernel_rsync)
    {
      TEST_COMPARE (fd, -1);
      TEST_COMPARE (err, EINVAL);
    }
  else if (fd == -1 && err == EOPNOTSUPP)
    printf ("info: the file system of %s does not honour O_RSYNC\n", path);
  else
    {
      TEST_VERIFY_EXIT (fd >= 0);
      TEST_COMPARE (fcntl (fd, F_GETFL) & (O_SYNC | O_RSYNC),
		    O_RSYNC | O_DSYNC);
      xclose (fd);
    }

  /* What the open functions pass where the kernel takes O_RSYNC only
     from openat2.  */
  if (kernel_openat2)
    {
      how.flags = O_RDWR | O_DSYNC | OPENAT2_RSYNC;
      fd = openat2 (AT_FDCWD, path, &how, sizeof how);
      TEST_VERIFY_EXIT (fd >= 0);
      TEST_COMPARE (fcntl (fd, F_GETFL) & (O_SYNC | O_RSYNC),
		    O_RSYNC | O_DSYNC);
      xclose (fd);
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
