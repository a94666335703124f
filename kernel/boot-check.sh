#!/bin/bash
# Build a kernel tree with the series and boot it once, with O_RSYNC
# reads at its ext4 disk (make kernel-mainline).
#
#   boot-check.sh --cache DIR --out DIR [--linux VERSION | --newest]
#                 [--patches DIR]
#   boot-check.sh --judge FILE
#   boot-check.sh --judge-fuse FILE [new|stock]
#
# --newest (the default) takes the newest linux-source Debian offers in
# any suite (driver/debian-suite.sh); when that is not newer than 6.12,
# the tree the new kernel is built from, it prints "UNSUPPORTED: " and
# the reason and exits 0, having checked nothing.  Otherwise it builds
# the tree with kernel/build-kernel.sh, boots it with tests/qemu/guest.sh
# and runs tests/osync.matrix/rsynccell.c, built statically against this
# machine's glibc with __O_RSYNC from the facts file, on the guest's
# disk.  It judges the cell's output by the rules the test matrix applies
# to the new kernel (tests/osync.matrix/matrix.exp, judge_rsync), against
# the yardsticks of the same run: the kernel keeps the bit (F_GETFL),
# and adds O_SYNC to the bit alone;
# every O_RSYNC read of a dirty range (read, pread, readv, preadv2,
# splice) costs exactly the writes and flushes fdatasync of that range
# costs, an O_RSYNC|O_SYNC one what fsync costs, one of a range written
# back but not flushed (or written with O_DIRECT) what fdatasync of it
# costs; a plain read costs no I/O, a clean range and the O_DSYNC read
# that changes only the atime exactly what fdatasync costs there (a
# flush on ext4: the series keeps no flush record); the O_SYNC one that changes
# the atime what fsync after a plain read costs (relatime and lazytime);
# RWF_NOWAIT gets EAGAIN; and the
# yardsticks tell fdatasync from fsync.  The same boot runs
# tests/osync.matrix/fusecell.c with the FUSE server
# tests/fuse/passthrough.c (libfuse3, static; FOPEN_DIRECT_IO files with
# async_dio), both built like rsynccell: every aio and io_uring read
# with RWF_RSYNC of a dirty range, buffered and O_DIRECT, on ext4 and
# through FUSE, and a plain one of an O_RSYNC descriptor through FUSE,
# must cost exactly what fdatasync of that range costs on that file
# system in the same run (review B1: an asynchronous read that
# ->read_iter queues completes without the sync unless the VFS sends
# it through a synchronous kiocb; 7.3's FUSE queues such reads without
# IOCB_DIRECT).  The console and the cells' outputs (rsync.txt,
# fuse.txt) go to the --out directory.  --judge FILE judges a saved
# rsynccell output only, --judge-fuse FILE a saved fusecell output, by
# the rules of a kernel with the series (new) or without (stock), see
# judge_fuse below (the self-tests in tests/osync.kernel/mainline.exp).  The series is kernel/patches-mainline (the
# series of kernel/patches rebased onto mainline) for a tree newer than
# 6.12, kernel/patches otherwise, or the --patches directory.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die () { echo "boot-check.sh: error: $*" >&2; exit 1; }

