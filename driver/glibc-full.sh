#!/bin/bash
# glibc's whole testsuite (its own `make check', every subdirectory)
# on the patched and the unpatched build of one glibc base and ABI, and
# the comparison of the two (driver/glibc-full.py).  Hours on two
# processors, so outside make check: `make check-glibc-full'; make
# check's summary reports the result cached for its inputs.
#
#   glibc-full.sh --baseline OBJ --patched OBJ --cache DIR --out RESULTS
#                 [--status] [--jobs N]
#
# OBJ is an object directory of driver/build-glibc.sh (a finished
# build: .osync-installed, .osync-key).  Nothing is written to it: each
# build directory (its source copy and its objects) is copied to
# DIR/glibc-full/work, and make check runs there in a mount namespace
# of its own, in which the copy is mounted at the build's own path.  The
# paths the build recorded (in its Makefiles, dependency files and
# programs) therefore hold, while the project's builds, their test
# results and any build that another run makes meanwhile at that path
# stay as they are.  The copies are removed at the end; the results
# (each tree's tests.sum, the output of every test that did not pass,
# the retries) stay in DIR/glibc-full/BASE-ABI-KEY.
#
# KEY covers every input of the tests' results: both builds' keys
# (driver/build-glibc.sh: the source tree, compilers, options), the
# host's kernel, the environment the tests run in (user, processors,
# limits, and the fixed variables below) and the protocol (how make
# check runs and how often a test is retried).  This script's text is
# not in it, so that a fix to its reporting keeps an hours-long result;
# a change to how the tests run changes the protocol line below.  A
# second run for the same KEY only reports.
#
# The baseline runs second, and only where it can matter: make check
# with subdirs= set to every subdirectory that holds a test without a
# PASS on the patched tree, and to the subdirectories the series
# changes (driver/glibc-tests.list).  A test that passes on the patched
# tree needs no excuse from the baseline; one that fails, is
# UNSUPPORTED or is missing there is compared with the baseline's own
# result.  That halves the run (a whole make check of one tree is
# hours here) without weakening the comparison.
#
# The retry rule: a test that fails on the patched tree but not on the
# baseline runs again, three times on the baseline and three on the
# patched tree.  It is a regression unless the baseline also fails in
# one of its runs: a pass on the patched tree's second run does not
# excuse the first failure.
#
# With --status, nothing runs: one line to RESULTS/optin/glibc-full.txt
# (and stdout), "PASS: ...", "FAIL: ..." or "SKIP: REASON", for make
# check's summary.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

baseline= patched= cache= out= status=0 jobs=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --patched) patched=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --status) status=1; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$baseline" ] && [ -n "$patched" ] && [ -n "$cache" ] && [ -n "$out" ] \
  || die "usage: $0 --baseline OBJ --patched OBJ --cache DIR --out RESULTS [--status]"
PYTHON=${PYTHON:-python3}
optin_start glibc-full "$out"

for obj in "$baseline" "$patched"; do
  if [ ! -f "$obj/.osync-installed" ] || [ ! -s "$obj/.osync-key" ]; then
    [ $status = 0 ] || optin_skip "glibc's whole testsuite: $obj is not a finished build (make build-both)"
    die "$obj is not a finished glibc build; run make build-both"
  fi
done
src=$(sed -n 's/^srcdir = //p' "$patched/Makefile")
base=$(sed -n 's/^#define VERSION "\(.*\)"/\1/p' "$src/version.h")
abi=$(sed -n 's/^config-machine = //p' "$patched/config.make")
[ -n "$base" ] && [ -n "$abi" ] || die "cannot read the version and machine of $patched"

# The environment of the tests: make runs with only these variables.
# TIMEOUTFACTOR gives each test ten times glibc's timeout: the run is
# niced below everything else on a shared machine, and a test killed
# for lack of processor time says nothing about the patch.
test_env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}"
          LANG=C.UTF-8 TIMEOUTFACTOR=10)
