#!/bin/bash
# The suites others wrote, run against the project in QEMU guests with
# the host's userspace (tests/qemu/hostguest.sh): the patched glibc
# 2.44 on the new kernel, against the unpatched glibc 2.44 on Debian
# 13's stock 6.12 in the same run (issue 25, sections 3 and 5).
#
#   suites.sh run SUITE...   build (cached) and run SUITE, keep the
#                            result in the cache, keyed by every input
#   suites.sh table SUITE    the cached good run's table (results/crash.md
#                            takes PostgreSQL's), or why there is none
#   suites.sh report         for make check: one line per suite, "PASS:"
#                            when a good cached result for the current
#                            inputs exists, "FAIL:" when a bad one does,
#                            else "UNSUPPORTED:" with the reason; never
#                            builds, boots or fetches anything
#
# SUITE: xfstests (on ext4), xfstests-xfs (the same list on xfs),
# xfstests-rwaio (the quick tests of xfstests' rw and aio groups, on
# ext4), ltp, selftests (the kernel's openat2 selftests), postgres
# (PostgreSQL 15 across power cuts).  The environment (the Makefile sets it):
# OSYNC_TOP, OSYNC_CACHE, OSYNC_STATE (the glibc builds and the new
# kernel of make check), OSYNC_RESULTS, and
# XFSTESTS_SRC, LTP_SRC: a git repository (work tree or bare) of the
# suite, whose HEAD is built, or its upstream git URL, which "run"
# clones (or fetches into) the cache and "report" reads from there
# without fetching.  Nothing of xfstests or LTP is in this project: the
# build is of the given source, with the project's own patches of
# tests/external/SUITE/*.patch applied (facts substituted).
# The runs' inputs, which make a run's key: the suite's commit and
# patches, its test list, the two kernels (the stock package's
# vmlinuz, the new bzImage), the two glibc builds (their keys), the
# tools, and every script of the guest and of the run.  A run's result
# is good when both guests finished and every failure on the new
# kernel and patched glibc is either also a failure of the yardstick
# or listed with its reason in tests/external/known-differences, and
# every failure of the yardstick is listed there too.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need_var OSYNC_TOP OSYNC_CACHE OSYNC_STATE OSYNC_RESULTS
ext=$OSYNC_TOP/tests/external
sc=$OSYNC_CACHE/suites
base=2.44
PYTHON=${PYTHON:-python3}
export PATH=$PATH:/usr/sbin:/sbin

SUITES="xfstests xfstests-xfs xfstests-rwaio ltp selftests postgres"

# src_name SUITE: the suite whose source, build and patches SUITE takes
# (xfstests-xfs and xfstests-rwaio: xfstests'); list_of SUITE: its test
# list (xfstests-xfs: xfstests', run on xfs instead of ext4).
src_name ()
{
  case $1 in xfstests-*) echo xfstests ;; *) echo "$1" ;; esac
}

list_of ()
{
  case $1 in xfstests-xfs) echo "$ext/xfstests.list" ;; *) echo "$ext/$1.list" ;; esac
}

# --- The inputs ------------------------------------------------------

# src_of SUITE: "DIR COMMIT" of the suite's source, without fetching;
# or a line "none REASON".
src_of ()
{
  local var url dir
  case $1 in
    xfstests) var=XFSTESTS_SRC ;;
    ltp) var=LTP_SRC ;;
    *) die "src_of: no source variable for $1" ;;
  esac
  url=${!var:-}
  # Without one, the source the last make check-SUITE used, if it is
  # still there (a developer need not give it again to make check).
  [ -n "$url" ] || [ ! -s "$sc/src/$1.last" ] || url=$(cat "$sc/src/$1.last")
  if [ -z "$url" ]; then
    echo "none no source given ($var=DIR or $var=URL, the suite's upstream git repository)"
    return
  fi
  case $url in
    *://*)
      dir=$sc/src/$1-$(printf '%s' "$url" | hash_stdin)
      [ -d "$dir" ] || { echo "none $var=$url is not cloned into the cache yet (make check-$1 clones it; make check never fetches)"; return; } ;;
    *) dir=$url ;;
  esac
  if ! git -C "$dir" rev-parse --verify -q 'HEAD^{commit}' >/dev/null 2>&1; then
    echo "none $var=$dir is not a git repository with a commit (the build is keyed by the source's commit)"
    return
  fi
  echo "$dir $(git -C "$dir" rev-parse 'HEAD^{commit}')"
}

# fetch_src SUITE: clone or update a URL source into the cache (run
# only), and remember the source for make check.
fetch_src ()
{
  local var url dir
  case $1 in xfstests) var=XFSTESTS_SRC ;; ltp) var=LTP_SRC ;; esac
  url=${!var:-}
  [ -n "$url" ] || die "no $1 source: give $var=DIR (a git repository of $1) or $var=URL (its upstream git repository)"
  mkdir -p "$sc/src"
  case $url in
    *://*) ;;
    *) url=$(cd "$url" && pwd) || die "$var=$url: no such directory" ;;
  esac
  echo "$url" > "$sc/src/$1.last"
  case $url in
    *://*)
      dir=$sc/src/$1-$(printf '%s' "$url" | hash_stdin)
      mkdir -p "$sc/src"
      if [ -d "$dir" ]; then
        git -C "$dir" fetch -q origin '+HEAD:HEAD' 2>/dev/null \
          || git -C "$dir" fetch -q origin \
          || die "cannot fetch $url into $dir"
      else
        git clone -q --bare "$url" "$dir.tmp.$$" \
          || { rm -rf "$dir.tmp.$$"; die "cannot clone $url ($var); give a local repository instead"; }
        mv -T "$dir.tmp.$$" "$dir"
      fi ;;
  esac
}

