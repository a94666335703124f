#!/bin/bash
# Instructions per open() and openat() call through the unpatched glibc
# and through the patched one (new version, old version, O_RSYNC and
# O_DSYNC slow paths), counted by valgrind's callgrind, which counts
# the same on any load.  Both glibcs are those of the primary base
# (OSYNC_PRIMARY_BASE in the facts file): the staging roots named by
# $OSYNC_STATE/build-{patched,baseline}-BASE-ABI.  Writes
# $OSYNC_RESULTS/bench-open.md.
# Run through 'make bench-open'.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../driver/lib.sh"
need_var OSYNC_STATE OSYNC_RESULTS ABIS
# The project's facts: OSYNC_PRIMARY_BASE (the glibc measured) and
# OSYNC_RSYNC_BIT (O_RSYNC's bit, passed to the program as a number).
facts=$("${PYTHON:-python3}" "$here/../driver/facts.py" shell) \
  || die "cannot read the facts file (driver/facts.py failed)"
eval "$facts"
base=$OSYNC_PRIMARY_BASE
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null \
  || die "valgrind is missing; install it (apt-get install valgrind) or re-run ./configure"

n=1000
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/file"
out="$OSYNC_RESULTS/bench-open.md"

ldso ()
{
  case $2 in
    x86_64) echo "$1/lib64/ld-linux-x86-64.so.2 --library-path $1/lib64" ;;
    i386) echo "$1/lib/ld-linux.so.2 --library-path $1/lib" ;;
  esac
}

# count ROOT ABI PROG FLAGS: "open openat" instructions per call.
count ()
{
  local cg="$tmp/cg.out"
  rm -f "$cg"
  valgrind -q --tool=callgrind --callgrind-out-file="$cg" \
    $(ldso "$1" "$2") "$3" "$tmp/file" "$n" "$4" 2>>"$tmp/valgrind.log" \
    || { cat "$tmp/valgrind.log" >&2; die "the benchmark failed under valgrind ($2, $3, flags $4)"; }
  callgrind_annotate --inclusive=yes --threshold=100 "$cg" \
    | awk -v n="$n" '
        /bench_openat[ \t]/ || /bench_openat$/ { gsub(",", "", $1); at = $1 / n; next }
        /bench_open[ \t]/ || /bench_open$/ { gsub(",", "", $1); op = $1 / n }
        END { if (op == "" || at == "") exit 1; printf "%.1f %.1f\n", op, at }' \
    || die "callgrind_annotate showed no bench_open/bench_openat for $3"
}

{
  echo "# Instructions per open() and openat(), unpatched and patched glibc"
  echo
  echo "| ABI | path | flags | open | vs unpatched | openat | vs unpatched |"
  echo "|---|---|---|---:|---:|---:|---:|"
} > "$out"
# state_root VARIANT ABI: the staging root of the patched or baseline
# glibc of the primary base.
state_root ()
{
  local f=$OSYNC_STATE/build-$1-$base-$2
  [ -s "$f" ] || die "$f is missing: build the $1 glibc $base first ('make build build-baseline', which 'make bench' does)"
  echo "$(cat "$f")/root"
}

for abi in $ABIS; do
  new=$(state_root patched "$abi")
  old=$(state_root baseline "$abi")
  "$here/../driver/stagecc.sh" "$new" "$abi" -O2 -o "$tmp/new-$abi" "$here/open-cost.c"
  "$here/../driver/stagecc.sh" "$old" "$abi" -O2 -o "$tmp/old-$abi" "$here/open-cost.c"
  # Each row: label ('~' for a space), glibc, program, flags, and the
  # row it is compared with (the unpatched glibc, same flags), or '-'.
  declare -A cost_op=() cost_at=()
  while read -r label root prog flags ref; do
    read -r op at < <(count "${!root}" "$abi" "$tmp/$prog-$abi" "$flags")
    cost_op[$label]=$op cost_at[$label]=$at
    d_op=- d_at=-
    if [ "$ref" != - ]; then
      d_op=$(awk -v a="$op" -v b="${cost_op[$ref]}" 'BEGIN { printf "%+.1f", a - b }')
      d_at=$(awk -v a="$at" -v b="${cost_at[$ref]}" 'BEGIN { printf "%+.1f", a - b }')
    fi
    echo "| $abi | ${label//\~/ } | $flags | $op | $d_op | $at | $d_at |" >> "$out"
  done <<ROWS
unpatched~glibc old old 0 -
patched,~new~version new new 0 unpatched~glibc
patched,~old~version~(old~binary) new old 0 unpatched~glibc
patched,~new~version,~O_RSYNC new new $OSYNC_RSYNC_BIT -
unpatched~glibc,~O_DSYNC old old 010000 -
patched,~old~version,~O_DSYNC new old 010000 unpatched~glibc,~O_DSYNC
ROWS
done
{
  echo
  echo "Instructions per call (callgrind, $n calls each, including the"
  echo "benchmark's one-line caller); flags are added to O_RDONLY.  glibc"
  echo "$base; O_RSYNC is $OSYNC_RSYNC_BIT (__O_RSYNC, facts: OSYNC_RSYNC_BIT)."
} >> "$out"
cat "$out"
