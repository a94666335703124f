#!/bin/bash
# Configure, build and install one glibc tree for one ABI, cached.
#
#   build-glibc.sh --base VERSION --abi x86_64|i386 \
#                  --variant patched|baseline --src GLIBC-TREE \
#                  --key INPUT-KEY --cache DIR
#
# Prints the build directory.  The staging root (make install
# DESTDIR) is BUILD/root.  Each base, variant and ABI has one build
# directory, at a fixed path; it records a hash of KEY (which the
# caller derives from the source tree), the compilers' versions, the
# configure options and this script, so any change to an input builds
# afresh and an unchanged input costs nothing.  The fixed path lets
# ccache (Debian's, when installed; its cache is DIR/ccache) reuse
# every object a change of the patch does not touch.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base= abi= variant= src= key= cache=
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --abi) abi=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$base" ] && [ -n "$abi" ] && [ -n "$variant" ] && [ -n "$src" ] && [ -n "$key" ] \
  && [ -n "$cache" ] || die "usage: $0 --base VERSION --abi ABI --variant VARIANT --src DIR --key KEY --cache DIR"
[ -f "$src/version.h" ] || die "$src is not a glibc source tree"
grep -q "^#define VERSION \"$base" "$src/version.h" \
  || die "$src is not glibc $base (its version.h: $(grep '^#define VERSION' "$src/version.h"))"

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
build="$cache/build/glibc-$base-$variant-$abi"
if [ -f "$build/.osync-installed" ] \
   && [ "$(cat "$build/.osync-key" 2>/dev/null)" = "$id" ]; then
  echo "$build"
  exit 0
fi

# ccache only saves time: the objects are the compiler's.  A fixed
# build directory and a base directory make its hits independent of
# the source tree's path.
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$cache" \
    CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-16G}
  cc="ccache $cc" cxx="ccache $cxx"
fi

rm -rf "$build"
mkdir -p "$build"
echo "$id" > "$build/.osync-key"
note "building glibc $base ($variant, $abi) in $build; the log is $build/build.log"
cd "$build"
if ! with_log configure.log "$src/configure" $opts CC="$cc" CXX="$cxx" \
     MAKEINFO=: ; then
  die "glibc's configure failed for $base $variant $abi; see $build/configure.log"
fi
if ! with_log build.log make -j"$(nproc)" ; then
  die "the glibc build failed for $base $variant $abi; see $build/build.log (the last lines are above)"
fi
if ! with_log install.log make -j"$(nproc)" install DESTDIR="$build/root" ; then
  die "make install failed for $base $variant $abi; see $build/install.log"
fi
# A staging root is a sysroot: programs built against it also need the
# kernel's headers, which glibc does not install.
for d in linux asm-generic; do
  ln -sfn "/usr/include/$d" "root/usr/include/$d"
done
ln -sfn /usr/include/x86_64-linux-gnu/asm root/usr/include/asm
touch .osync-installed
echo "$build"
