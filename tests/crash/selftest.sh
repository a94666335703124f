#!/bin/bash
# Self-test of crashcheck.py on synthetic dm-log-writes logs (mklog.py):
# the correct patterns must pass, and each planted bug must make it
# exit non-zero with a message that names the problem.  No guest: a
# real ext4 image, e2fsck and debugfs, as for a recorded log.
# Prints "PASS: crash self-test: WHAT" / "FAIL: crash self-test: WHAT"
# (tests/osync.crash/crash.exp reads them); exits 1 if any failed.
#
#   selftest.sh [--tmp DIR]
#
# Cost: about 20 cases of about 12 crash states each, 10 to 25 s on a
# 2-core machine.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tmp=${TMPDIR:-/tmp}/osync-crash-selftest.$$
while [ $# -gt 0 ]; do
  case $1 in
    --tmp) tmp=$2; shift 2 ;;
    *) echo "selftest.sh: unknown argument '$1'; usage: $0 [--tmp DIR]" >&2
       exit 2 ;;
  esac
done
failed=0
pass () { echo "PASS: crash self-test: $*"; }
fail () { echo "FAIL: crash self-test: $*"; failed=1; }
rm -rf "$tmp"
mkdir -p "$tmp" || { echo "FAIL: crash self-test: cannot create $tmp"; exit 1; }
n=0

# check PATTERN KIND [MKLOG-OPTION...] [-- CRASHCHECK-OPTION...]: a log
# of PATTERN checked as KIND; its status in $rc, its output in $out.
check ()
{
  local pattern=$1 kind=$2 mk=() cc=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do mk+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  cc=("$@")
  n=$((n + 1))
  local d=$tmp/$n label=$pattern.synthetic.none
  if ! out=$("$here/mklog.py" --dir "$d" --label "$label" --pattern "$pattern" \
               --records 2 "${mk[@]}" 2>&1); then
    rc=99
    out="mklog.py failed: $out"
    return
  fi
  echo "$label $kind" > "$d/expect"
  out=$("$here/crashcheck.py" --log "$d/log.img" --base "$d/base.img" \
          --final "$d/final.img" --expect "$d/expect" --states 1 \
          --kernel synthetic --table "$d/table.md" --records 2 --work "$d" \
          "${cc[@]}" 2>&1)
  rc=$?
  rm -f "$d"/*.img
}

# must_pass WHAT PATTERN: the last check exited 0 and printed PATTERN.
must_pass ()
{
  if [ $rc -ne 0 ]; then
    fail "$1 (exit $rc: $(grep -E '^(FAIL|mklog)' <<<"$out" | tr '\n' ' '))"
  elif ! grep -Eq -- "$2" <<<"$out"; then
    fail "$1 (exit 0, but no /$2/ in: $(tr '\n' ' ' <<<"$out"))"
  else
    pass "$1"
  fi
}

# must_fail WHAT PATTERN: the last check exited non-zero and printed
# PATTERN on a FAIL line.
must_fail ()
{
  if [ $rc -eq 0 ]; then
    fail "$1 (crashcheck.py exited 0: $(grep -E '^PASS' <<<"$out" | tr '\n' ' '))"
  elif [ $rc -eq 99 ] || ! grep -Eq -- "^FAIL: .*$2" <<<"$out"; then
    fail "$1 (exit $rc, but no FAIL line with /$2/ in: $(tr '\n' ' ' <<<"$out"))"
  else
    pass "$1"
  fi
}

# The correct patterns.
check sync data
must_pass "a write flushed before its acknowledgement loses nothing" \
  'PASS: .*sync\.synthetic\.none \(data\): no acknowledged record lost'
check fua data
must_pass "a FUA write before its acknowledgement loses nothing" \
  'PASS: .*fua\.synthetic\.none \(data\): no acknowledged record lost'
check sync data+mtime
must_pass "a flushed write whose mtime is on disk passes data+mtime" \
  'PASS: .*\(data\+mtime\): no acknowledged record lost'
check rsync-ok rsync-data
must_pass "an O_RSYNC read that flushes before it returns loses nothing" \
  'PASS: .*\(rsync-data\): no acknowledged record lost'
check rsync-ok rsync-data+atime
must_pass "an O_RSYNC|O_SYNC read whose atime is on disk passes" \
  'PASS: .*\(rsync-data\+atime\): no acknowledged record lost'
check unflushed control
must_pass "plain writes (the control) lose acknowledged writes" \
  'PASS: .*\(control, .*\) loses acknowledged writes in [1-9][0-9]* crash states'
check unflushed volatile
must_pass "writes not flushed in their window (volatile) lose acknowledged writes" \
  'PASS: .*\(volatile, .*\) loses acknowledged writes in [1-9][0-9]* crash states'
check rsync-none rsync-unsynced
must_pass "O_RSYNC reads on a kernel without O_RSYNC lose written-back and dirty records" \
  'PASS: .*\(rsync-unsynced\): without O_RSYNC .*records written back and not flushed \([1-9][0-9]*\) and dirty ones \([1-9][0-9]*\)'

# The two bugs a cut after the mark (and not at it) cannot see.
check late data
must_fail "planted: an acknowledgement before its flush completed (A W F) is caught" \
  'late\.synthetic\.none \(data\): [0-9]+ acknowledged records lost'
check rsync-skipflush rsync-data
must_fail "planted: an O_RSYNC read that skips the flush of a written-back record is caught" \
  'rsync-skipflush\.synthetic\.none \(rsync-data\): [0-9]+ acknowledged records lost'

# The model of a volatile write cache, and the losses it predicts.
check unflushed volatile -- --plant all-durable
must_fail "planted: a replayer that makes every write of an epoch durable is caught by the volatile workload" \
  '\(volatile, .*\) lost nothing .*the harness is blind'
check sync control
must_fail "a control that loses nothing fails (the harness would be blind)" \
  '\(control, .*\) lost nothing'
check sync volatile
must_fail "a volatile workload that loses nothing fails" \
  '\(volatile, .*\) lost nothing'
check rsync-ok rsync-unsynced
must_fail "O_RSYNC reads that lose nothing on a kernel without O_RSYNC fail" \
  '\(rsync-unsynced\): the kernel has no O_RSYNC, so the model predicts'

# The replay against the disk the guest left.
check sync data --misplace
must_fail "planted: a log whose write is one block off from the final disk is caught" \
  'a replay of the whole log .* differs from the final disk image'

# Times: debugfs output the checker cannot read, and times the disk lacks.
check sync data+mtime --inode-size 128
must_fail "planted: an mtime debugfs shows without nanoseconds (128-byte inodes) fails, not skipped" \
  'shows no mtime this checker can read'
check sync data --inode-size 128
must_fail "planted: the O_DSYNC rows' mtime unreadable fails, not skipped" \
  'shows no mtime this checker can read'
check rsync-ok rsync-data+atime --inode-size 128
must_fail "planted: an atime debugfs shows without nanoseconds fails, not skipped" \
  'shows no atime this checker can read'
check sync data+mtime --time-ahead
must_fail "planted: an mtime on disk older than the acknowledged write's is caught" \
  'mtime .* on disk is older than the acknowledged write'
check rsync-ok rsync-data+atime --time-ahead
must_fail "planted: an atime on disk older than the read's is caught" \
  'atime .* on disk is older than the one the O_RSYNC\|O_SYNC read set'

# Bad input.
check sync no-such-kind
must_fail "an unknown kind in the expectations fails" 'unknown kinds'

rm -rf "$tmp"
exit $failed