protocol="v2: the patched tree nice -n 19 make -k -j$jobs check; then the baseline the same with subdirs= the patched tree's subdirectories with a test that did not pass and the series' own; retries: 3 on each tree"
inputs ()
{
  echo "baseline: $(cat "$baseline/.osync-key")"
  echo "patched: $(cat "$patched/.osync-key")"
  echo "kernel: $(uname -srvm)"
  echo "user: $(id -u)"
  echo "processors: $(nproc)"
  echo "limits: files $(ulimit -n), stack $(ulimit -s), core $(ulimit -c)"
  echo "environment: ${test_env[*]}"
  echo "protocol: $protocol"
}
key=$(inputs | hash_stdin)
res=$cache/glibc-full/$base-$abi-$key

judge=("$PYTHON" "$here/glibc-full.py" --results "$res"
       --known "$here/glibc-full.known" --md "$out/glibc-full.md")
optin_cached "$res" $status "${judge[@]}"
if [ $status = 1 ]; then
  optin_skip "glibc's whole testsuite ($base $abi, patched against unpatched) has no result for these inputs (key $key: these builds, kernel $(uname -r), this environment); make check-glibc-full runs it (hours)"
fi

command -v unshare >/dev/null || die "unshare is missing (apt-get install util-linux)"
[ "$(id -u)" = 0 ] || die "make check-glibc-full mounts the copies in a mount namespace of its own, which needs root"
mkdir -p "$res"
exec 9> "$res/lock"
flock -n 9 || die "another check-glibc-full is running for these inputs ($res/lock)"
work=$cache/glibc-full/work
mkdir -p "$work"
# Earlier work copies of this key, from a run that was stopped.
rm -rf "$work/$key"
mkdir -p "$work/$key"
inputs > "$res/inputs"
log=$res/run.log
: > "$log"
t0=$(date +%s)
echo "start: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" > "$res/times"

# The copy of each build: everything but its staging root and the
# results of the project's own runs of glibc's tests (make would take an
# existing .out for this run's result).  Modification times are kept,
# so make finds the library up to date and builds only the tests.
for v in baseline patched; do
  obj=${!v}
  b=$(dirname "$obj")
  k=$(cat "$obj/.osync-key")
  note "glibc-full: copying $b to $work/$key/$v"
  tar -C "$b" --exclude=./obj/root --exclude='./obj/*.out' \
      --exclude='./obj/*.test-result' --exclude='./obj/*.sum' \
      --exclude='./obj/testroot.*' -cf - . \
    | { mkdir -p "$work/$key/$v" && tar -C "$work/$key/$v" -xf -; } \
    || die "cannot copy $b to $work/$key/$v (is the disk full?)"
  [ "$(cat "$obj/.osync-key" 2>/dev/null)" = "$k" ] && [ -f "$obj/.osync-installed" ] \
    || die "$obj was rebuilt while it was being copied; run again"
done

# in_copy VARIANT CMD...: run CMD in the object directory of VARIANT's
# copy, in a mount namespace in which the copy is at the build's own
# path: a tmpfs over the build directories' parent hides the others,
# so a path that leads out of the copy fails instead of reading the
# project's build.
in_copy ()
{
  local v=$1 obj b; shift
  obj=${!v}
  b=$(dirname "$obj")
  unshare -m --propagation private env -i "${test_env[@]}" \
    bash -c 'set -e
             mount -t tmpfs osync-glibc-full "$(dirname "$1")"
             mkdir "$1"
             mount --bind "$2" "$1"
             cd "$3"
             shift 3
             exec "$@"' \
    in_copy "$b" "$work/$key/$v" "$obj" "$@"
}

