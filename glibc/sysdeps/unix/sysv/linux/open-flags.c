/* Slow paths of the open flag translation.  Linux version.
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

#include <atomic.h>
#include <errno.h>
#include <fcntl.h>
#include <pthreadP.h>
#include <stdint.h>
#include <sysdep-cancel.h>
#include <open-flags.h>

#define TUNABLE_NAMESPACE io
#include <elf/dl-tunables.h>

int __open_flags_rsync_strict;
#if OPEN_FLAGS_LEGACY
int __open_flags_legacy_full;
#endif

void
__open_flags_init (void)
{
  __open_flags_rsync_strict = TUNABLE_GET (rsync, int32_t, NULL);
#if OPEN_FLAGS_LEGACY
  __open_flags_legacy_full = TUNABLE_GET (legacy_osync, int32_t, NULL);
#endif
}

/* Whether the running kernel implements __O_RSYNC, computed on the
   first request for it.  Threads that race to compute it compute the
   same answer, so relaxed accesses suffice.  */
enum { answer_unknown = 0, answer_no, answer_yes };
static int kernel_rsync;

/* open and openat ignore flag bits they do not know, openat2 rejects
   them with EINVAL (and a kernel without openat2, ENOSYS, predates
   __O_RSYNC too).  The empty path makes a kernel that knows the bit
   fail with ENOENT, so the probe opens nothing.  Any other failure
   also counts as "no": the bit is dropped rather than risked.  That
   includes a seccomp filter that answers EPERM for system calls it
   does not know; a filter that kills the process instead makes every
   open with O_RSYNC fatal under it.  */
static bool
kernel_has_rsync (void)
{
  int answer = atomic_load_relaxed (&kernel_rsync);
  if (answer == answer_unknown)
    {
      answer = answer_no;
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
      atomic_store_relaxed (&kernel_rsync, answer);
    }
  return answer == answer_yes;
}

int
__open_flags_rsync (int oflag)
{
  /* Before glibc @OSYNC_NODE_VERSION@, O_RSYNC had the value of O_SYNC (on hppa since
     2.33), so a program that asked for O_RSYNC alone got synchronized
     writes.  Rebuilding it must not take them away silently.  */
  if ((oflag & __O_DSYNC) == 0)
    oflag |= O_SYNC;

  /* All bits set is not a request the kernel accepts either.  */
  if (oflag != -1 && kernel_has_rsync ())
    return oflag;

  if (__open_flags_rsync_strict || oflag == -1)
    {
      __set_errno (EINVAL);
      return -1;
    }
  return oflag & ~__O_RSYNC;
}

int
__open_flags_refuse (void)
{
  /* The refusal stands for the system call: it acts on a pending
     cancellation as SYSCALL_CANCEL does.  __pthread_testcancel cannot
     be used: the build finds what ld.so takes from libc (openat64 is
     one) by linking ld.so against libc with the cancellation entry
     points of SYSCALL_CANCEL stubbed out, and __pthread_testcancel
     would take the unwinder into that link.  */
  struct pthread *self = THREAD_SELF;
  if (!SINGLE_THREAD_P
      && cancel_enabled_and_canceled (atomic_load_relaxed
				      (&self->cancelhandling)))
    __syscall_do_cancel ();
  __set_errno (EINVAL);
  return -1;
}

int
__open_flags_openat_rsync (int fd, const char *file, int oflag, mode_t mode)
{
  oflag = __open_flags_rsync (oflag);
  if (open_flags_failed (oflag))
    return __open_flags_refuse ();
  int ret = SYSCALL_CANCEL (openat, fd, file, oflag, mode);
  if (ret == -1 && open_flags_retry (oflag, errno))
    ret = SYSCALL_CANCEL (openat, fd, file, oflag & ~__O_RSYNC, mode);
  return ret;
}

#if OPEN_FLAGS_LEGACY
# include <ldsodefs.h>
# include <string.h>

/* The decimal number at *P, which is moved past it.  */
static unsigned int
read_number (const char **p)
{
  unsigned int n = 0;
  while (**p >= '0' && **p <= '9')
    n = n * 10 + *(*p)++ - '0';
  return n;
}

/* Whether the version NAME of libc marks a link against glibc X.Y or
   later: GLIBC_X.Y or later, or a version without a number
   (GLIBC_ABI_DT_RELR, new in 2.36, and GLIBC_PRIVATE).  */
static bool
version_at_least (const char *name, unsigned int major, unsigned int minor)
{
  if (strncmp (name, "GLIBC_", 6) != 0)
    return false;
  const char *p = name + 6;
  if (*p < '0' || *p > '9')
    return true;
  unsigned int x = read_number (&p);
  unsigned int y = *p == '.' ? (p++, read_number (&p)) : 0;
  return x > major || (x == major && y >= minor);
}

/* Whether the object that holds the code at CALLER was built against
   glibc 2.12 or later: it needs a GLIBC_2.12 or later version of some
   symbol.  An object that needs only older versions may still have
   been built later; nothing in it tells.  CALLER is the return address
   of the open function, so a library that calls open as a tail call
   stands for its own caller.  */
static bool
built_after_2_11 (const void *caller)
{
  struct dl_find_object dlfo;
  if (GLRO (dl_find_object) ((void *) caller, &dlfo) != 0)
    return false;
  struct link_map *l = (struct link_map *) dlfo.dlfo_link_map;
  const ElfW(Dyn) *dyn = l->l_info[VERSYMIDX (DT_VERNEED)];
  if (dyn == NULL)
    return false;
  const char *strtab = (const void *) D_PTR (l, l_info[DT_STRTAB]);
  const ElfW(Verneed) *need
    = (const ElfW(Verneed) *) (l->l_addr + dyn->d_un.d_ptr);
  while (true)
    {
      const ElfW(Vernaux) *aux
	= (const ElfW(Vernaux) *) ((const char *) need + need->vn_aux);
      for (unsigned int i = 0; i < need->vn_cnt; i++)
	{
	  if (version_at_least (strtab + aux->vna_name, 2, 12))
	    return true;
	  aux = (const ElfW(Vernaux) *) ((const char *) aux + aux->vna_next);
	}
      if (need->vn_next == 0)
	return false;
      need = (const ElfW(Verneed) *) ((const char *) need + need->vn_next);
    }
}

int
__open_flags_legacy (int oflag, const void *caller)
{
  if (!built_after_2_11 (caller))
    oflag |= __O_FULLSYNC;
  return oflag;
}
#endif /* OPEN_FLAGS_LEGACY */