# patches_of SUITE: the project's patches of the suite, facts substituted.
patches_of ()
{
  local p
  for p in "$ext/$1"/*.patch; do
    [ -f "$p" ] || continue
    echo "=== ${p##*/}"
    "$OSYNC_TOP/driver/facts.py" subst "$p" || die "cannot substitute the facts in $p"
  done
}

build_tools ()
{
  (gcc --version | head -n 1; make --version | head -n 1
   autoconf --version | head -n 1; automake --version | head -n 1
   dpkg-query -W linux-libc-dev libc6-dev xfslibs-dev liburing-dev libaio-dev libacl1-dev libattr1-dev uuid-dev libcap-dev 2>/dev/null)
}

# build_key SUITE COMMIT: the key of a build of the suite at COMMIT.
build_key ()
{
  { echo "$1 $2"; patches_of "$1"; build_tools; declare -f build; } | hash_stdin
}

# kernel_tree: the unpacked 6.12 tree that kernel/build-kernel.sh made
# (the new kernel's source without the series: that of the new kernel
# when it is built, else the newest 6.12 tree in the cache), or "".
kernel_tree ()
{
  local image src t
  image=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null || true)
  src=$(awk '{ print $2 }' "$(dirname "${image:-/nonexistent}")/source" 2>/dev/null || true)
  if [ -n "$src" ] && [ -f "$OSYNC_CACHE/kernel/tree-${src:0:16}/.osync-unpacked" ]; then
    echo "$OSYNC_CACHE/kernel/tree-${src:0:16}"
    return
  fi
  for t in $(ls -td "$OSYNC_CACHE"/kernel/tree-*/ 2>/dev/null); do
    t=${t%/}
    if [ -f "$t/.osync-unpacked" ] && grep -q '^VERSION = 6$' "$t/Makefile" \
       && grep -q '^PATCHLEVEL = 12$' "$t/Makefile"; then
      echo "$t"
      return
    fi
  done
}

# stock_kernel: "IMAGE PACKAGE" of the stock 6.12 in the cache, or "".
stock_kernel ()
{
  local d
  d=$(ls -d "$OSYNC_CACHE"/qemu/linux-image-6.12.*+deb13-amd64 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] || return 0
  ls "$d"/boot/vmlinuz-* 2>/dev/null | head -n 1 | sed "s|\$| ${d##*/}|"
}

# glibc_build VARIANT: the object directory of the glibc 2.44 build.
glibc_build ()
{
  cat "$OSYNC_STATE/build-$1-$base-x86_64" 2>/dev/null || true
}

# inputs SUITE SIDE: every input of one side of SUITE (yard: Debian
# 13's stock 6.12 and the unpatched glibc; new: the new kernel and the
# patched glibc), one per line on standard output; or "none REASON" on
# the first line.  The two sides are cached apart, so that a change to
# one side's kernel or glibc runs that side again, not the other.
inputs ()
{
  local s=$1 side=$2 src dir commit stock image b v
  case $(src_name "$s") in
    xfstests|ltp)
      src=$(src_of "$(src_name "$s")")
      [ "${src%% *}" != none ] || { echo "$src"; return; }
      read -r dir commit <<<"$src" ;;
    selftests)
      tree=$(kernel_tree)
      [ -n "$tree" ] || { echo "none no unpacked 6.12 tree in the cache (make kernel unpacks it)"; return; }
      commit=tree-${tree##*/tree-} ;;
    postgres)
      commit=$(dpkg-query -W -f '${Version}' postgresql-15 2>/dev/null) \
        || { echo "none postgresql-15 is not installed (./configure installs it)"; return; } ;;
  esac
  case $side in
    yard)
      v=baseline
      stock=$(stock_kernel)
      [ -n "$stock" ] || { echo "none no stock 6.12 kernel in the cache (make check-$s downloads it)"; return; } ;;
    new)
      v=patched
      image=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null || true)
      [ -f "$image" ] || { echo "none no new kernel (make kernel)"; return; } ;;
    *) die "inputs: unknown side '$side'" ;;
  esac
  b=$(glibc_build $v)
  [ -f "$b/.osync-installed" ] || { echo "none no $v glibc $base build (make build-both)"; return; }
  echo "suite $s $commit side $side"
  [ "$s" = selftests ] || [ "$s" = postgres ] || echo "build $(build_key "$(src_name "$s")" "$commit")"
  case $side in
    yard) echo "kernel ${stock#* } $(sha256sum < "${stock%% *}" | cut -c1-16)" ;;
    new) echo "kernel $(sha256sum < "$image" | cut -c1-16)" ;;
  esac
  echo "glibc-$v $(cat "$b/.osync-key")"
  # What runs a side: the guest's scripts and this script's functions
  # that boot it (declare -f: their text, so that an edit elsewhere in
  # this script keeps the cached runs).
  echo "scripts $( { cat "$OSYNC_TOP"/tests/qemu/hostguest.sh "$OSYNC_TOP"/tests/qemu/hostroot-*.sh \
                      "$OSYNC_TOP"/tests/qemu/init.c; declare -f "side_$s" guest disks snapshot_glibc wal_flags; } | hash_stdin)"
  case $(src_name "$s") in
    # The list without its comments (a reworded reason runs nothing
    # again) and the guest's runner.
    # xfstests-xfs: xfstests' with xfs's runner and its dmsetup.
    xfstests|ltp)
      echo "list $( { sed 's/#.*//; /^[[:space:]]*$/d' "$(list_of "$s")"; cat "$ext/$(src_name "$s")-run.sh"
                      [ "$s" != xfstests-xfs ] || cat "$ext/xfstests-xfs-run.sh" "$ext/dmsetup-links/dmsetup"
                      [ "$s" != xfstests-rwaio ] || cat "$ext/xfstests-rwaio-run.sh"
                      [ "$(src_name "$s")" != xfstests ] || declare -f xfstests_side
                    } | hash_stdin)" ;;
    selftests) echo "list $(cat "$ext"/selftests-run.sh | hash_stdin)" ;;
    postgres) echo "list $(cat "$ext"/pg-record.sh "$ext"/pgcommit.c "$ext"/pgcheck.py "$ext"/dropsync.c \
                             "$OSYNC_TOP"/tests/crash/crashcheck.py "$OSYNC_TOP"/tests/crash/crashdm.c \
                             "$OSYNC_TOP"/tests/crash/dmlog.h | hash_stdin) commits $PG_COMMITS states $PG_STATES" ;;
  esac
}