# check VARIANT MAKE-ARGUMENTS...: make check on VARIANT's copy, with
# $jobs jobs, below every other process; its tests.sum to RES.
check ()
{
  local v=$1 s=$SECONDS rc=0 sum
  shift
  note "glibc-full: make check $* on the $v tree (log: $res/check-$v.log)"
  in_copy "$v" nice -n 19 make -k -j"$jobs" check "$@" > "$res/check-$v.log" 2>&1 || rc=$?
  echo "$v: make check $* exit status $rc, $((SECONDS - s)) s" >> "$log"
  sum=$work/$key/$v/obj/tests.sum
  [ -s "$sum" ] \
    || die "make check on the $v tree wrote no tests.sum; see $res/check-$v.log"
  cp "$sum" "$res/$v.sum"
}
check patched
# The baseline's subdirectories: those of every test without a PASS on
# the patched tree (a test of the top directory has none) and those
# that driver/glibc-tests.list names as the series'.
subdirs=$( { awk -F': ' '$1 != "PASS" && $2 ~ /\// { sub(/\/.*/, "", $2); print $2 }' "$res/patched.sum"
             sed -n 's/^\([a-z][a-z0-9_-]*\) .*/\1/p' "$here/glibc-tests.list"; } | sort -u)
[ -n "$subdirs" ] || die "no subdirectory for the baseline's run"
echo $subdirs > "$res/baseline-subdirs"
check baseline subdirs="$(echo $subdirs)"

# rerun VARIANT TEST: run TEST once more on VARIANT's copy; prints its
# result (PASS, FAIL, ...).  A test of the top directory has no
# subdirectory to run in.
rerun ()
{
  local v=$1 t=$2
  in_copy "$v" sh -c 'rm -f "$1.out" "$1.test-result"
    sub=${1%%/*}
    if [ "$sub" = "$1" ]; then
      exec nice -n 19 make run-built-tests=yes "$PWD/$1.out"
    fi
    exec nice -n 19 make -r -C "$(sed -n "s/^srcdir = //p" Makefile)/$sub" \
      objdir="$PWD" subdir="$sub" ..=../ run-built-tests=yes "$PWD/$1.out"' \
    rerun "$t" >> "$res/retry.log" 2>&1 || true
  head -n 1 "$work/$key/$v/obj/$t.test-result" 2>/dev/null | cut -d: -f1 \
    | grep . || echo "NORESULT"
}
: > "$res/retries"
: > "$res/retry.log"
for t in $(awk -F': ' '$1 == "FAIL" || $1 == "ERROR" { print $2 }' "$res/patched.sum" | sort -u); do
  if grep -qxF "FAIL: $t" "$res/baseline.sum" || grep -qxF "ERROR: $t" "$res/baseline.sum"; then
    continue
  fi
  note "glibc-full: $t failed on the patched tree only; three more runs on each tree"
  r=
  for v in baseline patched; do
    for i in 1 2 3; do   # The protocol's retries.
      r+=" $v:$(rerun "$v" "$t")"
    done
  done
  echo "$t$r" >> "$res/retries"
done
# The output of every test that did not pass or fail as expected, for
# the report's reasons.
for v in baseline patched; do
  for t in $(awk -F': ' '$1 != "PASS" && $1 != "XFAIL" && $1 != "UNSUPPORTED" { print $2 }' "$res/$v.sum"); do
    f=$work/$key/$v/obj/$t.out
    [ -f "$f" ] || continue
    mkdir -p "$res/out/$v/$(dirname "$t")"
    tail -c 20000 "$f" > "$res/out/$v/$t.out"
  done
  # The reason of each UNSUPPORTED test: the last line of its output.
  for t in $(awk -F': ' '$1 == "UNSUPPORTED" { print $2 }' "$res/$v.sum"); do
    f=$work/$key/$v/obj/$t.out
    printf '%s\t%s\n' "$t" "$( [ -f "$f" ] && grep -v '^$' "$f" | tail -n 1 | cut -c1-200)"
  done > "$res/unsupported-$v.txt"
done
t1=$(date +%s)
{ echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "wall: $((t1 - t0)) s"; } >> "$res/times"
du -sh "$work/$key"/* >> "$log" 2>/dev/null || true
rm -rf "${work:?}/$key"
touch "$res/done"
optin_judge "${judge[@]}"
