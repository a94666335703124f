#!/bin/bash
# The driver behind the Makefile: osync.sh STEP [ARGS]
#
#   begin              start a run: a new run id (results/run-id), which
#                      every result of the run carries and the summary
#                      checks; its phase times start afresh; no summary
#   deps               install the Debian packages only make check needs
#                      (driver/packages.sh), and check their tools
#   series             the patched tree and dist/NNNN-*.patch
#   build VARIANT      build and install VARIANT (patched, baseline) for
#                      every ABI in $ABIS
#   demo               build driver/demo.c against the patched glibc and
#                      the unpatched headers and run it for every ABI
#   quick-series, quick-headers, quick-build, quick-demo
#                      make's phases: the series of the primary base; its
#                      unpatched headers; its patched libc.so.6 and ld.so
#                      (driver/build-quick.sh); the demonstration on them
#   kernel             the new kernel of the matrix (kernel/build-kernel.sh)
#   check-glibc        glibc's own tests on both variants
#   check-suite        the project's DejaGnu suite (tests/)
#   summary            results/summary.txt, ending in "N passed, N failed"
#   bench-open         instructions per open/openat call (bench/)
#   bench-sync         synchronized-I/O throughput, both glibcs (bench/)
#   bench-sweep        O_RSYNC against fdatasync-then-read, the file dirty
#                      elsewhere, in the new kernel's guest (bench/)
#   check-cross [PORT...]  cross-build the patched primary base for other
#                      ports and run glibc's check-abi (driver/check-cross.sh)
#   check-glibc-full   glibc's whole testsuite on both x86_64 trees of the
#                      primary base (driver/glibc-full.sh; hours, resumed
#                      across runs)
#   check-crash-plant  the power-cut harness on a kernel with a planted
#                      skipped flush, beside the new kernel
#                      (driver/crash-plant.sh; a kernel build and two
#                      crash runs)
#   check-debug-kernel the series' guest tests on the new kernel built
#                      with lockdep, KASAN and DEBUG_ATOMIC_SLEEP
#                      (driver/debug-kernel.sh; a kernel build and four
#                      test groups)
#   check-aarch64      glibc's tests of the series, cross-built for aarch64,
#                      on Debian's arm64 kernels under QEMU, as root and
#                      not (driver/port-guest.sh)
#
# The Makefile sets the environment (OSYNC_TOP, OSYNC_CACHE, ...).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/progress.sh"
need_var OSYNC_TOP OSYNC_CACHE GLIBC_TARBALL OSYNC_STATE \
  OSYNC_RESULTS OSYNC_DIST ABIS
mkdir -p "$OSYNC_STATE" "$OSYNC_RESULTS"

# Every "python3" of the builds and tests (glibc's configure and
# Makefiles, "#!/usr/bin/env python3" scripts) is the Python that
# ./configure chose, not whatever the caller's PATH finds first: a pyenv
# shim there costs 0.7 to 1.7 s a call on this machine kind, where
# /usr/bin/python3 starts in 0.06 s.
if [ "${PYTHON#/}" != "$PYTHON" ] && [ -x "$PYTHON" ]; then
  mkdir -p "$OSYNC_STATE/bin"
  ln -sfn "$PYTHON" "$OSYNC_STATE/bin/python3"
  PATH=$OSYNC_STATE/bin:$PATH
fi

state ()
{
  [ -s "$OSYNC_STATE/$1" ] || die "no $1 yet; run 'make' first"
  cat "$OSYNC_STATE/$1"
}

# The glibc bases, primary first (facts: OSYNC_PRIMARY_BASE and
# OSYNC_BACKPORT_BASE), unless BASES says otherwise.
eval "$("$PYTHON" "$here/facts.py" shell)"
BASES=${BASES:-"$OSYNC_PRIMARY_BASE $OSYNC_BACKPORT_BASE"}

# abis_of BASE: the ABIs BASE is built and checked for (the backport's
# are BACKPORT_ABIS, which the Makefile sets).
abis_of ()
{
  if [ "$1" = "$OSYNC_BACKPORT_BASE" ]; then
    echo "${BACKPORT_ABIS:-$ABIS}"
  else
    echo "$ABIS"
  fi
}