# sides_of SUITE: the sides a suite runs on (PostgreSQL: the new one).
sides_of ()
{
  if [ "$1" = postgres ]; then echo new; else echo yard new; fi
}

# side_dir SUITE SIDE: where that side's run for its inputs is kept
# (or "none REASON").
side_dir ()
{
  local in
  in=$(inputs "$1" "$2")
  if [ "${in%% *}" = none ]; then
    echo "$in"
  else
    echo "$sc/sides/$1-$2-$(printf '%s\n' "$in" | hash_stdin)"
  fi
}

# run_dir SUITE: where the comparison of the sides is kept (or "none
# REASON"): keyed by the sides' keys and what judges them: tally.py and
# the lines of known-differences that tally.py reads for SUITE, with the
# file's comments (so that a reason given for one suite runs no other
# again).
run_dir ()
{
  local side d keys=
  for side in $(sides_of "$1"); do
    d=$(side_dir "$1" "$side")
    [ "${d%% *}" != none ] || { echo "$d"; return; }
    keys="$keys ${d##*/}"
  done
  echo "$sc/runs/$1-$( { echo "$keys"; grep -E "^(#|[[:space:]]*$)|^$1[[:space:]]" "$ext/known-differences"
                         cat "$ext/tally.py"; } | hash_stdin)"
}

PG_COMMITS=${PG_COMMITS:-120}
PG_STATES=${PG_STATES:-200}

# --- Building --------------------------------------------------------

# build SUITE: the built tree of the suite (cached); prints its path.
build ()
{
  local s=$1 src dir commit key out work
  src=$(src_of "$s")
  [ "${src%% *}" != none ] || die "$s: ${src#none }"
  read -r dir commit <<<"$src"
  key=$(build_key "$s" "$commit")
  out=$sc/build/$s-${commit:0:12}-$key
  if [ -f "$out/.osync-built" ]; then
    echo "$out"
    return
  fi
  mkdir -p "$sc/build"
  # The two sides of a run build at once (each in its own subshell,
  # where $$ is still the parent's): one builds, the other waits for it
  # and takes its tree.
  local lock
  exec {lock}> "$out.lock"
  flock "$lock"
  if [ -f "$out/.osync-built" ]; then
    echo "$out"
    return
  fi
  work=$out.tmp.$BASHPID
  rm -rf "$work"
  mkdir -p "$work"
  note "building $s ${commit:0:12} in $out (log: $out.log)"
  git -C "$dir" archive "$commit" | tar -x -C "$work" \
    || die "cannot export $commit of $dir"
  : > "$out.log"
  local p
  for p in "$ext/$s"/*.patch; do
    [ -f "$p" ] || continue
    "$OSYNC_TOP/driver/facts.py" subst "$p" > "$work/.osync.patch" \
      || die "cannot substitute the facts in $p"
    (cd "$work" && git apply -p1 .osync.patch) >> "$out.log" 2>&1 \
      || { cat "$out.log" >&2; die "tests/external/$s/${p##*/} does not apply to $s ${commit:0:12}; rebase it"; }
    rm -f "$work/.osync.patch"
  done
  case $s in
    xfstests)
      (cd "$work" && nice make -j"$(( $(nproc) + 1 ))") >> "$out.log" 2>&1 \
        || { tail -n 20 "$out.log" >&2; die "the xfstests build failed; see $out.log"; } ;;
    ltp)
      (cd "$work" && nice make autotools && nice ./configure \
         && nice make -C lib -j"$(( $(nproc) + 1 ))" \
         && for d in $(awk '$1 == "dir" { print $2 }' "$ext/ltp.list"); do
              nice make -C "testcases/kernel/syscalls/$d" -j"$(( $(nproc) + 1 ))" || exit 1
            done) >> "$out.log" 2>&1 \
        || { tail -n 20 "$out.log" >&2; die "the LTP build failed; see $out.log"; } ;;
  esac
  touch "$work/.osync-built"
  mv -T "$work" "$out" 2>/dev/null || rm -rf "$work"
  echo "$out"
}

