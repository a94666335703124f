#!/bin/bash
# make check-debug-kernel: the series' own guest tests on a debug build
# of the new kernel: kernel/osync.config with kernel/debug.config after
# it (lockdep, KASAN, DEBUG_ATOMIC_SLEEP), built by kernel/build-kernel.sh
# --debug.  The groups that boot the new kernel run with it in place
# (tests/osync.matrix: matrix.exp, filesystems.exp, fuse.exp; and
# tests/osync.crash/crash.exp), on the processors each gives its guests
# (two, but one for matrix.exp's grid), and must pass as they do on the
# new kernel; then every console of the debug kernel must name its
# release ("-osync-debug") and hold no report of lockdep, KASAN, a sleep
# in atomic context, a BUG, a WARNING or an oops, and init's report
# after the programs must say that the kernel is untainted and lockdep
# still on (the console's "quiet" level hides a WARNING and a lockdep
# report, not their marks).  A kernel build (about 10 minutes) and the
# groups' runs, slower than usual under KASAN and lockdep, so outside
# make check; make check's summary reports the result cached for its
# inputs.
#
#   debug-kernel.sh --cache DIR --out RESULTS --kernel IMAGE --glibc OBJ
#                   [--status] -- RUNTEST-ARGUMENTS...
#
# IMAGE is the new kernel (make kernel), OBJ the patched glibc build of
# the primary base for x86_64; the RUNTEST-ARGUMENTS are those of make
# check's suite (driver/osync.sh make_suite_args).  The run's results
# (osync.sum, osync.log, the consoles) go to RESULTS/debug-kernel and
# stay in DIR/debug-kernel/KEY, KEY covering every input: the new
# kernel's build (its cache directory's name hashes the tarball, the
# series, the configuration, the facts, build-kernel.sh and the tools)
# and kernel/debug.config, which the debug kernel is built from; the
# tests (tests/osync.matrix, tests/osync.crash, tests/crash, tests/fuse,
# tests/lib, tests/qemu; not their READMEs, nor the crash harness's
# planted kernel patch); the glibc build's key, QEMU's version and this
# script.  A second run for the same KEY only reports.  A run that
# runtest did not finish (exit status above 1) is not kept.
#
# With --status, nothing runs: one line to RESULTS/optin/debug-kernel.txt
# (and stdout), "PASS: ...", "FAIL: ..." or "SKIP: REASON", for make
# check's summary.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"

cache= out= kernel= glibc= status=0
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --glibc) glibc=$2; shift 2 ;;
    --status) status=1; shift ;;
    --) shift; break ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] && [ -n "$out" ] \
  || die "usage: $0 --cache DIR --out RESULTS --kernel IMAGE --glibc OBJ [--status] -- RUNTEST-ARGUMENTS..."
groups="matrix.exp filesystems.exp fuse.exp crash.exp"
consoles="guest filesystems fuse crash"
what="the series' guest tests on a kernel with lockdep, KASAN and DEBUG_ATOMIC_SLEEP"
optin_start debug-kernel "$out"

if [ -z "$kernel" ] || [ ! -f "$kernel" ]; then
  [ $status = 0 ] || optin_skip "$what: the new kernel is not built here (make kernel, then make check-debug-kernel)"
  die "no new kernel '$kernel'; run make kernel"
fi
if [ -z "$glibc" ] || [ ! -s "$glibc/.osync-key" ]; then
  [ $status = 0 ] || optin_skip "$what: the patched glibc is not built here (make build-both, then make check-debug-kernel)"
  die "'$glibc' is not a finished glibc build; run make build-both"
fi
debugconf=$top/kernel/debug.config
[ -f "$debugconf" ] || die "$debugconf is missing"
key=$( (basename "$(dirname "$kernel")"
        cat "$debugconf" "$glibc/.osync-key" "$0"
        find "$top/tests/osync.matrix" "$top/tests/osync.crash" "$top/tests/crash" \
             "$top/tests/fuse" "$top/tests/lib" "$top/tests/qemu" -type f ! -name README ! -name '*.patch' \
          | LC_ALL=C sort | xargs cat
        qemu-system-x86_64 --version 2>&1 || true) \
       | sha256sum | cut -c1-16)
kept=$cache/debug-kernel/$key

