#!/bin/bash
# Run glibc's own checks that this project's change can affect, on one
# built tree, and write one line per test ("PASS: name", "FAIL: name",
# "UNSUPPORTED: name", ...) to OUT.  The results are cached in the build
# directory, keyed by this script, the test list, and what else decides
# them: the running kernel, the user, the descriptors it inherited,
# seccomp, /dev/shm and, with --baseline, the baseline's results; so
# a warm run on the same machine costs nothing, and another kernel or
# environment runs them again.
#
#   glibc-tests.sh --build OBJ-DIR --out FILE \
#                  [--baseline BASELINE-RESULTS] [--print-key]
#
# --print-key prints the text the cache key is the hash of, and stops.
#
# OBJ-DIR is a glibc object directory (driver/build-glibc.sh prints
# it); the source tree is the one it was configured from.
#
# With --baseline, a test that fails here but not in the baseline's
# results is run once more: if it passes then, it is recorded as
# "FLAKY: name" (a pass that failed once), so that a test that fails
# now and then on a busy machine is told apart from a failure the
# patch causes; one that fails again stays a failure.
#
# What runs:
#   - the tests driver/glibc-tests.list names: whole subdirectories
#     (io, with the check-installed-headers tests for <fcntl.h>, C and
#     C++) or the tests of a subdirectory that use what the series
#     changes;
#   - conform for <fcntl.h> in every standard that has it;
#   - check-abi for every library.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build= out= baseline= print_key=
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) baseline=$2; shift 2 ;;
    --print-key) print_key=1; out=-; shift ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[ -n "$build" ] && [ -n "$out" ] || die "usage: $0 --build OBJ-DIR --out FILE [--baseline FILE]"
[ -f "$build/.osync-installed" ] || die "$build is not a finished build; run make first"
src=$(sed -n 's/^srcdir = //p' "$build/Makefile")
[ -f "$src/version.h" ] || die "$build/Makefile names no glibc source tree (srcdir = '$src'); build it again"

list="$(dirname "$0")/glibc-tests.list"
[ -f "$list" ] || die "$list is missing; restore it from git"
# The i386 tree is configured with --host and --build, which glibc takes
# for a cross build whose tests it would only compile; this machine runs
# them.
run=run-built-tests=yes
# fcntl.h is not part of the ISO C standards.
standards="POSIX XPG4 XPG42 UNIX98 XOPEN2K POSIX2008 XOPEN2K8"

# What the results depend on besides the build: tst-open-osync's
# outcome depends on the kernel (O_RSYNC, openat2), the user and
# seccomp; glibc's tests on /dev/shm (shm_open, semaphores), the user
# and the descriptors make check inherited (io/tst-close_range and
# io/tst-closefrom close them, driver/glibc-known-failures); and with
# --baseline, which failures are run again (FLAKY) on the baseline's
# results.
inherited=
for f in /proc/$$/fd/*; do
  case ${f##*/} in 0|1|2|255) continue ;; esac
  # The listing's own descriptor is closed by now.
  [ -e "$f" ] && inherited+=" ${f##*/}"
done
key ()
{
  cat "$0" "$list"
  echo "standards: $standards"
  echo "kernel: $(uname -srvm)"
  echo "uid: $(id -u)"
  echo "inherited descriptors:${inherited:- none}"
  grep -E '^(Seccomp|Seccomp_filters|NoNewPrivs):' /proc/self/status \
    || echo "seccomp: no status"
  echo "seccomp actions: $(cat /proc/sys/kernel/seccomp/actions_avail 2>/dev/null || echo none)"
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    echo "/dev/shm: $(stat -f -c %T /dev/shm), writable"
  else
    echo "/dev/shm: missing or not writable"
  fi
  if [ -n "$baseline" ]; then
    [ -f "$baseline" ] || die "no baseline results $baseline; run the baseline's tests first"
    echo "baseline: $(hash_stdin < "$baseline")"
  fi
}
if [ -n "$print_key" ]; then
  key
  exit 0
