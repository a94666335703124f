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
#include <not-cancel.h>
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

/* How the running kernel takes __O_RSYNC, found out on the first
   request for it: as the open flag bit itself (open and openat pass
   it), as OPENAT2_RSYNC, an openat2-only flag of the upper 32 bits of
   open_how.flags with which the kernel sets the same bit in the file's
   flags (F_GETFL reports it), or not at all.  Threads that race to find
   out find the same answer, so relaxed accesses suffice.  */
enum { carrier_unknown = 0, carrier_none, carrier_open, carrier_openat2 };
static int kernel_carrier;

/* struct open_how of <linux/openat2.h>.  */
struct kernel_open_how
{
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

#define OPENAT2_RSYNC ((uint64_t) 1 << @OSYNC_OPENAT2_RSYNC_SHIFT@)

/* The error of openat2 with the flags FLAGS on an empty path: ENOENT
   if the kernel accepts the flags, so the probe opens nothing.  */
static int
probe (uint64_t flags)
{
  struct kernel_open_how how = { .flags = flags };
  int r = INTERNAL_SYSCALL_CALL (openat2, AT_FDCWD, "", &how, sizeof how);
  return INTERNAL_SYSCALL_ERROR_P (r) ? INTERNAL_SYSCALL_ERRNO (r) : 0;
}

/* open and openat ignore flag bits they do not know, openat2 rejects
   them with EINVAL (and a kernel without openat2, ENOSYS, predates
   __O_RSYNC too), so openat2 probes both carriers, the open flag bit
   first.  The second probe is made only if the first was refused for
   the flag.  Any other answer also counts as "no": the bit is dropped
   rather than risked.  That includes a seccomp filter that answers
   EPERM for system calls it does not know; a filter that kills the
   process instead makes every open with O_RSYNC fatal under it.  */
static int
rsync_carrier (void)
{
  int carrier = atomic_load_relaxed (&kernel_carrier);
  if (carrier == carrier_unknown)
    {
      int err = probe (O_RDONLY | O_DSYNC | __O_RSYNC);
      if (err == ENOENT)
	carrier = carrier_open;
      else if (err == EINVAL
	       && probe (O_RDONLY | O_DSYNC | OPENAT2_RSYNC) == ENOENT)
	carrier = carrier_openat2;
      else
	carrier = carrier_none;
      atomic_store_relaxed (&kernel_carrier, carrier);
    }
  return carrier;
}

int
__open_flags_rsync (int oflag, bool any_carrier)
{
  /* Before glibc @OSYNC_NODE_VERSION@, O_RSYNC had the value of O_SYNC (on hppa since
     2.33), so a program that asked for O_RSYNC alone got synchronized
     writes.  Rebuilding it must not take them away silently.  */
  if ((oflag & __O_DSYNC) == 0)
    oflag |= O_SYNC;

  /* All bits set is not a request the kernel accepts either.  */
  if (oflag != -1)
    {
      int carrier = rsync_carrier ();
      if (carrier == carrier_open
	  || (carrier == carrier_openat2 && any_carrier))
	return oflag;
    }

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

/* Whether the open with the kernel flags KFLAGS, which carry
   __O_RSYNC, is to be made with openat2 and OPENAT2_RSYNC.  With
   O_PATH, open drops every flag but a few, __O_RSYNC among them, and
   openat2 would refuse them: openat makes the open.  */
static bool
by_openat2 (int kflags)
{
  return (kflags & __O_PATH) == 0
	 && atomic_load_relaxed (&kernel_carrier) == carrier_openat2;
}

/* The open_how of openat2 for what openat (FD, FILE, KFLAGS, MODE)
   asks.  openat2 refuses what openat ignores: flag bits it does not
   know and mode bits beyond the permissions, or a mode without O_CREAT
   or O_TMPFILE.  The kernel that takes OPENAT2_RSYNC knows every flag
   of <fcntl.h>, and the others, as open would, are dropped.  */
static struct kernel_open_how
openat2_how (int kflags, mode_t mode)
{
  const int known = O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC
		    | O_APPEND | O_NONBLOCK | __O_DSYNC | O_SYNC | O_ASYNC
		    | __O_DIRECT | __O_LARGEFILE | __O_DIRECTORY
		    | __O_NOFOLLOW | __O_NOATIME | __O_CLOEXEC | __O_TMPFILE;
  return (struct kernel_open_how)
    {
      .flags = (unsigned int) (kflags & known) | OPENAT2_RSYNC,
      .mode = __OPEN_NEEDS_MODE (kflags) ? mode & 07777 : 0,
    };
}

int
__open_flags_openat_rsync (int fd, const char *file, int oflag, mode_t mode)
{
  oflag = __open_flags_rsync (oflag, true);
  if (open_flags_failed (oflag))
    return __open_flags_refuse ();
  int ret;
  if ((oflag & __O_RSYNC) != 0 && by_openat2 (oflag))
    {
      struct kernel_open_how how = openat2_how (oflag, mode);
      ret = SYSCALL_CANCEL (openat2, fd, file, &how, sizeof how);
    }
  else
    ret = SYSCALL_CANCEL (openat, fd, file, oflag, mode);
  if (ret == -1 && open_flags_retry (oflag, errno))
    ret = SYSCALL_CANCEL (openat, fd, file, oflag & ~__O_RSYNC, mode);
  return ret;
}

int
__open_flags_open_nocancel_rsync (const char *file, int kflags, mode_t mode)
{
  int ret;
  if (by_openat2 (kflags))
    {
      struct kernel_open_how how = openat2_how (kflags | O_LARGEFILE, mode);
      ret = INLINE_SYSCALL_CALL (openat2, AT_FDCWD, file, &how, sizeof how);
    }
  else
    ret = __open64_nocancel (file, kflags, mode);
  if (ret == -1 && open_flags_retry (kflags, errno))
    ret = __open64_nocancel (file, kflags & ~__O_RSYNC, mode);
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