# judge DIR --line FILE: the verdict of the run kept in DIR.
judge ()
{
  local dir=$1 line=$3 sum=$1/osync.sum bad when c log release splat
  when=$(cat "$dir/date" 2>/dev/null || echo "date unknown")
  bad=$(grep -E '^(FAIL|ERROR|UNRESOLVED|XPASS|KPASS): ' "$sum" || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $what (make check-debug-kernel, $when): $(head -n 3 <<<"$bad" | tr '\n' ' ')(see $dir/osync.sum)" > "$line"
    cat "$line"
    return 1
  fi
  for c in $consoles; do
    log=$dir/$c-new-console.log
    release=$(sed -n 's/^.*osync-guest: kernel \([^ ]*\) .*$/\1/p' "$log" 2>/dev/null | head -n 1)
    case $release in
      *-osync-debug|*-osync-debug+) ;;
      *)
        echo "FAIL: $what (make check-debug-kernel, $when): the $c guest's console ($log) names the kernel '${release:-none}', not the debug kernel" > "$line"
        cat "$line"
        return 1 ;;
    esac
    # init's report of the kernel's state after the programs
    # (tests/qemu/init.c): no taint, lockdep still on.
    if ! grep -aqx 'osync-guest: tainted 0' "$log" || ! grep -aqx 'osync-guest: debug_locks 1' "$log"; then
      echo "FAIL: $what (make check-debug-kernel, $when): the kernel of $c-new-console.log ended $(grep -a -E '^osync-guest: (tainted|debug_locks) ' "$log" | tr '\n' ' ')(want tainted 0 and debug_locks 1; its log follows in $log)" > "$line"
      cat "$line"
      return 1
    fi
    splat=$(grep -a -m 3 -E 'BUG:|WARNING:|INFO: (possible|task|trying)|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|KASAN:|sleeping function called from invalid context|scheduling while atomic|Oops|general protection fault|Kernel panic|Call Trace:' "$log" || true)
    if [ -n "$splat" ]; then
      echo "FAIL: $what (make check-debug-kernel, $when): the kernel reported, in the $c guest: $(tr '\n' ' ' <<<"$splat")(see $log)" > "$line"
      cat "$line"
      return 1
    fi
  done
  echo "PASS: $what (make check-debug-kernel, $when, $release, two processors but for matrix.exp's grid): $(grep -c '^PASS: ' "$sum") passes in $groups, and the kernel reported nothing" > "$line"
  cat "$line"
}

optin_cached "$kept" $status judge "$kept"
[ $status = 0 ] \
  || optin_skip "$what: no result for the current inputs (make check-debug-kernel: a kernel build, about 10 minutes, and four test groups, about 15)"

image=$("$top/kernel/build-kernel.sh" --cache "$cache" --debug \
          ${LINUX_SOURCE:+--source "$LINUX_SOURCE"} | tail -n 1) \
  || die "the debug kernel does not build (kernel/build-kernel.sh --debug failed; see above)"
[ -f "$image" ] || die "kernel/build-kernel.sh --debug gave no kernel image"
echo "debug-kernel.sh: debug kernel $image"

: "${RUNTEST:?RUNTEST is not set (the Makefile sets it)}"
run=$out/debug-kernel
rm -rf "$run"
mkdir -p "$run"
# make check's runtest arguments, with this run's results directory and
# the debug kernel as the new kernel.
args=()
for a in "$@"; do
  case $a in RESULTS=*|KERNEL_IMAGE=*) ;; *) args+=("$a") ;; esac
done
rc=0
date -u '+%Y-%m-%d %H:%M UTC' > "$run/date"
# shellcheck disable=SC2086 # the groups are words
(cd "$run" && env -u OSYNC_INNER -u OSYNC_ACTIVITY -u OSYNC_PLAN \
   "$RUNTEST" "${args[@]}" RESULTS="$run" KERNEL_IMAGE="$image" \
   --outdir "$run" $groups > "$run/runtest.out" 2>&1) || rc=$?
[ -f "$run/osync.sum" ] \
  || die "runtest (exit status $rc) wrote no osync.sum; see $run/runtest.out"
grep -cE '^PASS: ' "$run/osync.sum" | sed 's/^/debug-kernel.sh: passes: /'
grep -E '^(FAIL|UNRESOLVED|ERROR): ' "$run/osync.sum" || true
[ "$rc" -le 1 ] \
  || die "runtest stopped with exit status $rc (not kept); see $run/osync.log"
rm -rf "$kept.tmp"
mkdir -p "$kept.tmp"
cp "$run"/osync.sum "$run"/osync.log "$run"/date "$kept.tmp/"
cp "$run"/*-new-console.log "$kept.tmp/" 2>/dev/null || true
touch "$kept.tmp/done"
rm -rf "$kept"
mv "$kept.tmp" "$kept"
optin_judge judge "$kept"
