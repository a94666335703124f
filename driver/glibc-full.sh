#!/bin/bash
# glibc's whole testsuite (its own `make check', every subdirectory)
# on the patched and the unpatched build of one glibc base and ABI, and
# the comparison of the two (driver/glibc-full.py).  Hours on two
# processors, longer than a working session, so outside make check
# (`make check-glibc-full'), and resumable: each run takes up where the
# last one for the same inputs stopped, even one killed with SIGKILL.
# make check's summary reports the result cached for its inputs, or how
# far an unfinished run got.
#
#   glibc-full.sh --baseline OBJ --patched OBJ --cache DIR --out RESULTS
#                 [--status] [--jobs N]
#
# OBJ is an object directory of driver/build-glibc.sh (a finished
# build: .osync-installed, .osync-key).  Nothing is written to it: each
# build directory (its source copy and its objects) is copied once per
# KEY to DIR/glibc-full/work/KEY, and make check runs there in a mount
# namespace of its own, in which the copy is mounted at the build's own
# path.  The paths the build recorded (in its Makefiles, dependency
# files and programs) therefore hold, while the project's builds, their
# test results and any build that another run makes meanwhile at that
# path stay as they are.  A stamp (work/KEY/copied) marks the copies
# complete; a later run reuses them, and a copy without the stamp
# (stopped while copying) is removed and made again, with the progress
# recorded for it.  The copies are removed at the end; the results
# (each tree's tests.sum and each subdirectory's subdir-tests.sum, the
# logs, the output of every test that did not pass, the retries) stay
# in DIR/glibc-full/BASE-ABI-KEY.
#
# KEY covers every input of the tests' results: both builds' keys
# (driver/build-glibc.sh: the source tree, compilers, options), the
# host's kernel, the environment the tests run in (user, processors,
# limits, and the fixed variables below), the subdirectories
# (GLIBC_FULL_SUBDIRS, below) and the protocol (how make check runs and
# how often a test is retried).  This script's text is not in it, so
# that a fix to its reporting keeps an hours-long result; a change to
# how the tests run changes the protocol line below.  A run for a KEY
# that has its result only reports.
#
# How each tree's make check runs, resumably.  glibc's top level runs
# `make check' as two passes over every subdirectory: the test programs
# are built (run-built-tests=no tests-summary=no tests), then run
# (run-built-tests=yes tests), each pass a sub-make `make -C SUBDIR
# subdir=SUBDIR ..=../ tests' with the variables of the build
# directory's Makefile (CC=$(TEST_CC), ..., objdir=).  Here each step
# below is one such make, with those same variables (read from the
# build directory's Makefile, not repeated here), and has a start stamp
# before it and a done stamp after it (work/KEY/stamps/TREE/):
#   1. testroot: the testroot install (OBJ/testroot.pristine) that the
#      top level makes before any subdirectory's tests run, after its
#      `others' barrier;
#   2. two steps per subdirectory, in the order of sorted-subdirs in
#      OBJ/sysd-sorted: the first pass in that subdirectory (its tests
#      built), then the second (its tests run), so that a session's end
#      in the run costs the run only; its subdir-tests.sum is kept as
#      sums/TREE/SUBDIR.sum;
#   3. final: the top level's own `make -k check', which finds every
#      subdirectory's tests up to date, runs the top-level tests
#      (installed headers, ...) and writes tests.sum (TREE.sum).
# A step with a start stamp and no done stamp was stopped by the end of
# a session.  Before it runs again, its test outputs (.out, .test-result)
# and every file of OBJ newer than its start stamp are removed: a
# compiler killed mid-write leaves a truncated object that make would
# take as up to date, and since the steps run one at a time, only the
# stopped step wrote those files, and running it again writes them
# again.  (The whole of OBJ, not only OBJ/SUBDIR: a subdirectory's make
# can write beside it, as into support/.)  A done stamp without the
# result it stands for (its .sum) is a corrupted state: the run stops
# and says how to start the KEY over.
#
# The baseline runs second, and only where it can matter: make check
# with subdirs= set to every subdirectory that holds a test without a
# PASS on the patched tree, and to the subdirectories the series
# changes (driver/glibc-tests.list); chosen once the patched tree is
# complete, and recorded (baseline-subdirs).  A test that passes on the
# patched tree needs no excuse from the baseline; one that fails, is
# UNSUPPORTED or is missing there is compared with the baseline's own
# result.  That halves the run (a whole make check of one tree is
# hours here) without weakening the comparison.
#
# The retry rule: a test that fails on the patched tree but not on the
# baseline runs again, three times on the baseline and three on the
# patched tree.  It is a regression unless the baseline also fails in
# one of its runs: a pass on the patched tree's second run does not
# excuse the first failure.  So does a test that passes on the baseline
# and not on the patched tree (UNSUPPORTED, say): lost, unless the
# baseline gives that same result in one of its runs, where both trees
# run under the same conditions.  The retries are one step (a stopped one
# runs again whole); the output kept for each test that did not pass
# is saved before them, so it is that of the counted run.
#
# GLIBC_FULL_SUBDIRS='assert ctype' restricts both trees to those
# subdirectories (make check with subdirs=), for a test of this script.
# It is part of KEY and of the inputs the report prints, and the judge
# never reports such a run as a PASS: at best it is a SKIP that says it
# is restricted.
#
# With --status, nothing runs: one line to RESULTS/optin/glibc-full.txt
# (and stdout), "PASS: ...", "FAIL: ..." or "SKIP: REASON" (for an
# unfinished run, how far it got), for make check's summary.
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

