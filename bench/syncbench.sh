#!/bin/bash
# What synchronized I/O costs through the unpatched glibc and through
# the patched one: bench/syncbench.c built against each, run alternately
# round after round so that drift (other load, the disk's own state)
# falls on all of them alike.  Three configurations:
#   unpatched         built against the unpatched glibc, run on it
#   patched (new)     built against the patched glibc (open@OSYNC_NODE,
#                     the node of the facts file, and the other new versions)
#   patched (compat)  the unpatched build run on the patched glibc, through
#                     the old symbol versions an old binary uses
# Writes $OSYNC_RESULTS/bench-sync.md (table: median ops/s per method,
# patched/unpatched ratios), bench-sync.png (p50 latency per method and
# glibc) and bench-sync.csv (every run).  Where the kernel implements
# O_RSYNC, the .md also sets the O_RSYNC reads against a plain read and
# against fdatasync-then-read.
#
# usage: syncbench.sh [--rounds R] [--seconds S] [--warmup N]
#                     [--methods LIST] [--guest debian|new]
#                     [--from-csv FILE] [DIR]
# DIR is where the test file goes (default /var/tmp): a directory on the
# disk to measure.  The defaults can also come from the environment:
# SYNCBENCH_ROUNDS (5), SYNCBENCH_SECONDS (2), SYNCBENCH_DIR (/var/tmp).
# Both glibcs are those of the primary base (OSYNC_PRIMARY_BASE in the
# facts file).  Needs OSYNC_STATE (build-patched-BASE-x86_64,
# build-baseline-BASE-x86_64) and OSYNC_RESULTS, as 'make bench' passes
# them.
#
# --from-csv makes the table and the plot again from the CSV of an
# earlier run (with the same --guest, if any) instead of measuring.
#
# With --guest, the three configurations run instead inside a QEMU guest
# (tests/qemu/guest.sh, TCG) on its own ext4 disk: "debian" boots Debian
# 12's Linux 6.1, "new" the kernel with the O_RSYNC series (kernel/,
# OSYNC_STATE/kernel-image, which 'make kernel' writes).  The results
# are then bench-sync-guest-KERNEL.{md,png,csv}, and for the new kernel
# the O_RSYNC reads are set against a plain read and against the same
# done by hand.  The guest's disk is a host file opened with
# cache=unsafe: the guest's flushes reach its virtio disk, but the host
# does not pass them on to its own disk, so the guest measures the
# software path (glibc and kernel), which is what the patches change,
# without the host disk's noise.  Needs OSYNC_CACHE too.
#
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../driver/lib.sh"

rounds=${SYNCBENCH_ROUNDS:-5}
seconds=${SYNCBENCH_SECONDS:-2}
warmup=20
methods=all
guest= from_csv=
dir=${SYNCBENCH_DIR:-/var/tmp}
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=${2:?--rounds wants a number}; shift 2 ;;
    --seconds) seconds=${2:?--seconds wants a number}; shift 2 ;;
    --warmup) warmup=${2:?--warmup wants a number}; shift 2 ;;
    --methods) methods=${2:?--methods wants a list}; shift 2 ;;
    --guest) guest=${2:?--guest wants debian or new}; shift 2 ;;
    --from-csv) from_csv=${2:?--from-csv wants a file}; shift 2 ;;
    -h|--help) sed -n '2,/^# Copyright/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 0 ;;
    -*) die "unknown option '$1' (see $0 --help)" ;;
    *) dir=$1; shift ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a positive whole number, not '$rounds'"
[[ $seconds =~ ^[0-9]*\.?[0-9]+$ ]] || die "--seconds wants a positive number, not '$seconds'"

need_var OSYNC_STATE OSYNC_RESULTS
# The project's facts: OSYNC_PRIMARY_BASE (the glibc measured),
# OSYNC_NODE (the new versions' node) and OSYNC_RSYNC_BIT (O_RSYNC's bit,
# which the program needs when the unpatched headers lack it).
facts=$("${PYTHON:-python3}" "$here/../driver/facts.py" shell) \
  || die "cannot read the facts file (driver/facts.py failed)"
