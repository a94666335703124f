#!/bin/bash
# Boot Debian 12's Linux 6.1 under QEMU and run test programs in it.
#
#   guest.sh --cache DIR --files DIR --list FILE --out LOG [--timeout S]
#            [--disk MB] [--disk-cache MODE] [--kernel BZIMAGE] [--smp N]
#
# The kernel comes from Debian's linux-image-amd64 package, downloaded
# and unpacked (not installed) into the cache, or, with --kernel, is
# the given image with everything built in (kernel/build-kernel.sh).  The initramfs holds the
# files under --files at their paths, a static init (init.c) that runs
# each line of --list ("LABEL PROGRAM ARGS...") and a static kemu as
# /bin/kemu.  The serial console goes to --out.  A guest that does not
# finish (no "osync-guest: done" within the timeout) is an error, with
# the end of the console shown.  With --disk, the guest also gets an
# ext4 disk of that size as /dev/vda, mounted on /mnt before the list
# runs (the virtio and ext4 modules of the kernel package are loaded;
# a --kernel image has them built in).  The disk is a host file opened
# with QEMU's cache=writeback (the guest's flushes reach the host's
# disk), or the given --disk-cache mode (unsafe: they do not).
# --disk-image FILE uses FILE (made and kept by the caller) as /dev/vda
# instead, and mounts nothing; --drive FILE (repeatable) adds FILE as
# the next virtio disk (/dev/vdb, ...); --module PATH (repeatable) also
# loads PATH (under the package's lib/modules/*/kernel) after ext4.
# --debian-kernel 6.12 boots Debian 13's stock linux-image-6.12.*-cloud-amd64
# instead of Debian 12's 6.1 (--debian-kernel 6.1, the default),
# downloaded with driver/debian-suite.sh into the cache; its modules
# (xz-compressed; unpacked on the host) come from the same package.
# --arch aarch64 boots an arm64 machine (qemu-system-aarch64, virt,
# Cortex-A57) instead of an x86_64 one: with --debian-kernel 6.1,
# Debian 12's linux-image-6.1.0-*-arm64, with 6.12 Debian 13's
# linux-image-6.12.*-arm64, both downloaded for arm64 with
# driver/debian-suite.sh --arch arm64; the init is cross-compiled with
# Debian's aarch64 cross compiler; there is no kemu and no disk.
# --print-kernel only finds, downloads and unpacks the Debian kernel
# (--debian-kernel) and prints "PACKAGE VERSION IMAGE"; --files, --list
# and --out are then not needed.
# --fine-clock (x86_64) gives the guest kernel the host's TSC rate
# (tsc_early_khz=, measured by tsc-khz.c; under TCG the guest's TSC
# counts at the host's rate) and tsc=reliable: a kernel without ACPI
# (the project's boot-only one) has no HPET or PM timer, and when its
# PIT calibration fails (it does when the host is busy) it runs on the
# jiffies clocksource, in 4 ms steps.  For the benchmarks, which time
# microseconds; the tests do not time anything and boot as before.
# --smp N (x86_64) gives the guest N processors (default 1), emulated by
# one host thread each (multi-threaded TCG), so that a program's
# threads and processes, and the kernel's completion work, can run at
# the same time.  The guest's init prints the processors online, and a
# guest that saw fewer than N (a kernel without ACPI finds only the
# first in SeaBIOS's MP table) is an error.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die () { echo "guest.sh: error: $*" >&2; exit 1; }

cache= files= list= out= timeout=300 disk= image= diskcache=writeback
diskimg= drives=() extramods=() debkernel=6.1 arch=x86_64 printkernel=0
fineclock=0 smp=1
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --list) list=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --disk) disk=$2; shift 2 ;;
    --kernel) image=$2; shift 2 ;;
    --disk-cache) diskcache=$2; shift 2 ;;
    --disk-image) diskimg=$2; disk=image; shift 2 ;;
    --drive) drives+=("$2"); shift 2 ;;
    --module) extramods+=("$2"); shift 2 ;;
    --debian-kernel) debkernel=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --print-kernel) printkernel=1; shift ;;
    --fine-clock) fineclock=1; shift ;;
    --smp) smp=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