# sorted_subdirs OBJ: the subdirectories of a build, in the order of its
# make check.
sorted_subdirs ()
{
  local l
  l=$(sed -n 's/^sorted-subdirs := //p' "$1/sysd-sorted")
  [ -n "$l" ] || die "cannot read the subdirectories of $1 (sorted-subdirs in its sysd-sorted)"
  echo $l
}
# only LIST WANTED: the words of LIST that are in WANTED, in LIST's
# order.  Either may be separated by newlines as well as spaces.
only ()
{
  local d r= want
  want=" $(echo $2) "
  for d in $1; do
    case $want in *" $d "*) r+=" $d" ;; esac
  done
  echo $r
}
all=$(sorted_subdirs "$patched")
restrict=$(echo ${GLIBC_FULL_SUBDIRS:-})
if [ -n "$restrict" ]; then
  for d in $restrict; do
    case " $all " in
      *" $d "*) ;;
      *) die "GLIBC_FULL_SUBDIRS names '$d', which is not a subdirectory of glibc $base here; the subdirectories: $all" ;;
    esac
  done
  restrict=$(only "$all" "$restrict")
  scope="GLIBC_FULL_SUBDIRS=$restrict (restricted: a test of the driver, not the whole testsuite)"
  note "glibc-full: restricted by GLIBC_FULL_SUBDIRS to: $restrict"
else
  scope="all"
fi

# The environment of the tests: make runs with only these variables.
# TIMEOUTFACTOR gives each test ten times glibc's timeout: the run is
# niced below everything else on a shared machine, and a test killed
# for lack of processor time says nothing about the patch.
test_env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}"
          LANG=C.UTF-8 TIMEOUTFACTOR=10)
protocol="v3: each tree's make check as the top level does it, one step at a time, each nice -n 19 make -k -j$jobs with the variables of the build directory's Makefile: the testroot install; each subdirectory in sysd-sorted order, its tests built (run-built-tests=no tests-summary=no) in one step, run (run-built-tests=yes) in the next; the top-level make check; a stopped step's outputs and the files it wrote removed before it runs again; the patched tree first, then the baseline with subdirs= the patched tree's subdirectories with a test that did not pass and the series' own; retries: 3 on each tree"
# Which tests the retries run again.  Recorded in RES/retry-rule, apart
# from KEY: a result whose retries were made under another rule (or
# before the rule was recorded) has its retries step run again, alone,
# in fresh copies of the builds; the trees' results stay.  Under the
# first rule only a test that failed on the patched tree alone was
# retried; misc/tst-sched_setattr-thread then counted as lost on
# 2026-12-05: UNSUPPORTED on the patched tree, whose misc/ ran niced to
# 19 ("cannot set nice value to initial_nice_value"), PASS on the
# baseline, whose misc/ ran at niceness 0 after a renice from outside
# the run.  The retries run both trees in one step, at one niceness.
retry_rule="r2: three more runs on each tree, in one step, of each test that fails (FAIL, ERROR) on the patched tree and not on the baseline, and of each test that passes on the baseline and not on the patched tree"
inputs ()
{
  echo "baseline: $(cat "$baseline/.osync-key")"
  echo "patched: $(cat "$patched/.osync-key")"
  echo "kernel: $(uname -srvm)"
  echo "user: $(id -u)"
  echo "processors: $(nproc)"
  echo "limits: files $(ulimit -n), stack $(ulimit -s), core $(ulimit -c)"
  echo "environment: ${test_env[*]}"
  echo "subdirectories: $scope"
  echo "protocol: $protocol"
}
key=$(inputs | hash_stdin)
res=$cache/glibc-full/$base-$abi-$key
work=$cache/glibc-full/work
copy=$work/$key
stamps=$copy/stamps

