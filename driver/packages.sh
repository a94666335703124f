#!/bin/bash
# The Debian packages of driver/debian-packages, by part: "make" (what
# ./configure && make needs) and "check" (what only make check and the
# other targets need, after the line "[make check]").
#
#   packages.sh list PART        the packages of PART
#   packages.sh missing PART     those of PART that are not installed
#   packages.sh install PART [--no-install] [--log FILE]
#                                install the missing ones with apt-get
#                                (as root; an apt-get update first if the
#                                install fails on stale package lists);
#                                with --no-install, or not as root, fail
#                                with the apt-get command to run instead.
#                                apt-get's output goes to FILE (default:
#                                standard error).
#   packages.sh tools            check the tools of the "check" part,
#                                one by one, with a message that names
#                                the package of a missing one
#
# configure runs "install make"; make check's first phase (driver/osync.sh
# deps) runs "install check" and "tools".  The machine's apt
# configuration is used as it is, never changed.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
list=$here/debian-packages

# packages_of PART: the packages of PART, one a line.
packages_of ()
{
  [ -f "$list" ] || die "$list is missing; it is part of the project"
  awk -v part="$1" '
    { sub(/#.*/, "") }
    /^\[make check\][ \t]*$/ { check = 1; next }
    /^\[/ { printf "%s:%d: unknown section %s (only [make check])\n", FILENAME, NR, $0 > "/dev/stderr"; exit 2 }
    (part == "check") == (check == 1) { for (i = 1; i <= NF; i++) print $i }
  ' "$list" || die "cannot read $list"
}

missing_of ()
{
  local p
  command -v dpkg-query >/dev/null \
    || die "dpkg-query is missing: not a Debian system; install the packages of $list by hand"
  for p in $(packages_of "$1"); do
    case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) in
      *"install ok installed"*) ;;
      *) echo "$p" ;;
    esac
  done
}

# check_tools: the tools of the "check" part, each with its package.
check_tools ()
{
  local t
  for t in runtest:dejagnu strace:strace qemu-system-x86_64:qemu-system-x86 \
           cpio:cpio flex:flex bc:bc quilt:quilt dpkg-source:dpkg-dev; do
    command -v "${t%%:*}" >/dev/null \
      || die "${t%%:*} not found in PATH; it comes from Debian's package ${t#*:} (apt-get install ${t#*:})"
  done
  [ -f /usr/include/gelf.h ] \
    || die "/usr/include/gelf.h is missing (the kernel build's objtool needs it); apt-get install libelf-dev"
  local c
  c=$(mktemp -d "${TMPDIR:-/tmp}/osync-m32.XXXXXX")
  echo 'int main (void) { return 0; }' > "$c/t.c"
  if ! "${CC:-gcc}" -m32 -o "$c/t" "$c/t.c" >/dev/null 2>&1; then
    rm -rf "$c"
    die "${CC:-gcc} -m32 cannot link; the i386 build and kemu's 32-bit tests need it (apt-get install gcc-12-multilib g++-12-multilib)"
  fi
  rm -rf "$c"
}

[ $# -ge 1 ] || die "usage: $0 list|missing|install PART, or $0 tools; see the comment at the top"
cmd=$1
shift
case $cmd in
  tools) check_tools; exit 0 ;;
esac
[ $# -ge 1 ] || die "usage: $0 $cmd PART (make or check)"
part=$1
shift
case $part in make|check) ;; *) die "unknown part '$part' (make or check)" ;; esac
case $cmd in
  list) packages_of "$part" ;;
  missing) missing_of "$part" ;;
  install)
    noinstall=0 log=/dev/stderr
    while [ $# -gt 0 ]; do
      case $1 in
        --no-install) noinstall=1; shift ;;
        --log) log=$2; shift 2 ;;
        *) die "unknown argument '$1'" ;;
      esac
    done
    missing=$(missing_of "$part" | tr '\n' ' ')
    missing=${missing% }
    [ -n "$missing" ] || exit 0
    if [ $noinstall = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
      why="not root"
      [ $noinstall = 0 ] || why="--disable-install-deps was given to configure"
      command -v apt-get >/dev/null || why="apt-get is missing"
      die "missing Debian packages ($why); install them with:
  apt-get install --no-install-recommends $missing"
    fi
    note "installing: $missing"
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
           --no-install-recommends $missing >> "$log" 2>&1; then
      note "apt-get install failed; running apt-get update first"
      # shellcheck disable=SC2086
      apt-get update -q >> "$log" 2>&1 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
             --no-install-recommends $missing >> "$log" 2>&1 \
        || die "could not install $missing with apt-get (see $log); fix the package sources, then run again"
    fi ;;
  *) die "unknown command '$cmd'; see the comment at the top of $0" ;;
esac