# judge FILE: rsynccell's output FILE by the rules above; "ok: ..." and
# "FAIL: ..." lines, status 1 if any failed.
judge ()
{
  local want
  local bit alone
  bit=$("$top/driver/facts.py" get OSYNC_RSYNC_BIT)
  want=$(printf '0%o' $(( bit | 010000 )))
  alone=$(printf '0%o' $(( bit | 04010000 )))
  awk -v want_getfl="$want" -v want_alone="$alone" '
    function say(ok, what) { print (ok ? "ok: " : "FAIL: ") what; if (!ok) bad = 1 }
    function cost(c) { return w[c] "/" f[c] }
    $1 == "rsync" { w[$2] = $3 + 0; f[$2] = $4 + 0 }
    $1 == "open" { getfl = $2 }
    $1 == "open-alone" { getfl_alone = $2 }
    $1 == "nowait" { nowait = $2 }
    END {
      n = split("plain dirty-read dirty-pread dirty-readv dirty-preadv2 dirty-splice " \
                "clean sync-dirty dsync-atime sync-atime lazy-sync-atime written-back direct " \
                "yard-fdatasync yard-fsync yard-written-back yard-direct yard-atime yard-lazy-atime " \
                "yard-clean yard-dsync-atime", all, " ")
      for (i = 1; i <= n; i++)
        if (!(all[i] in w))
          say(0, "no result for " all[i])
      if (bad)
        exit 1
      say(getfl == want_getfl, "F_GETFL keeps the O_RSYNC bit (" getfl ", want " want_getfl ")")
      say(getfl_alone == want_alone, "the bit alone keeps the writes of O_SYNC (F_GETFL " getfl_alone ", want " want_alone ")")
      say(nowait == "EAGAIN", "RWF_NOWAIT gets EAGAIN (" nowait ")")
      say(w["yard-fdatasync"] >= 1 && f["yard-fdatasync"] >= 1 \
          && w["yard-fsync"] > w["yard-fdatasync"] && f["yard-fsync"] > f["yard-fdatasync"],
          "the yardsticks tell fdatasync (" cost("yard-fdatasync") ") from fsync (" \
          cost("yard-fsync") ") in writes/flushes")
      split("yard-written-back yard-direct", y, " ")
      for (i in y)
        say(f[y[i]] >= 1 && w[y[i]] <= f[y[i]] + 0.25,
            "the yardstick " y[i] " flushes and writes no data (" cost(y[i]) ")")
      split("yard-atime yard-lazy-atime", a, " ")
      for (i in a)
        say(w[a[i]] >= 1 && f[a[i]] >= 1,
            "the yardstick " a[i] " writes and flushes, the access time (" cost(a[i]) ")")
      for (i = 1; i <= 13; i++) {
        c = all[i]
        if (c == "plain") {
          say(w[c] < 0.5 && f[c] < 0.5, c ": no I/O (" cost(c) ")")
        } else {
          yard = (c == "sync-dirty") ? "yard-fsync" : \
                 (c == "clean" || c == "dsync-atime") ? "yard-" c : \
                 (c == "sync-atime") ? "yard-atime" : \
                 (c == "lazy-sync-atime") ? "yard-lazy-atime" : \
                 (c == "written-back" || c == "direct") ? "yard-" c : "yard-fdatasync"
          say(w[c] == w[yard] && f[c] == f[yard],
              c ": exactly what " yard " costs (" cost(c) ", " yard " " cost(yard) ")")
        }
      }
      exit bad
    }' "$1"
}

