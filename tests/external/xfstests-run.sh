#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: the tests of xfstests.list.
#   xfstests-run.sh BUILD FSTYP LIST TESTDEV SCRATCHDEV LOGDEV
# BUILD: xfstests built in place (driver/suites.sh).  TESTDEV gets a
# file system of type FSTYP (mounted on /mnt/test by xfstests);
# SCRATCHDEV is its scratch device, LOGDEV the log device of the
# dm-log-writes tests.  The results go to /out/xfstests (xfstests's
# RESULT_BASE, with its xunit report) and /out/results.txt, "TEST
# RESULT" per test of the list (PASS, FAIL, SKIP, and FAIL for a test
# the report does not name).
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
tests=$(sed -e 's/#.*//' "$list" | tr -s ' \t\n' '   ')
cd "$build" || exit 1
./check -R xunit $tests
echo "xfstests-run: check exited with status $?"
python3 - "$RESULT_BASE" $tests > /out/results.txt <<'PY'
import glob, sys
import xml.etree.ElementTree as ET
base, tests = sys.argv[1], sys.argv[2:]
seen = {}
for path in glob.glob(base + '/**/result.xml', recursive=True):
    for tc in ET.parse(path).getroot().iter('testcase'):
        r = 'PASS'
        for child in tc:
            if child.tag == 'skipped':
                r = 'SKIP'
            elif child.tag in ('failure', 'error'):
                r = 'FAIL'
        seen[tc.get('name')] = r
for t in tests:
    print(t, seen.get(t, 'FAIL'), '' if t in seen else 'not-in-report')
PY
