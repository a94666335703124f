/* Open flags from callers built against old and new <fcntl.h>.  Linux.
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
static __always_inline int
open_flags_openat (int fd, const char *file, int oflag, mode_t mode)
{
  return SYSCALL_CANCEL (openat, fd, file, oflag, mode);
}
#else

/* Until glibc 2.37, O_RSYNC was O_SYNC.  Since then it is a bit of its
   own, __O_RSYNC, which no released kernel implements.  Every entry
   point that passes flags from its caller to the kernel therefore has
   two versions: the GLIBC_2.37 one, for programs built against the new
   headers, and the old one, for programs built before.  */

/* Export LOCAL as NAME@@GLIBC_2.37, through an alias of its own: one
   symbol can carry one version only.  */
#define open_flags_symbol(local, name) \
  strong_alias (local, __##name##_osync) \
  versioned_symbol (libc, __##name##_osync, name, GLIBC_2_37)

/* Whether NAME needs an old version: it existed before GLIBC_2.37 on
   this port (use FIRST_VERSION_libc_NAME).  */
#define OPEN_FLAGS_COMPAT(first) SHLIB_COMPAT (libc, first, GLIBC_2_37)

/* Export LOCAL as NAME@VERSION, an old version.  */
#define open_flags_compat_symbol(local, name, version) \
  strong_alias (local, __##name##_##version##_osync) \
  compat_symbol (libc, __##name##_##version##_osync, name, version)

/* The slow path of open_flags_new, for a request with __O_RSYNC:
   returns OFLAG without __O_RSYNC if the kernel does not implement it,
   OFLAG itself if it does, and -1 with errno set to EINVAL if the
   kernel does not implement it and glibc.io.rsync=strict.  */
extern int __open_flags_rsync (int oflag) attribute_hidden;

/* The slow path of open_flags_compat, for a request with O_DSYNC.  */
extern int __open_flags_legacy (int oflag) attribute_hidden;

/* openat with the flags of open_flags_new or open_flags_compat, for the
   requests that need the slow path (OFLAG as the caller gave it).  */
extern int __open_flags_openat_rsync (int fd, const char *file, int oflag,
				      mode_t mode) attribute_hidden;
extern int __open_flags_openat_legacy (int fd, const char *file, int oflag,
				       mode_t mode) attribute_hidden;

/* Flags of a program built against the current headers.  open and
   openat silently drop bits the kernel does not know, so __O_RSYNC
   goes to the kernel only if the kernel implements it: otherwise
   F_GETFL would not tell the program what it got, and a later kernel
   might give the bit another meaning.  Returns -1 (errno EINVAL) if the
   open must fail.  Costs a test and a branch when __O_RSYNC is clear.  */
static __always_inline int
open_flags_new (int oflag)
{
  if (__glibc_likely ((oflag & __O_RSYNC) == 0))
    return oflag;
  return __open_flags_rsync (oflag);
}

/* Flags of a program built against the headers before glibc 2.37, where
   O_RSYNC was O_SYNC: such a program never meant __O_RSYNC, so it is
   dropped.  Everything else goes to the kernel as it always did; in
   particular the O_SYNC of glibc before 2.12, which is today's O_DSYNC,
   keeps meaning O_DSYNC, unless glibc.io.legacy_osync=full.  */
static __always_inline int
open_flags_compat (int oflag)
{
  oflag &= ~__O_RSYNC;
  if (__glibc_unlikely (oflag & __O_DSYNC))
    oflag = __open_flags_legacy (oflag);
  return oflag;
}

/* The openat system call of open, openat and their 64-bit variants,
   with the flags of open_flags_new and open_flags_compat.  The slow
   paths are tail calls, so that the common one saves no register: it
   costs the unpatched function one test and one branch (the old
   versions, an AND more).  */
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
  if (__glibc_unlikely (oflag & __O_DSYNC))
    return __open_flags_openat_legacy (fd, file, oflag, mode);
  return SYSCALL_CANCEL (openat, fd, file, oflag & ~__O_RSYNC, mode);
}

#endif /* IS_IN (libc) */
#endif /* open-flags.h */
