#!/bin/bash
# Configure, build and install one glibc tree for one ABI, cached.
#
#   build-glibc.sh --abi x86_64|i386 --variant patched|baseline \
#                  --src GLIBC-TREE --key INPUT-KEY --cache DIR
#
# Prints the build directory.  The staging root (make install
# DESTDIR) is BUILD/root.  The cache entry is named after VARIANT, ABI
# and a hash of KEY (which the caller derives from the source tree),
# the compilers' versions, the configure options and this script, so
# any change to an input builds afresh and an unchanged input costs
# nothing.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

abi= variant= src= key= cache=
while [ $# -gt 0 ]; do
  case $1 in
    --abi) abi=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$abi" ] && [ -n "$variant" ] && [ -n "$src" ] && [ -n "$key" ] \
  && [ -n "$cache" ] || die "usage: $0 --abi ABI --variant VARIANT --src DIR --key KEY --cache DIR"
[ -f "$src/version.h" ] || die "$src is not a glibc source tree"

case $abi in
  x86_64)
    cc="${CC:-gcc}" cxx="${CXX:-g++}"
    opts="--prefix=/usr --disable-werror" ;;
  i386)
    cc="${CC:-gcc} -m32" cxx="${CXX:-g++} -m32"
    # Debian keeps the x86 <asm/*.h> (which serve -m32 too) where only
    # the 64-bit compiler looks; give the i386 build a kernel header
    # directory of its own.
    kh="$cache/kernel-headers-x86"
    mkdir -p "$kh"
    ln -sfn /usr/include/linux "$kh/linux"
    ln -sfn /usr/include/asm-generic "$kh/asm-generic"
    ln -sfn /usr/include/x86_64-linux-gnu/asm "$kh/asm"
    opts="--prefix=/usr --disable-werror --host=i686-linux-gnu --build=x86_64-linux-gnu --with-headers=$kh" ;;
  *) die "unknown ABI '$abi' (x86_64 or i386)" ;;
esac
case $variant in patched|baseline) ;; *) die "unknown variant '$variant'" ;; esac

export CC="${CC:-gcc}" CXX="${CXX:-g++}" PYTHON="${PYTHON:-python3}"
id=$( { echo "$key"; echo "$cc / $cxx / $opts"; tool_versions;
        cat "$0"; } | hash_stdin)
build="$cache/build/$variant-$abi-$id"
if [ -f "$build/.osync-installed" ]; then
  echo "$build"
  exit 0
fi

rm -rf "$build"
mkdir -p "$build"
note "building glibc ($variant, $abi) in $build; the log is $build/build.log"
cd "$build"
if ! with_log configure.log "$src/configure" $opts CC="$cc" CXX="$cxx" \
     MAKEINFO=: ; then
  die "glibc's configure failed for $variant $abi; see $build/configure.log"
fi
if ! with_log build.log make -j"$(nproc)" ; then
  die "the glibc build failed for $variant $abi; see $build/build.log (the last lines are above)"
fi
if ! with_log install.log make -j"$(nproc)" install DESTDIR="$build/root" ; then
  die "make install failed for $variant $abi; see $build/install.log"
fi
# A staging root is a sysroot: programs built against it also need the
# kernel's headers, which glibc does not install.
for d in linux asm-generic; do
  ln -sfn "/usr/include/$d" "root/usr/include/$d"
done
ln -sfn /usr/include/x86_64-linux-gnu/asm root/usr/include/asm
touch .osync-installed
prune_cache "$cache/build" "$variant-$abi-" 2
echo "$build"