# The tarball of BASE: "PATH SHA256 DEBIAN-VERSION".
tarball_of ()
{
  local given=
  case $1 in
    "$OSYNC_BACKPORT_BASE") given=$GLIBC_TARBALL ;;
    "$OSYNC_PRIMARY_BASE") given=${GLIBC_PRIMARY_TARBALL:-} ;;
  esac
  "$here/glibc-tarball.sh" --base "$1" --cache "$OSYNC_CACHE" \
    ${given:+--tarball "$given"}
}

step_series ()
{
  local base out tar sha debver
  : > "$OSYNC_RESULTS/tarballs.txt"
  # Only what this run writes: make's series of the primary base leaves
  # make check's backport and drop-in alone.
  for base in $BASES; do
    rm -rf "$OSYNC_DIST/glibc-$base"
    [ "$base" != "$OSYNC_BACKPORT_BASE" ] || rm -rf "$OSYNC_DIST/debian"
  done
  for base in $BASES; do
    activity "glibc $base: finding or fetching the tarball"
    read -r tar sha debver <<<"$(tarball_of "$base")" || exit 1
    [ -n "$sha" ] || exit 1
    echo "$tar $sha $debver" > "$OSYNC_STATE/tarball-$base"
    echo "glibc $base: $(basename "$tar") from Debian's glibc-source $debver, sha256 $sha" \
      >> "$OSYNC_RESULTS/tarballs.txt"
    activity "glibc $base: unpacking the tarball, applying the series"
    out=$("$PYTHON" "$here/mkseries.py" --top "$OSYNC_TOP" --base "$base" \
            --tarball "$tar" --tarball-sha256 "$sha" \
            --cache "$OSYNC_CACHE" --dist "$OSYNC_DIST/glibc-$base" \
            --print pristine --print patched) || exit 1
    sed -n 1p <<<"$out" > "$OSYNC_STATE/pristine-src-$base"
    sed -n 2p <<<"$out" > "$OSYNC_STATE/patched-src-$base"
    echo "glibc $base (Debian's glibc-source $debver, sha256 $sha):"
    (cd "$OSYNC_DIST/glibc-$base" && ls -1 -- *.patch | sed "s|^|  dist/glibc-$base/|")
  done
  if [ "$BASES" != "${BASES#*"$OSYNC_BACKPORT_BASE"}" ]; then
    "$PYTHON" "$here/debian-dropin.py" --top "$OSYNC_TOP" \
      --pristine "$(state "pristine-src-$OSYNC_BACKPORT_BASE")" \
      --patched "$(state "patched-src-$OSYNC_BACKPORT_BASE")" \
      --out "$OSYNC_DIST/debian" || exit 1
    echo "Debian drop-in for glibc $OSYNC_BACKPORT_BASE:"
    (cd "$OSYNC_DIST" && find debian -type f | sort | sed 's|^|  dist/|')
  fi
}

# build_one VARIANT BASE ABI: build (or find cached) one glibc tree and
# record it in the state.  The patched tree is built on a copy of the
# baseline's (driver/build-glibc.sh --from), so the baseline comes
# first; OSYNC_FROM_SCRATCH=1 builds it from scratch instead.
build_one ()
{
  local variant=$1 base=$2 abi=$3 src build from=()
  case $variant in
    patched)
      src=$(state "patched-src-$base")
      if [ "${OSYNC_FROM_SCRATCH:-0}" != 1 ]; then
        build_one baseline "$base" "$abi" >/dev/null || return 1
        from=(--from "$(state "build-baseline-$base-$abi")")
      fi ;;
    baseline) src=$(state "pristine-src-$base") ;;
  esac
  build=$("$here/build-glibc.sh" --base "$base" --abi "$abi" \
            --variant "$variant" --src "$src" --cache "$OSYNC_CACHE" \
            --key "$(git -C "$src" rev-parse 'HEAD^{tree}')" "${from[@]}") || return 1
  echo "$build" > "$OSYNC_STATE/build-$variant-$base-$abi"
  echo "glibc $base $variant $abi: built, installed in $build/root"
}

# step_build VARIANT: every base and ABI of VARIANT (patched,
# baseline), or of both.
step_build ()
{
  local variant=$1 base abi v variants
  case $variant in
    patched|baseline) variants=$variant ;;
    both) variants="baseline patched" ;;
    *) die "unknown variant '$variant' (patched, baseline or both)" ;;
  esac
  for base in $BASES; do
    for abi in $(abis_of "$base"); do
      for v in $variants; do
        build_one "$v" "$base" "$abi" || exit 1
        # glibc's tests run on the baseline before its object directory
        # is copied for the patched tree, which then compiles again only
        # the tests that the series touches.
        if [ "$variant" = both ] && [ "$v" = baseline ]; then
          glibc_tests_one baseline "$base" "$abi" || exit 1
        fi
      done
    done
  done
}

