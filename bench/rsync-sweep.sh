#!/bin/bash
# What a synchronized read of a small dirty range costs when much more
# of the file is dirty elsewhere: O_RSYNC|O_DSYNC and RWF_RSYNC, which
# make durable only the range read, against what a program can do
# without them: fdatasync() and then a plain read, which writes back
# and flushes the whole file, or, ranged, an io_uring IORING_OP_FSYNC
# with IORING_FSYNC_DATASYNC over the 8 KiB read (vfs_fsync_range, as
# an O_RSYNC read calls it) linked to the read.  bench/syncbench.c,
# built against the patched glibc of the
# primary base, runs in a QEMU guest on the new kernel (kernel/, TCG,
# ext4 on a virtio disk with cache=unsafe, as bench/syncbench.sh
# --guest): before each read another process writes the 8 KiB range
# read and leaves MIB MiB dirty past it (syncbench --elsewhere).  The
# four methods alternate, size after size, round after round, in one
# boot; the disk's own counters (/sys/block/vda/stat, syncbench --disk)
# give the requests and the data written per read.  The table gives,
# per method, the mean time per read (over all reads of all rounds) and
# the median over the rounds of each round's median (p50).
#
# usage: rsync-sweep.sh [--rounds R] [--count N] [--sizes "1 16 64"]
#                       [--from-csv FILE]
# Writes $OSYNC_RESULTS/bench-rsync-sweep.{csv,md,png}.  Needs
# OSYNC_STATE (build-patched-BASE-x86_64, kernel-image), OSYNC_CACHE and
# OSYNC_RESULTS, as 'make bench-sweep' passes them.  --from-csv makes
# the table and the plot again from the CSV of an earlier run.
#
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../driver/lib.sh"

rounds=9 count=40 sizes="1 16 64" from_csv=
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds wants a number}; shift 2 ;;
    --count) count=${2:?--count wants a number}; shift 2 ;;
    --sizes) sizes=${2:?--sizes wants a list of MiB}; shift 2 ;;
    --from-csv) from_csv=${2:?--from-csv wants a file}; shift 2 ;;
    -h|--help) sed -n '2,/^# Copyright/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 0 ;;
    *) die "unknown argument '$1' (see $0 --help)" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive whole number, not '$rounds'"
[[ $count =~ ^[1-9][0-9]*$ ]] || die "--count wants a positive whole number, not '$count'"
for s in $sizes; do
  [[ $s =~ ^[1-9][0-9]*$ ]] && [ "$s" -le 256 ] \
    || die "--sizes wants MiB from 1 to 256 (the guest's disk holds 512), not '$s'"
done
[ -n "$sizes" ] || die "--sizes is empty"

need_var OSYNC_STATE OSYNC_RESULTS
facts=$("${PYTHON:-python3}" "$here/../driver/facts.py" shell) \
  || die "cannot read the facts file (driver/facts.py failed)"
eval "$facts"
command -v gnuplot >/dev/null \
  || die "gnuplot is missing; install it with 'apt-get install -y gnuplot-nox'"
command -v gawk >/dev/null || die "gawk is missing; install it with 'apt-get install -y gawk'"
mkdir -p "$OSYNC_RESULTS" && [ -w "$OSYNC_RESULTS" ] \
  || die "cannot write the results in $OSYNC_RESULTS"

name=bench-rsync-sweep
raw=$OSYNC_RESULTS/$name.csv
header="round,mib,method,ops_per_sec,p50_us,p99_us,status"
methods="read-o_rsync-dirty read-rwf_rsync-dirty read-dirty-uring-fsync read-dirty-fdatasync"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/osync-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -n "$from_csv" ]; then
  [ -f "$from_csv" ] || die "--from-csv: no file '$from_csv'"
  [ "$(head -n 1 "$from_csv")" = "$header" ] \
    || die "--from-csv: $from_csv is not a CSV of bench/rsync-sweep.sh"
  [ "$from_csv" -ef "$raw" ] || cp "$from_csv" "$raw"
  rounds=$(tail -n +2 "$raw" | cut -d, -f1 | sort -n | tail -n 1)
  sizes=$(tail -n +2 "$raw" | cut -d, -f2 | sort -nu | tr '\n' ' ')
  count=$(sed -n 's/^count //p' "${from_csv%.csv}.run" 2>/dev/null || true)
  [ -n "$count" ] || count="(not recorded)"
  [ "${from_csv%.csv}.run" -ef "${raw%.csv}.run" ] || echo "count $count" > "${raw%.csv}.run"
