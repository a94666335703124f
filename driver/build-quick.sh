#!/bin/bash
# make's builds of glibc, cached: only what the demonstration needs.
#
#   build-quick.sh --base VERSION --what headers|libc --src GLIBC-TREE \
#                  --key INPUT-KEY --cache DIR
#
# headers: the tree's installed headers (configure, make install-headers),
#          which need no build: the headers to compare against.
# libc:    the tree's libc.so.6 and dynamic loader, built by glibc's own
#          "lib" pass without the static library's objects, with the
#          start files and libc_nonshared.a, laid out in a staging root
#          as make install lays them out, with the installed headers:
#          enough to build and run a program on this glibc
#          (driver/stagecc.sh).  Not libc.a, libm, the other libraries,
#          the programs, the locales or the gconv modules: make check
#          builds the whole trees (driver/build-glibc.sh), and these
#          builds are not theirs.  The files it installs are byte for
#          byte those of make check's patched tree (compared on
#          2026-12-05), but for gnu/stubs-64.h, empty here.
#
# Configured as driver/build-glibc.sh configures the trees of make
# check, for x86_64.  Prints the staging root.  Each base and WHAT has
# one build directory, keyed by KEY (the caller derives it from the
# source tree), the compilers' versions, the options and this script.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base= what= src= key= cache=
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --what) what=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$base" ] && [ -n "$what" ] && [ -n "$src" ] && [ -n "$key" ] && [ -n "$cache" ] \
  || die "usage: $0 --base VERSION --what headers|libc --src DIR --key KEY --cache DIR"
case $what in headers|libc) ;; *) die "unknown --what '$what' (headers or libc)" ;; esac
[ -f "$src/version.h" ] || die "$src is not a glibc source tree"
grep -q "^#define VERSION \"$base" "$src/version.h" \
  || die "$src is not glibc $base (its version.h: $(grep '^#define VERSION' "$src/version.h"))"

opts="--prefix=/usr --disable-werror --disable-nscd --disable-timezone-tools --disable-mathvec"
export CC="${CC:-gcc}" CXX="${CXX:-g++}" PYTHON="${PYTHON:-python3}"
id=$( { echo "$key"; echo "$opts / -O2 / $what"; tool_versions; cat "$0"; } | hash_stdin)
build=$cache/build/glibc-$base-quick-$what
obj=$build/obj
root=$obj/root
if [ -f "$obj/.osync-installed" ] && [ "$(cat "$obj/.osync-key" 2>/dev/null)" = "$id" ]; then
  echo "$root"
  exit 0
fi
rm -rf "$build"
mkdir -p "$obj"
echo "$id" > "$obj/.osync-key"
git clone -q --shared "$src" "$build/src" \
  || die "cannot copy the source tree $src to $build/src"
cd "$obj"
note "configuring glibc $base ($what) in $obj; the log is $obj/configure.log"
with_log configure.log "$build/src/configure" $opts CC="$CC" CXX="$CXX" \
    CFLAGS=-O2 CXXFLAGS=-O2 MAKEINFO=: \
  || die "glibc's configure failed for $base ($what); see $obj/configure.log"
jobs=$(( $(nproc) + 1 ))

if [ "$what" = libc ]; then
  # glibc's "lib" pass: every subdirectory's libc objects,
  # libc_nonshared.a, libc.so and, for its link, ld.so; csu's start
  # files come with it.  Only the objects of the shared library (.os)
  # and of libc_nonshared.a (.oS): not the static library's (.o), half
  # of the pass, which nothing here uses (csu/others would build them).
  note "building glibc $base's libc.so.6 and ld.so in $obj; the log is $obj/build.log"
  with_log build.log make -j"$jobs" lib object-suffixes-for-libc=".os .oS" \
    || die "the build of glibc $base's libc failed; see $obj/build.log (the last lines are above)"
  # The first line of the installed libc.so linker script.
  with_log build-lds.log make "$obj/format.lds" \
    || die "cannot make $obj/format.lds; see $obj/build-lds.log"
fi

note "installing glibc $base's headers in $root; the log is $obj/install.log"
# install-bootstrap-headers also installs gnu/stubs.h and gnu/lib-names.h,
# which make install writes after the whole build: stubs-64.h, the
# list of functions that are stubs, stays empty here.
with_log install.log make -j"$jobs" install-headers install-bootstrap-headers=yes \
    DESTDIR="$root" \
  || die "make install-headers failed for glibc $base; see $obj/install.log"

if [ "$what" = libc ]; then
  # What make install would put there for a program to build and run.
  mkdir -p "$root/lib64" "$root/usr/lib64"
  cp elf/ld.so "$root/lib64/ld-linux-x86-64.so.2"
  cp libc.so "$root/lib64/libc.so.6"
  for f in csu/crt1.o csu/Scrt1.o csu/crti.o csu/crtn.o libc_nonshared.a; do
    [ -f "$f" ] || die "the build in $obj made no $f"
    cp "$f" "$root/usr/lib64/"
  done
  # The linker script make install writes (Makerules).
  { echo '/* GNU ld script'
    echo '   Use the shared library, but some functions are only in'
    echo '   the static library, so try that secondarily.  */'
    cat format.lds
    echo 'GROUP ( /lib64/libc.so.6 /usr/lib64/libc_nonshared.a  AS_NEEDED ( /lib64/ld-linux-x86-64.so.2 ) )'
  } > "$root/usr/lib64/libc.so"
fi
# A staging root is a sysroot: programs built against it also need the
# kernel's headers, which glibc does not install.
for d in linux asm-generic; do
  ln -sfn "/usr/include/$d" "$root/usr/include/$d"
done
ln -sfn /usr/include/x86_64-linux-gnu/asm "$root/usr/include/asm"
touch .osync-installed
echo "$root"
