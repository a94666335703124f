#!/bin/bash
# Run glibc's own checks that this project's change can affect, on one
# built tree, and write one line per test ("PASS: name", "FAIL: name",
# "UNSUPPORTED: name", ...) to OUT.  The results are cached in the build
# directory, keyed by this script, so a warm run costs nothing.
#
#   glibc-tests.sh --src GLIBC-TREE --build BUILD-DIR --out FILE \
#                  [--baseline BASELINE-RESULTS]
#
# With --baseline, a test that fails here but not in the baseline's
# results is run once more: if it passes then, it is recorded as
# "FLAKY: name" (a pass that failed once), so that a test that fails
# now and then on a busy machine is told apart from a failure the
# patch causes; one that fails again stays a failure.
#
# What runs:
#   - make check in io, posix, rt and misc (io includes the
#     check-installed-headers tests for <fcntl.h>, C and C++);
#   - conform for <fcntl.h> in every standard that has it;
#   - check-abi for every library.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src= build= out= baseline=
while [ $# -gt 0 ]; do
  case $1 in
    --src) src=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
[ -f "$build/.osync-installed" ] || die "$build is not a finished build; run make first"

subdirs="io posix rt misc"
# The i386 tree is configured with --host and --build, which glibc takes
# for a cross build whose tests it would only compile; this machine runs
# them.
run=run-built-tests=yes
# fcntl.h is not part of the ISO C standards.
standards="POSIX XPG4 XPG42 UNIX98 XOPEN2K POSIX2008 XOPEN2K8"

stamp="$build/osync-tests-$( { cat "$0"; echo "$subdirs $standards"; } | hash_stdin).sum"
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
elif ! ./elf/ld.so --version >/dev/null 2>&1; then
  noexec="the dynamic loader does not start"
fi
if [ -n "$noexec" ]; then
  note "glibc tests: $build: this machine cannot execute its programs ($noexec); only conform and check-abi"
  echo "UNSUPPORTED: run-tests (this machine cannot execute these programs: $noexec)" >> "$results"
  subdirs=
fi
for d in $subdirs; do
  note "glibc tests: $d ($build)"
  # Failures are in the .sum file; make's own status only says that
  # some test failed.
  make -k -j"$(nproc)" $run subdirs="$d" check > "check-$d.log" 2>&1 || true
  [ -f "$d/subdir-tests.sum" ] \
    || die "make check in $d wrote no $d/subdir-tests.sum; see $build/check-$d.log"
  cat "$d/subdir-tests.sum" >> "$results"
done

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