fi
stamp="$build/osync-tests-$(key | hash_stdin).sum"
if [ -f "$stamp" ]; then
  cp "$stamp" "$out"
  exit 0
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
cd "$build"
# A machine that cannot execute programs of this ABI (a kernel without
# 32-bit emulation) cannot run glibc's tests: every one would fail on
# both trees alike.  Say so, once, as UNSUPPORTED with the reason, and
# still run the checks that only compile (conform, check-abi).
noexec=
if ! why=$(./elf/ld.so --version 2>&1 >/dev/null); then
  noexec=${why##*: }
  noexec=${noexec:-the dynamic loader does not start}
fi
if [ -n "$noexec" ]; then
  note "glibc tests: $build: this machine cannot execute its programs ($noexec); only conform and check-abi"
  echo "UNSUPPORTED: run-tests (this machine cannot execute these programs: $noexec)" >> "$results"
fi

# The names of the tests of subdirectory $1 (not those of the test
# root), one a line.
printmk=$(mktemp)
trap 'rm -f "$results" "$printmk"' EXIT
printf 'osync-print-tests:\n\t@echo $(filter-out $(tests-container),$(tests) $(tests-internal))\n' > "$printmk"
tests_of() {
  make -s -r -C "$src/$1" objdir="$build" subdir="$1" ..=../ \
    -f Makefile -f "$printmk" osync-print-tests 2>> "check-$1.log" \
    | tr ' ' '\n' | grep -v '^$' \
    || die "cannot list the tests of glibc's $1; see $build/check-$1.log"
}

while read -r d patterns; do
  case $d in ''|'#'*) continue ;; esac
  [ -n "$noexec" ] && continue
  [ -n "$patterns" ] || die "$list: '$d' names no test; give * or patterns"
  rm -f "check-$d.log"
  if [ "$patterns" = '*' ]; then
    note "glibc tests: $d ($build)"
    # Failures are in the .sum file; make's own status only says that
    # some test failed.  A .sum of an earlier run must not stand in for
    # this one's.
    rm -f "$d/subdir-tests.sum"
    make -k -j"$(nproc)" $run subdirs="$d" check > "check-$d.log" 2>&1 || true
    [ -f "$d/subdir-tests.sum" ] \
      || die "make check in $d wrote no $d/subdir-tests.sum; see $build/check-$d.log"
    cat "$d/subdir-tests.sum" >> "$results"
    continue
  fi
  all=$(tests_of "$d")
  picked=()
  for p in $patterns; do
    n=0
    for t in $all; do
      # shellcheck disable=SC2254
      case $t in $p) picked+=("$t"); n=$((n + 1)) ;; esac
    done
    [ $n -gt 0 ] || die "$list: no test of glibc's $d matches '$p'; glibc $(basename "$src") has: $(echo $all)"
  done
  mapfile -t picked < <(printf '%s\n' "${picked[@]}" | sort -u)
  note "glibc tests: $d, ${#picked[@]} tests ($build)"
  outs=()
  for t in "${picked[@]}"; do
    rm -f "$d/$t.out" "$d/$t.test-result"
    outs+=("$build/$d/$t.out")
  done
  make -k -j"$(nproc)" -r -C "$src/$d" objdir="$build" subdir="$d" ..=../ \
    $run "${outs[@]}" >> "check-$d.log" 2>&1 || true
  for t in "${picked[@]}"; do
    if [ -f "$d/$t.test-result" ]; then
      head -n 1 "$d/$t.test-result" | cut -d' ' -f1-2 >> "$results"
    else
      echo "FAIL: $d/$t (no result; see $build/check-$d.log)" >> "$results"
    fi
  done
done < "$list"

note "glibc tests: conform for fcntl.h ($build)"
for std in $standards; do
  t="conform/$std/fcntl.h/conform"
  rm -f "$t.out" "$t.test-result"
  make -r -C "$src/conform" objdir="$build" subdir=conform ..=../ $run \
    "$build/$t.out" >> check-conform.log 2>&1 || true
  if [ -f "$t.test-result" ]; then
    head -n 1 "$t.test-result" | cut -d' ' -f1-2 >> "$results"
  else
    echo "FAIL: $t (no result; see $build/check-conform.log)" >> "$results"
  fi
done

note "glibc tests: check-abi ($build)"
make -k -j"$(nproc)" $run check-abi > check-abi.log 2>&1 || true
found=0
for r in $(find . -name 'check-abi-*.test-result' | sort); do
  head -n 1 "$r" | cut -d' ' -f1-2 >> "$results"
  found=1
done
[ $found = 1 ] || die "check-abi produced no result; see $build/check-abi.log"

if [ -n "$baseline" ]; then
  { grep '^FAIL: ' "$results" || true; } | cut -d' ' -f2 | sort -u |
  while read -r t; do
    grep -qx "FAIL: $t" "$baseline" && continue
    # Only tests of a subdirectory can run again on their own.
    case $t in */*/*|check-abi*|*/check-abi*) continue ;; esac
    note "glibc tests: $t failed; running it once more"
    make $run test t="$t" > "retry-${t//\//-}.log" 2>&1 || true
    if grep -q '^PASS' "$t.test-result" 2>/dev/null; then
      sed -i "s|^FAIL: $t\$|FLAKY: $t|" "$results"
    fi
  done
fi

sort -u "$results" > "$stamp"
cp "$stamp" "$out"
