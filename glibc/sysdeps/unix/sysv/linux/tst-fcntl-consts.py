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
import glibcsyscalls

GLIBC_SOURCE = '#define _GNU_SOURCE 1\n#include <fcntl.h>\n'
KERNEL_SOURCE = '#define _GNU_SOURCE 1\n#include <linux/fcntl.h>\n'


def main():
    """The main entry point."""
    parser = argparse.ArgumentParser(
        description="Test that glibc's fcntl.h open flags "
        "match the kernel's.")
    parser.add_argument('--cc', metavar='CC',
                        help='C compiler (including options) to use')
    args = parser.parse_args()
    linux_version_headers = glibcsyscalls.linux_kernel_version(args.cc)
    # The O_* flags of glibc match those of Linux 7.1 (the last one
    # added was O_TMPFILE, in Linux 3.11).  When glibc takes a new
    # flag from the kernel, this becomes the version the flag came in.
    linux_version_glibc = (7, 1)
    ret = glibcextract.compare_macro_consts(
        GLIBC_SOURCE, KERNEL_SOURCE, args.cc, 'O_.*',
        # O_ASYNC and O_FSYNC are BSD names that glibc defines and the
        # kernel does not (it has FASYNC).  O_RSYNC has no value in the
        # kernel's headers.  The kernel defines O_LARGEFILE even where
        # glibc defines it as 0 (64-bit ports, where it is implied),
        # and O_TMPFILE_MASK for itself.  O_NDELAY differs on SPARC
        # only in bits the kernel ignores.
        'O_ASYNC|O_FSYNC|O_RSYNC|O_LARGEFILE|O_TMPFILE_MASK|O_NDELAY',
        linux_version_glibc > linux_version_headers,
        linux_version_headers > linux_version_glibc)

    glibc = glibcextract.compute_c_consts(
        [GLIBC_SOURCE, 'START',
         ('__O_FULLSYNC', '__O_FULLSYNC'), ('__O_RSYNC', '__O_RSYNC')],
        args.cc)
    glibc = {k: int(v) for k, v in glibc.items()}
    kernel_macros = glibcextract.compute_macro_consts(
        KERNEL_SOURCE, args.cc, '(__)?O_.*|FASYNC',
        # Combinations of bits, and O_RDONLY, which is 0.
        'O_ACCMODE|O_RDONLY|O_SYNC|O_TMPFILE|O_TMPFILE_MASK|O_NDELAY')
    kernel = {k: int(v) for k, v in kernel_macros.items()}

    def fail(msg):
        nonlocal ret
        print('FAIL: %s' % msg)
        ret = 1

    # __O_FULLSYNC is glibc's name for the kernel's __O_SYNC.
    if glibc['__O_FULLSYNC'] != kernel.get('__O_SYNC'):
        fail('__O_FULLSYNC is %#x, the kernel\'s __O_SYNC is %s'
             % (glibc['__O_FULLSYNC'], kernel.get('__O_SYNC')))
    rsync = glibc['__O_RSYNC']
    if rsync <= 0 or rsync & (rsync - 1) != 0:
        fail('__O_RSYNC %#x is not a single bit below the sign bit'
             % rsync)
    # Kernel headers that implement O_RSYNC define @OSYNC_UAPI_RSYNC@,
    # which must be glibc's __O_RSYNC; the others must leave the bit
    # free.  No kernel header may define __O_RSYNC itself: released
    # glibc headers test that name to choose the value of O_RSYNC.
    if '__O_RSYNC' in kernel:
        fail('the kernel\'s headers define __O_RSYNC (%#x), which '
             '<bits/fcntl-linux.h> tests' % kernel.pop('__O_RSYNC'))
    krsync = kernel.pop('@OSYNC_UAPI_RSYNC@', None)
    if krsync is not None and krsync != rsync:
        fail('__O_RSYNC is %#x, the kernel\'s @OSYNC_UAPI_RSYNC@ is %#x'
             % (rsync, krsync))
    for name, value in sorted(kernel.items()):
        if value & rsync:
            fail('__O_RSYNC %#x overlaps the kernel\'s %s (%#x)'
                 % (rsync, name, value))
    print('__O_FULLSYNC %#x, __O_RSYNC %#x, kernel headers %d.%d'
          % (glibc['__O_FULLSYNC'], rsync, linux_version_headers[0],
             linux_version_headers[1]))
    sys.exit(ret)


if __name__ == '__main__':
    main()