# step_demo [quick|full]: driver/demo.c on the patched primary base:
# built against its patched headers, and against the unpatched ones;
# and a program built against this machine's own glibc (an old binary)
# run on its own glibc and on the patched one.  quick: on make's build
# (driver/build-quick.sh, x86_64); full: on make check's.
step_demo ()
{
  local mode=${1:-full} abi abis=$ABIS root hdrs dir out m old new
  dir=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-demo.XXXXXX")
  [ "$mode" != quick ] || abis=x86_64
  for abi in $abis; do
    case $mode in
      quick)
        root=$(state "quick-root-$OSYNC_PRIMARY_BASE-$abi")
        hdrs=$(state "quick-headers-$OSYNC_PRIMARY_BASE-$abi") ;;
      full)
        root=$(state "build-patched-$OSYNC_PRIMARY_BASE-$abi")/root
        hdrs=$(state "build-baseline-$OSYNC_PRIMARY_BASE-$abi")/root ;;
      *) die "unknown demonstration '$mode' (quick or full)" ;;
    esac
    m=-m64
    [ "$abi" = x86_64 ] || m=-m32
    "$here/stagecc.sh" "$root" "$abi" -O2 -Wall -o "$OSYNC_STATE/demo-$abi" \
      "$here/demo.c" || die "cannot build the demonstration for $abi"
    # The unpatched headers: compiled against them, linked against the
    # patched glibc, which every program that runs it is.
    ${CC:-gcc} $m --sysroot="$hdrs" -O2 -Wall -c -o "$dir/demo-unpatched.o" "$here/demo.c" \
      && "$here/stagecc.sh" "$root" "$abi" -o "$OSYNC_STATE/demo-unpatched-$abi" "$dir/demo-unpatched.o" \
      || die "cannot build the demonstration against the unpatched headers in $hdrs for $abi"
    echo
    echo "== Demonstration, $abi: driver/demo.c on the patched glibc $OSYNC_PRIMARY_BASE"
    # A kernel without 32-bit emulation cannot run i386 programs; the
    # tests say so too (UNSUPPORTED, with the reason).
    if ! out=$("$OSYNC_STATE/demo-$abi" "$dir/demo.tmp" 2>&1); then
      if [ -z "${out##*Exec format error*}" ]; then
        echo "   not run: this machine cannot execute $abi programs (Exec format error)" \
          | tee "$OSYNC_RESULTS/demo-$abi.txt"
        continue
      fi
      echo "$out" >&2
      die "the demonstration failed for $abi"
    fi
    {
      echo "-- built against the patched headers:"
      echo "$out"
      echo
      echo "-- the same program built against the unpatched $OSYNC_PRIMARY_BASE headers:"
      "$OSYNC_STATE/demo-unpatched-$abi" "$dir/demo.tmp" 2>&1 \
        || die "the demonstration (unpatched headers) failed for $abi"
      # An old binary: built against this machine's glibc (Debian 12's,
      # unpatched), run on it and on the patched glibc.  Everything
      # after its first line (the glibc it runs on) must be the same.
      if [ "$abi" = x86_64 ] \
         && ${CC:-gcc} -O2 -Wall -o "$dir/demo-old" "$here/demo.c" 2>/dev/null; then
        old=$("$dir/demo-old" "$dir/demo.tmp" 2>&1 | sed 1d) \
          || die "the old binary of the demonstration failed on this machine's glibc"
        new=$("$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/lib64" \
                "$dir/demo-old" "$dir/demo.tmp" 2>&1 | sed 1d) \
          || die "the old binary of the demonstration failed on the patched glibc"
        echo
        if [ "$old" = "$new" ]; then
          echo "-- the same program built against this machine's glibc $(ldd --version | sed -n '1s/.* //p') (an old"
          echo "   binary): under the patched glibc, its flags and what the kernel kept"
          echo "   are exactly those under its own glibc"
        else
          echo "-- the old binary differs under the patched glibc; under its own glibc:"
          echo "$old"
          echo "   under the patched one:"
          echo "$new"
          die "an old binary behaves differently on the patched glibc"
        fi
      fi
    } | tee "$OSYNC_RESULTS/demo-$abi.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || exit 1
  done
  rm -rf "$dir"
  cat <<'EOF2'

