#!/bin/bash
# Find or fetch the glibc release tarball of one base, from Debian's
# glibc-source package, and check it.
#
#   glibc-tarball.sh --base VERSION --cache DIR [--tarball FILE]
#
# Prints "TARBALL SHA256 DEBIAN-VERSION".  With --tarball, that file is
# checked and used.  Otherwise the tarball of the installed
# glibc-source is used if it is of VERSION (Debian 12's is 2.36), and
# else the newest glibc-source of VERSION that any Debian suite offers
# is downloaded through driver/debian-suite.sh (any Debian revision:
# they change) and unpacked into DIR/tarballs.  The tarball must hold
# glibc-VERSION/ whose version.h says VERSION or VERSION.N.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

base= cache= tarball=
while [ $# -gt 0 ]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --tarball) tarball=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$base" ] && [ -n "$cache" ] || die "usage: $0 --base VERSION --cache DIR [--tarball FILE]"

debver=
if [ "$tarball" = /usr/src/glibc/glibc-$base.tar.xz ]; then
  debver=$(dpkg-query -W -f='${Version}' glibc-source 2>/dev/null || true)
fi
if [ -z "$tarball" ]; then
  installed=$(dpkg-query -W -f='${Version}' glibc-source 2>/dev/null || true)
  case $installed in
    "$base"-*|"$base".*)
      tarball=/usr/src/glibc/glibc-$base.tar.xz debver=$installed ;;
    *)
      deb=$("$here/debian-suite.sh" --cache "$cache" download glibc-source "$base" "$cache/debs") \
        || die "cannot get Debian's glibc-source $base (see above)"
      debver=$(dpkg-deb -f "$deb" Version)
      dir=$cache/tarballs/glibc-source_$debver
      if [ ! -f "$dir/.complete" ]; then
        rm -rf "$dir"
        mkdir -p "$dir"
        dpkg-deb --fsys-tarfile "$deb" \
          | tar -xf - -C "$dir" --wildcards './usr/src/glibc/glibc-*.tar.xz' \
          || die "$deb holds no usr/src/glibc/glibc-*.tar.xz; is it Debian's glibc-source?"
        touch "$dir/.complete"
      fi
      tarball=$(ls -1 "$dir"/usr/src/glibc/glibc-*.tar.xz | sed -n 1p) ;;
  esac
fi
[ -f "$tarball" ] || die "$tarball does not exist; install Debian's glibc-source (apt-get install glibc-source) or give the tarball with --with-glibc-$base-tarball=FILE"
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
# What the three decompressions below found is kept by the tarball's
# sha256 (a file with that hash is that tarball): this script took
# 5.3 s on 2.36's tarball without it, 0.1 s with it.
seen=$cache/tarballs/seen-$sum
if [ -s "$seen" ]; then
  read -r top version < "$seen"
else
  xz -t "$tarball" 2>/dev/null \
    || die "$tarball is not a complete xz file (truncated or damaged); reinstall it (apt-get install --reinstall glibc-source) or remove $cache/tarballs and run again"
  top=$(tar -tJf "$tarball" 2>/dev/null | sed -n 1p | cut -d/ -f1)
  version=$(xz -dc "$tarball" | tar -xOf - "$top/version.h" 2>/dev/null \
              | sed -n 's/^#define VERSION "\(.*\)"/\1/p')
  if [ -n "$top" ] && [ -n "$version" ]; then
    mkdir -p "$cache/tarballs"
    echo "$top $version" > "$seen.tmp" && mv "$seen.tmp" "$seen"
  fi
fi
case $version in
  "$base"|"$base".*) ;;
  *) die "$tarball is not glibc $base (its version.h says '${version:-nothing}'); this project patches glibc $base: give a glibc-$base tarball" ;;
esac
[ "$top" = "glibc-$base" ] || die "$tarball unpacks into '$top', not glibc-$base/"
echo "$tarball $sum ${debver:-unknown}"
