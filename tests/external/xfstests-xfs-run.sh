#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: xfstests-run.sh (same
# arguments) for the suite xfstests-xfs, with dmsetup-links/ first in
# PATH, so that a mapped device's /dev/mapper/NAME is a link to its
# dm-N as under udev.  xfstests' dm-flakey tests on xfs set the file
# system's error behaviour in /sys/fs/xfs/dm-N/error/; with a device
# node there they wrote to /sys/fs/xfs/NAME/, which does not exist, and
# failed on both kernels (generic/039, 059, 101, 107, 322, 336 on
# 2026-12-05: "/sys/fs/xfs/flakey-test.107/error/fail_at_unmount: No
# such file or directory").  ext4's tests of the list read nothing
# there and run without it.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
here=$(cd "$(dirname "$0")" && pwd)
export PATH=$here/dmsetup-links:$PATH
exec "$here/xfstests-run.sh" "$@"