judge=("$PYTHON" "$here/glibc-full.py" --results "$res"
       --known "$here/glibc-known-failures" --known "$here/glibc-full.known"
       --md "$out/glibc-full.md")
# A result whose retries were made under another rule: its retries again.
redo_retries=
if [ -f "$res/done" ] && [ "$(cat "$res/retry-rule" 2>/dev/null)" != "$retry_rule" ]; then
  [ $status != 1 ] \
    || optin_skip "glibc's whole testsuite ($base $abi): the result for these inputs (key $key) has its retries from an earlier rule of which tests run again; make check-glibc-full runs its retries again (minutes; the trees' results stay)"
  redo_retries=1
fi
# A run killed after its result was complete and before it removed its
# copies leaves them behind.
[ $status = 1 ] || [ ! -f "$res/done" ] || [ -n "$redo_retries" ] || rm -rf "${copy:?}"
[ -n "$redo_retries" ] || optin_cached "$res" $status "${judge[@]}"

# count_done TREE: how many of TREE's subdirectories are done.
count_done ()
{
  local f n=0
  for f in "$stamps/$1"/sub.*.done; do
    [ -e "$f" ] && n=$((n + 1))
  done
  echo $n
}
words () { wc -w < "$1"; }
if [ $status = 1 ]; then
  what="glibc's whole testsuite ($base $abi, patched against unpatched${restrict:+, restricted by GLIBC_FULL_SUBDIRS to $restrict})"
  if [ ! -f "$copy/copied" ]; then
    optin_skip "$what has no result for these inputs (key $key: these builds, kernel $(uname -r), this environment); make check-glibc-full runs it (hours, over several sessions if need be: it resumes)"
  fi
  if [ ! -f "$stamps/patched/step.final.done" ]; then
    optin_skip "$what is unfinished for these inputs (key $key): $(count_done patched) of $(words "$copy/subdirs-patched") subdirectories of the patched tree done; make check-glibc-full resumes it"
  fi
  if [ ! -f "$stamps/baseline/step.final.done" ]; then
    n=$(count_done baseline) m=$(words "$res/baseline-subdirs" 2>/dev/null || echo '?')
    optin_skip "$what is unfinished for these inputs (key $key): the patched tree done, $n of $m subdirectories of the baseline done; make check-glibc-full resumes it"
  fi
  optin_skip "$what is unfinished for these inputs (key $key): both trees done, the retries not; make check-glibc-full resumes it"
fi

command -v unshare >/dev/null || die "unshare is missing (apt-get install util-linux)"
[ "$(id -u)" = 0 ] || die "make check-glibc-full mounts the copies in a mount namespace of its own, which needs root"
mkdir -p "$res"
exec 9> "$res/lock"
# The lock stays held by every process of the run, so a make that a
# stopped run left behind keeps a second one from starting beside it.
flock -n 9 || die "another check-glibc-full for these inputs, or a make that a stopped one left running, holds $res/lock (fuser -v $res/lock shows which)"
mkdir -p "$work"
log=$res/run.log

