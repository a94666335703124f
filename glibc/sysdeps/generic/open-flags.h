/* Open flags from callers built against old and new <fcntl.h>.  Generic.
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

/* Only Linux changed the meaning of its open flags (see the Linux
   version of this file); elsewhere the flags pass unchanged and every
   entry point keeps its one version.  */

#define open_flags_symbol(local, name) weak_alias (local, name)
#define OPEN_FLAGS_COMPAT(first) 0
#define open_flags_early_init() ((void) 0)
#define open_flags_new(oflag) (oflag)
#define open_flags_failed(oflag) 0
#define open_flags_new_int(oflag) (oflag)
#define open_flags_open_nocancel(file, kflags, mode) \
  __open64_nocancel (file, kflags, mode)

#endif /* open-flags.h */
