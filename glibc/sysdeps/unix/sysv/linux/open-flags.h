/* Open flags from callers built against old and new <fcntl.h>.  Linux.
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

#ifndef _OPEN_FLAGS_H
#define _OPEN_FLAGS_H 1

#include <errno.h>
#include <fcntl.h>
#include <shlib-compat.h>
#include <first-versions.h>
#include <not-cancel.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sysdep-cancel.h>

/* The mode argument of an open-family function whose last named
   parameter is OFLAG.  */
#define open_flags_mode(oflag) \
  ({									      \
    mode_t __mode = 0;							      \
    if (__OPEN_NEEDS_MODE (oflag))					      \
      {									      \
	va_list __ap;							      \
	va_start (__ap, oflag);						      \
	__mode = va_arg (__ap, mode_t);					      \
	va_end (__ap);							      \
      }									      \
    __mode;								      \
  })

#if !IS_IN (libc)
/* Outside libc (the dynamic loader): one version, flags as they are.  */
# define open_flags_symbol(local, name) weak_alias (local, name)
# define open_flags_default_symbol(local, name, version) \
  weak_alias (local, name)
# define OPEN_FLAGS_COMPAT(first) 0
# define open_flags_openat(fd, file, oflag, mode) \
  SYSCALL_CANCEL (openat, fd, file, oflag, mode)
#else

/* __O_RSYNC is a bit of its own.  Every entry point that passes flags
   from its caller to the kernel has a @OSYNC_NODE@ version, for programs
   built against headers in which O_RSYNC is that bit, and keeps its
   old versions.  */

/* Export LOCAL as NAME@@@OSYNC_NODE@, through an alias of its own: one
   symbol carries one version.  */
#define open_flags_symbol(local, name) \
  open_flags_version (local, name, @OSYNC_NODE_ID@, versioned_symbol)

/* Whether NAME, whose first version on this port is FIRST, needs an
   old version.  */
#define OPEN_FLAGS_COMPAT(first) SHLIB_COMPAT (libc, first, @OSYNC_NODE_ID@)

/* Export LOCAL as NAME@VERSION, an old version.  */
#define open_flags_compat_symbol(local, name, version) \
  open_flags_version (local, name, version, compat_symbol)

/* Export LOCAL as NAME@@VERSION, where VERSION is the one version NAME
   keeps.  */
#define open_flags_default_symbol(local, name, version) \
  open_flags_version (local, name, version, versioned_symbol)

#define open_flags_version(local, name, version, how) \
  open_flags_version_1 (local, name, version, how)
