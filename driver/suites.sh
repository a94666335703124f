#!/bin/bash
# The suites others wrote, run against the project in QEMU guests with
# the host's userspace (tests/qemu/hostguest.sh): the patched glibc
# 2.44 on the new kernel, against the unpatched glibc 2.44 on Debian
# 13's stock 6.12 in the same run (issue 25, sections 3 and 5).
#
#   suites.sh run SUITE...   build (cached) and run SUITE, keep the
#                            result in the cache, keyed by every input
#   suites.sh report         for make check: one line per suite, "PASS:"
#                            when a good cached result for the current
#                            inputs exists, "FAIL:" when a bad one does,
#                            else "UNSUPPORTED:" with the reason; never
#                            builds, boots or fetches anything
#
# SUITE: xfstests, ltp, selftests (the kernel's openat2 selftests),
# postgres (PostgreSQL 15 across power cuts).  The environment (the
# Makefile sets it): OSYNC_TOP, OSYNC_CACHE, OSYNC_STATE (the glibc
# builds and the new kernel of make check), OSYNC_RESULTS, and
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

SUITES="xfstests ltp selftests postgres"

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

# fetch_src SUITE: clone or update a URL source into the cache (run only).
fetch_src ()
{
  local var url dir
  case $1 in xfstests) var=XFSTESTS_SRC ;; ltp) var=LTP_SRC ;; esac
  url=${!var:-}
  [ -n "$url" ] || die "no $1 source: give $var=DIR (a git repository of $1) or $var=URL (its upstream git repository)"
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
  { echo "$1 $2"; patches_of "$1"; build_tools; cat "$0"; } | hash_stdin
}

# kernel_tree: the unpacked 6.12 tree that kernel/build-kernel.sh made
# (the new kernel's source without the series), or "".
kernel_tree ()
{
  local image src
  image=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null) || return 0
  src=$(awk '{ print $2 }' "$(dirname "$image")/source" 2>/dev/null) || return 0
  [ -z "$src" ] || [ ! -f "$OSYNC_CACHE/kernel/tree-${src:0:16}/.osync-unpacked" ] \
    || echo "$OSYNC_CACHE/kernel/tree-${src:0:16}"
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

# inputs SUITE: every input of a run of SUITE, one per line, on
# standard output; or "none REASON" on the first line.
inputs ()
{
  local s=$1 src dir commit stock image v b tree
  case $s in
    xfstests|ltp)
      src=$(src_of "$s")
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
  stock=$(stock_kernel)
  [ -n "$stock" ] || { echo "none no stock 6.12 kernel in the cache (make check-$s downloads it)"; return; }
  image=$(cat "$OSYNC_STATE/kernel-image" 2>/dev/null || true)
  [ -f "$image" ] || { echo "none no new kernel (make kernel)"; return; }
  for v in baseline patched; do
    b=$(glibc_build $v)
    [ -f "$b/.osync-installed" ] || { echo "none no $v glibc $base build (make build-both)"; return; }
  done
  echo "suite $s $commit"
  [ "$s" = selftests ] || [ "$s" = postgres ] || echo "build $(build_key "$s" "$commit")"
  echo "stock ${stock#* } $(sha256sum < "${stock%% *}" | cut -c1-16)"
  echo "new $(sha256sum < "$image" | cut -c1-16)"
  for v in baseline patched; do
    echo "glibc-$v $(cat "$(glibc_build $v)/.osync-key")"
  done
  echo "scripts $(cat "$0" "$OSYNC_TOP"/tests/qemu/hostguest.sh "$OSYNC_TOP"/tests/qemu/hostroot-*.sh \
                    "$OSYNC_TOP"/tests/qemu/init.c "$ext"/known-differences | hash_stdin)"
  case $s in
    xfstests) echo "list $(cat "$ext"/xfstests.list "$ext"/xfstests-run.sh | hash_stdin)" ;;
    ltp) echo "list $(cat "$ext"/ltp.list "$ext"/ltp-run.sh | hash_stdin)" ;;
    selftests) echo "list $(cat "$ext"/selftests-run.sh | hash_stdin)" ;;
    postgres) echo "list $(cat "$ext"/pg-record.sh "$ext"/pgcommit.c "$ext"/pgcheck.py "$ext"/dropsync.c \
                             "$OSYNC_TOP"/tests/crash/crashcheck.py "$OSYNC_TOP"/tests/crash/crashdm.c \
                             "$OSYNC_TOP"/tests/crash/dmlog.h | hash_stdin) commits $PG_COMMITS states $PG_STATES" ;;
  esac
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
  work=$out.tmp.$$
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
  out=$sc/build/selftests-${tree##*/tree-}-$( { cat "$0"; build_tools; } | hash_stdin)
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

# guest CONFIG OUT TIMEOUT ARGS...: boot CONFIG (yard: stock 6.12 and
# the unpatched glibc; new: the new kernel and the patched glibc).
guest ()
{
  local config=$1 out=$2 t=$3 kernel kconfig
  shift 3
  case $config in
    yard)
      kernel=stock
      kconfig=$(ls "$(dirname "$(stock_kernel | cut -d' ' -f1)")"/config-* | head -n 1) ;;
    new)
      kernel=$(cat "$OSYNC_STATE/kernel-image")
      kconfig=$(dirname "$kernel")/config ;;
  esac
  # The kernel's configuration, which LTP's tests read (KCONFIG_PATH).
  [ -f "$kconfig" ] || die "no configuration file of the $config kernel ($kconfig)"
  nice "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel "$kernel" \
    --glibc "$rdir/glibc-$config" --out "$out" --timeout "$t" \
    --env "KCONFIG_PATH=$kconfig" "$@"
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

