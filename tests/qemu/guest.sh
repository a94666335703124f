#!/bin/bash
# Boot Debian 12's Linux 6.1 under QEMU and run test programs in it.
#
#   guest.sh --cache DIR --files DIR --list FILE --out LOG [--timeout S]
#            [--disk MB] [--disk-cache MODE] [--kernel BZIMAGE]
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
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die () { echo "guest.sh: error: $*" >&2; exit 1; }

cache= files= list= out= timeout=300 disk= image= diskcache=writeback
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
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
case $diskcache in
  writeback|unsafe|none|writethrough|directsync) ;;
  *) die "--disk-cache wants a QEMU cache mode (writeback, unsafe, none, writethrough, directsync), not '$diskcache'" ;;
esac
[ -n "$cache" ] && [ -d "$files" ] && [ -f "$list" ] && [ -n "$out" ] \
  || die "usage: $0 --cache DIR --files DIR --list FILE --out LOG [--timeout S]"
for t in qemu-system-x86_64 cpio gzip dpkg-deb apt-get; do
  command -v $t >/dev/null \
    || die "$t is missing; run ./configure (it installs qemu-system-x86 and cpio)"
done

if [ -n "$image" ]; then
  [ -f "$image" ] \
    || die "no kernel image '$image'; kernel/build-kernel.sh builds it"
  pkg="the kernel $image"
  kernel=$image
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

# The static init and kemu, rebuilt when their sources change.
bin=$cache/qemu/bin-$(cat "$here/init.c" "$here/../../kemu/kemu.c" | sha256sum | cut -c1-16)
if [ ! -x "$bin/kemu" ]; then
  mkdir -p "$bin"
  gcc -static -O2 -o "$bin/init" "$here/init.c" \
    && gcc -static -O2 -o "$bin/kemu" "$here/../../kemu/kemu.c" \
    || die "cannot build the guest's static init and kemu"
fi

root=$(mktemp -d "${TMPDIR:-/var/tmp}/osync-guest.XXXXXX")
trap 'rm -rf "$root"' EXIT
cp -a "$files"/. "$root"/
mkdir -p "$root"/proc "$root"/dev "$root"/tmp "$root"/bin
cp "$bin/init" "$root/init"
cp "$bin/kemu" "$root/bin/kemu"
if [ -n "$disk" ]; then
  command -v mkfs.ext4 >/dev/null \
    || die "mkfs.ext4 is missing (apt-get install e2fsprogs)"
  : > "$root/tests.list"
  [ -n "$image" ] || mods=$(ls -d "$kdir"/lib/modules/*/kernel)
  [ -n "$image" ] || mkdir -p "$root/modules"
  # In the order they depend on each other.
  [ -n "$image" ] || for m in drivers/virtio/virtio_ring.ko drivers/virtio/virtio.ko \
           drivers/virtio/virtio_pci_modern_dev.ko \
           drivers/virtio/virtio_pci_legacy_dev.ko \
           drivers/virtio/virtio_pci.ko drivers/block/virtio_blk.ko \
           lib/crc16.ko crypto/crc32c_generic.ko fs/mbcache.ko \
           fs/jbd2/jbd2.ko fs/ext4/ext4.ko; do
    [ -f "$mods/$m" ] || die "$pkg has no $m"
    cp "$mods/$m" "$root/modules/"
    echo "@insmod /modules/${m##*/}" >> "$root/tests.list"
  done
  echo "@mount /dev/vda /mnt ext4" >> "$root/tests.list"
  cat "$list" >> "$root/tests.list"
  truncate -s "${disk}M" "$root.img"
  # No lazy initialisation: its background writes would count.
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$root.img" \
    || die "mkfs.ext4 failed"
  drive=(-drive "file=$root.img,if=virtio,format=raw,cache=$diskcache")
else
  cp "$list" "$root/tests.list"
  drive=()
fi
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$root.cpio.gz"
trap 'rm -rf "$root" "$root.cpio.gz" "$root.img"' EXIT

timeout "$timeout" qemu-system-x86_64 -machine q35 -m 1024 -nographic \
  -no-reboot -kernel "$kernel" -initrd "$root.cpio.gz" "${drive[@]}" \
  -append "console=ttyS0 panic=-1 quiet" < /dev/null 2>&1 | tr -d '\r' > "$out" || true
if ! grep -q '^osync-guest: done' "$out"; then
  tail -n 30 "$out" >&2
  die "the guest ($pkg) did not finish within ${timeout}s; its console is in $out"
fi
echo "guest.sh: $pkg ran $(grep -c '^osync-guest: end' "$out") programs; console in $out"