# judge_fuse FILE [new|stock]: fusecell's output FILE (asynchronous
# synchronized reads, aio and io_uring, on ext4 and through the FUSE
# server tests/fuse/passthrough.c, whose files are FOPEN_DIRECT_IO with
# async_dio: review B1) by the rules of tests/osync.matrix/fuse.exp.
# On a kernel with the series (new, the default): the server got
# async_dio (or the queued path is not exercised), F_GETFL of the FUSE
# file keeps the bit, the yardsticks (fdatasync of a dirty range from a
# plain descriptor) write and flush at least once each (or no case
# could fail), and every case, buffered and O_DIRECT, RWF_RSYNC and the
# O_RSYNC descriptor, costs exactly the writes and flushes of its file
# system's yardstick of the same run.  On a kernel without it (stock):
# every RWF_RSYNC read is refused with EOPNOTSUPP, the open drops the
# bit and the O_RSYNC descriptor's reads cost nothing: that is what a
# stock kernel does, not durability.  "ok: ..." and "FAIL: ..." lines,
# status 1 if any failed.
judge_fuse ()
{
  local kind=${2:-new} bit want
  bit=$("$top/driver/facts.py" get OSYNC_RSYNC_BIT)
  want=$(printf '0%o' $(( bit | 010000 )))
  [ "$kind" = new ] || want=010000
  awk -v kind="$kind" -v want_getfl="$want" '
    function say(ok, what) { print (ok ? "ok: " : "FAIL: ") what; if (!ok) bad = 1 }
    function cost(c) { return w[c] "/" f[c] }
    $1 == "fuse" && $3 == "refused" { refused[$2] = $4; next }
    $1 == "fuse" && NF == 4 { w[$2] = $3 + 0; f[$2] = $4 + 0 }
    $1 == "getfl-fuse" { getfl = $2 }
    /^passthrough: async_dio / { async = $3 }
    END {
      n = split("ext4-aio-buffered ext4-aio-direct ext4-uring-buffered ext4-uring-direct " \
                "fuse-aio-buffered fuse-aio-direct fuse-uring-buffered fuse-uring-direct " \
                "fuse-aio-rsyncfd fuse-uring-rsyncfd yard-ext4 yard-fuse ext4-uring-nowait", all, " ")
      for (i = 1; i <= n; i++)
        if (!(all[i] in w) && !(all[i] in refused))
          say(0, "no result for " all[i])
      if (bad)
        exit 1
      say(async == "on", "the FUSE server has async_dio (" async ")")
      say(getfl == want_getfl, "F_GETFL of the FUSE file opened with the bit (" getfl ", want " want_getfl ")")
      c = "ext4-uring-nowait"
      if (kind == "stock")
        say(refused[c] == "EOPNOTSUPP", c ": the stock kernel refuses RWF_RSYNC (" (c in refused ? refused[c] : "not refused: " cost(c)) ")")
      else
        say(refused[c] == "EAGAIN", c ": a read that must not wait cannot sync: EAGAIN (" (c in refused ? refused[c] : "not refused: " cost(c)) ")")
      split("yard-ext4 yard-fuse", y, " ")
      for (i in y)
        say((y[i] in w) && w[y[i]] >= 1 && f[y[i]] >= 1,
            "the yardstick " y[i] " writes and flushes (" cost(y[i]) ")")
      for (i = 1; i <= 10; i++) {
        c = all[i]
        yard = "yard-" substr(c, 1, 4)
        if (kind == "stock" && c !~ /rsyncfd/)
          say(refused[c] == "EOPNOTSUPP",
              c ": the stock kernel refuses RWF_RSYNC (" (c in refused ? refused[c] : "not refused: " cost(c)) ")")
        else if (kind == "stock")
          say((c in w) && w[c] == 0 && f[c] == 0,
              c ": the stock kernel drops the bit, the read does no I/O (" cost(c) ")")
        else if (c in refused)
          say(0, c ": refused with " refused[c])
        else
          say(w[c] == w[yard] && f[c] == f[yard],
              c ": exactly what " yard " costs (" cost(c) ", " yard " " cost(yard) ")")
      }
      exit bad
    }' "$1"
}

cache= out= linux= patches=
while [ $# -gt 0 ]; do
  case $1 in
    --judge) judge "$2"; exit $? ;;
    --judge-fuse) judge_fuse "$2" "${3:-new}"; exit $? ;;
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --linux) linux=$2; shift 2 ;;
    --newest) linux=; shift ;;
    --patches) patches=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] && [ -n "$out" ] || die "usage: $0 --cache DIR --out DIR [--linux VERSION | --newest]"
