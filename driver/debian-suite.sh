#!/bin/bash
# Reach Debian's newer suites (trixie, unstable, experimental) and
# bookworm's source packages from a Debian 12 machine, through a
# private apt sources list and state directory under the project's
# cache.  The machine's own apt configuration is never read for
# sources nor changed.
#
#   debian-suite.sh --cache DIR [--arch ARCH] COMMAND ...
#
# --arch ARCH (a Debian architecture, e.g. arm64) reads the packages of
# ARCH instead of the machine's, from bookworm as well as the newer
# suites, through a state directory of its own (DIR/apt-ARCH): a
# foreign kernel package to boot under QEMU, downloaded and unpacked,
# never installed.
#
#   debian-suite.sh --cache DIR update
#       Refresh the private package lists (done by the other commands
#       when the lists are missing or older than a day).
#   debian-suite.sh --cache DIR download PACKAGE UPSTREAM-VERSION OUTDIR
#       Download the newest PACKAGE whose Debian version is
#       UPSTREAM-VERSION-<any revision> (or UPSTREAM-VERSION itself,
#       UPSTREAM-VERSION.<any point release>,
#       or UPSTREAM-VERSION~<anything>, or UPSTREAM-VERSION+<anything>)
#       into OUTDIR; print the path of the .deb.  Any revision is
#       accepted: Debian publishes new ones.
#   debian-suite.sh --cache DIR newest PACKAGE-REGEX
#       Print "PACKAGE VERSION" for the binary package matching the
#       regular expression with the highest version, in any suite.
#   debian-suite.sh --cache DIR source PACKAGE UPSTREAM-VERSION OUTDIR
#       apt-get source (without unpacking) of bookworm's PACKAGE at
#       UPSTREAM-VERSION-<any revision>, into OUTDIR; print the .dsc.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
die () { echo "debian-suite.sh: error: $*" >&2; exit 1; }

cache= arch=
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    *) break ;;
  esac
done
[ -n "$cache" ] && [ $# -ge 1 ] \
  || die "usage: $0 --cache DIR update|download|newest|source ...; see the comment at the top"
command -v apt-get >/dev/null || die "apt-get is missing: this needs a Debian system"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring is missing; apt-get install debian-archive-keyring"

d=$cache/apt${arch:+-$arch}
mkdir -p "$d/lists/partial" "$d/archives/partial" "$d/cache"
# One at a time: make check runs test groups in parallel, and apt-get
# fails at once on a lock another apt-get holds.
command -v flock >/dev/null || die "flock is missing (apt-get install util-linux)"
exec 9> "$d/lock"
flock 9
mirror=${OSYNC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ -n "$arch" ]; then
  case $arch in
    *[!a-z0-9]*|'') die "--arch wants a Debian architecture (arm64, ppc64el, ...), not '$arch'" ;;
  esac
  cat > "$d/sources.list.new" <<SRC
deb [arch=$arch signed-by=$keyring] $mirror bookworm main
deb [arch=$arch signed-by=$keyring] $mirror trixie main
SRC
else
  cat > "$d/sources.list.new" <<SRC
deb [signed-by=$keyring] $mirror trixie main
deb [signed-by=$keyring] $mirror unstable main
deb [signed-by=$keyring] $mirror experimental main
deb-src [signed-by=$keyring] $mirror bookworm main
SRC
fi
if ! cmp -s "$d/sources.list.new" "$d/sources.list" 2>/dev/null; then
  mv "$d/sources.list.new" "$d/sources.list"
  rm -f "$d/updated"
else
  rm -f "$d/sources.list.new"
fi
apt_opts=(-q -o "Dir::Etc::sourcelist=$d/sources.list"
  -o "Dir::Etc::sourceparts=-" -o "Dir::State::lists=$d/lists"
  -o "Dir::Cache=$d/cache" -o "Dir::Cache::archives=$d/archives"
  -o "APT::Default-Release=" -o "Acquire::Languages=none")
[ -z "$arch" ] || apt_opts+=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")

update ()
{
  apt-get "${apt_opts[@]}" update > "$d/update.log" 2>&1 \
    || { tail -n 5 "$d/update.log" >&2;
         die "apt-get update of the private lists failed (log: $d/update.log); check the network and $mirror"; }
  touch "$d/updated"
}
ensure_lists ()
{
  if [ ! -f "$d/updated" ] || [ -n "$(find "$d/updated" -mmin +1440)" ]; then
    update
  fi
}