# build_selftests: the openat2 selftests of the unpacked 6.12 tree.
build_selftests ()
{
  local tree out work
  tree=$(kernel_tree)
  [ -n "$tree" ] || die "no unpacked 6.12 tree in the cache; run make kernel first"
  out=$sc/build/selftests-${tree##*/tree-}-$( { declare -f build_selftests; build_tools; } | hash_stdin)
  if [ -f "$out/.osync-built" ]; then
    echo "$out"
    return
  fi
  work=$out.tmp.$$
  rm -rf "$work"
  mkdir -p "$work/kbuild" "$work/bin"
  note "building the openat2 selftests of $tree in $out"
  (nice make -C "$tree" O="$work/kbuild" headers \
     && nice make -C "$tree/tools/testing/selftests/openat2" OUTPUT="$work/bin" \
          KHDR_INCLUDES="-isystem $work/kbuild/usr/include") > "$out.log" 2>&1 \
    || { tail -n 20 "$out.log" >&2; die "the openat2 selftests do not build; see $out.log"; }
  rm -rf "$work/kbuild"
  touch "$work/.osync-built"
  mv -T "$work" "$out" 2>/dev/null || rm -rf "$work"
  echo "$out"
}

# --- Running ---------------------------------------------------------

# snapshot_glibc VARIANT DIR: copy the glibc build's libraries to DIR
# (the cache's build may be rebuilt by another run meanwhile).
snapshot_glibc ()
{
  local b key
  b=$(glibc_build "$1")
  key=$(cat "$b/.osync-key")
  mkdir -p "$2/lib64" "$2/usr/lib64"
  cp -a "$b/root/lib64/." "$2/lib64/"
  [ ! -d "$b/root/usr/lib64/gconv" ] || cp -a "$b/root/usr/lib64/gconv" "$2/usr/lib64/"
  [ "$(cat "$b/.osync-key")" = "$key" ] \
    || die "the $1 glibc in $b changed while it was copied; run again"
}

# guest SIDE OUT TIMEOUT ARGS...: boot SIDE (yard: stock 6.12 and the
# unpatched glibc; new: the new kernel and the patched glibc) on two
# processors, its glibc copied into OUT first (the cache's build may
# be rebuilt by another run meanwhile).
guest ()
{
  local side=$1 out=$2 t=$3 kernel kconfig v
  shift 3
  case $side in
    yard)
      v=baseline kernel=stock
      kconfig=$(ls "$(dirname "$(stock_kernel | cut -d' ' -f1)")"/config-* | head -n 1) ;;
    new)
      v=patched kernel=$(cat "$OSYNC_STATE/kernel-image")
      kconfig=$(dirname "$kernel")/config ;;
  esac
  # The kernel's configuration, which LTP's tests read (KCONFIG_PATH).
  [ -f "$kconfig" ] || die "no configuration file of the $side kernel ($kconfig)"
  snapshot_glibc "$v" "$out/glibc"
  nice "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel "$kernel" \
    --glibc "$out/glibc" --out "$out" --timeout "$t" --smp 2 \
    --env "KCONFIG_PATH=$kconfig" "$@"
  local rc=$?
  rm -rf "$out/glibc"
  return $rc
}

# disks DIR NAME:MB...: sparse disk images.
disks ()
{
  local d=$1 x
  shift
  for x in "$@"; do
    rm -f "$d/${x%%:*}.img"
    truncate -s "${x#*:}M" "$d/${x%%:*}.img"
  done
}

# side_ltp|side_xfstests|side_xfstests-xfs|side_xfstests-rwaio|
# side_selftests SIDE DIR: one side's guest run, which writes DIR/results.txt ("TEST RESULT" lines:
# PASS, FAIL, SKIP) and DIR/status (the guest script's exit status).
side_ltp ()
{
  local b
  b=$(build ltp)
  disks "$2" tmp:1024 dev:1024
  guest "$1" "$2" 7200 --drive "$2/tmp.img" --drive "$2/dev.img" \
    --run "$ext/ltp-run.sh" "$b" "$ext/ltp.list" /dev/vda /dev/vdb
}