#define open_flags_version_1(local, name, version, how) \
  strong_alias (local, __##name##_##version)				      \
  how (libc, __##name##_##version, name, version)

/* glibc.io.rsync: 1 if the open functions must fail with EINVAL on a
   kernel without O_RSYNC instead of dropping it.  Read at start-up.  */
extern int __open_flags_rsync_strict attribute_hidden;

/* Read the tunables of the open functions; __libc_early_init.  */
extern void __open_flags_init (void) attribute_hidden;
#define open_flags_early_init() call_function_static_weak (__open_flags_init)

/* The slow path of open_flags_new and open_flags_new_int, for a
   request with __O_RSYNC.  Returns the flags to pass to the kernel, or
   -1 with errno set to EINVAL if the request is refused.  __O_RSYNC
   stays if the kernel takes it as an open flag bit, or, if ANY_CARRIER,
   as the openat2-only OPENAT2_RSYNC too: the open must then go through
   open_flags_openat or open_flags_open_nocancel, which choose the
   system call.  */
extern int __open_flags_rsync (int oflag, bool any_carrier) attribute_hidden;

/* Refuse a request (-1, errno EINVAL) in a function that is a
   cancellation point: act on a pending cancellation first, as the
   system call that is not made would have.  */
extern int __open_flags_refuse (void) attribute_hidden;

/* openat with the flags of open_flags_new, for a request with
   __O_RSYNC (OFLAG as the caller gave it).  */
extern int __open_flags_openat_rsync (int fd, const char *file, int oflag,
				      mode_t mode) attribute_hidden;

/* The open of open_flags_open_nocancel, for kernel flags KFLAGS with
   __O_RSYNC.  */
extern int __open_flags_open_nocancel_rsync (const char *file, int kflags,
					     mode_t mode) attribute_hidden;

/* Flags for the kernel.  open and openat silently drop bits the kernel
   does not know, so __O_RSYNC goes to the kernel only if the kernel
   implements it: otherwise F_GETFL would not tell the program what it
   got, and a later kernel might give the bit another meaning.  Costs a
   test and a branch when __O_RSYNC is clear.  */
static __always_inline int
open_flags_new (int oflag)
{
  if (__glibc_likely ((oflag & __O_RSYNC) == 0))
    return oflag;
  return __open_flags_rsync (oflag, true);
}

/* open_flags_new for a system call whose flags are an int and that has
   no openat2 counterpart (open_by_handle_at): __O_RSYNC reaches the
   kernel only where it is an open flag bit.  */
static __always_inline int
open_flags_new_int (int oflag)
{
  if (__glibc_likely ((oflag & __O_RSYNC) == 0))
    return oflag;
  return __open_flags_rsync (oflag, false);
}

/* Whether open_flags_new refused the flags (errno is set).  */
#define open_flags_failed(oflag) __glibc_unlikely ((oflag) == -1)

/* Whether an open with the kernel flags KFLAGS, which failed with ERR,
   must be made again without __O_RSYNC.  A kernel that implements
   O_RSYNC refuses it with EOPNOTSUPP, before it creates anything, for
   a file that cannot honour it.  A kernel without O_RSYNC would have
   opened that file; unless glibc.io.rsync asks for the error, do as it
   would.  */
#define open_flags_retry(kflags, err) \
  (__glibc_unlikely ((err) == EOPNOTSUPP) && ((kflags) & __O_RSYNC) != 0     \
   && !__open_flags_rsync_strict)

/* The openat system call of open, openat and their 64-bit variants,
   with the flags of open_flags_new.  The slow path is a tail call, so
   that the common one saves no register: it costs the unpatched
   function one test and one branch.  */
static __always_inline int
open_flags_openat (int fd, const char *file, int oflag, mode_t mode)
{
  if (__glibc_unlikely (oflag & __O_RSYNC))
    return __open_flags_openat_rsync (fd, file, oflag, mode);
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}

/* The open, not a cancellation point, of shm_open and of the child of
   posix_spawn, with flags that open_flags_new returned: with
   __O_RSYNC, made with openat2 where the kernel takes O_RSYNC only
   there, and made again without __O_RSYNC where open_flags_retry says
   so.  */
static __always_inline int
open_flags_open_nocancel (const char *file, int kflags, mode_t mode)
{
  if (__glibc_unlikely (kflags & __O_RSYNC))
    return __open_flags_open_nocancel_rsync (file, kflags, mode);
  return __open64_nocancel (file, kflags, mode);
}

/* The old versions differ from the new ones only for a program built
   against glibc 2.11 or earlier, whose O_SYNC had the value of today's
   O_DSYNC on every port but hppa (see the hppa version of this file).
   Only a port whose libc predates 2.12 can run such a program.  */
#ifndef OPEN_FLAGS_OLD_OSYNC_IS_DSYNC
# define OPEN_FLAGS_OLD_OSYNC_IS_DSYNC 1
#endif
#if OPEN_FLAGS_OLD_OSYNC_IS_DSYNC && SHLIB_COMPAT (libc, GLIBC_2_0, GLIBC_2_12)
# define OPEN_FLAGS_LEGACY 1

/* glibc.io.legacy_osync: 1 if the old O_SYNC of such a program is to
   give file integrity, as O_SYNC does today, instead of the data
   integrity of O_DSYNC, the value it had.  Read at start-up.  */
extern int __open_flags_legacy_full attribute_hidden;

/* OFLAG with __O_FULLSYNC added if the object that holds the code at
   CALLER was built before glibc 2.12.  */
extern int __open_flags_legacy (int oflag, const void *caller)
  attribute_hidden;

/* The flags of an old version for the new one: an O_DSYNC that may be
   the O_SYNC of glibc 2.11 and earlier, widened to file integrity
   under glibc.io.legacy_osync=1.  A __O_RSYNC reaches an old version
   only from a newer program through an older library (which forwards
   its caller's flags), and the new version treats it as its own.
   Inlined into the old version, so __builtin_return_address is that
   of its caller.  */
# define open_flags_compat(oflag) \
  ({									      \
    int __oflag = (oflag);						      \
    if (__glibc_unlikely (__oflag & __O_DSYNC)				      \
	&& __glibc_unlikely (__open_flags_legacy_full))			      \
      __oflag = __open_flags_legacy (__oflag,				      \
				     __builtin_return_address (0));	      \
    __oflag;								      \
  })
#else
# define OPEN_FLAGS_LEGACY 0
/* No program built before glibc 2.12 runs here, and the old versions
   do what the new ones do.  */
# define open_flags_compat(oflag) (oflag)
#endif

/* open_flags_openat for an old version.  */
#define open_flags_openat_compat(fd, file, oflag, mode) \
  open_flags_openat (fd, file, open_flags_compat (oflag), mode)

#endif /* IS_IN (libc) */
#endif /* open-flags.h */
