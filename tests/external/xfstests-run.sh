#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: the tests of xfstests.list.
#   xfstests-run.sh BUILD FSTYP LIST TESTDEV SCRATCHDEV LOGDEV
# BUILD: xfstests built in place (driver/suites.sh).  TESTDEV gets a
# file system of type FSTYP (mounted on /mnt/test by xfstests);
# SCRATCHDEV is its scratch device, LOGDEV the log device of the
# dm-log-writes tests.  The results go to /out/xfstests (xfstests's
# RESULT_BASE) and /out/results.txt, "TEST RESULT [WHY]" per test of
# the list (PASS, FAIL, SKIP, from check's xunit report; FAIL for a test
# the report does not name).
#
# A test still running after LIMIT seconds (the variable
# XFSTESTS_TEST_LIMIT, default 900) is stopped and reported as
# "SKIP did not finish within LIMIT s under emulation": not a pass, and
# not a failure of the kernel either.  Its processes, mounts and device
# mapper targets are then removed, so such a test goes last in the list.
# Unless it hangs: if, two minutes after the stop, the clean-up has not
# ended or a task is still in uninterruptible sleep (state D, which
# SIGKILL does not end), the test is reported as "FAIL hung: ...", the
# runner writes /out/hung and ends the guest with reboot(2) at once.
# A sync, the runner's or init's, would wait for ever on the blocked
# device.  The host (driver/suites.sh) then boots a new guest on fresh
# disks for the tests left; so /out/results.txt is appended to, and the
# host empties it before the first boot.  generic/757 hangs that way on
# Debian's 6.12.117 under emulation (2026-12-06; commit 7e415e0).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail
build=$1 fstyp=$2 list=$3
export FSTYP=$fstyp TEST_DEV=$4 TEST_DIR=/mnt/test SCRATCH_DEV=$5 \
  SCRATCH_MNT=/mnt/scratch LOGWRITES_DEV=$6 RESULT_BASE=/out/xfstests
mkdir -p /mnt/test /mnt/scratch "$RESULT_BASE"
case $fstyp in
  ext4) mkfs.ext4 -q -F "$TEST_DEV" ;;
  xfs) mkfs.xfs -q -f "$TEST_DEV" ;;
  *) echo "xfstests-run: error: no mkfs for $fstyp"; exit 1 ;;
esac || { echo "xfstests-run: error: cannot make $fstyp on $TEST_DEV"; exit 1; }
tests=$(sed -e 's/#.*//' "$list")
cd "$build" || exit 1
# One check a test, in the list's order (check sorts the tests it is
# given): the results so far are kept if the guest is stopped.
limit=${XFSTESTS_TEST_LIMIT:-900}
case $limit in
  ''|*[!0-9]*) echo "xfstests-run: error: XFSTESTS_TEST_LIMIT must be a number of seconds, not '$limit'"; exit 1 ;;
esac
for t in $tests; do
  rm -f "$RESULT_BASE/result.xml"
  # timeout runs check in a process group of its own and signals the
  # whole group: fsstress and the replay go with it.
  timeout -k 60 "$limit" ./check -R xunit "$t"
  rc=$?
  echo "xfstests-run: check $t exited with status $rc"
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    # The clean-up runs in the background: umount and dmsetup can wait
    # for ever on a task blocked in the kernel.  It has ended when its
    # flag file is gone.
    flag=$(mktemp) || exit 1
    ( pkill -9 -x fsstress; pkill -9 -x replay-log; sleep 2
      umount -l /mnt/scratch /mnt/test; dmsetup remove_all -f
      rm -f "$flag" ) > /dev/null 2>&1 &
    blocked=
    for i in $(seq 24); do
      sleep 5
      blocked=$(ps -eo stat=,comm= | awk '$1 ~ /^D/ { print $2 }' | sort -u | paste -sd ' ')
      [ -e "$flag" ] || [ -n "$blocked" ] || break
    done
    if [ -e "$flag" ] || [ -n "$blocked" ]; then
      why=${blocked:+tasks blocked in the kernel: $blocked}
      why=${why:-the clean-up (umount, dmsetup remove_all) did not end}
      echo "$t FAIL hung: stopped after $limit s; two minutes later, $why" >> /out/results.txt
      : > /out/hung
      echo "xfstests-run: $t hung ($why); the guest ends now, without sync, and the host boots a new one for the tests left"
      python3 -c 'import ctypes; ctypes.CDLL(None).reboot(0x01234567)'
      echo "xfstests-run: error: reboot(2) failed: the guest cannot be ended"
      exit 1
    fi
    echo "$t SKIP did not finish within $limit s under emulation (TCG); stopped" >> /out/results.txt
    continue
  fi
  python3 - "$RESULT_BASE/result.xml" "$t" >> /out/results.txt <<'PY'
import sys
import xml.etree.ElementTree as ET
path, test = sys.argv[1:]
r = None
try:
    for tc in ET.parse(path).getroot().iter('testcase'):
        if tc.get('name') != test:
            continue
        r = 'PASS'
        for child in tc:
            if child.tag == 'skipped':
                r = 'SKIP ' + (child.get('message') or '').replace('\n', ' ')[:100]
            elif child.tag in ('failure', 'error'):
                r = 'FAIL ' + (child.get('message') or '').replace('\n', ' ')[:100]
except (OSError, ET.ParseError) as e:
    r = f'FAIL no report ({e})'
print(test, r or 'FAIL not in the report')
PY
done