How to read this: with the patched headers, O_DSYNC and O_SYNC are
distinct (data integrity versus file integrity) and O_RSYNC is a bit of
its own, so O_RSYNC|O_DSYNC keeps O_DSYNC's writes; the patched glibc
passes O_RSYNC on only to a kernel that implements it (none released
does; the new kernel of make check does).  With the unpatched headers,
O_RSYNC is O_SYNC: asking for synchronized reads bought O_SYNC's writes.
EOF2
}

# step_deps: the Debian packages only make check needs (the second part
# of driver/debian-packages), installed as configure allowed
# (INSTALL_DEPS), and their tools.
step_deps ()
{
  local no=
  [ "${INSTALL_DEPS:-yes}" = yes ] || no=--no-install
  mkdir -p "$OSYNC_RESULTS/logs"
  "$here/packages.sh" install check $no --log "$OSYNC_RESULTS/logs/apt-get.log" \
    && "$here/packages.sh" tools
}

# step_quick_build headers|libc: make's builds of the primary base
# (driver/build-quick.sh): the unpatched tree's installed headers, and
# the patched tree's libc.so.6 and ld.so with their headers.
step_quick_build ()
{
  local what=$1 src variant out
  case $what in
    headers) variant=pristine ;;
    libc) variant=patched ;;
  esac
  src=$(state "$variant-src-$OSYNC_PRIMARY_BASE")
  out=$("$here/build-quick.sh" --base "$OSYNC_PRIMARY_BASE" --what "$what" \
          --src "$src" --cache "$OSYNC_CACHE" \
          --key "$(git -C "$src" rev-parse 'HEAD^{tree}')") || exit 1
  case $what in
    headers) echo "$out" > "$OSYNC_STATE/quick-headers-$OSYNC_PRIMARY_BASE-x86_64"
             echo "glibc $OSYNC_PRIMARY_BASE, unpatched: headers installed in $out" ;;
    libc) echo "$out" > "$OSYNC_STATE/quick-root-$OSYNC_PRIMARY_BASE-x86_64"
          echo "glibc $OSYNC_PRIMARY_BASE, patched: libc.so.6, ld.so and the headers installed in $out" ;;
  esac
}