eval "$facts"
base=$OSYNC_PRIMARY_BASE
# Only x86_64 for now (the i386 builds would need their own loader and
# library path below).
abi=x86_64
ld=lib64/ld-linux-x86-64.so.2

# Everything that can be wrong before a single measurement.
command -v gnuplot >/dev/null \
  || die "gnuplot is missing; install it with 'apt-get install -y gnuplot-nox' (after 'apt-get update' if apt cannot find it)"
command -v gawk >/dev/null || die "gawk is missing; install it with 'apt-get install -y gawk'"
command -v objdump >/dev/null || die "objdump is missing; install it with 'apt-get install -y binutils'"
# state_root WHICH: the staging root of the patched or baseline glibc
# of the primary base.
state_root ()
{
  local f=$OSYNC_STATE/build-$1-$base-$abi r
  [ -s "$f" ] || die "$f is missing: build the $1 glibc $base first ('make build build-baseline', which 'make bench' does)"
  r=$(cat "$f")/root
  [ -x "$r/$ld" ] || die "$r has no $ld: the $1 build named in $f is gone or incomplete; rebuild it ('make build build-baseline')"
  echo "$r"
}
root_patched=$(state_root patched)
root_baseline=$(state_root baseline)
name=bench-sync
if [ -n "$guest" ]; then
  need_var OSYNC_CACHE
  case $guest in
    debian) kopt=() kname="Debian 12, stock Linux 6.1" ;;
    new)
      [ -s "$OSYNC_STATE/kernel-image" ] \
        || die "no new kernel yet: run 'make kernel' first (it builds Linux 6.12 with kernel/patches)"
      kopt=(--kernel "$(cat "$OSYNC_STATE/kernel-image")")
      kname="Linux 6.12 with the kernel/ series" ;;
    *) die "--guest wants debian or new, not '$guest'" ;;
  esac
  name=bench-sync-guest-$guest
  dir=/mnt
  fstype="ext4 in a QEMU guest: $kname, TCG, disk cache=unsafe"
else
  [ -d "$dir" ] || die "benchmark directory $dir does not exist; give an existing directory on the disk to measure (default /var/tmp)"
  probe=$(mktemp -p "$dir" .syncbench-probe.XXXXXX 2>/dev/null) \
    || die "benchmark directory $dir is not writable; give a writable directory on the disk to measure (default /var/tmp)"
  rm -f "$probe"
  # findmnt names ext4 (stat -f says ext2/ext3); the last of stacked mounts
  # is the one in use.
  fstype=$(findmnt -n -o FSTYPE --target "$dir" 2>/dev/null | tail -n 1)
  [ -n "$fstype" ] || fstype=$(stat -f -c %T "$dir")
  case $fstype in
    tmpfs|ramfs) note "warning: $dir is on $fstype, which does not write to a disk: the sync methods will be reported as ignored; give a directory on a disk to measure them" ;;
  esac
fi
if ! mkdir -p "$OSYNC_RESULTS" || [ ! -w "$OSYNC_RESULTS" ]; then
  die "cannot write the results in $OSYNC_RESULTS"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/osync-syncbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Build the program against each glibc, and make sure each build uses
# the symbol versions its column claims.
for which in patched baseline; do
  r=root_$which
  with_log "$tmp/cc-$which.log" "$here/../driver/stagecc.sh" "${!r}" "$abi" \
    -O2 -Wall -Wextra -I"$here/../tests/lib" -DOSYNC_RSYNC_BIT="$OSYNC_RSYNC_BIT" \
    -DOSYNC_RWF_RSYNC="$OSYNC_RWF_RSYNC" -o "$tmp/syncbench-$which" "$here/syncbench.c" \
    || die "compiling bench/syncbench.c against the $which glibc (${!r}) failed; the log is above"
  if [ -s "$tmp/cc-$which.log" ]; then
    cat "$tmp/cc-$which.log" >&2
    note "warning: the compiler warned (above)"
  fi
