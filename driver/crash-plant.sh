#!/bin/bash
# make check-crash-plant: the power-cut harness (tests/osync.crash/
# crash.exp) on a kernel with a planted bug, the new kernel beside it as
# the yardstick of the same run.  The planted kernel is the new kernel's
# series (kernel/patches) with tests/crash/plant-skip-clean-flush.patch
# applied after it: its ext4 fsync skips the cache flush for a range
# that is clean in the page cache, so an O_RSYNC read of data written
# back (or written with O_DIRECT) and not flushed returns bytes a power
# cut takes back.  The harness must lose no record on the new kernel and
# must fail on the planted one, on those reads and on nothing else.  A
# kernel build (about 7 minutes, more under load) and a crash run of two
# kernels, so outside make check; make check's summary reports the
# result cached for its inputs.
#
#   crash-plant.sh --cache DIR --out RESULTS --kernel IMAGE --glibc OBJ
#                  [--states N] [--status] -- RUNTEST-ARGUMENTS...
#
# IMAGE is the new kernel (make kernel), OBJ the patched glibc build of
# the primary base for x86_64 (the workloads run under it); the
# RUNTEST-ARGUMENTS are those of make check's suite (driver/osync.sh
# make_suite_args).  The planted series is made at each run, in a
# directory of links to kernel/patches and the planted patch, and built
# by kernel/build-kernel.sh, which caches it by its inputs like the new
# kernel.  The run's results (osync.sum, osync.log, crash.md, the
# consoles) go to RESULTS/crash-plant and stay in
# DIR/crash-plant/KEY, KEY covering every input of the result: the new
# kernel's build (its cache directory's name is the hash of the
# tarball, the series, the configuration, the facts and the tools),
# the planted patch, the harness (tests/crash, tests/osync.crash,
# tests/lib, tests/qemu; not their READMEs), the glibc build's key, the
# ABIs, the number of crash states, QEMU's version and this script.  A
# second run for the same KEY only reports.  A run that runtest did not
# finish (exit status above 1) is not kept.
#
# With --status, nothing runs: one line to RESULTS/optin/crash-plant.txt
# (and stdout), "PASS: ...", "FAIL: ..." or "SKIP: REASON", for make
# check's summary.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"

cache= out= kernel= glibc= states=1000 status=0
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --glibc) glibc=$2; shift 2 ;;
    --states) states=$2; shift 2 ;;
    --status) status=1; shift ;;
    --) shift; break ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] && [ -n "$out" ] \
  || die "usage: $0 --cache DIR --out RESULTS --kernel IMAGE --glibc OBJ [--states N] [--status] -- RUNTEST-ARGUMENTS..."
case $states in
  ''|*[!0-9]*|0) die "--states must be a positive number, not '$states'" ;;
esac
plant=$top/tests/crash/plant-skip-clean-flush.patch
what="power cuts on a kernel that skips the flush of data written back and not flushed"
optin_start crash-plant "$out"

if [ -z "$kernel" ] || [ ! -f "$kernel" ]; then
  [ $status = 0 ] || optin_skip "$what: the new kernel is not built here (make kernel, then make check-crash-plant)"
  die "no new kernel '$kernel'; run make kernel"
fi
if [ -z "$glibc" ] || [ ! -s "$glibc/.osync-key" ]; then
  [ $status = 0 ] || optin_skip "$what: the patched glibc is not built here (make build-both, then make check-crash-plant)"
  die "'$glibc' is not a finished glibc build; run make build-both"
fi
[ -f "$plant" ] || die "$plant is missing"

key=$( (echo "states $states, ABIs ${ABIS:-}"
        basename "$(dirname "$kernel")"
        cat "$glibc/.osync-key" "$plant" "$0"
        find "$top/tests/crash" "$top/tests/osync.crash" "$top/tests/lib" \
             "$top/tests/qemu" -type f ! -name README | LC_ALL=C sort | xargs cat
        qemu-system-x86_64 --version 2>&1 || true) \
       | sha256sum | cut -c1-16)
kept=$cache/crash-plant/$key