case $smp in
  [1-9]|[1-9][0-9]) ;;
  *) die "--smp wants a number of processors from 1 to 99, not '$smp'" ;;
esac
case $diskcache in
  writeback|unsafe|none|writethrough|directsync) ;;
  *) die "--disk-cache wants a QEMU cache mode (writeback, unsafe, none, writethrough, directsync), not '$diskcache'" ;;
esac
[ -n "$cache" ] && { [ $printkernel = 1 ] || { [ -d "$files" ] && [ -f "$list" ] && [ -n "$out" ]; }; } \
  || die "usage: $0 --cache DIR --files DIR --list FILE --out LOG [--timeout S]"
case $arch in
  x86_64) qemu=qemu-system-x86_64 ;;
  aarch64)
    qemu=qemu-system-aarch64
    [ -z "$disk" ] || die "--arch aarch64 has no disk (--disk, --disk-image)" ;;
  *) die "--arch wants x86_64 or aarch64, not '$arch'" ;;
esac
for t in $qemu cpio gzip dpkg-deb apt-get; do
  command -v $t >/dev/null \
    || die "$t is missing; run ./configure (it installs driver/debian-packages: qemu-system-x86, qemu-system-arm, cpio)"
done

# The cache is prepared by one guest at a time (test groups boot guests
# in parallel): the kernel packages, downloaded and unpacked, and the
# static programs.
command -v flock >/dev/null || die "flock is missing (apt-get install util-linux)"
mkdir -p "$cache/qemu"
exec 8> "$cache/qemu/prepare.lock"
flock 8

if [ -n "$image" ]; then
  [ -f "$image" ] \
    || die "no kernel image '$image'; kernel/build-kernel.sh builds it"
  pkg="the kernel $image"
  kernel=$image
elif [ "$debkernel" = 6.12 ] || [ "$arch" = aarch64 ]; then
  # Debian 13's cloud kernel for x86_64: virtio, ext4 and crc32c built
  # in; Debian's generic arm64 kernels for aarch64.
  suite=("$here/../../driver/debian-suite.sh" --cache "$cache")
  case $arch,$debkernel in
    x86_64,6.12) re='linux-image-6\.12\.[0-9]+\+deb13-cloud-amd64' kdir=$cache/qemu ;;
    aarch64,6.1) re='linux-image-6\.1\.0-[0-9]+-arm64' kdir=$cache/qemu/arm64 ;;
    aarch64,6.12) re='linux-image-6\.12\.[0-9]+\+deb13-arm64' kdir=$cache/qemu/arm64 ;;
    *) die "--debian-kernel wants 6.1 (Debian 12's) or 6.12 (Debian 13's), not '$debkernel'" ;;
  esac
  [ "$arch" = x86_64 ] || suite+=(--arch arm64)
  read -r pkg ver < <("${suite[@]}" newest "$re") && [ -n "$pkg" ] \
    || die "cannot find Debian's $re (driver/debian-suite.sh failed; see above)"
  # The x86_64 kernel is kept by name, as before; the arm64 ones by
  # name and version, which their callers' cache keys name.
  if [ "$arch" = x86_64 ]; then kdir=$kdir/$pkg; else kdir=$kdir/${pkg}_$ver; fi
  if ! ls "$kdir"/boot/vmlinuz-* >/dev/null 2>&1; then
    deb=$("${suite[@]}" download "$pkg" "$debkernel" "$cache/debs" | tail -n 1) \
      || die "cannot download $pkg (driver/debian-suite.sh failed; see above)"
    rm -rf "$kdir"
    mkdir -p "$kdir"
    dpkg-deb -x "$deb" "$kdir" || { rm -rf "$kdir"; die "cannot unpack $deb; remove it and run again"; }
  fi
  kernel=$(ls "$kdir"/boot/vmlinuz-* | head -n 1)
  if [ $printkernel = 1 ]; then
    echo "$pkg $ver $kernel"
    exit 0
  fi
elif [ "$debkernel" != 6.1 ]; then
  die "--debian-kernel wants 6.1 (Debian 12's) or 6.12 (Debian 13's), not '$debkernel'"
