#!/bin/bash
# Cross-build the patched glibc for other Linux ports with Debian's
# cross compilers and run glibc's own check-abi there: the abilists the
# series writes for every port, checked against the libraries glibc
# really builds for that port, not only against the script that wrote
# them.  Nothing runs on the target.  `make check-cross'; it takes
# about a quarter of an hour a port here, which is outside make check's
# time.
#
#   check-cross.sh --src PATCHED-GLIBC-TREE --cache DIR --out RESULTS-DIR
#                  [PORT...]
#
# PORT is an id of tests/ports (default: aarch64 hppa mips-o32 sparc64);
# its compiler and kernel headers come from that table.  Each build is
# kept in DIR/cross/PORT, keyed by the tree, the compiler and this
# script, so a second run costs nothing.  Writes RESULTS-DIR/cross.md
# (date, ports, compilers, results) and RESULTS-DIR/cross.log; exits
# non-zero if a port does not build or fails check-abi.
#
#   check-cross.sh --src TREE --cache DIR --out RESULTS --print-key PORT
#
# prints "KEY OBJ-DIR" of PORT's build without building anything (for
# the cache keys of the runs that use the build, driver/port-guest.sh).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"

src= cache= out= ports=() printkey=0
while [ $# -gt 0 ]; do
  case $1 in
    --src) src=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --print-key) printkey=1; shift ;;
    -*) die "unknown option '$1'; see the comment at the top of $0" ;;
    *) ports+=("$1"); shift ;;
  esac
done
[ -n "$src" ] && [ -n "$cache" ] && [ -n "$out" ] \
  || die "usage: $0 --src GLIBC-TREE --cache DIR --out RESULTS-DIR [PORT...]"
[ -f "$src/version.h" ] || die "$src is not a glibc source tree; run make dist first"
[ ${#ports[@]} -gt 0 ] || ports=(aarch64 hppa mips-o32 sparc64)

PORTS_SRC=$src PORTS_CACHE=$cache/ports PORTS_OUT=$out PORTS_PROG=check-cross.sh
. "$top/tests/ports/lib.sh"

tree=$(git -C "$src" rev-parse 'HEAD^{tree}' 2>/dev/null) \
  || die "$src is not the git tree make dist leaves; run make dist"
version=$(sed -n 's/^#define VERSION "\(.*\)"/\1/p' "$src/version.h")

# build_key: the key of the loaded port's build (after ports_load).
build_key ()
{
  local cc_bin=${P_CONF_CC%% *}
  { echo "$tree $P_HOST $P_CONF_CC $P_WITH_HEADERS"; "$cc_bin" --version
    "${cc_bin%-gcc}-as" --version; cat "$0"; } | sha256sum | cut -c1-16
}
if [ $printkey = 1 ]; then
  [ ${#ports[@]} = 1 ] || die "--print-key wants one port"
  ports_load "${ports[0]}" || die "no port '${ports[0]}' in tests/ports/lib.sh"
  ports_select_method
  [ "$P_METHOD" = cross ] || die "${ports[0]}: no cross compiler: $P_REASON"
  echo "$(build_key) $cache/cross/${ports[0]}/obj"
  exit 0
fi
mkdir -p "$out" "$cache/cross"
log=$out/cross.log
: > "$log"
rows=() status=0
for id in "${ports[@]}"; do
  ports_load "$id" || die "no port '$id' in tests/ports/lib.sh (its ids: $(ports_ids | tr '\n' ' '))"
  ports_select_method
  if [ "$P_METHOD" != cross ]; then
    echo "FAIL: $id: no cross compiler: $P_REASON" | tee -a "$log"
    rows+=("| $id | $P_HOST | none: $P_REASON | not built | not run |")
    status=1
    continue
  fi
  cc_bin=${P_CONF_CC%% *}
  ccver=$("$cc_bin" -dumpfullversion 2>/dev/null || "$cc_bin" -dumpversion)
  asver=$("${cc_bin%-gcc}-as" --version 2>/dev/null | head -n 1 | awk '{ print $NF }')
  key=$(build_key)
  b=$cache/cross/$id
  if [ ! -f "$b/obj/.osync-done" ] || [ "$(cat "$b/obj/.osync-key" 2>/dev/null)" != "$key" ]; then
    rm -rf "$b"
    mkdir -p "$b/obj"
    echo "$key" > "$b/obj/.osync-key"
    git clone -q --shared "$src" "$b/src" || die "cannot copy $src to $b/src"
    note "cross: $id ($P_HOST, $P_CONF_CC): configure and build in $b/obj"
    cc=$P_CONF_CC
    # Debian's cross gcc packages bring no C++ compiler; CXX=false makes
    # configure drop C++ (an empty CXX lets it pick the host's g++,
    # whose x86_64 objects the port's linker then refuses).
    if command -v ccache >/dev/null; then
      export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$cache CCACHE_NOHASHDIR=1
      cc="ccache $cc"
    fi
    (cd "$b/obj" && "$b/src/configure" --host="$P_HOST" --build=x86_64-linux-gnu \
       --prefix=/usr --with-headers="$P_WITH_HEADERS" --disable-werror \
       --disable-nscd --disable-timezone-tools --disable-mathvec \
       CC="$cc" CXX=false CFLAGS=-O2 MAKEINFO=: > configure.log 2>&1) \
      || { echo "FAIL: $id: configure (see $b/obj/configure.log)" | tee -a "$log"
           rows+=("| $id | $P_HOST | gcc $ccver, binutils $asver | configure failed | not run |")
           status=1; continue; }
    if ! (cd "$b/obj" && make -j"$(nproc)" > build.log 2>&1); then
      echo "FAIL: $id: build (see $b/obj/build.log)" | tee -a "$log"
      tail -n 20 "$b/obj/build.log" >> "$log"
      rows+=("| $id | $P_HOST | gcc $ccver, binutils $asver | build failed | not run |")
      status=1
      continue
    fi
    (cd "$b/obj" && make -k check-abi > check-abi.log 2>&1) || true
    touch "$b/obj/.osync-done"
  fi
  results=$(cd "$b/obj" && find . -name 'check-abi-*.test-result' | sort)
  if [ -z "$results" ]; then
    echo "FAIL: $id: check-abi gave no result (see $b/obj/check-abi.log)" | tee -a "$log"
    rows+=("| $id | $P_HOST | gcc $ccver, binutils $asver | built | no result |")
    status=1
    continue
  fi
  n=0 bad=()
  for r in $results; do
    n=$((n + 1))
    line=$(head -n 1 "$b/obj/$r")
    case $line in PASS:*) ;; *) bad+=("${line#*: }") ;; esac
  done
  if [ ${#bad[@]} -eq 0 ]; then
    echo "PASS: $id: check-abi, $n libraries" | tee -a "$log"
    rows+=("| $id | $P_HOST | gcc $ccver, binutils $asver | built | PASS ($n libraries) |")
  else
    echo "FAIL: $id: check-abi: ${bad[*]} (see $b/obj/check-abi.log)" | tee -a "$log"
    grep -A20 '^---' "$b/obj/check-abi.log" | head -n 60 >> "$log" || true
    rows+=("| $id | $P_HOST | gcc $ccver, binutils $asver | built | FAIL: ${bad[*]} |")
    status=1
  fi
done

{
  echo "glibc $version with the series, cross-built on $(date -u +%Y-%m-%d) with Debian's cross compilers; glibc's check-abi compares each library's exported symbols and versions with the port's abilist."
  echo
  echo "| port | host | compiler | build | check-abi |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$out/cross.md"
cat "$out/cross.md"
exit $status