# The copy of each build: everything but its staging root and the
# results of the project's own runs of glibc's tests (make would take an
# existing .out for this run's result).  Modification times are kept,
# so make finds the library up to date and builds only the tests.
copy_builds ()
{
  local v obj b k
  for v in baseline patched; do
    obj=${!v}
    b=$(dirname "$obj")
    k=$(cat "$obj/.osync-key")
    note "glibc-full: copying $b to $copy/$v"
    tar -C "$b" --exclude=./obj/root --exclude='./obj/*.out' \
        --exclude='./obj/*.test-result' --exclude='./obj/*.sum' \
        --exclude='./obj/testroot.*' -cf - . \
      | { mkdir -p "$copy/$v" && tar -C "$copy/$v" -xf -; } \
      || die "cannot copy $b to $copy/$v (is the disk full?)"
    [ "$(cat "$obj/.osync-key" 2>/dev/null)" = "$k" ] && [ -f "$obj/.osync-installed" ] \
      || die "$obj was rebuilt while it was being copied; run again"
  done
  only "$all" "${restrict:-$all}" > "$copy/subdirs-patched"
}
if [ -n "$redo_retries" ]; then
  # Both trees are done (their stamps stand for RES/TREE.sum, which the
  # checks below require); the outputs of the counted runs are kept.
  note "glibc-full: the result of key $key has its retries from an earlier rule; its retries again, in fresh copies (the trees' results stay)"
  rm -rf "${copy:?}"
  s=$SECONDS
  copy_builds
  mkdir -p "$stamps/patched" "$stamps/baseline"
  touch "$stamps/patched/step.final.done" "$stamps/baseline/step.final.done" "$res/outputs-kept"
  echo "copy - $((SECONDS - s))" >> "$res/steps"
  rm -f "$res/done"
  touch "$copy/copied"
elif [ ! -f "$copy/copied" ]; then
  # Copies without their stamp were stopped while copying; what an
  # earlier run recorded for them goes with them.
  [ ! -d "$copy" ] || note "glibc-full: removing the incomplete copies of an earlier run ($copy)"
  rm -rf "${copy:?}"
  find "$res" -mindepth 1 -maxdepth 1 ! -name lock -exec rm -rf {} +
  inputs > "$res/inputs"
  : > "$log"
  echo "start: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" > "$res/times"
  s=$SECONDS
  copy_builds
  echo "copy - $((SECONDS - s))" > "$res/steps"
  touch "$copy/copied"
else
  note "glibc-full: resuming the run of key $key ($(count_done patched) of $(words "$copy/subdirs-patched") subdirectories of the patched tree done; copies in $copy)"
fi

# A done stamp stands for a result: without it the state is corrupted
# (a result directory removed or edited by hand), and running on would
# judge tests that never ran.
[ -s "$res/inputs" ] && [ -s "$res/steps" ] \
  || die "corrupted state: the copies in $copy are complete but $res/inputs or $res/steps is missing; remove $copy and $res to run this key again from the start"
for v in patched baseline; do
  for f in "$stamps/$v"/sub.*.done; do
    [ -e "$f" ] || continue
    d=${f##*/sub.}
    d=${d%.done}
    [ -f "$res/sums/$v/$d.sum" ] \
      || die "corrupted state: $f says that the $v tree's $d/ is done, but its result $res/sums/$v/$d.sum is missing; remove $copy and $res to run this key again from the start"
  done
  [ ! -f "$stamps/$v/step.final.done" ] || [ -s "$res/$v.sum" ] \
    || die "corrupted state: $stamps/$v/step.final.done says that the $v tree is done, but $res/$v.sum is missing; remove $copy and $res to run this key again from the start"
done
[ ! -d "$stamps/baseline" ] || [ -s "$res/baseline-subdirs" ] \
  || die "corrupted state: the baseline has started ($stamps/baseline) but $res/baseline-subdirs is missing; remove $copy and $res to run this key again from the start"
echo "session: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >> "$res/times"
mkdir -p "$res/sums/patched" "$res/sums/baseline" "$res/logs/patched" "$res/logs/baseline"

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
    in_copy "$b" "$copy/$v" "$obj" "$@"
}

# cobj VARIANT: the object directory in VARIANT's copy.
cobj () { local obj=${!1}; echo "$copy/$1/${obj##*/}"; }