if [ -z "$linux" ]; then
  newest=$("$top/driver/debian-suite.sh" --cache "$cache" newest 'linux-source-[0-9.]+') \
    || die "cannot ask Debian for its newest linux-source (see above)"
  linux=${newest%% *}
  linux=${linux#linux-source-}
  if ! dpkg --compare-versions "$linux" gt 6.12; then
    echo "UNSUPPORTED: Debian offers no kernel tree newer than 6.12 (newest: $newest)"
    exit 0
  fi
fi
if [ -z "$patches" ]; then
  patches=$here/patches
  dpkg --compare-versions "$linux" gt 6.12 && patches=$here/patches-mainline
fi
mkdir -p "$out"
image=$("$here/build-kernel.sh" --cache "$cache" --linux "$linux" --patches "$patches" --boot-only | tail -n 1) \
  || die "the build of linux-source-$linux with the series failed (see above)"
[ -f "$image" ] || die "kernel/build-kernel.sh gave no image for linux-source-$linux"
bit=$("$top/driver/facts.py" get OSYNC_RSYNC_BIT)
rm -rf "$out/files"
mkdir -p "$out/files/bin"
gcc -static -O2 -D__O_RSYNC="$bit" -I "$top/tests/lib" -o "$out/files/bin/rsynccell" \
  "$top/tests/osync.matrix/rsynccell.c" \
  || die "cannot build rsynccell statically (apt-get install libc6-dev)"
rwf=$("$top/driver/facts.py" get OSYNC_RWF_RSYNC)
gcc -static -O2 -D__O_RSYNC="$bit" -DOSYNC_RWF_RSYNC="$rwf" -I "$top/tests/lib" \
  -o "$out/files/bin/fusecell" "$top/tests/osync.matrix/fusecell.c" \
  || die "cannot build fusecell statically (apt-get install libc6-dev)"
pkg-config --exists fuse3 && [ -f "$(pkg-config --variable=libdir fuse3)/libfuse3.a" ] \
  || die "no static libfuse3 for the FUSE server of fusecell (apt-get install libfuse3-dev)"
gcc -static -O2 -D__O_RSYNC="$bit" $(pkg-config --cflags fuse3) -o "$out/files/bin/passthrough" \
  "$top/tests/fuse/passthrough.c" $(pkg-config --static --libs fuse3) 2> "$out/passthrough.log" \
  || { cat "$out/passthrough.log" >&2; die "cannot build tests/fuse/passthrough.c statically against libfuse3"; }
{
  echo "rsync /bin/rsynccell /mnt vda 4"
  echo "fuse /bin/fusecell /bin/passthrough vda 4"
} > "$out/list"
"$top/tests/qemu/guest.sh" --cache "$cache" --files "$out/files" --list "$out/list" \
  --out "$out/console.log" --disk 64 --kernel "$image" \
  || die "linux-source-$linux with the series did not boot and run the cell (console: $out/console.log)"
sed -n '/^osync-guest: begin rsync/,/^osync-guest: end rsync/p' "$out/console.log" > "$out/rsync.txt"
grep -qE '^osync-guest: end rsync 0( |$)' "$out/rsync.txt" \
  || die "rsynccell failed on linux-source-$linux (see $out/rsync.txt)"
sed -n '/^osync-guest: begin fuse/,/^osync-guest: end fuse/p' "$out/console.log" > "$out/fuse.txt"
grep -qE '^osync-guest: end fuse 0( |$)' "$out/fuse.txt" \
  || die "fusecell failed on linux-source-$linux (see $out/fuse.txt)"
status=0
judge "$out/rsync.txt" | sed "s/^/boot-check.sh: linux-source-$linux: /" || status=1
cat "$out/rsync.txt"
[ $status = 0 ] || die "linux-source-$linux with the series does not do O_RSYNC reads right (see $out/rsync.txt)"
judge_fuse "$out/fuse.txt" new | sed "s/^/boot-check.sh: linux-source-$linux: fuse: /" || status=1
cat "$out/fuse.txt"
[ $status = 0 ] || die "linux-source-$linux with the series does not make asynchronous O_RSYNC reads durable (ext4, FUSE; see $out/fuse.txt)"
echo "boot-check.sh: linux-source-$linux with the series makes aio and io_uring RWF_RSYNC reads durable, on ext4 and through FUSE (FOPEN_DIRECT_IO, async_dio)"
echo "boot-check.sh: linux-source-$linux with the series boots and does O_RSYNC reads"
