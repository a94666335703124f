#!/bin/bash
# Boot a kernel under QEMU with the host's own userspace and run a
# script in it: the guest of the external suites (driver/suites.sh).
#
#   hostguest.sh --cache DIR --kernel stock|BZIMAGE --out DIR
#                --run SCRIPT [ARG...] [--glibc ROOT] [--drive FILE]...
#                [--mem MB] [--smp N] [--timeout S] [--env NAME=VALUE]...
#   hostguest.sh --cache DIR --kernel stock|BZIMAGE --prepare
#                only download and unpack the kernel (stock) and print
#                "IMAGE NAME" (NAME: the package, or the image's path)
#
# The guest's root is the host's root file system, shared read-only
# over 9p (QEMU's -virtfs, mount tag "hostroot") as the lower layer of
# an overlay whose upper layer is a tmpfs: every program and library
# of the host is there, the whole tree is writable, and nothing the
# guest writes reaches the host (tests/qemu/init.c, "@hostroot").  The
# directory --out is shared read-write as /out; the console goes to
# OUT/console.log.  --run: the script (a host path; the guest sees the
# same path) that /bin/bash runs in the guest, with ARG... (everything
# after --run up to the next option of this script that starts with
# "--"), in the environment --env gives; its exit status is written to
# OUT/status, and a guest that does not finish within --timeout (or
# writes no status) is an error.  --smp N: N processors (default 1,
# multi-threaded TCG); a guest that saw fewer (its init's "cpus" line)
# is an error.
# The script must not live under /tmp, /run, /dev, /proc or /sys, which
# the guest mounts afresh.
# --glibc ROOT: the dynamic loader and the libraries of the glibc
# installed in the staging root ROOT (driver/build-glibc.sh) replace
# Debian's in the guest before the script runs (in the overlay: the
# host's files are untouched), so every program of the guest runs on
# that glibc (tests/qemu/hostroot-glibc.sh).
# --drive FILE (repeatable): a raw virtio disk, /dev/vda, /dev/vdb, ...
# in that order, cache=unsafe: the suites cut no power here (the
# dm-log-writes tests replay their logs inside the guest).
#
# --kernel stock: Debian 13's linux-image-6.12.*+deb13-amd64, the
# generic flavour (downloaded with driver/debian-suite.sh into the
# cache and unpacked, not installed), with 9p, the overlay, ext4, xfs,
# btrfs, loop and device-mapper's log-writes, flakey and thin-pool
# targets loaded
# from the package's modules, in the order their modules.dep gives.
# The cloud flavour that tests/osync.matrix boots is the same source
# and version, but has no 9p (CONFIG_NET_9P is not set there).
# --kernel BZIMAGE: a kernel with all of that built in
# (kernel/build-kernel.sh with kernel/osync.config).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
# depmod lives in /sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
die () { echo "hostguest.sh: error: $*" >&2; exit 1; }