# load_make VARIANT: margs, the variables that the build directory's
# Makefile gives the top level's make check (CC=$(TEST_CC), ...,
# objdir=), read by running its check rule with MAKE set to a command
# that prints its arguments; and vsrc, the source directory.
load_make ()
{
  local v=$1 a
  in_copy "$v" make -s "MAKE=printf '%s\n'" check > "$copy/$v.check-args" \
    || die "cannot read the arguments of make check from ${!v}/Makefile (see $copy/$v.check-args)"
  margs=()
  while IFS= read -r a; do
    case $a in
      [A-Za-z_]*=*) margs+=("$a") ;;
    esac
  done < "$copy/$v.check-args"
  vsrc=$(sed -n 's/^srcdir = //p' "${!v}/Makefile")
  printf '%s\n' "${margs[@]}" | grep -q "^objdir=${!v}\$" && [ -n "$vsrc" ] \
    || die "${!v}/Makefile's make check gives no objdir=${!v} (see $copy/$v.check-args); has glibc's build-directory Makefile changed?"
}

# clean_stopped VARIANT STEP [STAMP]: remove what the step STEP wrote in
# VARIANT's tree before it was stopped (see the top of this file): the
# files newer than its start stamp (or STAMP).
clean_stopped ()
{
  local v=$1 name=$2 st=${3:-$stamps/$1/$2.start} o n what
  o=$(cobj "$v")
  {
    if [ "${name#sub.}" != "$name" ] && [ -d "$o/${name#sub.}" ]; then
      find "$o/${name#sub.}" -type f \( -name '*.out' -o -name '*.test-result' \) -print -delete
    fi
    find "$o" -newer "$st" ! -type d -print -delete
  } > "$res/logs/$v/$name.cleaned"
  n=$(wc -l < "$res/logs/$v/$name.cleaned")
  case $name in
    build.*) what="the build of ${name#build.}/'s tests" ;;
    sub.*) what="the run of ${name#sub.}/'s tests" ;;
    *) what="the step ${name#*.}" ;;
  esac
  note "glibc-full: $v: $what was stopped in an earlier run; removed its test outputs and the files it wrote, $n files (listed in $res/logs/$v/$name.cleaned); running it again"
  echo "$v: $what: stopped in an earlier run, $n files removed" >> "$log"
}

# step VARIANT STEP CMD...: run CMD as the step STEP of VARIANT's tree,
# unless its done stamp says it ran.
step ()
{
  local v=$1 name=$2 st=$stamps/$1/$2 s
  shift 2
  [ ! -f "$st.done" ] || return 0
  mkdir -p "$stamps/$v"
  [ ! -f "$st.start" ] || clean_stopped "$v" "$name"
  touch "$st.start"
  # A file written after this has a newer time than the stamp, although
  # the kernel's timestamps are coarser than a nanosecond.
  sleep 1
  s=$SECONDS
  "$@"
  echo "$v $name $((SECONDS - s))" >> "$res/steps"
  touch "$st.done"
}

# testroot VARIANT: the top level's testroot install, and the others
# barrier before it.
testroot ()
{
  local v=$1 rc=0 lg=$res/logs/$1/testroot.log
  note "glibc-full: $v: the testroot install (log: $lg)"
  in_copy "$v" nice -n 19 make -r -k -j"$jobs" -C "$vsrc" "${margs[@]}" \
    run-built-tests=yes "${!v}/testroot.pristine/install.stamp" > "$lg" 2>&1 || rc=$?
  echo "$v: testroot: exit status $rc" >> "$log"
  [ $rc = 0 ] || die "the testroot install of the $v tree failed; see $lg"
}

# build VARIANT SUBDIR TOP-ARGS...: the first pass of make check in
# SUBDIR, which builds its tests, as the top level's sub-make does it
# (TOP-ARGS: the baseline's subdirs=, which the top level would pass on).
build ()
{
  local v=$1 d=$2 rc=0 s=$SECONDS lg=$res/logs/$1/$2.build.log
  shift 2
  note "glibc-full: $v: make check in $d/, building its tests (log: $lg)"
  in_copy "$v" nice -n 19 make -r -k -j"$jobs" -C "$vsrc/$d" "${margs[@]}" "$@" \
    subdir="$d" ..=../ run-built-tests=no tests-summary=no tests > "$lg" 2>&1 || rc=$?
  echo "$v: $d: build: exit status $rc, $((SECONDS - s)) s" >> "$log"
}

