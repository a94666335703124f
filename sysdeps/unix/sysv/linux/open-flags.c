/* Slow paths of the open flag translation.  Linux version.
   Copyright (C) 2022 Free Software Foundation, Inc.
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

#include <atomic.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sysdep-cancel.h>
#include <open-flags.h>
#if HAVE_TUNABLES
# include <elf/dl-tunables.h>
#endif

/* Answers computed once per process.  Threads that race to compute one
   compute the same value, so relaxed accesses suffice.  */
enum { answer_unknown = 0, answer_no, answer_yes };
static int kernel_rsync;
static int rsync_strict;
static int legacy_full;

/* Whether the tunable glibc.io.NAME is set to VALUE.  Unknown values
   count as the default, as for every tunable.  */
#if HAVE_TUNABLES
# define tunable_is(name, value) \
  ({									      \
    const char *__v = TUNABLE_GET_FULL (glibc, io, name, const char *,     \
					NULL);				      \
    __v != NULL && strcmp (__v, value) == 0;				      \
  })
#else
# define tunable_is(name, value) false
#endif

/* Whether the running kernel implements __O_RSYNC.  open and openat
   ignore flag bits they do not know, openat2 rejects them with EINVAL
   (and a kernel without openat2, ENOSYS, predates __O_RSYNC too).  The
   empty path makes a kernel that knows the bit fail with ENOENT, so the
   probe opens nothing.  Any other failure (a seccomp filter, say) also
   counts as "no": the bit is dropped rather than risked.  */
static bool
kernel_has_rsync (void)
{
  int answer = atomic_load_relaxed (&kernel_rsync);
  if (answer == answer_unknown)
    {
      answer = answer_no;
#ifdef __NR_openat2
      /* struct open_how of <linux/openat2.h>.  */
      struct
      {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
      } how = { .flags = O_RDONLY | O_DSYNC | __O_RSYNC };
      int r = INTERNAL_SYSCALL_CALL (openat2, AT_FDCWD, "", &how,
				     sizeof how);
      if (INTERNAL_SYSCALL_ERROR_P (r) && INTERNAL_SYSCALL_ERRNO (r) == ENOENT)
	answer = answer_yes;
#endif
      atomic_store_relaxed (&kernel_rsync, answer);
    }
  return answer == answer_yes;
}

int
__open_flags_rsync (int oflag)
{
  /* All bits set is not a request the kernel accepts either.  */
  if (oflag != -1 && kernel_has_rsync ())
    return oflag;

  int strict = atomic_load_relaxed (&rsync_strict);
  if (strict == answer_unknown)
    {
      strict = tunable_is (rsync, "strict") ? answer_yes : answer_no;
      atomic_store_relaxed (&rsync_strict, strict);
    }
  if (strict == answer_yes || oflag == -1)
    {
      __set_errno (EINVAL);
      return -1;
    }
  return oflag & ~__O_RSYNC;
}

int
__open_flags_legacy (int oflag)
{
  int full = atomic_load_relaxed (&legacy_full);
  if (full == answer_unknown)
    {
      full = tunable_is (legacy_osync, "full") ? answer_yes : answer_no;
      atomic_store_relaxed (&legacy_full, full);
    }
  if (full == answer_yes)
    oflag |= __O_FULLSYNC;
  return oflag;
}

int
__open_flags_openat_rsync (int fd, const char *file, int oflag, mode_t mode)
{
  oflag = __open_flags_rsync (oflag);
  if (oflag == -1)
    return -1;
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}

int
__open_flags_openat_legacy (int fd, const char *file, int oflag, mode_t mode)
{
  return SYSCALL_CANCEL (openat, fd, file,
			 __open_flags_legacy (oflag & ~__O_RSYNC), mode);
}
