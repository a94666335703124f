/* Test which operation aio_fsync performs for each value of OP.
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

/* POSIX gives aio_fsync two operations: O_SYNC asks for fsync,
   O_DSYNC for fdatasync, and any other value fails with EINVAL.  Where
   O_DSYNC and O_SYNC have one value (GNU/Hurd), that value asks for
   fsync.  On microblaze, O_SYNC was the kernel's __O_SYNC bit alone
   before glibc @OSYNC_NODE_VERSION@, and programs built then still pass that value,
   which means O_SYNC there and nothing elsewhere.

   A seccomp filter, installed before the first use of aio (whose
   helper threads inherit it), makes fsync and fdatasync fail with
   errors of their own, so that the result of each request names the
   system call it made.  */

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <array_length.h>
#include <support/check.h>
#include <support/temp_file.h>
#include <support/xunistd.h>

#define FSYNC_ERRNO ENOTUNIQ
#define FDATASYNC_ERRNO EREMCHG

/* The __O_SYNC bit of the kernel, alone.  */
#define BARE_FULLSYNC (O_SYNC & ~O_DSYNC)

static bool
install_filter (void)
{
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_fsync, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | FSYNC_ERRNO),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_fdatasync, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | FDATASYNC_ERRNO),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { .len = array_length (filter),
			     .filter = filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      printf ("info: seccomp is not available (%m)\n");
      return false;
    }
  return true;
}

/* The name of the operation that the error ERR of a completed
   request stands for.  */
static const char *
operation (int err)
{
  switch (err)
    {
    case FSYNC_ERRNO:
      return "fsync";
    case FDATASYNC_ERRNO:
      return "fdatasync";
    case 0:
      return "success";
    default:
      return strerror (err);
    }
}

static int
do_test (void)
{
  char *path;
  int fd = create_temp_file ("tst-aio_fsync-op-", &path);
  TEST_VERIFY_EXIT (fd >= 0);
  bool filtered = install_filter ();

  static const struct
  {
    int op;
    const char *name;
    /* The system call the request makes, or 0 if aio_fsync must
       fail with EINVAL.  */
    long int call;
  } requests[] =
    {
      { O_SYNC, "O_SYNC", __NR_fsync },
      { O_DSYNC, "O_DSYNC", O_DSYNC == O_SYNC ? __NR_fsync : __NR_fdatasync },
#ifdef __microblaze__
      { BARE_FULLSYNC, "the O_SYNC of glibc before @OSYNC_NODE_VERSION@", __NR_fsync },
#else
      { BARE_FULLSYNC, "the __O_SYNC bit alone", 0 },
#endif
      { O_RDWR, "O_RDWR", 0 },
      { O_SYNC | O_RDWR, "O_SYNC | O_RDWR", 0 },
    };
  for (size_t i = 0; i < array_length (requests); i++)
    {
      struct aiocb cb = { .aio_fildes = fd };
      errno = 0;
      int ret = aio_fsync (requests[i].op, &cb);
      int err = errno;
      if (requests[i].call == 0)
	{
	  if (ret != -1 || err != EINVAL)
	    FAIL ("aio_fsync (%s, %#o): returned %d (%s), want EINVAL",
		  requests[i].name, (unsigned int) requests[i].op, ret,
		  strerror (err));
	  if (ret == 0)
	    {
	      const struct aiocb *list[] = { &cb };
	      while (aio_error (&cb) == EINPROGRESS)
		aio_suspend (list, 1, NULL);
	    }
	  continue;
	}
      if (ret != 0)
	{
	  FAIL ("aio_fsync (%s, %#o): failed (%s)", requests[i].name,
		(unsigned int) requests[i].op, strerror (err));
	  continue;
	}
      const struct aiocb *list[] = { &cb };
      while (aio_error (&cb) == EINPROGRESS)
	aio_suspend (list, 1, NULL);
      int done = aio_error (&cb);
      int want = !filtered ? 0
	: requests[i].call == __NR_fsync ? FSYNC_ERRNO : FDATASYNC_ERRNO;
      if (done != want)
	FAIL ("aio_fsync (%s, %#o): %s, want %s", requests[i].name,
	      (unsigned int) requests[i].op, operation (done),
	      operation (want));
      else
	printf ("info: aio_fsync (%s, %#o): %s\n", requests[i].name,
		(unsigned int) requests[i].op, operation (done));
    }

  xclose (fd);
  free (path);
  if (!filtered)
    FAIL_UNSUPPORTED ("without seccomp, the operation each request "
		      "performed was not checked");
  return 0;
}

#include <support/test-driver.c>
