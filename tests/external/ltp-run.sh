#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: LTP's tests of ltp.list.
#   ltp-run.sh BUILD LIST TMPDEV LTPDEV
# BUILD: LTP built in place (driver/suites.sh); TMPDEV gets an ext4,
# mounted on /mnt/ltp, that is every test's TMPDIR; LTPDEV is the
# device of the tests that make their own file system.  Each selected
# line of BUILD/runtest/syscalls runs as LTP's runner would (sh -c, the
# test directories on PATH), its output to /out/ltp/TAG.log; exit
# status 0 is PASS, 32 (TCONF only) SKIP, anything else FAIL.  Writes
# /out/results.txt ("TAG RESULT exit status N[: WHY]", WHY the first
# TCONF, TFAIL or TBROK line of a test not passed).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail
build=$1 list=$2 tmpdev=$3 ltpdev=$4
mkfs.ext4 -q -F "$tmpdev" && mkdir -p /mnt/ltp && mount "$tmpdev" /mnt/ltp \
  || { echo "ltp-run: error: cannot make the ext4 of TMPDIR on $tmpdev"; exit 1; }
chmod 1777 /mnt/ltp
export TMPDIR=/mnt/ltp LTPROOT=$build LTP_DEV=$ltpdev LTP_SINGLE_FS_TYPE=ext4
# Under QEMU's emulation every test is slower than LTP's timeouts expect.
export LTP_TIMEOUT_MUL=10
for d in $(awk '$1 == "dir" { print $2 }' "$list"); do
  PATH=$build/testcases/kernel/syscalls/$d:$PATH
  for sub in "$build/testcases/kernel/syscalls/$d"/*/; do
    [ -d "$sub" ] && PATH=${sub%/}:$PATH
  done
done
export PATH
tags=$(awk '$1 == "tags" { print $2 }' "$list")
mkdir -p /out/ltp
: > /out/results.txt
grep -E "$tags" "$build/runtest/syscalls" | while read -r tag cmd; do
  t0=$(date +%s)
  (cd /mnt/ltp && timeout 1800 sh -c "$cmd") > "/out/ltp/$tag.log" 2>&1 < /dev/null
  rc=$?
  case $rc in
    0) r=PASS ;;
    32) r=SKIP ;;
    *) r=FAIL ;;
  esac
  # What the test said of a skip or a failure: its first TCONF, TFAIL
  # or TBROK line, for the table of differences (tally.py).
  why=
  [ $r = PASS ] || why=$(grep -m1 -E ': (TCONF|TFAIL|TBROK): ' "/out/ltp/$tag.log" | cut -c1-100)
  echo "$tag $r exit status $rc${why:+: $why}" >> /out/results.txt
  echo "ltp-run: $tag $r (exit status $rc, $(( $(date +%s) - t0 )) s)"
done
umount /mnt/ltp
