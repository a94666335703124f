#!/bin/sh
# stagecc.sh ROOT ABI [GCC-ARGUMENTS...]
# Compile and link a program against the glibc installed in the staging
# root ROOT (make install DESTDIR=ROOT), for ABI x86_64 or i386.  The
# program runs with that glibc's dynamic loader and libraries, whatever
# the system's glibc is.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 ROOT ABI [GCC-ARGUMENTS...]" >&2; exit 2; }
root=$1 abi=$2
shift 2
case $abi in
  x86_64) m=-m64 lib=lib64 ldso=ld-linux-x86-64.so.2 ;;
  i386) m=-m32 lib=lib ldso=ld-linux.so.2 ;;
  *) echo "$0: unknown ABI '$abi' (x86_64 or i386)" >&2; exit 2 ;;
esac
[ -f "$root/$lib/$ldso" ] || {
  echo "$0: $root has no $lib/$ldso; is it a staging root of a $abi glibc?" >&2
  exit 2; }
exec ${CC:-gcc} $m --sysroot="$root" -B"$root/usr/$lib/" -L"$root/usr/$lib" \
  -L"$root/$lib" -Wl,-rpath="$root/$lib:$root/usr/$lib" \
  -Wl,--dynamic-linker="$root/$lib/$ldso" "$@"