# xfstests_side SIDE DIR FSTYP RUNNER LIST: one side of the xfstests
# suites: xfstests' build, run by RUNNER on FSTYP over fresh disks in a
# guest; and if a test hung (the runner then writes DIR/hung and ends
# the guest at once, xfstests-run.sh says why), again in a new guest on
# fresh disks for the tests of LIST left.  Each boot but the last keeps
# its console as DIR/console-N.log.
xfstests_side ()
{
  local side=$1 d=$2 fstyp=$3 runner=$4 list=$5 b boot=1 rc n left
  b=$(build xfstests)
  : > "$d/results.txt"
  while :; do
    n=$(sed -e 's/#.*//' "$list" | awk 'NF' | wc -l)
    rm -f "$d/hung" "$d/status"
    disks "$d" test:3072 scratch:3072 logw:8192
    rc=0
    guest "$side" "$d" 14400 --drive "$d/test.img" --drive "$d/scratch.img" --drive "$d/logw.img" \
      --run "$runner" "$b" "$fstyp" "$list" /dev/vda /dev/vdb /dev/vdc || rc=$?
    [ -f "$d/hung" ] || return $rc
    mv "$d/console.log" "$d/console-$boot.log"
    boot=$((boot + 1))
    sed -e 's/#.*//' "$5" | awk 'NF { print $1 }' \
      | { grep -vxF -f <(cut -d' ' -f1 "$d/results.txt") || [ $? = 1 ]; } > "$d/left-$boot.list"
    left=$(wc -l < "$d/left-$boot.list")
    # A hung boot reports its hung test, so the list shrinks.
    if [ "$left" -ge "$n" ]; then
      echo "xfstests_side: error: a guest hung and reported no test; $left tests left"
      return 1
    elif [ "$left" = 0 ]; then
      rm -f "$d/hung"
      echo 0 > "$d/status"
      return 0
    fi
    list=$d/left-$boot.list
    echo "xfstests_side: boot $((boot - 1)) ended on a hung test; boot $boot runs the $left tests left"
  done
}

side_xfstests ()
{
  xfstests_side "$1" "$2" ext4 "$ext/xfstests-run.sh" "$ext/xfstests.list"
}

# The same build, list and runner on xfs, whose reflink lets
# generic/457 run there; /dev/mapper's names are links to dm-N, as
# under udev (xfstests-xfs-run.sh says why).
side_xfstests-xfs ()
{
  xfstests_side "$1" "$2" xfs "$ext/xfstests-xfs-run.sh" "$ext/xfstests.list"
}

# The quick tests of the rw and aio groups: xfstests' build and disks
# on ext4, with the suite's own list, and a /dev/fd as on a booted
# system (xfstests-rwaio-run.sh says why).
side_xfstests-rwaio ()
{
  xfstests_side "$1" "$2" ext4 "$ext/xfstests-rwaio-run.sh" "$ext/xfstests-rwaio.list"
}

side_selftests ()
{
  local b
  b=$(build_selftests)
  disks "$2" tmp:256
  guest "$1" "$2" 3600 --drive "$2/tmp.img" --run "$ext/selftests-run.sh" "$b/bin" /dev/vda
}

