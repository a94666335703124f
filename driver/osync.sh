#!/bin/bash
# The driver behind the Makefile: osync.sh STEP [ARGS]
#
#   series             the patched tree and dist/NNNN-*.patch
#   build VARIANT      build and install VARIANT (patched, baseline) for
#                      every ABI in $ABIS
#   demo               build driver/demo.c against the patched glibc and
#                      run it for every ABI
#   kernel             the new kernel of the matrix (kernel/build-kernel.sh)
#   check-glibc        glibc's own tests on both variants
#   check-suite        the project's DejaGnu suite (tests/)
#   summary            results/summary.txt, ending in "N passed, N failed"
#   bench-open         instructions per open/openat call (bench/)
#   bench-sync         synchronized-I/O throughput, both glibcs (bench/)
#
# The Makefile sets the environment (OSYNC_TOP, OSYNC_CACHE, ...).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_var OSYNC_TOP OSYNC_CACHE GLIBC_TARBALL GLIBC_SHA256 OSYNC_STATE \
  OSYNC_RESULTS OSYNC_DIST ABIS LINUX_SOURCE
mkdir -p "$OSYNC_STATE" "$OSYNC_RESULTS"

state ()
{
  [ -s "$OSYNC_STATE/$1" ] || die "no $1 yet; run 'make' first"
  cat "$OSYNC_STATE/$1"
}

step_series ()
{
  local out
  out=$("$PYTHON" "$here/mkseries.py" --top "$OSYNC_TOP" \
          --tarball "$GLIBC_TARBALL" --tarball-sha256 "$GLIBC_SHA256" \
          --cache "$OSYNC_CACHE" --dist "$OSYNC_DIST" \
          --print pristine --print patched) || exit 1
  sed -n 1p <<<"$out" > "$OSYNC_STATE/pristine-src"
  sed -n 2p <<<"$out" > "$OSYNC_STATE/patched-src"
  echo "patch series:"
  (cd "$OSYNC_DIST" && ls -1 -- *.patch | sed 's/^/  dist\//')
}

step_build ()
{
  local variant=$1 src abi build
  case $variant in
    patched) src=$(state patched-src) ;;
    baseline) src=$(state pristine-src) ;;
    *) die "unknown variant '$variant' (patched or baseline)" ;;
  esac
  for abi in $ABIS; do
    build=$("$here/build-glibc.sh" --abi "$abi" --variant "$variant" \
              --src "$src" --cache "$OSYNC_CACHE" \
              --key "$(git -C "$src" rev-parse 'HEAD^{tree}')") || exit 1
    echo "$build" > "$OSYNC_STATE/build-$variant-$abi"
    echo "glibc $variant $abi: built, installed in $build/root"
  done
}

step_demo ()
{
  local abi root dir
  dir=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-demo.XXXXXX")
  for abi in $ABIS; do
    root=$(state "build-patched-$abi")/root
    "$here/stagecc.sh" "$root" "$abi" -O2 -Wall -o "$OSYNC_STATE/demo-$abi" \
      "$here/demo.c" || die "cannot build the demonstration for $abi"
    echo
    echo "== Demonstration, $abi: driver/demo.c built against the patched headers"
    "$OSYNC_STATE/demo-$abi" "$dir/demo.tmp" | tee "$OSYNC_RESULTS/demo-$abi.txt"
  done
  rmdir "$dir"
  cat <<'EOF'

How to read this: O_DSYNC and O_SYNC are distinct (data integrity versus
file integrity), and O_RSYNC is a bit of its own, no longer an alias of
O_SYNC, so O_RSYNC|O_DSYNC no longer turns the writes into O_SYNC.
EOF
}

step_kernel ()
{
  local image
  image=$("$OSYNC_TOP/kernel/build-kernel.sh" --cache "$OSYNC_CACHE" \
            --source "$LINUX_SOURCE" | tail -n 1) || exit 1
  [ -f "$image" ] || die "kernel/build-kernel.sh gave no kernel image"
  echo "$image" > "$OSYNC_STATE/kernel-image"
  echo "new kernel: $(cat "$(dirname "$image")/version") with the kernel/ series, $image"
}

step_check_glibc ()
{
  local variant abi build src
  for variant in baseline patched; do
    case $variant in
      patched) src=$(state patched-src) ;;
      baseline) src=$(state pristine-src) ;;
    esac
    for abi in $ABIS; do
      build=$(state "build-$variant-$abi")
      retry=()
      [ $variant = baseline ] \
        || retry=(--baseline "$OSYNC_RESULTS/glibc-baseline-$abi.sum")
      "$here/glibc-tests.sh" --src "$src" --build "$build" "${retry[@]}" \
        --out "$OSYNC_RESULTS/glibc-$variant-$abi.sum" || exit 1
    done
  done
}

step_check_suite ()
{
  local abi vars=()
  for abi in $ABIS; do
    vars+=("ROOT_PATCHED_${abi^^}=$(state "build-patched-$abi")/root"
           "ROOT_BASELINE_${abi^^}=$(state "build-baseline-$abi")/root")
  done
  mkdir -p "$OSYNC_RESULTS/dejagnu"
  # runtest's status only says whether something failed; the summary
  # reads osync.sum.
  (cd "$OSYNC_RESULTS/dejagnu" &&
   "$RUNTEST" --tool osync --srcdir "$OSYNC_TOP/tests" \
     TOP="$OSYNC_TOP" CACHE="$OSYNC_CACHE" STATE="$OSYNC_STATE" \
     RESULTS="$OSYNC_RESULTS" DIST="$OSYNC_DIST" ABIS="$ABIS" \
     GLIBC_TARBALL="$GLIBC_TARBALL" GLIBC_SHA256="$GLIBC_SHA256" \
     PATCHED_SRC="$(state patched-src)" PRISTINE_SRC="$(state pristine-src)" \
     KERNEL_IMAGE="$(state kernel-image)" LINUX_SOURCE="$LINUX_SOURCE" \
     "${vars[@]}") || true
  [ -f "$OSYNC_RESULTS/dejagnu/osync.sum" ] \
    || die "runtest wrote no osync.sum; see $OSYNC_RESULTS/dejagnu/osync.log"
}

step_summary ()
{
  "$PYTHON" "$here/summary.py" --results "$OSYNC_RESULTS" --abis "$ABIS" \
    --state "$OSYNC_STATE"
}

[ $# -ge 1 ] || die "usage: $0 STEP [ARGS]; see the comment at the top"
step=$1
shift
case $step in
  series) step_series ;;
  build) step_build "$@" ;;
  demo) step_demo ;;
  kernel) step_kernel ;;
  check-glibc) step_check_glibc ;;
  check-suite) step_check_suite ;;
  summary) step_summary ;;
  bench-open) "$OSYNC_TOP/bench/open-cost.sh" ;;
  bench-sync) "$OSYNC_TOP/bench/syncbench.sh" "$@" ;;
  *) die "unknown step '$step'; see the comment at the top of $0" ;;
esac