else
  # The kernel: the 6.1 image linux-image-amd64 depends on.
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null \
          | awk '/Depends: linux-image-6/ { print $2; exit }')
  if [ -z "$pkg" ]; then
    apt-get update -q >/dev/null 2>&1 || true
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null \
            | awk '/Depends: linux-image-6/ { print $2; exit }')
  fi
  [ -n "$pkg" ] || die "cannot find Debian's linux-image-amd64 package; check the apt sources (apt-get update)"
  kdir=$cache/qemu/$pkg
  if ! ls "$kdir"/boot/vmlinuz-* >/dev/null 2>&1; then
    tmp=$(mktemp -d "$cache/qemu-dl.XXXXXX")
    (cd "$tmp" && apt-get download -q "$pkg" >/dev/null 2>&1) \
      || { rm -rf "$tmp"; die "apt-get download $pkg failed"; }
    rm -rf "$kdir"
    mkdir -p "$kdir"
    dpkg-deb -x "$tmp"/*.deb "$kdir" || die "cannot unpack $pkg"
    rm -rf "$tmp"
  fi
  kernel=$(ls "$kdir"/boot/vmlinuz-* | head -n 1)
fi

[ $printkernel = 0 ] || die "--print-kernel needs a Debian kernel of --arch aarch64 or --debian-kernel 6.12"

# The static init and kemu, rebuilt when their sources change; built
# aside and renamed, as other guests may be starting at the same time.
# An aarch64 guest has only the init, from the cross compiler.
if [ "$arch" = aarch64 ]; then
  bin=$cache/qemu/bin-aarch64-$(sha256sum < "$here/init.c" | cut -c1-16)
  if [ ! -x "$bin/init" ]; then
    new=$(mktemp -d "$bin.XXXXXX")
    aarch64-linux-gnu-gcc -static -O2 -o "$new/init" "$here/init.c" \
      || { rm -rf "$new"; die "cannot build the aarch64 guest's static init (aarch64-linux-gnu-gcc and libc6-dev-arm64-cross; run ./configure)"; }
    chmod 755 "$new"
    mv -T "$new" "$bin" 2>/dev/null || rm -rf "$new"
  fi
else
  bin=$cache/qemu/bin-$(cat "$here/init.c" "$here/../../kemu/kemu.c" | sha256sum | cut -c1-16)
  if [ ! -x "$bin/kemu" ]; then
    new=$(mktemp -d "$bin.XXXXXX")
    gcc -static -O2 -o "$new/init" "$here/init.c" \
      && gcc -static -O2 -o "$new/kemu" "$here/../../kemu/kemu.c" \
      || { rm -rf "$new"; die "cannot build the guest's static init and kemu"; }
    chmod 755 "$new"
    mv -T "$new" "$bin" 2>/dev/null || rm -rf "$new"
  fi
fi
exec 8>&-

root=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-guest.XXXXXX")
trap 'rm -rf "$root"' EXIT
cp -a "$files"/. "$root"/
mkdir -p "$root"/proc "$root"/dev "$root"/tmp "$root"/bin
cp "$bin/init" "$root/init"
[ "$arch" = aarch64 ] || cp "$bin/kemu" "$root/bin/kemu"
if [ -n "$disk" ]; then
  command -v mkfs.ext4 >/dev/null \
    || die "mkfs.ext4 is missing (apt-get install e2fsprogs)"
  : > "$root/tests.list"
  [ -n "$image" ] || mods=$( (ls -d "$kdir"/lib/modules/*/kernel "$kdir"/usr/lib/modules/*/kernel 2>/dev/null || true) | head -n 1)
  [ -n "$image" ] || [ -d "$mods" ] || die "$pkg has no lib/modules/*/kernel; remove $kdir and run again"
  [ -n "$image" ] || mkdir -p "$root/modules"
  # put_module M: copy module M (or M.xz, unpacked) into the guest and load it.
  put_module () {
    if [ -f "$mods/$1" ]; then
      cp "$mods/$1" "$root/modules/"
    elif [ -f "$mods/$1.xz" ]; then
      xz -dc "$mods/$1.xz" > "$root/modules/${1##*/}" || die "cannot unpack $1.xz of $pkg"
    else
      die "$pkg has no $1"
    fi
    echo "@insmod /modules/${1##*/}" >> "$root/tests.list"
  }
  # In the order they depend on each other.
  basemods="drivers/virtio/virtio_ring.ko drivers/virtio/virtio.ko
           drivers/virtio/virtio_pci_modern_dev.ko
           drivers/virtio/virtio_pci_legacy_dev.ko
           drivers/virtio/virtio_pci.ko drivers/block/virtio_blk.ko
           lib/crc16.ko crypto/crc32c_generic.ko fs/mbcache.ko
           fs/jbd2/jbd2.ko fs/ext4/ext4.ko"
  [ "$debkernel" = 6.12 ] && basemods=drivers/block/virtio_blk.ko
  [ -n "$image" ] || for m in $basemods; do
    put_module "$m"
  done
  [ -n "$image" ] || for m in "${extramods[@]}"; do
    put_module "$m"
  done
  [ -n "$diskimg" ] || echo "@mount /dev/vda /mnt ext4" >> "$root/tests.list"
  cat "$list" >> "$root/tests.list"
  if [ -n "$diskimg" ]; then
    [ -f "$diskimg" ] || die "no disk image '$diskimg'"
  else
  truncate -s "${disk}M" "$root.img"
  # No lazy initialisation: its background writes would count.
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$root.img" \
    || die "mkfs.ext4 failed"
  fi
  drive=(-drive "file=${diskimg:-$root.img},if=virtio,format=raw,cache=$diskcache")
  for d in "${drives[@]}"; do
    drive+=(-drive "file=$d,if=virtio,format=raw,cache=$diskcache")
  done
