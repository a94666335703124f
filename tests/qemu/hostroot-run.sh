#!/bin/bash
# In the guest of hostguest.sh: run a script and write its exit status.
#   hostroot-run.sh STATUSFILE SCRIPT [ARG...]
# The guest's init gives its programs no PATH; the script gets the
# usual one, and its output goes to the console.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
# No udev in the guest: device-mapper's library makes the /dev/mapper
# nodes itself.
export DM_DISABLE_UDEV=1
status=$1
shift
rc=0
/bin/bash "$@" || rc=$?
echo "$rc" > "$status"
sync
echo "hostroot-run.sh: $1 exited with status $rc"
