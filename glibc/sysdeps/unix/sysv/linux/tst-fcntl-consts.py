#!/usr/bin/python3
# Test that glibc's fcntl.h open flags match the kernel's.
# Copyright The GNU Toolchain Authors.
# This file is part of the GNU C Library.
#
# The GNU C Library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# The GNU C Library is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Lesser General Public License for more details.
#
# You should have received a copy of the GNU Lesser General Public
# License along with the GNU C Library; if not, see
# <https://www.gnu.org/licenses/>.

import argparse
import sys

import glibcextract

GLIBC_SOURCE = '#define _GNU_SOURCE 1\n#include <fcntl.h>\n'
KERNEL_SOURCE = '#define _GNU_SOURCE 1\n#include <linux/fcntl.h>\n'

# Bits the kernel keeps in f_flags for itself: __FMODE_EXEC, and
# 0x4000000, which was __FMODE_NONOTIFY for many releases.  No open
# flag may use them.
KERNEL_INTERNAL_BITS = 0x20 | 0x4000000


def main():
    """The main entry point."""
    parser = argparse.ArgumentParser(
        description="Test that glibc's fcntl.h open flags "
        "match the kernel's.")
    parser.add_argument('--cc', metavar='CC',
                        help='C compiler (including options) to use')
    args = parser.parse_args()
    ret = glibcextract.compare_macro_consts(
        GLIBC_SOURCE, KERNEL_SOURCE, args.cc, 'O_.*',
        # O_FSYNC is a BSD alias glibc keeps.  O_RSYNC is glibc's own
        # bit, which the kernel headers do not define.  The kernel
        # defines O_LARGEFILE even where glibc defines it as 0 (64-bit
        # ports, where it is implied).  O_NDELAY differs on SPARC only
        # in the bits the kernel ignores.
        'O_FSYNC|O_RSYNC|O_LARGEFILE|O_NDELAY',
        # The kernel may know flags newer than this glibc, and glibc
        # defines O_ASYNC where the kernel uses FASYNC.
        True, True)

    glibc = glibcextract.compute_c_consts(
        [GLIBC_SOURCE, 'START',
         ('__O_FULLSYNC', '__O_FULLSYNC'), ('__O_RSYNC', '__O_RSYNC'),
         ('O_SYNC', 'O_SYNC'), ('O_DSYNC', 'O_DSYNC'),
         ('O_RSYNC', 'O_RSYNC')], args.cc)
    glibc = {k: int(v) for k, v in glibc.items()}
    kernel_macros = glibcextract.compute_macro_consts(
        KERNEL_SOURCE, args.cc, '(__)?O_.*|FASYNC',
        # Composite or alias macros, not bits of their own.
        'O_ACCMODE|O_RDONLY|O_TMPFILE_MASK')
    kernel = {k: int(v) for k, v in kernel_macros.items()}

    def fail(msg):
        nonlocal ret
        print('FAIL: %s' % msg)
        ret = 1

    if glibc['__O_FULLSYNC'] != kernel.get('__O_SYNC'):
        fail('__O_FULLSYNC is %#x, the kernel\'s __O_SYNC is %s'
             % (glibc['__O_FULLSYNC'], kernel.get('__O_SYNC')))
    if glibc['O_SYNC'] != glibc['__O_FULLSYNC'] | glibc['O_DSYNC']:
        fail('O_SYNC %#x is not __O_FULLSYNC | O_DSYNC' % glibc['O_SYNC'])
    rsync = glibc['__O_RSYNC']
    if rsync != glibc['O_RSYNC']:
        fail('O_RSYNC is not __O_RSYNC')
    if rsync <= 0 or rsync & (rsync - 1) != 0:
        fail('__O_RSYNC %#x is not a single positive bit' % rsync)
    if rsync & KERNEL_INTERNAL_BITS:
        fail('__O_RSYNC %#x is a kernel-internal f_flags bit' % rsync)
    # Kernel headers that implement O_RSYNC define __O_RSYNC, which
    # must be glibc's bit; older ones do not define it.
    krsync = kernel.pop('__O_RSYNC', None)
    if krsync is not None and krsync != rsync:
        fail('__O_RSYNC is %#x, the kernel\'s __O_RSYNC is %#x'
             % (rsync, krsync))
    for name, value in sorted(kernel.items()):
        if value & rsync:
            fail('__O_RSYNC %#x overlaps the kernel\'s %s (%#x)'
                 % (rsync, name, value))
    print('__O_FULLSYNC %#x, O_SYNC %#x, O_DSYNC %#x, __O_RSYNC %#x'
          % (glibc['__O_FULLSYNC'], glibc['O_SYNC'], glibc['O_DSYNC'],
             rsync))
    sys.exit(ret)


if __name__ == '__main__':
    main()