# run_side SUITE SIDE: that side's run for its inputs, unless cached.
run_side ()
{
  local s=$1 side=$2 d rc=0 t0
  d=$(side_dir "$s" "$side")
  [ "${d%% *}" != none ] || die "$s, $side side: ${d#none }"
  if [ -f "$d/done" ]; then
    note "$s, $side side: cached ($d, $(cat "$d/when"))"
    return 0
  fi
  rm -rf "$d"
  mkdir -p "$d"
  inputs "$s" "$side" > "$d/inputs"
  t0=$(date +%s)
  note "$s, $side side: running in $d"
  if [ "$s" = postgres ]; then
    side_postgres "$side" "$d" > "$d/summary.txt" 2> "$d/run.log" || rc=$?
    cp "$d/summary.txt" "$d/results.txt"
  else
    "side_$s" "$side" "$d" > "$d/run.log" 2>&1 || rc=$?
  fi
  rm -f "$d"/*.img
  echo "wall $(( $(date +%s) - t0 )) s, ended $(date -u +%Y-%m-%dT%H:%MZ)" > "$d/when"
  if [ $rc != 0 ] || [ ! -s "$d/results.txt" ] || [ "$(cat "$d/status" 2>/dev/null)" != 0 ]; then
    tail -n 5 "$d/run.log" >&2
    echo "FAIL: $s: the $side side did not run to its end (see $d/run.log, $d/console.log)"
    return 1
  fi
  touch "$d/done"
  note "$s, $side side: done, $(cat "$d/when")"
}

# tally SUITE: compare the two sides' cached results.
tally ()
{
  "$PYTHON" "$ext/tally.py" --suite "$1" --yard "$(side_dir "$1" yard)/results.txt" \
    --new "$(side_dir "$1" new)/results.txt" --known "$ext/known-differences" \
    --table "$rdir/result.md"
}

# wal_flags OCTAL: what the open flags OCTAL of a descriptor ask of
# writes: sync (O_SYNC), dsync (O_DSYNC alone) or none.
wal_flags ()
{
  local fl=$((8#$1))
  if (( (fl & 8#4010000) == 8#4010000 )); then
    echo sync
  elif (( fl & 8#10000 )); then
    echo dsync
  else
    echo none
  fi
}

# side_postgres new DIR: the PostgreSQL power cuts (the new side only);
# writes DIR/summary.txt (PASS and FAIL lines), DIR/result.md (the
# table), DIR/results.txt and DIR/status.
side_postgres ()
{
  local d=$2 s k states w=$2/work n=$PG_COMMITS ok=1
  local settings="open_datasync open_sync fsync_off open_datasync_dropped"
  local pgbin=/usr/lib/postgresql/15/bin
  mkdir -p "$d/root" "$d/bin" "$w"
  chmod 755 "$d" "$w"
  gcc -static -O2 -Wall -o "$d/bin/crashdm" "$OSYNC_TOP/tests/crash/crashdm.c" \
    || die "cannot build tests/crash/crashdm.c"
  gcc -O2 -Wall -I"$(pg_config --includedir)" -I"$OSYNC_TOP/tests/crash" \
    -o "$d/bin/pgcommit" "$ext/pgcommit.c" -lpq || die "cannot build tests/external/pgcommit.c"
  gcc -O2 -Wall -shared -fPIC -o "$d/bin/dropsync.so" "$ext/dropsync.c" -ldl \
    || die "cannot build tests/external/dropsync.c"
  # The cluster, made on the host (initdb under TCG takes minutes): a
  # table t, a checkpoint, a clean shutdown; then the file system
  # image that holds it as /pgdata.
  chown 65534:65534 "$d/root"
  mkdir -p "$w/sock"
  chown 65534:65534 "$w/sock"
  nobody () { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"); }
  nobody "$pgbin/initdb" -D "$d/root/pgdata" -U postgres --auth=trust \
    --wal-segsize=1 -E UTF8 --locale=C > "$d/initdb.log" 2>&1 \
    || { cat "$d/initdb.log" >&2; die "initdb failed"; }
  nobody "$pgbin/pg_ctl" -D "$d/root/pgdata" -l "$w/sock/setup.log" -w \
    -o "-k $w/sock -c listen_addresses=" start > /dev/null \
    && nobody "$pgbin/psql" -q -h "$w/sock" -U postgres -d postgres \
         -c 'CREATE TABLE t (n integer PRIMARY KEY)' -c CHECKPOINT \
    && nobody "$pgbin/pg_ctl" -D "$d/root/pgdata" -m fast -w stop > /dev/null \
    || die "cannot make the cluster's table (see $w/sock/setup.log)"
  truncate -s 160M "$d/base.img"
  mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -d "$d/root" "$d/base.img" \
    || die "mkfs.ext4 -d failed"
  local drives=() runs=() letters=(a b c d e f g h) i=0
  for s in $settings; do
    cp "$d/base.img" "$d/data-$s.img"
    rm -f "$d/log-$s.img"
    truncate -s 1024M "$d/log-$s.img"
    drives+=(--drive "$d/data-$s.img" --drive "$d/log-$s.img")
    runs+=("$s:/dev/vd${letters[i]}:/dev/vd${letters[i + 1]}")
    i=$((i + 2))
  done
  guest new "$d/guest" 3600 "${drives[@]}" --run "$ext/pg-record.sh" "$d/bin" "$n" "${runs[@]}" \
    || { echo "FAIL: postgres: the guest did not record the runs (see $d/guest/console.log)"; return 1; }
  [ "$(cat "$d/guest/status")" = 0 ] \
    || { echo "FAIL: postgres: pg-record.sh failed in the guest (see $d/guest/console.log)"; return 1; }
  local console=$d/guest/console.log table=$d/pg-table.md
  : > "$table"
  for s in $settings; do
    grep -q "^pgcommit: ok pg.$s $n\$" "$console" \
      || { echo "FAIL: postgres: pg.$s: the client did not commit $n transactions (see $console)"; ok=0; continue; }
    # The WAL's descriptor has the flag the setting asks for, and only it.
    local flags want
    flags=$(awk -v s="pg.$s" '$1 == "pgcommit:" && $2 == "walfd" { print $3; exit }' \
              <(sed -n "/crashdm: ok pg.$s is/,/pgcommit: ok pg.$s/p" "$console"))
    case $s in
      open_datasync) want=dsync ;; open_sync) want=sync ;;
      fsync_off|open_datasync_dropped) want=none ;;
    esac
    if [ -z "$flags" ]; then
      echo "FAIL: postgres: pg.$s: no WAL descriptor of the client's server process seen"
      ok=0
    elif [ "$(wal_flags "$flags")" != "$want" ]; then
      echo "FAIL: postgres: pg.$s: the WAL is open with flags $flags, not $want"
      ok=0
    else
      echo "PASS: postgres: pg.$s: the WAL is open with flags $flags ($want)"
    fi
    k=durable states=$PG_STATES
    case $s in
      fsync_off) k=control ;;
      # The planted bug: fewer states suffice to see it lose.
      open_datasync_dropped) k=planted states=$((PG_STATES / 4)) ;;
    esac
    nice "$PYTHON" "$ext/pgcheck.py" --log "$d/log-$s.img" --base "$d/base.img" \
      --label "pg.$s" --kind $k --states "$states" --table "$table" --work "$w" \
      | tee -a "$d/pgcheck.log" || ok=0
  done
  # The self-test: the check must see a commit left out.
  if nice "$PYTHON" "$ext/pgcheck.py" --log "$d/log-open_datasync.img" --base "$d/base.img" \
       --label pg.open_datasync --kind durable --states 20 --table /dev/null --work "$w" \
       --plant lost-commit > "$d/plant.log" 2>&1; then
    echo "FAIL: postgres: self-test: a commit left out of the rows passed the check"
    ok=0
  elif grep -q 'acknowledged commits lost' "$d/plant.log"; then
    echo "PASS: postgres: self-test: a commit left out of the rows is caught"
  else
    echo "FAIL: postgres: self-test: the planted run failed for another reason (see $d/plant.log)"
    ok=0
  fi
  rm -f "$d"/*.img
  rm -rf "$d/root" "$w"
  {
    echo "| setting | must | crash states | with an acknowledged commit | acknowledgements checked | did not recover | states losing commits | commits lost | states with holes | per state |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat "$table"
  } > "$d/result.md"
  # The side ran to its end: its verdict is in the PASS and FAIL lines.
  echo 0 > "$d/status"
}

# run_suite SUITE: each side's run (cached apart), then their
# comparison (PostgreSQL: its own checks), kept in the cache with a
# "good" or "bad" mark and copied to results/external-SUITE.md.
run_suite ()
{
  local s=$1 side rc=0 d
  case $(src_name "$s") in xfstests|ltp) fetch_src "$(src_name "$s")" ;; esac
  # The stock kernel (downloaded once) must be in the cache to make
  # the yardstick's key.
  "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel stock --prepare > /dev/null
  rdir=$(run_dir "$s")
  [ "${rdir%% *}" != none ] || die "$s: ${rdir#none }"
  if [ -f "$rdir/good" ]; then
    note "$s: a good run for these inputs is cached ($rdir)"
    cat "$rdir/summary.txt"
    return 0
  fi
  # The suite's build first, once (each side would otherwise start it).
  case $(src_name "$s") in
    xfstests|ltp) build "$(src_name "$s")" > /dev/null ;;
    selftests) build_selftests > /dev/null ;;
  esac
  # The sides run side by side, each in a guest of its own.
  for side in $(sides_of "$s"); do
    run_side "$s" "$side" > "$sc/.side-$s-$side.$$" &
  done
  wait || true
  for side in $(sides_of "$s"); do
    cat "$sc/.side-$s-$side.$$"
    ! grep -q '^FAIL:' "$sc/.side-$s-$side.$$" || rc=1
    rm -f "$sc/.side-$s-$side.$$"
    d=$(side_dir "$s" "$side")
    [ -f "$d/done" ] || rc=1
  done
  [ $rc = 0 ] || die "$s: a side did not run to its end; nothing is cached as its result"
  rm -rf "$rdir"
  mkdir -p "$rdir"
  if [ "$s" = postgres ]; then
    d=$(side_dir "$s" new)
    cp "$d/summary.txt" "$rdir/summary.txt"
    cp "$d/result.md" "$rdir/result.md"
  else
    tally "$s" > "$rdir/summary.txt" || true
  fi
  for side in $(sides_of "$s"); do
    d=$(side_dir "$s" "$side")
    echo "$side: $(cat "$d/when") ($d)"
  done > "$rdir/when"
  cat "$rdir/summary.txt"
  mkdir -p "$OSYNC_RESULTS"
  { echo "# $s"; echo; sed 's/^/- /' "$rdir/when"; echo; cat "$rdir/summary.txt"; echo
    cat "$rdir/result.md" 2>/dev/null; } > "$OSYNC_RESULTS/external-$s.md"
  if grep -q '^PASS:' "$rdir/summary.txt" && ! grep -q '^FAIL:' "$rdir/summary.txt"; then
    touch "$rdir/good"
  else
    touch "$rdir/bad"
    return 1
  fi
}

# selftest_hang: the self-test of a hung xfstests test (xfstests-run.sh
# and xfstests_side): tests/external/hang-check stands in for xfstests'
# check, on Debian's stock 6.12 with the unpatched glibc, and the runner
# stops tests after 10 s.  Expected: plant/hang is a FAIL that names the
# blocked task, the guest ends, a second guest runs the three tests
# left, and the side ends.  The bugs it catches: a clean-up that waits
# on the blocked task (the guest never ends: the old runner), a sync on
# the way out (the same), a second boot that runs the whole list again
# or loses a test, results truncated by the second boot.  Cached by its
# inputs in $sc/selftest-hang-KEY.
selftest_hang_key ()
{
  local stock
  stock=$(stock_kernel)
  [ -n "$stock" ] || { echo "none no stock 6.12 kernel in the cache (make check fetches it)"; return; }
  { cat "$OSYNC_TOP"/tests/qemu/hostguest.sh "$OSYNC_TOP"/tests/qemu/hostroot-*.sh \
        "$OSYNC_TOP"/tests/qemu/init.c "$ext/xfstests-run.sh" "$ext/hang-check"
    sha256sum < "${stock%% *}"; cat "$(glibc_build baseline)/.osync-key"
    declare -f selftest_hang xfstests_side guest disks snapshot_glibc; } | hash_stdin
}

selftest_hang ()
{
  local key d
  key=$(selftest_hang_key)
  [ "${key%% *}" != none ] || die "${key#none }"
  d=$sc/selftest-hang-$key
  if [ -f "$d/done" ]; then
    note "the hang self-test: cached ($d, $(cat "$d/when"))"
  else
    rm -rf "$d"
    mkdir -p "$d/build" "$d/out"
    cp "$ext/hang-check" "$d/build/check"
    printf '%s\n' plant/pass1 plant/hang plant/pass2 plant/slow plant/pass3 > "$d/list"
    # The stand-in build, a limit of 10 s and a guest timeout of 15
    # minutes, for this run only.
    hang_build=$d/build
    build () { echo "$hang_build"; }
    eval "guest_suite () $(declare -f guest | tail -n +2)"
    guest () { local a=$1 b=$2; shift 3; guest_suite "$a" "$b" 900 --env XFSTESTS_TEST_LIMIT=10 "$@"; }
    local t0 rc=0
    t0=$(date +%s)
    note "the hang self-test: running in $d (about 4 minutes)"
    xfstests_side yard "$d/out" ext4 "$ext/xfstests-run.sh" "$d/list" > "$d/run.log" 2>&1 || rc=$?
    echo "wall $(( $(date +%s) - t0 )) s, ended $(date -u +%Y-%m-%dT%H:%MZ)" > "$d/when"
    rm -f "$d"/out/*.img
    {
      printf '%s\n' "plant/pass1 PASS" \
        "plant/hang FAIL hung: stopped after 10 s; two minutes later, tasks blocked in the kernel: dd" \
        "plant/pass2 PASS" "plant/slow SKIP did not finish within 10 s under emulation (TCG); stopped" \
        "plant/pass3 PASS" | diff - "$d/out/results.txt" > "$d/diff" \
        && [ $rc = 0 ] && [ "$(cat "$d/out/status" 2>/dev/null)" = 0 ] \
        && [ -f "$d/out/console-1.log" ] && [ ! -f "$d/out/console-2.log" ]
    } || { tail -n 5 "$d/run.log" >&2; cat "$d/diff" >&2
           die "the hang self-test failed (status $rc; see $d/run.log and $d/out)"; }
    touch "$d/done"
    note "the hang self-test: done, $(cat "$d/when")"
  fi
}

report ()
{
  local s rdir
  for s in $SUITES; do
    rdir=$(run_dir "$s" 2>/dev/null || echo "none the inputs cannot be read")
    if [ "${rdir%% *}" = none ]; then
      rdir=${rdir#none }
      [ "$rdir" != "${rdir/make check-$s/}" ] || rdir="$rdir (make check-$s)"
      echo "UNSUPPORTED: external: $s: $rdir"
    elif [ -f "$rdir/good" ]; then
      echo "PASS: external: $s: the cached run for these inputs is good, $(grep -c '^PASS:' "$rdir/summary.txt") checks passed ($(tr '\n' ' ' < "$rdir/when"))"
    elif [ -f "$rdir/bad" ]; then
      echo "FAIL: external: $s: the cached run for these inputs failed; see $rdir/summary.txt"
    else
      echo "UNSUPPORTED: external: $s: no cached run for these inputs (make check-$s runs it)"
    fi
  done
  local key
  key=$(selftest_hang_key 2>/dev/null || echo "none its inputs cannot be read")
  if [ "${key%% *}" = none ]; then
    echo "UNSUPPORTED: external: the xfstests runner's hang self-test: ${key#none }"
  elif [ -f "$sc/selftest-hang-$key/done" ]; then
    echo "PASS: external: the xfstests runner's hang self-test: the cached run for these inputs passed ($(cat "$sc/selftest-hang-$key/when"))"
  else
    echo "UNSUPPORTED: external: the xfstests runner's hang self-test: no cached run for these inputs (make check-xfstests-hang runs it)"
  fi
}

[ $# -ge 1 ] || die "usage: $0 run SUITE... | report"
step=$1
shift
case $step in
  run)
    [ $# -ge 1 ] || die "usage: $0 run SUITE... ($SUITES)"
    rc=0
    for s in "$@"; do
      case " $SUITES " in *" $s "*) ;; *) die "unknown suite '$s' ($SUITES)" ;; esac
      run_suite "$s" || rc=1
    done
    exit $rc ;;
  side)
    # One side of one suite, for work on it: suites.sh side SUITE SIDE.
    [ $# = 2 ] || die "usage: $0 side SUITE yard|new"
    case $(src_name "$1") in xfstests|ltp) fetch_src "$(src_name "$1")" ;; esac
    "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel stock --prepare > /dev/null
    run_side "$1" "$2" ;;
  report) report ;;
  selftest-hang)
    "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel stock --prepare > /dev/null
    selftest_hang ;;
  table)
    # The table of the cached run for the present inputs (for results/
    # crash.md: PostgreSQL's power cuts beside the synthetic ones), or
    # why there is none; never builds, boots or fetches.
    [ $# = 1 ] || die "usage: $0 table SUITE"
    case " $SUITES " in *" $1 "*) ;; *) die "unknown suite '$1' ($SUITES)" ;; esac
    rdir=$(run_dir "$1")
    if [ "${rdir%% *}" = none ]; then
      echo "No run for the present inputs: ${rdir#none } (make check-$1)."
    elif [ -f "$rdir/good" ]; then
      sed 's/^/- /' "$rdir/when"
      echo
      cat "$rdir/result.md"
    elif [ -f "$rdir/bad" ]; then
      echo "The cached run for the present inputs FAILED: see $rdir/summary.txt."
    else
      echo "No cached run for the present inputs (make check-$1 runs it)."
    fi ;;
  inputs) inputs "$@" ;;
  *) die "unknown step '$step'; see the comment at the top of $0" ;;
esac