run_ltp ()
{
  local b config
  b=$(build ltp)
  for config in yard new; do
    (mkdir -p "$rdir/$config" && disks "$rdir/$config" tmp:1024 dev:1024 \
     && guest "$config" "$rdir/$config" 7200 --drive "$rdir/$config/tmp.img" \
          --drive "$rdir/$config/dev.img" --run "$ext/ltp-run.sh" "$b" "$ext/ltp.list" /dev/vda /dev/vdb \
     ; rm -f "$rdir/$config"/*.img) &
  done
  wait
}

run_xfstests ()
{
  local b config
  b=$(build xfstests)
  for config in yard new; do
    (mkdir -p "$rdir/$config" && disks "$rdir/$config" test:3072 scratch:3072 logw:8192 \
     && guest "$config" "$rdir/$config" 14400 --mem 2048 --drive "$rdir/$config/test.img" \
          --drive "$rdir/$config/scratch.img" --drive "$rdir/$config/logw.img" \
          --run "$ext/xfstests-run.sh" "$b" ext4 "$ext/xfstests.list" /dev/vda /dev/vdb /dev/vdc \
     ; rm -f "$rdir/$config"/*.img) &
  done
  wait
}

run_selftests ()
{
  local b config
  b=$(build_selftests)
  for config in yard new; do
    (mkdir -p "$rdir/$config" && disks "$rdir/$config" tmp:256 \
     && guest "$config" "$rdir/$config" 3600 --drive "$rdir/$config/tmp.img" \
          --run "$ext/selftests-run.sh" "$b/bin" /dev/vda \
     ; rm -f "$rdir/$config"/*.img) &
  done
  wait
}

# The guest runs of the suites write OUT/results.txt: "TEST RESULT"
# lines (PASS, FAIL, SKIP), and "TOTAL ..." is computed here.
tally ()
{
  local s=$1 ok=1 config f
  for config in yard new; do
    f=$rdir/$config/results.txt
    if [ ! -s "$f" ] || [ "$(cat "$rdir/$config/status" 2>/dev/null)" != 0 ]; then
      echo "FAIL: $s: the $config guest did not run the suite to its end (see $rdir/$config/console.log)"
      ok=0
    fi
  done
  [ $ok = 1 ] || return 1
  "$PYTHON" "$ext/tally.py" --suite "$s" --yard "$rdir/yard/results.txt" \
    --new "$rdir/new/results.txt" --known "$ext/known-differences" \
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

run_postgres ()
{
  local config=new d=$rdir/pg s k states w=$rdir/pg/work n=$PG_COMMITS ok=1
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
  local console=$d/guest/console.log table=$rdir/pg-table.md
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
      | tee -a "$rdir/pgcheck.log" || ok=0
  done
  # The self-test: the check must see a commit left out.
  if nice "$PYTHON" "$ext/pgcheck.py" --log "$d/log-open_datasync.img" --base "$d/base.img" \
       --label pg.open_datasync --kind durable --states 20 --table /dev/null --work "$w" \
       --plant lost-commit > "$rdir/plant.log" 2>&1; then
    echo "FAIL: postgres: self-test: a commit left out of the rows passed the check"
    ok=0
  elif grep -q 'acknowledged commits lost' "$rdir/plant.log"; then
    echo "PASS: postgres: self-test: a commit left out of the rows is caught"
  else
    echo "FAIL: postgres: self-test: the planted run failed for another reason (see $rdir/plant.log)"
    ok=0
  fi
  rm -f "$d"/*.img
  rm -rf "$d/root" "$w"
  {
    echo "| setting | must | crash states | with an acknowledged commit | acknowledgements checked | did not recover | states losing commits | commits lost | states with holes | per state |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat "$table"
  } > "$rdir/result.md"
  [ $ok = 1 ]
}

# run SUITE: a run of the suite for the current inputs, unless a good
# one is cached.
run_suite ()
{
  local s=$1 in t0 rc=0
  case $s in xfstests|ltp) fetch_src "$s" ;; esac
  # The stock kernel (downloaded once) and the new one must be there to
  # make the key.
  "$OSYNC_TOP/tests/qemu/hostguest.sh" --cache "$OSYNC_CACHE" --kernel stock --prepare > /dev/null
  in=$(inputs "$s")
  [ "${in%% *}" != none ] || die "$s: ${in#none }"
  rdir=$sc/runs/$s-$(printf '%s\n' "$in" | hash_stdin)
  if [ -f "$rdir/good" ]; then
    note "$s: a good run for these inputs is cached ($rdir)"
    cat "$rdir/summary.txt"
    return 0
  fi
  rm -rf "$rdir"
  mkdir -p "$rdir"
  echo "$in" > "$rdir/inputs"
  snapshot_glibc baseline "$rdir/glibc-yard"
  snapshot_glibc patched "$rdir/glibc-new"
  t0=$(date +%s)
  note "$s: running on stock 6.12 with glibc $base and on the new kernel with the patched glibc $base ($rdir)"
  case $s in
    ltp) run_ltp; tally ltp > "$rdir/summary.txt" || rc=1 ;;
    xfstests) run_xfstests; tally xfstests > "$rdir/summary.txt" || rc=1 ;;
    selftests) run_selftests; tally selftests > "$rdir/summary.txt" || rc=1 ;;
    postgres) run_postgres > "$rdir/summary.txt" || rc=1 ;;
  esac
  rm -rf "$rdir"/glibc-*
  echo "wall $(( $(date +%s) - t0 )) s, $(date -u +%Y-%m-%dT%H:%MZ)" > "$rdir/when"
  cat "$rdir/summary.txt"
  mkdir -p "$OSYNC_RESULTS"
  { echo "$s, $(cat "$rdir/when") ($rdir)"; echo; cat "$rdir/summary.txt"; echo
    cat "$rdir/result.md" 2>/dev/null; } > "$OSYNC_RESULTS/external-$s.md"
  if [ $rc = 0 ] && ! grep -q '^FAIL:' "$rdir/summary.txt"; then
    touch "$rdir/good"
  else
    touch "$rdir/bad"
    return 1
  fi
}

report ()
{
  local s in rdir
  for s in $SUITES; do
    in=$(inputs "$s" 2>/dev/null || echo "none the inputs cannot be read")
    if [ "${in%% *}" = none ]; then
      in=${in#none }
      [ "$in" != "${in/make check-$s/}" ] || in="$in (make check-$s)"
      echo "UNSUPPORTED: external: $s: $in"
      continue
    fi
    rdir=$sc/runs/$s-$(printf '%s\n' "$in" | hash_stdin)
    if [ -f "$rdir/good" ]; then
      echo "PASS: external: $s: the cached run of $(cat "$rdir/when") for these inputs is good: $(grep -c '^PASS:' "$rdir/summary.txt") checks passed ($rdir)"
    elif [ -f "$rdir/bad" ]; then
      echo "FAIL: external: $s: the cached run of $(cat "$rdir/when") for these inputs failed; see $rdir/summary.txt"
    else
      echo "UNSUPPORTED: external: $s: no cached run for these inputs (make check-$s runs it)"
    fi
  done
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
  report) report ;;
  inputs) inputs "$1" ;;
  *) die "unknown step '$step'; see the comment at the top of $0" ;;
esac