# versions_of PACKAGE: every version apt knows of PACKAGE, one a line.
versions_of ()
{
  apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
}

# pick PACKAGE UPSTREAM: the newest version of PACKAGE for UPSTREAM.
pick ()
{
  local v best=
  for v in $(versions_of "$1"); do
    case $v in
      "$2"|"$2"-*|"$2"~*|"$2"+*|"$2".*) ;;
      *) continue ;;
    esac
    if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
      best=$v
    fi
  done
  echo "$best"
}

cmd=$1; shift
case $cmd in
  update) update ;;
  download)
    [ $# -eq 3 ] || die "usage: $0 --cache DIR download PACKAGE UPSTREAM-VERSION OUTDIR"
    pkg=$1 up=$2 out=$3
    ensure_lists
    v=$(pick "$pkg" "$up")
    if [ -z "$v" ]; then
      update
      v=$(pick "$pkg" "$up")
    fi
    [ -n "$v" ] || die "no Debian suite offers $pkg $up (known: $(versions_of "$pkg" | tr '\n' ' ')); if Debian has moved on, update the version this project asks for"
    mkdir -p "$out"
    deb=$out/${pkg}_${v//:/%3a}_$(apt-cache "${apt_opts[@]}" show "$pkg=$v" | awk '/^Architecture:/ && !n++ { print $2 }').deb
    if [ ! -s "$deb" ]; then
      (cd "$out" && apt-get "${apt_opts[@]}" download "$pkg=$v" > "$d/download.log" 2>&1) \
        || { tail -n 5 "$d/download.log" >&2; die "cannot download $pkg $v"; }
    fi
    [ -s "$deb" ] || deb=$(ls -1 "$out/${pkg}_"*".deb" 2>/dev/null | grep -F "_${v//:/%3a}_" | head -n 1)
    [ -s "$deb" ] || die "apt-get download of $pkg $v left no .deb in $out"
    dpkg-deb --info "$deb" >/dev/null 2>&1 \
      || { rm -f "$deb"; die "$deb is not a complete .deb (removed); run again"; }
    echo "$deb" ;;
  newest)
    [ $# -eq 1 ] || die "usage: $0 --cache DIR newest PACKAGE-REGEX"
    ensure_lists
    # The names that start with the regex's literal prefix, then one
    # apt-cache madison for all that match it (one call a name took
    # seconds more).
    prefix=$(sed 's/[][(){}.*+?^$|\\].*//' <<<"$1")
    best= bestv=
    mapfile -t names < <(apt-cache "${apt_opts[@]}" pkgnames "$prefix" 2>/dev/null | grep -E "^($1)\$" || true)
    if [ ${#names[@]} -gt 0 ]; then
      while read -r p v; do
        if [ -z "$bestv" ] || dpkg --compare-versions "$v" gt "$bestv"; then
          best=$p bestv=$v
        fi
      done < <(apt-cache "${apt_opts[@]}" madison "${names[@]}" 2>/dev/null \
                 | awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); print $1, $2 }')
    fi
    [ -n "$best" ] || die "no Debian suite offers a package matching '$1'"
    echo "$best $bestv" ;;
  source)
    [ $# -eq 3 ] || die "usage: $0 --cache DIR source PACKAGE UPSTREAM-VERSION OUTDIR"
    pkg=$1 up=$2 out=$3
    ensure_lists
    v=$(apt-cache "${apt_opts[@]}" showsrc "$pkg" 2>/dev/null \
          | awk '/^Version:/ { print $2 }' | while read -r x; do
              case $x in "$up"|"$up"-*|"$up"+*) echo "$x" ;; esac; done \
          | sort -V | tail -n 1)
    [ -n "$v" ] || die "bookworm has no source package $pkg $up"
    mkdir -p "$out"
    dsc=$out/${pkg}_${v#*:}.dsc
    if [ ! -s "$dsc" ]; then
      (cd "$out" && apt-get "${apt_opts[@]}" source --download-only "$pkg=$v" > "$d/source.log" 2>&1) \
        || { tail -n 5 "$d/source.log" >&2; die "cannot download the source of $pkg $v"; }
    fi
    [ -s "$dsc" ] || die "apt-get source left no $dsc"
    echo "$dsc" ;;
  *) die "unknown command '$cmd'; see the comment at the top of $0" ;;
esac
