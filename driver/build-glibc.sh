#!/bin/bash
# Configure, build and install one glibc tree for one ABI, cached.
#
#   build-glibc.sh --base VERSION --abi x86_64|i386 \
#                  --variant patched|baseline --src GLIBC-TREE \
#                  --key INPUT-KEY --cache DIR
#
# Prints the object directory, OBJ.  The staging root (make install
# DESTDIR) is OBJ/root.  Each base, variant and ABI has one build
# directory, at a fixed path; it records a hash of KEY (which the
# caller derives from the source tree), the compilers' versions, the
# configure options and this script, so any change to an input builds
# afresh and an unchanged input costs nothing.
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

# Both trees of a comparison are built alike, and without what the
# series cannot change and make check does not use: debugging
# information (-g, a third of the compile time), nscd, the time zone
# tools and libmvec.
common="--prefix=/usr --disable-werror --disable-nscd --disable-timezone-tools --disable-mathvec"
case $abi in
  x86_64)
    cc="${CC:-gcc}" cxx="${CXX:-g++}"
    opts="$common" ;;
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
    opts="$common --host=i686-linux-gnu --build=x86_64-linux-gnu --with-headers=$kh" ;;
  *) die "unknown ABI '$abi' (x86_64 or i386)" ;;
esac
case $variant in patched|baseline) ;; *) die "unknown variant '$variant'" ;; esac

export CC="${CC:-gcc}" CXX="${CXX:-g++}" PYTHON="${PYTHON:-python3}"
id=$( { echo "$key"; echo "$cc / $cxx / $opts / -O2"; tool_versions;
        cat "$0"; } | hash_stdin)
# BUILD/src is a copy of the source tree and BUILD/obj the object
# directory; make runs in src, so the paths a compilation names are the
# same, relative, for every variant.  ccache (Debian's, when installed;
# its cache is DIR/ccache) then reuses the baseline's objects for every
# file the patch does not touch, and a fixed directory per base,
# variant and ABI reuses the previous build's for a change of the
# patch.  ccache only saves time: the objects are the compiler's.
build="$cache/build/glibc-$base-$variant-$abi"
obj="$build/obj"
if [ -f "$obj/.osync-installed" ] \
   && [ "$(cat "$obj/.osync-key" 2>/dev/null)" = "$id" ]; then
  echo "$obj"
  exit 0
fi
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$cache" \
    CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-16G}
  cc="ccache $cc" cxx="ccache $cxx"
fi

rm -rf "$build"
mkdir -p "$obj"
echo "$id" > "$obj/.osync-key"
note "building glibc $base ($variant, $abi) in $obj; the log is $obj/build.log"
git clone -q --shared "$src" "$build/src" \
  || die "cannot copy the source tree $src to $build/src"
cd "$obj"
if ! with_log configure.log "$build/src/configure" $opts CC="$cc" CXX="$cxx" \
     CFLAGS=-O2 CXXFLAGS=-O2 MAKEINFO=: ; then
  die "glibc's configure failed for $base $variant $abi; see $obj/configure.log"
fi
if ! with_log build.log make -j"$(nproc)" ; then
  die "the glibc build failed for $base $variant $abi; see $obj/build.log (the last lines are above)"
fi
if ! with_log install.log make -j"$(nproc)" install DESTDIR="$obj/root" ; then
  die "make install failed for $base $variant $abi; see $obj/install.log"
fi
# A staging root is a sysroot: programs built against it also need the
# kernel's headers, which glibc does not install.
for d in linux asm-generic; do
  ln -sfn "/usr/include/$d" "root/usr/include/$d"
done
ln -sfn /usr/include/x86_64-linux-gnu/asm root/usr/include/asm
touch .osync-installed
echo "$obj"