# subdir VARIANT SUBDIR TOP-ARGS...: the second pass, which runs the
# tests; SUBDIR's subdir-tests.sum to RES/sums.
subdir ()
{
  local v=$1 d=$2 rc=0 s=$SECONDS lg=$res/logs/$1/$2.log sum
  shift 2
  note "glibc-full: $v: make check in $d/, running its tests (log: $lg)"
  in_copy "$v" nice -n 19 make -r -k -j"$jobs" -C "$vsrc/$d" "${margs[@]}" "$@" \
    subdir="$d" ..=../ run-built-tests=yes tests > "$lg" 2>&1 || rc=$?
  echo "$v: $d: run: exit status $rc, $((SECONDS - s)) s" >> "$log"
  sum=$(cobj "$v")/$d/subdir-tests.sum
  if [ -f "$sum" ]; then
    cp "$sum" "$res/sums/$v/$d.sum.new"
  else
    # The top-level make check reports this subdirectory as missing
    # its results; kept here as a comment, which no .sum reader counts.
    echo "# make check in $d/ wrote no subdir-tests.sum: exit status $rc; see logs/$v/$d.build.log and $d.log" \
      > "$res/sums/$v/$d.sum.new"
  fi
  mv "$res/sums/$v/$d.sum.new" "$res/sums/$v/$d.sum"
  done_subdirs=$((done_subdirs + 1))
  note "glibc-full: $v: $done_subdirs of $total_subdirs subdirectories done ($d: its tests run in $((SECONDS - s)) s, exit status $rc)"
}

# final VARIANT TOP-ARGS...: the top level's make check, which finds the
# subdirectories' tests up to date and writes tests.sum, to RES.
final ()
{
  local v=$1 s=$SECONDS rc=0 sum
  shift
  note "glibc-full: $v: the top-level make check $* (log: $res/check-$v.log)"
  in_copy "$v" nice -n 19 make -k -j"$jobs" check "$@" > "$res/check-$v.log" 2>&1 || rc=$?
  echo "$v: make check $* exit status $rc, $((SECONDS - s)) s" >> "$log"
  sum=$(cobj "$v")/tests.sum
  [ -s "$sum" ] \
    || die "make check on the $v tree wrote no tests.sum; see $res/check-$v.log"
  cp "$sum" "$res/$v.sum.new"
  mv "$res/$v.sum.new" "$res/$v.sum"
}

# tree VARIANT SUBDIRS TOP-ARGS...: make check of VARIANT's tree in
# SUBDIRS, resumed where an earlier run stopped.
tree ()
{
  local v=$1 list=$2 d
  shift 2
  [ ! -f "$stamps/$v/step.final.done" ] || return 0
  load_make "$v"
  total_subdirs=$(echo $list | wc -w)
  done_subdirs=$(count_done "$v")
  note "glibc-full: $v: $done_subdirs of $total_subdirs subdirectories done; make check in the others, one at a time"
  step "$v" step.testroot testroot "$v"
  for d in $list; do
    step "$v" "build.$d" build "$v" "$d" "$@"
    step "$v" "sub.$d" subdir "$v" "$d" "$@"
  done
  step "$v" step.final final "$v" "$@"
}

subdirs=$(cat "$copy/subdirs-patched")
top_args=()
[ -z "$restrict" ] || top_args=(subdirs="$restrict")
tree patched "$subdirs" "${top_args[@]}"

# The baseline's subdirectories: those of every test without a PASS on
# the patched tree (a test of the top directory has none) and those
# that driver/glibc-tests.list names as the series'.  A restricted run
# runs the baseline in the patched tree's subdirectories.
if [ ! -s "$res/baseline-subdirs" ]; then
  if [ -n "$restrict" ]; then
    chosen=$restrict
  else
    chosen=$( { awk -F': ' '$1 != "PASS" && $2 ~ /\// { sub(/\/.*/, "", $2); print $2 }' "$res/patched.sum"
                sed -n 's/^\([a-z][a-z0-9_-]*\) .*/\1/p' "$here/glibc-tests.list"; } | sort -u)
  fi
  chosen=$(only "$(sorted_subdirs "$baseline")" "$chosen")
  [ -n "$chosen" ] || die "no subdirectory for the baseline's run"
  echo "$chosen" > "$res/baseline-subdirs"
