#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: the kernel's openat2
# selftests (tools/testing/selftests/openat2), built by driver/suites.sh.
#   selftests-run.sh BIN DEV
# DEV gets an ext4, mounted on /mnt/st, the working directory of the
# tests.  Each program's TAP output goes to /out/selftests/NAME.log;
# /out/results.txt gets a line "NAME:N RESULT" per test point (ok:
# PASS, ok # SKIP: SKIP, not ok: FAIL), and "NAME FAIL" for a program
# that reports fewer points than its plan, or ends with a status other
# than 0 or 4 (kselftest's skip) with no point failed.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail
bin=$1 dev=$2
mkfs.ext4 -q -F "$dev" && mkdir -p /mnt/st && mount "$dev" /mnt/st \
  || { echo "selftests-run: error: cannot make the ext4 on $dev"; exit 1; }
mkdir -p /out/selftests
: > /out/results.txt
for p in openat2_test resolve_test rename_attack_test; do
  [ -x "$bin/$p" ] || { echo "$p FAIL missing" >> /out/results.txt; continue; }
  (cd /mnt/st && timeout 1800 "$bin/$p") > "/out/selftests/$p.log" 2>&1 < /dev/null
  rc=$?
  awk -v p="$p" -v rc="$rc" '
    /^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
    /^ok [0-9]+/ { n++; print p ":" $2 " " ($0 ~ /# SKIP/ ? "SKIP" : "PASS") }
    /^not ok [0-9]+/ { n++; fails++; print p ":" $3 " FAIL" }
    END { if ((rc != 0 && rc != 4 && !fails) || n < plan) print p " FAIL status " rc ", " n " of " plan " points" }' \
    "/out/selftests/$p.log" >> /out/results.txt
  echo "selftests-run: $p exit status $rc"
done
umount /mnt/st