done
node_re=${OSYNC_NODE//./\\.}
syms=$(objdump -T "$tmp/syncbench-patched")
grep -qE "\\($node_re\\) +open\$" <<< "$syms" \
  || die "the program built against $root_patched does not call open@$OSYNC_NODE: is that really the patched glibc?"
syms=$(objdump -T "$tmp/syncbench-baseline")
! grep -q "$node_re" <<< "$syms" \
  || die "the program built against $root_baseline references $OSYNC_NODE: is that really the unpatched glibc?"

# The three configurations: name, glibc root, program.
configs=(unpatched new compat)
declare -A cfg_root=([unpatched]=$root_baseline [new]=$root_patched [compat]=$root_patched)
declare -A cfg_prog=([unpatched]=$tmp/syncbench-baseline [new]=$tmp/syncbench-patched [compat]=$tmp/syncbench-baseline)

# run CONFIG ARGS...: the program of CONFIG, through its glibc's loader.
run ()
{
  local r=${cfg_root[$1]} p=${cfg_prog[$1]}
  shift
  "$r/$ld" --library-path "$r/lib64" "$p" "$@"
}

# Each configuration really loads the libc it is named after.
for c in "${configs[@]}"; do
  trace=$(LD_DEBUG=libs run "$c" --list 2>&1 >/dev/null)
  [[ $trace == *"calling init: ${cfg_root[$c]}/lib64/libc.so.6"* ]] \
    || die "the '$c' configuration does not load ${cfg_root[$c]}/lib64/libc.so.6"
done

raw=$OSYNC_RESULTS/$name.csv
if [ -n "$from_csv" ]; then
  [ -f "$from_csv" ] || die "--from-csv: no file '$from_csv'"
  [ "$(head -n 1 "$from_csv")" = "round,glibc,method,ops_per_sec,p50_us,p99_us,status" ] \
    || die "--from-csv: $from_csv is not a CSV of bench/syncbench.sh"
  [ "$from_csv" -ef "$raw" ] || cp "$from_csv" "$raw"
  rounds=$(tail -n +2 "$raw" | cut -d, -f1 | sort -n | tail -n 1)
  [[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--from-csv: $from_csv has no rounds"
  # The seconds per method of that run, if it left them.
  if [ -f "${from_csv%.csv}.run" ]; then
    seconds=$(sed -n 's/^seconds //p' "${from_csv%.csv}.run")
  else
    seconds="(not recorded)"
  fi
  [ "${from_csv%.csv}.run" -ef "${raw%.csv}.run" ] || echo "seconds $seconds" > "${raw%.csv}.run"
  note "the table and plot again from $from_csv ($rounds rounds)"
else
echo "round,glibc,method,ops_per_sec,p50_us,p99_us,status" > "$raw"
echo "seconds $seconds" > "${raw%.csv}.run"
if [ -n "$guest" ]; then
  # One boot runs every round: the same order as below, each run a
  # line of the guest's list, its CSV on the console.
  files=$tmp/guest
  mkdir -p "$files/bin"
  for c in unpatched new; do
    r=${cfg_root[$c]}
    for f in "$ld" lib64/libc.so.6; do
      mkdir -p "$files$r/$(dirname "$f")"
      cp -L "$r/$f" "$files$r/$f"
    done
  done
  cp "$tmp/syncbench-patched" "$tmp/syncbench-baseline" "$files/bin/"
  : > "$tmp/list"
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=(unpatched new compat); else order=(compat new unpatched); fi
    for c in "${order[@]}"; do
      r=${cfg_root[$c]}
      echo "$i,$c $r/$ld --library-path $r/lib64 /bin/$(basename "${cfg_prog[$c]}") --dir /mnt --seconds $seconds --warmup $warmup --methods $methods --csv" >> "$tmp/list"
    done
  done
  nmethods=$(run new --methods "$methods" --list | wc -l)
  limit=$(awk -v r="$rounds" -v s="$seconds" -v m="$nmethods" 'BEGIN { printf "%d", r * 3 * m * (s + 2) * 1.5 + 180 }')
  note "$rounds rounds of 3 runs in the guest ($kname), ${seconds} s per method; at most ${limit} s"
  "$here/../tests/qemu/guest.sh" --cache "$OSYNC_CACHE" --files "$files" \
    --list "$tmp/list" --out "$OSYNC_RESULTS/$name-console.log" --disk 256 \
    --disk-cache unsafe --timeout "$limit" "${kopt[@]}" --fine-clock \
    || die "the guest run failed; its console is in $OSYNC_RESULTS/$name-console.log"
  # The CSV rows of each run, between its begin and end lines.
  gawk -v raw="$raw" '
    /^osync-guest: begin / { split($3, l, ","); label = $3; next }
    /^osync-guest: end / {
      if ($4 != 0) { print "syncbench failed in the guest (" label "): exit status " $4 > "/dev/stderr"; bad = 1 }
      label = ""; next }
    # A progress line ends in ESC [ K and the row follows on the same
    # console line.
    label != "" { sub(/.*\033\[K/, "") }
    label != "" && /^[a-z_-]+,[0-9.]*,[0-9.]*,[0-9.]*,/ { print l[1] "," l[2] "," $0 >> raw }
    END { exit bad }' "$OSYNC_RESULTS/$name-console.log" \
    || die "syncbench failed in the guest; see $OSYNC_RESULTS/$name-console.log"
else
note "$rounds rounds of 3 runs on $dir ($fstype), ${seconds} s per method"
for ((i = 1; i <= rounds; i++)); do
  # A B C, then C B A: a drift within a round falls on both ends.
  if ((i % 2)); then order=(unpatched new compat); else order=(compat new unpatched); fi
  for c in "${order[@]}"; do
    note "round $i/$rounds: $c"
    # Its progress lines and messages go straight to stderr.
    run "$c" --dir "$dir" --seconds "$seconds" --warmup "$warmup" \
      --methods "$methods" --csv > "$tmp/out.csv" \
      || die "syncbench failed in round $i ($c glibc): see its message above; the runs so far are in $raw"
    tail -n +2 "$tmp/out.csv" | sed "s/^/$i,$c,/" >> "$raw"
  done
done
fi
fi

# Medians, ratios, the table, the paragraph and the plot's data.
out=$OSYNC_RESULTS/$name.md
gawk -F, -v rounds="$rounds" -v seconds="$seconds" -v dir="$dir" \
  -v fstype="$fstype" -v plotdata="$tmp/p50.dat" '
function median(a, n,   b, k) {
  k = asort(a, b, "@val_num_asc")
  if (k == 0) return ""
  return k % 2 ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2
}
function minmax(a,   k, lo, hi) {
  lo = ""; hi = ""
  for (k in a) { if (lo == "" || a[k] < lo) lo = a[k]; if (hi == "" || a[k] > hi) hi = a[k] }
  return sprintf("%.2f-%.2f", lo, hi)
}
# med(M, G, FIELD): median over the rounds of FIELD of method M, glibc G.
function med(m, g, f,   r, a) {
  delete a
  for (r = 1; r <= rounds; r++) if ((m, g, r) in ok) a[r] = val[m, g, r, f]
  return median(a)
}
# ratio(M, G, F): the median over the rounds of glibc G against the
# unpatched one, from ops/s (F 4) or from the p50 latency (F 5, as
# unpatched p50 / G p50), above 1 when G is faster; "" if unmeasured.
# Sets lastmed to the median.
function ratio(m, g, f,   r, a) {
  delete a
  for (r = 1; r <= rounds; r++)
    if ((m, g, r) in ok && (m, "unpatched", r) in ok && val[m, "unpatched", r, f] > 0 && val[m, g, r, f] > 0)
      a[r] = f == 4 ? val[m, g, r, 4] / val[m, "unpatched", r, 4] : val[m, "unpatched", r, 5] / val[m, g, r, 5]
  if (length(a) == 0) return ""
  lastmed = median(a)
  return sprintf("%.3f (%s)", lastmed, minmax(a))
}
# costratio(M, Y, G): the median over the rounds of the time per
# operation of M divided by that of Y, both under glibc G.
function costratio(m, y, g,   r, a) {
  delete a
  for (r = 1; r <= rounds; r++)
    if ((m, g, r) in ok && (y, g, r) in ok && val[m, g, r, 4] > 0)
      a[r] = val[y, g, r, 4] / val[m, g, r, 4]
  if (length(a) == 0) return ""
  return sprintf("%.3f (%s)", median(a), minmax(a))
}
function num(x, fmt) { return x == "" ? "-" : sprintf(fmt, x) }
NR == 1 { next }
{
  m = $3; g = $2; r = $1
  if (!(m in seen)) { seen[m] = 1; order[++nm] = m }
  if ($7 == "ok") { ok[m, g, r] = 1; val[m, g, r, 4] = $4; val[m, g, r, 5] = $5; val[m, g, r, 6] = $6 }
  else if (!((m, g) in why)) why[m, g] = $7
}
END {
  split("unpatched new compat", G, " ")
  print "# Synchronized I/O through the unpatched and the patched glibc"
  print ""
  printf "8 KiB operations on a file in %s (%s); %d rounds, each running the three\n", dir, fstype, rounds
  printf "configurations one after the other, %s s per method per run.  ops/s and\n", seconds
  print "p50/p99 are medians over the rounds.  A ratio is the median over the rounds of"
  print "the patched run against the same round'"'"'s unpatched run, with the range over the"
  print "rounds in parentheses, above 1 when the patched glibc is faster: from ops/s"
  print "(1 / mean time, which the slowest operations dominate) and from the p50 latency"
  print "(unpatched p50 / patched p50, which they do not)."
  print ""
  print "| method | unpatched ops/s | patched (new) ops/s | patched (compat) ops/s | new / unpatched, ops/s | compat / unpatched, ops/s | new / unpatched, p50 | compat / unpatched, p50 | p50 us (unpatched / new / compat) | p99 us (unpatched / new / compat) |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= nm; i++) {
    m = order[i]
    if (!((m, "unpatched") in why) && !((m, "new") in why) && !((m, "compat") in why)) {
      line = "| " m
      for (j = 1; j <= 3; j++) line = line " | " num(med(m, G[j], 4), "%.0f")
      if (m ~ /o_rsync/) {
        # The unpatched headers'"'"' O_RSYNC is O_SYNC: another request.
        line = line " | n/c | n/c | n/c | n/c"
      } else {
        for (f = 4; f <= 5; f++)
          for (j = 2; j <= 3; j++) {
            x = ratio(m, G[j], f)
            line = line " | " (x == "" ? "-" : x)
            if (x != "") {
              nratio[f]++
              if (lastmed >= 0.97 && lastmed <= 1.03) inside[f]++
              else outside[f] = outside[f] " " m " (" G[j] ", " sprintf("%.3f", lastmed) ")"
            }
          }
      }
      p50 = p99 = ""
      for (j = 1; j <= 3; j++) {
        p50 = p50 (j > 1 ? " / " : "") num(med(m, G[j], 5), "%.1f")
        p99 = p99 (j > 1 ? " / " : "") num(med(m, G[j], 6), "%.1f")
        p50of[m, G[j]] = med(m, G[j], 5)
      }
      print line " | " p50 " | " p99 " |"
      printf "%s %s %s %s\n", m, p50of[m, "unpatched"], p50of[m, "new"], p50of[m, "compat"] > plotdata
    } else {
      s = (m, "unpatched") in why ? why[m, "unpatched"] : (m, "new") in why ? why[m, "new"] : why[m, "compat"]
      print "| " m " | " s " | | | | | | | | |"
    }
  }
  print ""
  if (nratio[4] > 0) {
    print "n/c: not comparable (the unpatched headers'"'"' O_RSYNC is O_SYNC, another request)."
    print ""
    printf "Goal, every ratio between 0.97 and 1.03: from the p50 latency, %d of %d ratios are inside", inside[5] + 0, nratio[5]
    print (outside[5] == "" ? "." : "; outside:" outside[5] ".")
    printf "From ops/s, %d of %d", inside[4] + 0, nratio[4]
    print (outside[4] == "" ? "." : "; outside:" outside[4] ".")
    print ""
  }

  # O_RSYNC where the kernel implements it (the new versions pass it).
  a = costratio("read-o_rsync-clean", "read", "new")
  b = costratio("read-o_rsync-dirty", "read-dirty-fdatasync", "new")
  if (a != "" || b != "") {
    print "## O_RSYNC reads on a kernel that implements it"
    print ""
    print "Time per read through the patched glibc (new versions), divided by the time of"
    print "the yardstick in the same run; the median over the rounds, the range in"
    print "parentheses."
    print ""
    print "| read | yardstick | time ratio | goal | p50 us (read / yardstick) |"
    print "|---|---|---:|---:|---:|"
    if (a != "")
      printf "| O_RSYNC\\|O_DSYNC, clean range | plain read | %s | at most 1.05 | %.2f / %.2f |\n", a, med("read-o_rsync-clean", "new", 5), med("read", "new", 5)
    if (b != "")
      printf "| O_RSYNC\\|O_DSYNC, range another process dirtied | fdatasync, then plain read | %s | at most 1.0 | %.1f / %.1f |\n", b, med("read-o_rsync-dirty", "new", 5), med("read-dirty-fdatasync", "new", 5)
    print ""
  }

  # O_SYNC against O_DSYNC on an overwrite, from the numbers.
  print "## O_SYNC against O_DSYNC on an overwrite"
  print ""
  ds = med("overwrite-o_dsync", "unpatched", 4); sy = med("overwrite-o_sync", "unpatched", 4)
  if (ds == "" || sy == "") {
    print "Not measured in this run (the overwrite-o_dsync and overwrite-o_sync methods"
    print "are needed, on a file system that writes to a disk)."
    exit
  }
  x = ds / sy
  printf "With the unpatched glibc an 8 KiB O_DSYNC overwrite ran at %.0f ops/s (p50 %.0f us)\n", ds, med("overwrite-o_dsync", "unpatched", 5)
  printf "and an O_SYNC one at %.0f ops/s (p50 %.0f us): ", sy, med("overwrite-o_sync", "unpatched", 5)
  if (x >= 1.15) printf "O_SYNC cost %.1f times as much per write.", x
  else if (x <= 1 / 1.15) printf "O_SYNC was %.1f times *faster*, which contradicts the reasoning below: most likely noise (other I/O on the disk) dominated this run.", 1 / x
  else printf "a difference of %+.0f%%, too small to tell from noise in this run.", (x - 1) * 100
  print ""
  fd = med("overwrite-fdatasync", "unpatched", 4); fs = med("overwrite-fsync", "unpatched", 4)
  if (fd != "" && fs != "") printf "The same pair as calls, fdatasync against fsync after each write: %.2f.\n", fd / fs
  ad = med("append-o_dsync", "unpatched", 4); as = med("append-o_sync", "unpatched", 4)
  if (ad != "" && as != "") printf "On appends, where both must write the inode, O_DSYNC/O_SYNC is %.2f.\n", ad / as
  nd = med("overwrite-o_dsync", "new", 4); ns = med("overwrite-o_sync", "new", 4)
  if (nd != "" && ns != "") printf "Through the patched glibc (new versions) the overwrite ratio is %.2f (the same flag values reach the kernel).\n", nd / ns
  print ""
  print "Why they differ: the overwrite changes the file'"'"'s mtime but not its size.  O_SYNC"
  print "asks for file integrity, so each write also waits for the inode with the new"
  print "mtime to be on the disk; on ext4 that is a journal commit per write (a journal"
  print "write and a cache flush on top of the data).  O_DSYNC asks for data integrity"
  print "only: the mtime is not needed to read the data back and the size did not"
  print "change, so the data write and a cache flush suffice.  The kernel updates mtime"
  print "at most once per clock tick, so when writes come faster than the tick only some"
  print "O_SYNC writes pay for a commit: ops/s and p99 show the difference better than"
  print "p50.  On appends the size changes, and both must commit."
}' "$raw" > "$out"

if [ -s "$tmp/p50.dat" ]; then
  gnuplot -e "datafile='$tmp/p50.dat'; outfile='$OSYNC_RESULTS/$name.png'; subtitle='${dir//\'/} (${fstype//\'/}), $rounds rounds, ${seconds} s per method'" \
    "$here/syncbench.gp" 2> "$tmp/gnuplot.err" \
    || { cat "$tmp/gnuplot.err" >&2; die "gnuplot failed to draw $OSYNC_RESULTS/$name.png (message above)"; }
  printf '\n![p50 latency per method and glibc](%s.png)\n' "$name" >> "$out"
else
  note "no method was measured under all three glibcs: no plot"
  rm -f "$OSYNC_RESULTS/$name.png"
fi
cat "$out"
note "wrote $out, $OSYNC_RESULTS/$name.png and $raw"