# judge DIR --line FILE: the verdict of the run kept in DIR.
judge ()
{
  local dir=$1 line=$3 sum=$1/osync.sum bad caught new when
  when=$(cat "$dir/date" 2>/dev/null || echo "date unknown")
  bad=$(grep -E '^(FAIL|ERROR|UNRESOLVED|XPASS|KPASS): ' "$sum" || true)
  caught=$(sed -n 's/^PASS: crash, planted kernel: the harness catches the skipped flush: //p' "$sum")
  new=$(grep -c '^PASS: crash, new kernel: rsync-[^ ]* (rsync-data[^)]*): no acknowledged record lost' "$sum" || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $what (make check-crash-plant, $when): $(head -n 3 <<<"$bad" | tr '\n' ' ')(see $dir/osync.sum)" > "$line"
    cat "$line"
    return 1
  fi
  if [ -z "$caught" ] || [ "$new" -eq 0 ]; then
    echo "FAIL: $what (make check-crash-plant, $when): the run reported no planted catch or no O_RSYNC row of the new kernel (see $dir/osync.sum)" > "$line"
    cat "$line"
    return 1
  fi
  echo "PASS: $what (make check-crash-plant, $when, >= $states crash states a kernel): the harness catches it ($caught); the new kernel loses nothing ($(grep -c '^PASS: ' "$sum") passes)" > "$line"
  cat "$line"
}

optin_cached "$kept" $status judge "$kept"
[ $status = 0 ] \
  || optin_skip "$what: no result for the current inputs (make check-crash-plant: a kernel build, about 7 minutes, and a crash run of two kernels, about 10)"

: "${RUNTEST:?RUNTEST is not set (the Makefile sets it)}"
run=$out/crash-plant
rm -rf "$run"
mkdir -p "$run/series"
# The planted series: the new kernel's, and the plant after it.
for p in "$top"/kernel/patches/*.patch; do
  ln -s "$p" "$run/series/"
done
ln -s "$plant" "$run/series/9999-${plant##*/}"
image=$("$top/kernel/build-kernel.sh" --cache "$cache" \
          ${LINUX_SOURCE:+--source "$LINUX_SOURCE"} --patches "$run/series" \
        | tail -n 1) \
  || die "the planted kernel does not build (kernel/build-kernel.sh failed; does $plant still apply after kernel/patches?)"
[ -f "$image" ] || die "kernel/build-kernel.sh gave no planted kernel image"
echo "crash-plant.sh: planted kernel $image"

# make check's runtest arguments, with this run's results directory.
args=()
for a in "$@"; do
  case $a in RESULTS=*|KERNEL_IMAGE=*) ;; *) args+=("$a") ;; esac
done
rc=0
date -u '+%Y-%m-%d %H:%M UTC' > "$run/date"
(cd "$run" && env -u OSYNC_INNER -u OSYNC_ACTIVITY -u OSYNC_PLAN \
   "$RUNTEST" "${args[@]}" RESULTS="$run" KERNEL_IMAGE="$kernel" \
   CRASH_PLANT_KERNEL="$image" CRASH_STATES="$states" --outdir "$run" crash.exp \
   > "$run/runtest.out" 2>&1) || rc=$?
[ -f "$run/osync.sum" ] \
  || die "runtest of crash.exp (exit status $rc) wrote no osync.sum; see $run/runtest.out"
grep -E '^(PASS|FAIL|UNRESOLVED|ERROR|UNSUPPORTED): ' "$run/osync.sum" || true
[ "$rc" -le 1 ] \
  || die "runtest of crash.exp stopped with exit status $rc (not kept); see $run/osync.log"
rm -rf "$kept.tmp"
mkdir -p "$kept.tmp"
cp "$run"/osync.sum "$run"/osync.log "$run"/crash.md "$run"/date "$kept.tmp/"
cp "$run"/crash-*-console.log "$kept.tmp/" 2>/dev/null || true
touch "$kept.tmp/done"
rm -rf "$kept"
mv "$kept.tmp" "$kept"
optin_judge judge "$kept"
