#!/bin/bash
# Build a kernel tree with the series and boot it once, with O_RSYNC
# reads at its ext4 disk (make kernel-mainline).
#
#   boot-check.sh --cache DIR --out DIR [--linux VERSION | --newest]
#                 [--patches DIR]
#
# --newest (the default) takes the newest linux-source Debian offers in
# any suite (driver/debian-suite.sh); when that is not newer than 6.12,
# the tree the new kernel is built from, it prints "UNSUPPORTED: " and
# the reason and exits 0, having checked nothing.  Otherwise it builds
# the tree with kernel/build-kernel.sh, boots it with tests/qemu/guest.sh
# and runs tests/osync.matrix/rsynccell.c, built statically against this
# machine's glibc with __O_RSYNC from the facts file, on the guest's
# disk.  It fails unless the kernel keeps the bit (F_GETFL), an O_RSYNC
# read of a dirty range writes and flushes, one of a range written back
# but not flushed flushes, and one of a clean range with nothing written
# since the last flush does no I/O.  The console and the cell's output
# go to the --out directory.  The series is kernel/patches-mainline (the
# series of kernel/patches rebased onto mainline) for a tree newer than
# 6.12, kernel/patches otherwise, or the --patches directory.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die () { echo "boot-check.sh: error: $*" >&2; exit 1; }

cache= out= linux= patches=
while [ $# -gt 0 ]; do
  case $1 in
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
echo "rsync /bin/rsynccell /mnt vda 4" > "$out/list"
"$top/tests/qemu/guest.sh" --cache "$cache" --files "$out/files" --list "$out/list" \
  --out "$out/console.log" --disk 64 --kernel "$image" \
  || die "linux-source-$linux with the series did not boot and run the cell (console: $out/console.log)"
sed -n '/^osync-guest: begin rsync/,/^osync-guest: end rsync/p' "$out/console.log" > "$out/rsync.txt"
grep -qE '^osync-guest: end rsync 0( |$)' "$out/rsync.txt" \
  || die "rsynccell failed on linux-source-$linux (see $out/rsync.txt)"
status=0
check () { # WHAT AWK-CONDITION
  if awk "$2 { ok = 1 } END { exit !ok }" "$out/rsync.txt"; then
    echo "boot-check.sh: linux-source-$linux: $1: ok"
  else
    echo "boot-check.sh: linux-source-$linux: $1: FAIL" >&2
    status=1
  fi
}
want=$(printf '0%o' $(( bit | 010000 )))
check "F_GETFL keeps __O_RSYNC" "\$1 == \"open\" && \$2 == \"$want\""
check "a dirty range is written and flushed" "\$1 == \"rsync\" && \$2 == \"dirty-pread\" && \$3 >= 1 && \$4 >= 1"
check "a written-back range is flushed" "\$1 == \"rsync\" && \$2 == \"written-back\" && \$4 >= 1"
check "a clean range with nothing written since the last flush costs no I/O" "\$1 == \"rsync\" && \$2 == \"clean\" && \$3 == 0 && \$4 == 0"
check "RWF_NOWAIT gets EAGAIN" "\$1 == \"nowait\" && \$2 == \"EAGAIN\""
cat "$out/rsync.txt"
[ $status = 0 ] || die "linux-source-$linux with the series does not do O_RSYNC reads right (see $out/rsync.txt)"
echo "boot-check.sh: linux-source-$linux with the series boots and does O_RSYNC reads"