fi
subdirs=$(cat "$res/baseline-subdirs")
tree baseline "$subdirs" subdirs="$subdirs"

# The output of every test that did not pass or fail as expected, for
# the report's reasons: that of the counted run, before the retries
# (once: copies made again for the retries hold no outputs).
[ -f "$res/outputs-kept" ] || for v in baseline patched; do
  o=$(cobj "$v")
  rm -rf "$res/out/$v"
  for t in $(awk -F': ' '$1 != "PASS" && $1 != "XFAIL" && $1 != "UNSUPPORTED" { print $2 }' "$res/$v.sum"); do
    f=$o/$t.out
    [ -f "$f" ] || continue
    mkdir -p "$res/out/$v/$(dirname "$t")"
    tail -c 20000 "$f" > "$res/out/$v/$t.out"
  done
  # The reason of each UNSUPPORTED test: the last line of its output.
  for t in $(awk -F': ' '$1 == "UNSUPPORTED" { print $2 }' "$res/$v.sum"); do
    f=$o/$t.out
    printf '%s\t%s\n' "$t" "$( [ -f "$f" ] && grep -v '^$' "$f" | tail -n 1 | cut -c1-200)"
  done > "$res/unsupported-$v.txt"
done
touch "$res/outputs-kept"

# rerun VARIANT TEST: run TEST once more on VARIANT's copy, with the
# variables of its make check; prints its result (PASS, FAIL, ...).  A
# test of the top directory has no subdirectory to run in.
rerun ()
{
  local v=$1 t=$2
  in_copy "$v" sh -c 't=$1 src=$2
    shift 2
    rm -f "$t.out" "$t.test-result"
    sub=${t%%/*}
    if [ "$sub" = "$t" ]; then
      exec nice -n 19 make -r -C "$src" "$@" run-built-tests=yes "$PWD/$t.out"
    fi
    exec nice -n 19 make -r -C "$src/$sub" "$@" subdir="$sub" ..=../ \
      run-built-tests=yes "$PWD/$t.out"' \
    rerun "$t" "$vsrc" "${margs[@]}" >> "$res/retry.log" 2>&1 || true
  head -n 1 "$(cobj "$v")/$t.test-result" 2>/dev/null | cut -d: -f1 \
    | grep . || echo "NORESULT"
}
# retries: the protocol's retries, one step (a stopped one runs again
# whole, after the files it wrote in both trees are removed).
retries ()
{
  local t r v i
  : > "$res/retries"
  : > "$res/retry.log"
  for t in $(awk -F': ' '!/^[A-Z]+: / { next }
                        FNR == NR { base[$2] = $1; next }
                        ($1 == "FAIL" || $1 == "ERROR") && base[$2] != "FAIL" && base[$2] != "ERROR" { print $2 }
                        $1 != "PASS" && base[$2] == "PASS" { print $2 }' \
               "$res/baseline.sum" "$res/patched.sum" | sort -u); do
    note "glibc-full: $t failed on the patched tree only, or passed on the baseline only; three more runs on each tree"
    r=
    for v in baseline patched; do
      load_make "$v"
      for i in 1 2 3; do   # The protocol's retries.
        r+=" $v:$(rerun "$v" "$t")"
      done
    done
    echo "$t$r" >> "$res/retries"
  done
}
st=$stamps/retries/step.retries
if [ ! -f "$st.done" ] && [ -f "$st.start" ]; then
  for v in baseline patched; do
    clean_stopped "$v" step.retries "$st.start"
  done
  rm -f "$st.start"
fi
step retries step.retries retries

# The wall time: the sum of the steps that gave the result (the time of
# a step stopped by the end of a session and run again is not in it).
wall=$(awk '{ s += $NF } END { print s + 0 }' "$res/steps")
{ echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "sessions: $(grep -c '^session:' "$res/times")"
  echo "wall: $wall s"; } >> "$res/times"
du -sh "$copy"/baseline "$copy"/patched >> "$log" 2>/dev/null || true
echo "$retry_rule" > "$res/retry-rule"
touch "$res/done"
rm -rf "${copy:?}"
optin_judge "${judge[@]}"
