#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: xfstests-run.sh (same
# arguments) for the suite xfstests-rwaio, with /dev/fd and
# /dev/std{in,out,err} made as udev and systemd make them on a booted
# system.  The guest's /dev is a bare devtmpfs without them, so bash's
# process substitution, "<(...)", names a file that does not exist;
# xfstests' _require_fio_engine greps "fio --enghelp" that way, and
# generic/095 was reported "fio engine libaio not available" on both
# kernels on 2026-12-05 although Debian 12's fio has it.  The tests of
# xfstests.list call none of xfstests' functions that read "<(...)"
# (checked 2026-12-05 at 63a29724a85f).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
here=$(cd "$(dirname "$0")" && pwd)
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd || exit 1
for n in 0:stdin 1:stdout 2:stderr; do
  [ -e "/dev/${n#*:}" ] || ln -s "/proc/self/fd/${n%%:*}" "/dev/${n#*:}" || exit 1
done
exec "$here/xfstests-run.sh" "$@"