else
  cp "$list" "$root/tests.list"
  drive=()
fi
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$root.cpio.gz"
trap 'rm -rf "$root" "$root.cpio.gz" "$root.img"' EXIT

if [ "$arch" = aarch64 ]; then
  machine=(qemu-system-aarch64 -machine virt -cpu cortex-a57 -smp 2)
  console=ttyAMA0
else
  machine=(qemu-system-x86_64 -machine q35)
  [ "$smp" = 1 ] || machine+=(-accel tcg,thread=multi -smp "$smp")
  console=ttyS0
fi
cmdline="console=$console panic=-1 quiet no_timer_check"
if [ $fineclock = 1 ]; then
  [ "$arch" = x86_64 ] || die "--fine-clock is for x86_64 guests (an arm64 guest has its generic timer)"
  grep -qw constant_tsc /proc/cpuinfo \
    || die "--fine-clock: the host's TSC does not count at a constant rate (no constant_tsc in /proc/cpuinfo); the guest's clock cannot be given its rate"
  gcc -O2 -o "$root.tsc-khz" "$here/tsc-khz.c" || die "cannot build $here/tsc-khz.c"
  khz=$("$root.tsc-khz") || die "cannot measure the host's TSC rate ($here/tsc-khz.c)"
  rm -f "$root.tsc-khz"
  cmdline="$cmdline tsc_early_khz=$khz tsc=reliable"
fi
timeout "$timeout" "${machine[@]}" -m 1024 -nographic \
  -no-reboot -kernel "$kernel" -initrd "$root.cpio.gz" "${drive[@]}" \
  -append "$cmdline" < /dev/null 2>&1 | tr -d '\r' > "$out" || true
if ! grep -q '^osync-guest: done' "$out"; then
  tail -n 30 "$out" >&2
  die "the guest ($pkg) did not finish within ${timeout}s; its console is in $out"
fi
if [ "$arch" = x86_64 ]; then
  seen=$(sed -n 's/^osync-guest: cpus \([0-9]*\)$/\1/p' "$out")
  [ "$seen" = "$smp" ] \
    || die "the guest ($pkg) saw ${seen:-an unknown number of} processors, not the $smp of --smp $smp (a kernel without CONFIG_ACPI sees one); its console is in $out"
fi
echo "guest.sh: $pkg ran $(grep -c '^osync-guest: end' "$out") programs; console in $out"
