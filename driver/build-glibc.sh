#!/bin/bash
# Configure, build and install one glibc tree for one ABI, cached.
#
#   build-glibc.sh --base VERSION --abi x86_64|i386 \
#                  --variant patched|baseline --src GLIBC-TREE \
#                  --key INPUT-KEY --cache DIR [--from BASELINE-OBJ]
#
# With --from, the tree is built on a copy of the finished build
# BASELINE-OBJ (of the same base and ABI, configured alike): only what
# the change between the two source trees touches is compiled again,
# by make's own dependencies.  The patched tree then costs about half a
# build instead of a whole one (the new version node changes
# abi-versions.h, which 42 % of glibc's objects include).  Its installed
# files are byte for byte those of a build from scratch (see below;
# driver/osync.sh builds from scratch when OSYNC_FROM_SCRATCH=1 is
# set, to compare again).
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

base= abi= variant= src= key= cache= from=
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --abi) abi=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
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
fromid=
if [ -n "$from" ]; then
  [ -f "$from/.osync-installed" ] && [ -s "$from/.osync-key" ] \
    || die "--from $from is not a finished glibc build; build the baseline first"
  fromid=$(cat "$from/.osync-key")
fi
id=$( { echo "$key"; echo "$cc / $cxx / $opts / -O2"; tool_versions;
        echo "on $fromid"; cat "$0"; } | hash_stdin)
# BUILD/src is a copy of the source tree and BUILD/obj the object
# directory; make runs in src, so the paths a compilation names are the
# same, relative, for every variant.  With OSYNC_CCACHE=1, ccache
# (Debian's; its cache is DIR/ccache) then reuses earlier objects for a
# build from scratch of an input that was built before.  ccache only
# saves time: the objects are the compiler's.
build="$cache/build/glibc-$base-$variant-$abi"
obj="$build/obj"
if [ -f "$obj/.osync-installed" ] \
   && [ "$(cat "$obj/.osync-key" 2>/dev/null)" = "$id" ]; then
  echo "$obj"
  exit 0
fi
# ccache is opt-in (OSYNC_CCACHE=1): a miss costs a second run of the
# preprocessor and a compressed copy of the object, which made a cold
# build of 2.44 take 16 minutes here instead of 12, and the patched
# tree, built on the baseline's objects, has little left to gain.
if [ "${OSYNC_CCACHE:-0}" = 1 ] && command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$cache" \
    CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-16G}
  cc="ccache $cc" cxx="ccache $cxx"
fi

rm -rf "$build"
if [ -n "$from" ]; then
  # Everything of the baseline's build but its staging root, with the
  # modification times kept (the objects of glibc's tests too, when
  # they have run), so that make sees the objects as up to
  # date with every source the patch leaves alone.
  frombuild=$(dirname "$from")
  note "building glibc $base ($variant, $abi) in $obj, on a copy of $from; the log is $obj/build.log"
  mkdir -p "$build"
  # Not the results of the baseline's tests either: glibc's make check
  # would take an up-to-date .out for this tree's result, and
  # driver/glibc-tests.sh its cached summary.
  tar -C "$frombuild" --exclude=./obj/root --exclude='./obj/*.out' \
      --exclude='./obj/*.test-result' --exclude='./obj/*.sum' -cf - . \
    | tar -C "$build" -xf - \
    || die "cannot copy $frombuild to $build (is the disk full?)"
  rm -f "$obj/.osync-installed"
  # The object directory names itself by absolute path in its
  # dependency files, config.status and the like: point them at the
  # copy, or make would check the baseline's generated headers instead
  # of this tree's.  Each text file keeps its time.  A binary file that
  # names the directory (libsupport's support_paths.o, and the test
  # programs linked with it, when the baseline's tests have run) is
  # removed, so that make builds it again for this tree.
  grep -rlIZF --exclude-dir=root -e "$frombuild/" "$obj" \
    | while IFS= read -r -d '' f; do
        sed -i "s|$frombuild/|$build/|g" "$f"
        touch -r "$frombuild/${f#"$build"/}" "$f"
      done
  grep -rlZF --exclude-dir=root -e "$frombuild/" "$obj" | xargs -0 -r rm -f
  # ar would replace the members of the copied archives in place and
  # add the series' new objects at the end, so libc.so.6 would be laid
  # out differently from a build from scratch (the same symbols, other
  # addresses).  Made afresh from the objects, every installed file is
  # byte for byte that of a build from scratch (compared on 2.44 on
  # 2026-12-04: 1450 files, none differs).
  find "$obj" -path "$obj/root" -prune -o -name '*.a' -print0 | xargs -0 -r rm -f
  echo "$id" > "$obj/.osync-key"
  # The source tree becomes SRC: git rewrites only the files that
  # differ, which are then newer than every object that depends on them.
  git -C "$build/src" fetch -q "$src" HEAD \
    && git -C "$build/src" -c advice.detachedHead=false checkout -q FETCH_HEAD \
    || die "cannot check out $src in $build/src"
  cd "$obj"
  # glibc generates these headers before any compilation, but only when
  # they are missing; once they exist, make remakes one only for an
  # object whose dependency file names it.  A source file that the
  # series adds has no dependency file yet, and would be compiled
  # against the baseline's abi-versions.h and dl-tunable-list.h (a
  # SHLIB_COMPAT test of the new node would be silently false).  Bring
  # them up to date first; each is rewritten only if it changes.
  gen=()
  for h in abi-versions.h first-versions.h ldbl-compat-choose.h \
           libc-abis.h libc-modules.h dl-tunable-list.h gcc-macros.h \
           gnu/lib-names.h bits/std_abs.h; do
    [ ! -e "$h" ] || gen+=("$obj/$h")
  done
  if ! with_log build.log make -r -C "$build/src/csu" objdir="$obj" \
         subdir=csu ..=../ "${gen[@]}"; then
    die "cannot bring glibc's generated headers up to date in $obj; see $obj/build.log"
  fi
  mv build.log generated.log
else
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
fi
# One job more than there are processors, meant to fill make's serial
# stretches (the start of each subdirectory, the links).  Measured on
# this project's 2-processor machine kind, this script's run for the
# patched 2.36 on the baseline's objects (copy, make, make install),
# three runs each, alternating (2026-12-04): -j3 425, 431 and 408 s,
# -j2 454, 403 and 418 s.  No difference shows through the machine's
# drift; -j3 stays because it is not slower.
jobs=$(( $(nproc) + 1 ))
if ! with_log build.log make -j"$jobs" ; then
  die "the glibc build failed for $base $variant $abi; see $obj/build.log (the last lines are above)"
fi
if ! with_log install.log make -j"$jobs" install DESTDIR="$obj/root" ; then
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