# The new kernel with each carrier of O_RSYNC: the open flag bit
# (kernel-image) and the alternative patch 9's openat2()-only flag
# (kernel-image-openat2).
step_kernel ()
{
  local image carrier state src=${LINUX_SOURCE:-}
  for carrier in open openat2; do
    state=kernel-image
    [ "$carrier" = open ] || state=kernel-image-$carrier
    image=$("$OSYNC_TOP/kernel/build-kernel.sh" --cache "$OSYNC_CACHE" \
              --carrier "$carrier" ${src:+--source "$src"} | tail -n 1) || exit 1
    [ -f "$image" ] || die "kernel/build-kernel.sh --carrier $carrier gave no kernel image"
    echo "$image" > "$OSYNC_STATE/$state"
    echo "new kernel ($carrier carrier): $(cat "$(dirname "$image")/version") with the kernel/ series, $image"
    # The tarball the first build took (Debian's newest 6.12 revision,
    # unless LINUX_SOURCE named one), for the second build and for the
    # suite's series checks: Debian is asked once.
    src=$(cut -d' ' -f1 "$(dirname "$image")/source")
    [ -f "$src" ] || die "the kernel build $image names no tarball that exists ($src); remove $(dirname "$image") and run again"
  done
  echo "$src" > "$OSYNC_STATE/linux-source"
  # In make check, also the mainline tree's kernel that
  # tests/osync.kernel/mainline.exp boots (kernel/boot-check.sh, the
  # same build-kernel.sh arguments, so the same key): built here, so
  # that no kernel build competes with the guests of the suite, whose
  # disk counts are exact (a count of xfs's io_uring read, 1 write
  # against 2, once did under a build of it, 2026-12-08).  Where Debian
  # offers no newer tree, or cannot be asked, mainline.exp says so.
  local newest linux
  case " ${OSYNC_PLAN:-} " in *" check-suite "*) ;; *) return 0 ;; esac
  rm -f "$OSYNC_STATE/mainline-newest"
  if newest=$("$OSYNC_TOP/driver/debian-suite.sh" --cache "$OSYNC_CACHE" newest 'linux-source-[0-9.]+' 2>/dev/null); then
    # mainline.exp takes the same answer.
    echo "$newest" > "$OSYNC_STATE/mainline-newest"
    linux=${newest%% *}
    linux=${linux#linux-source-}
    if dpkg --compare-versions "$linux" gt 6.12; then
      # The tarball of that version, if an earlier run unpacked it
      # (build-kernel.sh's place for it), so as not to ask Debian again.
      local ver=${newest#* } tree=(--linux "$linux") dir
      dir=$OSYNC_CACHE/linux-source/linux-source-${linux}_${ver//:/%3a}_all
      [ ! -f "$dir/done" ] || [ ! -f "$dir/usr/src/linux-source-$linux.tar.xz" ] \
        || tree=(--source "$dir/usr/src/linux-source-$linux.tar.xz")
      image=$("$OSYNC_TOP/kernel/build-kernel.sh" --cache "$OSYNC_CACHE" "${tree[@]}" \
                --patches "$OSYNC_TOP/kernel/patches-mainline" --boot-only | tail -n 1) || exit 1
      echo "mainline kernel for mainline.exp: $(cat "$(dirname "$image")/version") with kernel/patches-mainline, $image"
    fi
  else
    note "cannot ask Debian for its newest linux-source; mainline.exp will say why"
  fi
}

# glibc_tests_one VARIANT BASE ABI: glibc's own tests on one built tree
# (cached in its object directory); the patched tree's failures are
# compared with the baseline's.
glibc_tests_one ()
{
  local variant=$1 base=$2 abi=$3 retry=()
  [ "$variant" = baseline ] \
    || retry=(--baseline "$OSYNC_RESULTS/glibc-baseline-$base-$abi.sum")
  local out=$OSYNC_RESULTS/glibc-$variant-$base-$abi.sum
  rm -f "$out.run-id"
  "$here/glibc-tests.sh" --build "$(state "build-$variant-$base-$abi")" \
    "${retry[@]}" --out "$out" || return 1
  run_id > "$out.run-id"
}

step_check_glibc ()
{
  local variant base abi
  for base in $BASES; do
    for variant in baseline patched; do
      for abi in $(abis_of "$base"); do
        glibc_tests_one "$variant" "$base" "$abi" || exit 1
      done
    done
  done
}

# make_suite_args: the arguments of every runtest of the suite, in the array
# suite_args.
make_suite_args ()
{
  local abi base id vars=()
  # The staging roots: ROOT_<VARIANT>_<ABI> of the primary base, and
  # ROOT_<VARIANT>_<ABI>_<BASE> of every base (2.36 -> 2_36).
  for base in $BASES; do
    id=${base//./_}
    for abi in $(abis_of "$base"); do
      vars+=("ROOT_PATCHED_${abi^^}_$id=$(state "build-patched-$base-$abi")/root"
             "ROOT_BASELINE_${abi^^}_$id=$(state "build-baseline-$base-$abi")/root")
      [ "$base" != "$OSYNC_PRIMARY_BASE" ] \
        || vars+=("ROOT_PATCHED_${abi^^}=$(state "build-patched-$base-$abi")/root"
                  "ROOT_BASELINE_${abi^^}=$(state "build-baseline-$base-$abi")/root")
    done
    vars+=("PATCHED_SRC_$id=$(state "patched-src-$base")"
           "PRISTINE_SRC_$id=$(state "pristine-src-$base")")
  done
  suite_args=(--tool osync --srcdir "$OSYNC_TOP/tests"
     TOP="$OSYNC_TOP" CACHE="$OSYNC_CACHE" STATE="$OSYNC_STATE"
     RESULTS="$OSYNC_RESULTS" DIST="$OSYNC_DIST" ABIS="$ABIS"
     BASES="$BASES" PRIMARY_BASE="$OSYNC_PRIMARY_BASE"
     BACKPORT_ABIS="$(abis_of "$OSYNC_BACKPORT_BASE")"
     BACKPORT_BASE="$OSYNC_BACKPORT_BASE"
     GLIBC_TARBALL="$(state "tarball-$OSYNC_BACKPORT_BASE" | cut -d' ' -f1)"
     PATCHED_SRC="$(state "patched-src-$OSYNC_PRIMARY_BASE")"
     PRISTINE_SRC="$(state "pristine-src-$OSYNC_PRIMARY_BASE")"
     KERNEL_IMAGE="$(state kernel-image)"
     KERNEL_IMAGE_OPENAT2="$(state kernel-image-openat2)"
     LINUX_SOURCE="${LINUX_SOURCE:-$(cat "$OSYNC_STATE/linux-source" 2>/dev/null)}"
     "${vars[@]}")
}

step_check_suite ()
{
  local -a suite_args
  make_suite_args
  local dj="$OSYNC_RESULTS/dejagnu"
  mkdir -p "$dj"
  # No result of an earlier run may be summarised as this one's: the
  # summary requires an osync.sum newer than "started", with a summary
  # block for each runtest run and a report from every test group.
  rm -rf "$dj/osync.sum" "$dj/osync.log" "$dj/runtest-status" "$dj"/lane-* "$dj/tmp"
  touch "$dj/started"
  run_id > "$dj/run-id"
  # The test groups run two at a time, each in a runtest of its own
  # (its own directory, lane-GROUP), the longest first, by the wall
  # times of the last run (durations; a group never timed counts as the
  # longest); whichever finishes first makes room for the next.  A
  # build directory that has not run the suite yet (CI's clean
  # checkout) takes the times committed in tests/durations, a hint
  # that only changes the order.
  # runtest names a group by its file name, which must be unique.
  local g names order=()
  names=$(for g in "$OSYNC_TOP"/tests/osync.*/*.exp; do echo "${g##*/}"; done | sort | uniq -d)
  [ -z "$names" ] \
    || die "two test groups have one file name ($names): runtest could not tell them apart; rename one"
  local times=$dj/durations
  [ -f "$times" ] || times=$OSYNC_TOP/tests/durations
  mapfile -t order < <(
    for g in "$OSYNC_TOP"/tests/osync.*/*.exp; do
      g=${g##*/}
      t=
      [ ! -f "$times" ] \
        || t=$(awk -v g="$g" '$1 == g { print $2 }' "$times")
      echo "${t:-100000} $g"
    done | sort -k1,1nr -k2 | cut -d' ' -f2)
  [ ${#order[@]} -gt 0 ] || die "no test groups (tests/osync.*/*.exp) in $OSYNC_TOP/tests"
  # SUITE_GROUPS="a.exp b.exp" runs only those, for work on a test; the
  # summary then reports the other groups as missing, so such a run
  # never passes as a whole.
  if [ -n "${SUITE_GROUPS:-}" ]; then
    local want=" $SUITE_GROUPS " keep=()
    for g in $SUITE_GROUPS; do
      printf '%s\n' "${order[@]}" | grep -qxF "$g" \
        || die "SUITE_GROUPS: no test group '$g' (the groups: ${order[*]})"
    done
    for g in "${order[@]}"; do
      [ "$want" = "${want/ $g /}" ] || keep+=("$g")
    done
    order=("${keep[@]}")
  fi
  local -a args=("${suite_args[@]}")
  # kemu, which several groups use, is built before they start.
  make -s -C "$OSYNC_TOP/kemu" kemu >/dev/null \
    || die "cannot build kemu (make -C $OSYNC_TOP/kemu kemu)"
  # lane GROUP: runtest for GROUP in $dj/lane-GROUP; its exit status to
  # lane-GROUP/status.  runtest's status only says whether something
  # failed (1); more means it stopped (killed, a Tcl error).
  lane () {
    local rc=0 t0=$SECONDS
    mkdir -p "$dj/lane-$1"
    date +%s > "$dj/lane-$1/started"
    (cd "$dj/lane-$1" && env -u OSYNC_INNER -u OSYNC_ACTIVITY -u OSYNC_PLAN \
       "$RUNTEST" "${args[@]}" --outdir "$dj/lane-$1" "$1" > runtest.out 2>&1) || rc=$?
    echo "$rc" > "$dj/lane-$1/status"
    echo "$1 $((SECONDS - t0))" > "$dj/lane-$1/duration"
  }
  note "DejaGnu suite, two groups at a time: ${order[*]}"
  local running=0
  for g in "${order[@]}"; do
    if [ $running -ge 2 ]; then
      wait -n || true
      running=$((running - 1))
    fi
    lane "$g" &
    running=$((running + 1))
  done
  wait || true
  # The summary reads osync.sum, the groups' .sum files joined, and the
  # worst exit status.
  local rc=0 s
  for g in $(printf '%s\n' "${order[@]}" | sort); do
    s=$(cat "$dj/lane-$g/status" 2>/dev/null || echo 255)
    [ "$s" -le "$rc" ] || rc=$s
    [ -f "$dj/lane-$g/osync.sum" ] \
      || die "runtest of $g (exit status $s) wrote no osync.sum; see $dj/lane-$g/runtest.out"
    cat "$dj/lane-$g/osync.sum" >> "$dj/osync.sum"
    cat "$dj/lane-$g/osync.log" >> "$dj/osync.log" 2>/dev/null || true
  done
  # This run's times, and the last ones of the groups it did not run.
  cat "$dj"/lane-*/duration > "$dj/durations.new" 2>/dev/null \
    && { [ ! -f "$dj/durations" ] \
         || awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' \
              "$dj/durations.new" "$dj/durations" >> "$dj/durations.new"; } \
    && mv "$dj/durations.new" "$dj/durations"
  echo "$rc" > "$dj/runtest-status"
  [ "$rc" -le 1 ] \
    || echo "osync.sh: runtest stopped with exit status $rc; the summary counts this as a failure; see $dj/lane-*/osync.log" >&2
}

# A run: results/run-id names it; every result of the run carries it,
# and the summary takes only results of the current run, so that a make
# check that stops before its summary leaves no "0 failed" behind.
step_begin ()
{
  : > "$OSYNC_RESULTS/phases.txt"
  rm -f "$OSYNC_RESULTS/summary.txt"
  echo "$(date -u +%Y%m%dT%H%M%SZ)-$$-$RANDOM" > "$OSYNC_RESULTS/run-id"
}

# run_id: the current run's id; a step run on its own before any begin
# starts a run.
run_id ()
{
  [ -s "$OSYNC_RESULTS/run-id" ] || step_begin
  cat "$OSYNC_RESULTS/run-id"
}

# step_glibc_full [--status]: glibc's whole testsuite, the primary base
# on x86_64, patched against unpatched; with --status, only the line
# for the summary (results/optin/glibc-full.txt).
step_glibc_full ()
{
  local base=$OSYNC_PRIMARY_BASE b p
  b=$OSYNC_STATE/build-baseline-$base-x86_64
  p=$OSYNC_STATE/build-patched-$base-x86_64
  if [ ! -s "$b" ] || [ ! -s "$p" ]; then
    [ "${1:-}" = --status ] || die "glibc $base is not built for x86_64 yet; run make build-both"
    mkdir -p "$OSYNC_RESULTS/optin"
    echo "SKIP: glibc's whole testsuite: glibc $base is not built for x86_64 here (make build-both, then make check-glibc-full)" \
      > "$OSYNC_RESULTS/optin/glibc-full.txt"
    return 0
  fi
  "$here/glibc-full.sh" --baseline "$(cat "$b")" --patched "$(cat "$p")" \
    --cache "$OSYNC_CACHE" --out "$OSYNC_RESULTS" "$@"
}

# step_crash_plant [--status]: the power-cut harness on the new kernel
# and on one with a planted skipped flush (driver/crash-plant.sh); with
# --status, only the line for the summary (results/optin/crash-plant.txt).
step_crash_plant ()
{
  local kernel glibc
  local -a suite_args=()
  kernel=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null || true)
  glibc=$(cat "$OSYNC_STATE/build-patched-$OSYNC_PRIMARY_BASE-x86_64" 2>/dev/null || true)
  [ "${1:-}" = --status ] || make_suite_args
  "$here/crash-plant.sh" --cache "$OSYNC_CACHE" --out "$OSYNC_RESULTS" \
    --kernel "$kernel" --glibc "$glibc" ${CRASH_STATES:+--states "$CRASH_STATES"} \
    "$@" -- "${suite_args[@]}"
}

# step_debug_kernel [--status]: the series' guest tests on a debug
# build of the new kernel (driver/debug-kernel.sh); with --status, only
# the line for the summary (results/optin/debug-kernel.txt).
step_debug_kernel ()
{
  local kernel glibc
  local -a suite_args=()
  kernel=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null || true)
  glibc=$(cat "$OSYNC_STATE/build-patched-$OSYNC_PRIMARY_BASE-x86_64" 2>/dev/null || true)
  [ "${1:-}" = --status ] || make_suite_args
  "$here/debug-kernel.sh" --cache "$OSYNC_CACHE" --out "$OSYNC_RESULTS" \
    --kernel "$kernel" --glibc "$glibc" "$@" -- "${suite_args[@]}"
}

# step_port_guest [--status]: glibc's tests of the series on aarch64,
# in QEMU guests with Debian's arm64 kernels; with --status, only the
# line for the summary (results/optin/aarch64.txt).
step_port_guest ()
{
  local src=$OSYNC_STATE/patched-src-$OSYNC_PRIMARY_BASE
  if [ ! -s "$src" ]; then
    [ "${1:-}" = --status ] || die "no patched glibc $OSYNC_PRIMARY_BASE yet; run make dist"
    mkdir -p "$OSYNC_RESULTS/optin"
    echo "SKIP: aarch64: no patched glibc $OSYNC_PRIMARY_BASE here yet (make dist, then make check-aarch64)" \
      > "$OSYNC_RESULTS/optin/aarch64.txt"
    return 0
  fi
  "$here/port-guest.sh" --top "$OSYNC_TOP" --src "$(cat "$src")" \
    --cache "$OSYNC_CACHE" --out "$OSYNC_RESULTS" "$@"
}

step_summary ()
{
  # The opt-in runs outside make check: the result cached for the
  # current inputs, or why there is none (results/optin/*.txt).
  # A status that cannot be computed leaves no line, which the summary
  # counts as a failure.
  step_glibc_full --status > /dev/null \
    || note "glibc-full.sh --status failed (see above)"
  step_crash_plant --status > /dev/null \
    || note "crash-plant.sh --status failed (see above)"
  step_debug_kernel --status > /dev/null \
    || note "debug-kernel.sh --status failed (see above)"
  step_port_guest --status > /dev/null \
    || note "port-guest.sh --status failed (see above)"
  "$PYTHON" "$here/summary.py" --results "$OSYNC_RESULTS" --abis "$ABIS" \
    --all-abis "${ALL_ABIS:-$ABIS}" \
    --bases "$BASES" --state "$OSYNC_STATE" --top "$OSYNC_TOP" \
    --base-abis "$OSYNC_BACKPORT_BASE=$(abis_of "$OSYNC_BACKPORT_BASE")"
}

[ $# -ge 1 ] || die "usage: $0 STEP [ARGS]; see the comment at the top"
step=$1
shift
# Every step but begin runs again as the inner run of progress_run,
# which announces it and prints a line every minute (driver/progress.sh).
if [ -z "${OSYNC_INNER:-}" ] && [ "$step" != begin ]; then
  progress_run "$step" "$@"
fi
phase_start=$(date +%s)
# The phases of make check, for its summary; the benchmarks and
# check-cross are not among them, and one of them running beside make
# check must not add a line to its summary.
record_phase ()
{
  case $step in bench-*|check-cross|check-glibc-full|check-crash-plant|check-aarch64|quick-*) return ;; esac
  echo "$step${*:+ $*} $(( $(date +%s) - phase_start ))" >> "$OSYNC_RESULTS/phases.txt"
}
trap 'record_phase "$@"' EXIT
case $step in
  begin) step_begin; progress_plan ;;
  deps) step_deps ;;
  series) step_series ;;
  build) step_build "$@" ;;
  demo) step_demo "$@" ;;
  quick-series) BASES=$OSYNC_PRIMARY_BASE; step_series ;;
  quick-headers) step_quick_build headers ;;
  quick-build) step_quick_build libc ;;
  quick-demo) step_demo quick ;;
  kernel) step_kernel ;;
  check-glibc) step_check_glibc ;;
  check-suite) step_check_suite ;;
  summary) step_summary ;;
  check-glibc-full) step_glibc_full ;;
  check-crash-plant) step_crash_plant ;;
  check-debug-kernel) step_debug_kernel ;;
  check-aarch64) step_port_guest ;;
  bench-open) "$OSYNC_TOP/bench/open-cost.sh" ;;
  bench-sync) "$OSYNC_TOP/bench/syncbench.sh" "$@" ;;
  bench-sweep) "$OSYNC_TOP/bench/rsync-sweep.sh" "$@" ;;
  check-cross)
    "$OSYNC_TOP/driver/check-cross.sh" \
      --src "$(state "patched-src-$OSYNC_PRIMARY_BASE")" \
      --cache "$OSYNC_CACHE" --out "$OSYNC_RESULTS" "$@" ;;
  *) die "unknown step '$step'; see the comment at the top of $0" ;;
esac
