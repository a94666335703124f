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

#include <fcntl.h>
#include <shlib-compat.h>
#include <first-versions.h>
#include <stdarg.h>
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
/* The dynamic loader opens files with flags of its own.  */
# define open_flags_symbol(local, name) weak_alias (local, name)
# define OPEN_FLAGS_COMPAT(first) 0
# define open_flags_new(oflag) (oflag)
# define open_flags_failed(oflag) 0
static __always_inline int
open_flags_openat (int fd, const char *file, int oflag, mode_t mode)
{
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}
#else

/* Until glibc @OSYNC_NODE_VERSION@, O_RSYNC was O_SYNC.  Since then it is a bit
   of its own, __O_RSYNC.  Every entry point that passes flags from its
   caller to the kernel has a @OSYNC_NODE@ version, for programs built
   against the new headers, and keeps its old versions.  */

/* Export LOCAL as NAME@@@OSYNC_NODE@, through an alias of its own: one
   symbol can carry one version only.  */
#define open_flags_symbol(local, name) \
  strong_alias (local, __##name##_osync) \
  versioned_symbol (libc, __##name##_osync, name, @OSYNC_NODE_ID@)

/* Whether NAME needs an old version: it existed before @OSYNC_NODE@ on
   this port (use FIRST_VERSION_libc_NAME).  */
#define OPEN_FLAGS_COMPAT(first) SHLIB_COMPAT (libc, first, @OSYNC_NODE_ID@)

/* Export LOCAL as NAME@VERSION, an old version.  */
#define open_flags_compat_symbol(local, name, version) \
  strong_alias (local, __##name##_##version##_osync) \
  compat_symbol (libc, __##name##_##version##_osync, name, version)

/* The slow path of open_flags_new, for a request with __O_RSYNC.
   Returns the flags to pass to the kernel, or -1 with errno set to
   EINVAL if the open must fail.  */
extern int __open_flags_rsync (int oflag) attribute_hidden;

/* The slow path of open_flags_compat, for a request with O_DSYNC from
   the code at CALLER.  */
extern int __open_flags_legacy (int oflag, const void *caller)
  attribute_hidden;

/* openat with the flags of open_flags_new or of open_flags_compat and
   then open_flags_new, for the requests that need a slow path (OFLAG
   as the caller gave it).  */
extern int __open_flags_openat_rsync (int fd, const char *file, int oflag,
				      mode_t mode) attribute_hidden;
extern int __open_flags_openat_compat (int fd, const char *file, int oflag,
				       mode_t mode, const void *caller)
  attribute_hidden;

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
  return __open_flags_rsync (oflag);
}

/* Whether open_flags_new refused the flags (errno is set).  */
#define open_flags_failed(oflag) __glibc_unlikely ((oflag) == -1)

/* The old versions differ from the new ones in one bit: their O_DSYNC
   may come from a program built against glibc 2.11 or earlier, where
   it was the value of O_SYNC, which glibc.io.legacy_osync=full widens
   to O_SYNC.  A __O_RSYNC bit reaches them only from a newer program
   through an older library (which forwards its caller's flags), and
   the new version they call treats it as its own.  Inlined into the
   old version, so __builtin_return_address is that of its caller.  */
static __always_inline int
open_flags_compat (int oflag)
{
  if (__glibc_unlikely (oflag & __O_DSYNC))
    oflag = __open_flags_legacy (oflag, __builtin_return_address (0));
  return oflag;
}

/* The openat system call of open, openat and their 64-bit variants,
   with the flags of open_flags_new and open_flags_compat.  The slow
   paths are tail calls, so that the common one saves no register: it
   costs the unpatched function one test and one branch.  */
static __always_inline int
open_flags_openat (int fd, const char *file, int oflag, mode_t mode)
{
  if (__glibc_unlikely (oflag & __O_RSYNC))
    return __open_flags_openat_rsync (fd, file, oflag, mode);
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}

static __always_inline int
open_flags_openat_compat (int fd, const char *file, int oflag, mode_t mode)
{
  if (__glibc_unlikely (oflag & (__O_DSYNC | __O_RSYNC)))
    return __open_flags_openat_compat (fd, file, oflag, mode,
				       __builtin_return_address (0));
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}

#endif /* IS_IN (libc) */
#endif /* open-flags.h */