cache= kernel= out= glibc= mem=2048 smp=1 timeout=3600 run=() drives=() envs=()
prepare=
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --glibc) glibc=$2; shift 2 ;;
    --drive) drives+=("$2"); shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --smp) smp=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --prepare) prepare=1; shift ;;
    --run)
      shift
      while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do run+=("$1"); shift; done ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] && [ -n "$kernel" ] && { [ -n "$prepare" ] || { [ -n "$out" ] && [ ${#run[@]} -gt 0 ]; }; } \
  || die "usage: $0 --cache DIR --kernel stock|BZIMAGE --out DIR --run SCRIPT [ARG...]"
case $smp in
  [1-9]|[1-9][0-9]) ;;
  *) die "--smp wants a number of processors from 1 to 99, not '$smp'" ;;
esac
[ -n "$prepare" ] || [ -f "${run[0]}" ] || die "no script '${run[0]}' to run in the guest"
for w in "${run[@]}" "${envs[@]}"; do
  case $w in
    *' '*|'') die "'$w': the guest's init splits its command lines at spaces; no word may hold one or be empty" ;;
  esac
done
[ -z "$glibc" ] || [ -f "$glibc/lib64/libc.so.6" ] \
  || die "--glibc $glibc is not a glibc staging root (no lib64/libc.so.6); driver/build-glibc.sh makes them"
for t in qemu-system-x86_64 cpio gzip dpkg-deb xz; do
  command -v $t >/dev/null || die "$t is missing; run ./configure"
done
mkdir -p "$cache/qemu"
if [ -z "$prepare" ]; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  rm -f "$out/status" "$out/console.log"
fi

# The kernel and, for Debian's, its modules; prepared by one guest at
# a time.
exec 8> "$cache/qemu/prepare.lock"
flock 8
mods=()
if [ "$kernel" = stock ]; then
  suite=$top/driver/debian-suite.sh
  pkg=$("$suite" --cache "$cache" newest 'linux-image-6\.12\.[0-9]+\+deb13-amd64' | cut -d' ' -f1) \
    || die "cannot find Debian 13's linux-image-6.12.*+deb13-amd64 (driver/debian-suite.sh failed; see above)"
  kdir=$cache/qemu/$pkg
  if ! ls "$kdir"/boot/vmlinuz-* >/dev/null 2>&1; then
    deb=$("$suite" --cache "$cache" download "$pkg" 6.12 "$cache/debs" | tail -n 1) \
      || die "cannot download $pkg (driver/debian-suite.sh failed; see above)"
    rm -rf "$kdir"
    mkdir -p "$kdir"
    dpkg-deb -x "$deb" "$kdir" || { rm -rf "$kdir"; die "cannot unpack $deb; remove it and run again"; }
  fi
  image=$(ls "$kdir"/boot/vmlinuz-* | head -n 1)
  mdir=$( (ls -d "$kdir"/usr/lib/modules/*/ "$kdir"/lib/modules/*/ 2>/dev/null || true) | head -n 1)
  [ -d "$mdir/kernel" ] || die "$pkg has no usr/lib/modules/*/kernel; remove $kdir and run again"
  # The package leaves modules.dep to depmod at installation.
  if [ ! -f "$mdir/modules.dep" ]; then
    command -v depmod >/dev/null || die "depmod is missing (apt-get install kmod)"
    mver=$(basename "$mdir")
    depmod -b "${mdir%/lib/modules/*}" "$mver" \
      || die "depmod cannot make the modules.dep of $pkg in $mdir"
  fi
  # Each wanted module after the modules it depends on.
  mapfile -t mods < <(awk -v want="crc32c_generic virtio_blk 9p 9pnet_virtio overlay ext4 xfs btrfs loop dm_log_writes dm_flakey dm_thin_pool" '
    BEGIN { n = split(want, w, " ") }
    { key = $1; sub(/:$/, "", key); dep[key] = ""; for (i = 2; i <= NF; i++) dep[key] = dep[key] " " $i
      name = key; sub(/.*\//, "", name); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", name); gsub(/-/, "_", name); path[name] = key }
    function visit(p,   d, k, i) { if (p in seen) return; seen[p] = 1
      k = split(dep[p], d, " "); for (i = 1; i <= k; i++) visit(d[i]); print p }
    END { for (i = 1; i <= n; i++) { if (!(w[i] in path)) { print "MISSING " w[i]; continue } visit(path[w[i]]) } }' \
      "$mdir/modules.dep")
  for m in "${mods[@]}"; do
    case $m in MISSING*) die "$pkg has no module ${m#MISSING }" ;; esac
  done
  name="$pkg"
else
  [ -f "$kernel" ] || die "no kernel image '$kernel'; kernel/build-kernel.sh builds it"
  image=$kernel
  name="the kernel $kernel"
fi
if [ -n "$prepare" ]; then
  echo "$image ${pkg:-$image}"
  exit 0
fi
# The guest's static init, rebuilt when its source changes.
bin=$cache/qemu/hostinit-$(sha256sum "$here/init.c" | cut -c1-16)
if [ ! -x "$bin/init" ]; then
  new=$(mktemp -d "$bin.XXXXXX")
  gcc -static -O2 -o "$new/init" "$here/init.c" \
    || { rm -rf "$new"; die "cannot build the guest's static init"; }
  chmod 755 "$new"
  mv -T "$new" "$bin" 2>/dev/null || rm -rf "$new"
fi
exec 8>&-

root=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-hostguest.XXXXXX")
trap 'rm -rf "$root" "$root.cpio.gz"' EXIT
mkdir -p "$root/modules" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp "$bin/init" "$root/init"
list=$root/tests.list
: > "$list"
for m in "${mods[@]}"; do
  f=${m##*/}
  case $f in
    *.xz) xz -dc "$mdir/$m" > "$root/modules/${f%.xz}" || die "cannot unpack $m of $pkg"; f=${f%.xz} ;;
    *.ko) cp "$mdir/$m" "$root/modules/$f" ;;
    *) die "$pkg: module $m is compressed in a way this script does not unpack" ;;
  esac
  echo "@insmod /modules/$f" >> "$list"
done
{
  echo "@hostroot hostroot"
  echo "@mount out /out 9p trans=virtio,version=9p2000.L,msize=512000"
  [ -z "$glibc" ] || echo "glibc /bin/bash $here/hostroot-glibc.sh $(cd "$glibc" && pwd)"
  echo "run ${envs[*]} /bin/bash $here/hostroot-run.sh /out/status ${run[*]}"
} >> "$list"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$root.cpio.gz"

drive=()
for d in "${drives[@]}"; do
  [ -f "$d" ] || die "no disk image '$d'"
  drive+=(-drive "file=$d,if=virtio,format=raw,cache=unsafe")
done
timeout "$timeout" qemu-system-x86_64 -machine q35 -accel tcg,thread=multi -m "$mem" -smp "$smp" -nographic \
  -no-reboot -kernel "$image" -initrd "$root.cpio.gz" "${drive[@]}" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$out",mount_tag=out,security_model=none,multidevs=remap \
  -append "console=ttyS0 panic=-1 quiet no_timer_check" < /dev/null 2>&1 \
  | tr -d '\r' > "$out/console.log" || true
if ! grep -q '^osync-guest: done' "$out/console.log" || [ ! -s "$out/status" ]; then
  tail -n 30 "$out/console.log" >&2
  die "the guest ($name) did not finish within ${timeout}s or wrote no status; its console is in $out/console.log"
fi
seen=$(sed -n 's/^osync-guest: cpus \([0-9]*\)$/\1/p' "$out/console.log")
[ "$seen" = "$smp" ] \
  || die "the guest ($name) saw ${seen:-an unknown number of} processors, not the $smp of --smp $smp (a kernel without CONFIG_ACPI sees one); its console is in $out/console.log"
echo "hostguest.sh: $name ran ${run[*]}: exit status $(cat "$out/status"); console in $out/console.log"