else
  need_var OSYNC_CACHE
  base=$OSYNC_PRIMARY_BASE abi=x86_64
  f=$OSYNC_STATE/build-patched-$base-$abi
  [ -s "$f" ] || die "$f is missing: build the patched glibc first ('make build')"
  root=$(cat "$f")/root
  ld=$root/lib64/ld-linux-x86-64.so.2
  [ -x "$ld" ] || die "$root has no loader: rebuild the patched glibc ('make build')"
  [ -s "$OSYNC_STATE/kernel-image" ] \
    || die "no new kernel yet: run 'make kernel' first"
  image=$(cat "$OSYNC_STATE/kernel-image")
  [ -f "$image" ] || die "the new kernel $image is gone; run 'make kernel'"

  with_log "$tmp/cc.log" "$here/../driver/stagecc.sh" "$root" "$abi" \
    -O2 -Wall -Wextra -I"$here/../tests/lib" \
    -DOSYNC_RSYNC_BIT="$OSYNC_RSYNC_BIT" -DOSYNC_RWF_RSYNC="$OSYNC_RWF_RSYNC" \
    -o "$tmp/syncbench" "$here/syncbench.c" \
    || die "compiling bench/syncbench.c against $root failed; the log is above"

  files=$tmp/guest
  mkdir -p "$files/bin" "$files$root/lib64"
  cp -L "$ld" "$root/lib64/libc.so.6" "$files$root/lib64/"
  cp "$tmp/syncbench" "$files/bin/"
  : > "$tmp/list"
  total=0
  for ((i = 1; i <= rounds; i++)); do
    # Each round takes the sizes and the methods in the other order.
    if ((i % 2)); then
      order=$sizes mord=$methods
    else
      order=$(tr ' ' '\n' <<<"$sizes" | tac | tr '\n' ' ')
      mord=$(tr ' ' '\n' <<<"$methods" | tac | tr '\n' ' ')
    fi
    for s in $order; do
      for m in $mord; do
        echo "$i,$s $ld --library-path $root/lib64 /bin/syncbench --dir /mnt --count $count --warmup 2 --methods $m --elsewhere $s --disk vda --csv" >> "$tmp/list"
        total=$((total + s))
      done
    done
  done
  # About a second per 4 MiB written under TCG, for each operation
  # and its warm-up, and three minutes to boot.
  limit=$(( (total * (count + 2)) / 4 + 60 * rounds + 180 ))
  note "$rounds rounds, sizes $sizes MiB, $count reads per method, in the new kernel's guest; at most $limit s"
  "$here/../tests/qemu/guest.sh" --cache "$OSYNC_CACHE" --files "$files" \
    --list "$tmp/list" --out "$OSYNC_RESULTS/$name-console.log" --disk 512 \
    --disk-cache unsafe --timeout "$limit" --kernel "$image" --fine-clock \
    || die "the guest run failed; its console is in $OSYNC_RESULTS/$name-console.log"
  echo "$header" > "$raw"
  echo "count $count" > "${raw%.csv}.run"
  gawk -v raw="$raw" '
    /^osync-guest: begin / { split($3, l, ","); label = $3; next }
    /^osync-guest: end / {
      if ($4 != 0) { print "syncbench failed in the guest (" label "): exit status " $4 > "/dev/stderr"; bad = 1 }
      label = ""; next }
    label != "" { sub(/.*\033\[K/, "") }
    label != "" && /^[a-z_-]+,[0-9.]*,[0-9.]*,[0-9.]*,/ { print l[1] "," l[2] "," $0 >> raw; rows++ }
    END { exit bad }' "$OSYNC_RESULTS/$name-console.log" \
    || die "syncbench failed in the guest; see $OSYNC_RESULTS/$name-console.log"
  want=$((rounds * $(wc -w <<<"$sizes") * $(wc -w <<<"$methods")))
  got=$(($(wc -l < "$raw") - 1))
  [ "$got" -eq "$want" ] \
    || die "the guest gave $got results, not $want; see $OSYNC_RESULTS/$name-console.log"
fi

# Per size and method: the mean time per read (each round's mean is
# 1/ops_per_sec; the rounds have as many reads each) and the median of
# the rounds' p50; the ratios of the by-hand methods to O_RSYNC; the
# table and the plot.
out=$OSYNC_RESULTS/$name.md
gawk -F, -v rounds="$rounds" -v plotdata="$tmp/plot.dat" '
function median(a,   b, k) {
  k = asort(a, b, "@val_num_asc")
  if (k == 0) return ""
  return k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2
}
# med(S, M, F): median over the rounds of field F (P50, KIB, FL) of
# method M at S MiB; mean(S, M): the mean time per read, in us.
function med(s, m, f,   r, a) {
  delete a
  for (r = 1; r <= rounds; r++) if ((s, m, r) in ok) a[r] = v[s, m, r, f]
  return median(a)
}
function mean(s, m,   r, t, k) {
  t = 0; k = 0
  for (r = 1; r <= rounds; r++) if ((s, m, r) in ok) { t += 1e6 / v[s, m, r, "OPS"]; k++ }
  return k ? t / k : ""
}
NR == 1 { next }
{
  r = $1; s = $2; m = $3
  if (!(s in seen)) { seen[s] = 1; size[++ns] = s }
  if ($7 ~ /^ok/ && $4 > 0 && match($7, /disk per operation: ([0-9.]+) writes ([0-9.]+) KiB ([0-9.]+) flushes/, d)) {
    ok[s, m, r] = 1; v[s, m, r, "OPS"] = $4; v[s, m, r, "P50"] = $5; v[s, m, r, "KIB"] = d[2]; v[s, m, r, "FL"] = d[3]
  } else {
    print "error: round " r ", " s " MiB, " m ": " $7 > "/dev/stderr"; bad = 1
  }
}
END {
  if (bad) exit 1
  split("read-o_rsync-dirty read-rwf_rsync-dirty read-dirty-uring-fsync read-dirty-fdatasync", meth, " ")
  n = asort(size, sz, "@val_num_asc")
  print "| dirty elsewhere | O_RSYNC\\|O_DSYNC read | RWF_RSYNC preadv2 | io_uring ranged fsync, then read | fdatasync, then read | KiB written per read (same order) | flushes per read (same order) |"
  print "|---:|---:|---:|---:|---:|---|---|"
  for (i = 1; i <= n; i++) {
    s = sz[i]
    row = sprintf("| %d MiB", s); kib = ""; fl = ""
    for (k = 1; k <= 4; k++) {
      row = row sprintf(" | %.2f / %.2f ms", mean(s, meth[k]) / 1000, med(s, meth[k], "P50") / 1000)
      kib = kib (k > 1 ? " / " : "") sprintf("%.0f", med(s, meth[k], "KIB"))
      fl = fl (k > 1 ? " / " : "") sprintf("%.2f", med(s, meth[k], "FL"))
    }
    print row " | " kib " | " fl " |"
    printf "%d %.4f %.4f %.4f %.4f\n", s, med(s, meth[1], "P50") / 1000, med(s, meth[2], "P50") / 1000, med(s, meth[3], "P50") / 1000, med(s, meth[4], "P50") / 1000 > plotdata
  }
  print ""
  print "Each cell: mean / p50 time per read.  Ratios to the O_RSYNC\\|O_DSYNC read, mean (p50):"
  print ""
  for (i = 1; i <= n; i++) {
    s = sz[i]
    o = mean(s, meth[1]); op = med(s, meth[1], "P50")
    printf "- %d MiB: fdatasync then read %.1f (%.1f); io_uring ranged fsync then read %.2f (%.2f); RWF_RSYNC %.2f (%.2f)\n", s, mean(s, meth[4]) / o, med(s, meth[4], "P50") / op, mean(s, meth[3]) / o, med(s, meth[3], "P50") / op, mean(s, meth[2]) / o, med(s, meth[2], "P50") / op
  }
}' "$raw" > "$tmp/table.md" \
  || die "$raw has failed or incomplete results (above)"
{
  echo "# Synchronized reads against fsync-then-read, with the file dirty elsewhere"
  echo
  echo "bench/rsync-sweep.sh, $(date -u +%Y-%m-%d): $rounds rounds, $count reads per method and size in each, 8 KiB read of a range another process dirtied just before, with the given MiB also dirty elsewhere in the file; QEMU guest (TCG) on the new kernel, ext4 on virtio, cache=unsafe; the disk's counters per read.  Mean: over all reads; p50: the median of the rounds' medians."
  echo
  cat "$tmp/table.md"
} > "$out"
gnuplot -e "datafile='$tmp/plot.dat'; outfile='$OSYNC_RESULTS/$name.png'" "$here/rsync-sweep.gp" \
  || die "gnuplot failed on $here/rsync-sweep.gp"
cat "$out"
note "results: $out, $raw and $OSYNC_RESULTS/$name.png"
