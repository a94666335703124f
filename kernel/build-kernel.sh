#!/bin/bash
# The "new" kernel of the test matrix: Debian's linux-source-6.1 with
# the patch series in kernel/patches, applied with git am.
#
#   build-kernel.sh --cache DIR [--source TARBALL] [--patches DIR] [--jobs N]
#       Build a bzImage from allnoconfig plus kernel/osync.config and
#       print its path on the last line.  The result is cached under
#       DIR/kernel/osync-KEY, KEY a hash of every input: the tarball,
#       the patches, the config fragment, this script and the tools.
#   build-kernel.sh --cache DIR --check-series OUTDIR [--source TARBALL]
#                   [--patches DIR]
#       Apply the series with git am to a pristine tree of the tarball,
#       run the kernel's checkpatch.pl on every patch, and check the
#       patched uapi headers of every architecture that has its own
#       <asm/fcntl.h>: __O_RSYNC is 01000000000 and collides with no
#       other open flag and no internal f_flags bit.  Writes am.log,
#       checkpatch.log and uapi.log to OUTDIR; fails if any check fails.
#
# --patches gives another series (default: kernel/patches).  Both use a
# pristine git repository of the tarball, made once and kept
# in DIR/kernel/pristine-HASH.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die () { echo "build-kernel.sh: error: $*" >&2; exit 1; }

cache= source=/usr/src/linux-source-6.1.tar.xz jobs=$(( $(nproc) + 1 ))
check= patchdir=$here/patches
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --check-series) check=$2; shift 2 ;;
    --patches) patchdir=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] || die "usage: $0 --cache DIR [--source TARBALL] [--check-series OUTDIR]"
[ -f "$source" ] \
  || die "no kernel source '$source': install Debian's linux-source-6.1 (./configure does)"
for t in git xz make gcc flex bison bc perl; do
  command -v $t >/dev/null \
    || die "$t is missing; run ./configure (it installs what the kernel build needs)"
done
[ -f /usr/include/gelf.h ] \
  || die "libelf's headers are missing (objtool needs them); run ./configure (it installs libelf-dev)"
patches=("$patchdir"/*.patch)
[ -f "${patches[0]}" ] || die "no patches (*.patch) in $patchdir"

mkdir -p "$cache/kernel"
# Interrupted runs still clean up (the EXIT traps below).
trap 'exit 130' INT TERM
# Identities for the pristine commit and for git am, whatever the
# user's git configuration says.
export GIT_AUTHOR_NAME=osync-glibc GIT_AUTHOR_EMAIL=osync-glibc@sourceware.invalid
export GIT_COMMITTER_NAME=osync-glibc GIT_COMMITTER_EMAIL=osync-glibc@sourceware.invalid

# The pristine tree, one commit.  Debian's top-level .gitignore ignores
# everything at the top level, hence add -f.
srchash=$(sha256sum "$source" | cut -c1-16)
pristine=$cache/kernel/pristine-$srchash
if [ ! -d "$pristine/.git" ] || ! git -C "$pristine" rev-parse -q --verify refs/tags/pristine >/dev/null; then
  echo "build-kernel.sh: unpacking $source into $pristine"
  rm -rf "$pristine" "$pristine.tmp"
  mkdir -p "$pristine.tmp"
  tar -xJf "$source" -C "$pristine.tmp" --strip-components=1 \
    || die "cannot unpack $source; is it a Linux source tarball?"
  [ -f "$pristine.tmp/Makefile" ] && [ -f "$pristine.tmp/include/uapi/asm-generic/fcntl.h" ] \
    || die "$source does not look like a Linux source tree"
  (cd "$pristine.tmp" && git init -q && git add -f . \
     && git commit -q -m "$(basename "$source") as shipped" && git tag pristine) \
    || die "cannot make a git repository of $source"
  mv "$pristine.tmp" "$pristine"
fi
kversion=$(make -s -C "$pristine" kernelversion 2>/dev/null) \
  || die "cannot read the kernel version of $source"

# worktree DIR: a fresh checkout of the pristine tree with the series
# applied by git am; its output goes to DIR.am.log.
worktree () {
  local dir=$1
  git -C "$pristine" worktree remove --force "$dir" >/dev/null 2>&1 || true
  rm -rf "$dir"
  git -C "$pristine" worktree prune
  git -C "$pristine" worktree add -q --detach "$dir" pristine \
    || die "cannot check out the pristine tree into $dir"
  if ! git -C "$dir" am "${patches[@]}" > "$dir.am.log" 2>&1; then
    cat "$dir.am.log" >&2
    git -C "$dir" am --abort >/dev/null 2>&1 || true
    die "the series in $patchdir does not apply with git am to $kversion ($source)"
  fi
}

if [ -n "$check" ]; then
  mkdir -p "$check"
  work=$cache/kernel/check-$$
  trap 'git -C "$pristine" worktree remove --force "$work" >/dev/null 2>&1; rm -rf "$work" "$work.am.log" "$work.stub"' EXIT
  worktree "$work"
  { echo "git am onto $kversion ($source):"; cat "$work.am.log"
    git -C "$work" log --oneline pristine..HEAD; } > "$check/am.log"
  status=0
  (cd "$work" && ./scripts/checkpatch.pl --no-tree --strict "${patches[@]}") \
    > "$check/checkpatch.log" 2>&1 || status=1
  # The uapi headers as user space sees them, for each architecture
  # whose <asm/fcntl.h> defines values of its own.
  : > "$check/uapi.log"
  for arch in generic alpha mips parisc sparc arm arm64 ia64 m68k powerpc; do
    # Only the macros matter: <linux/types.h> can be empty.
    mkdir -p "$work.stub/linux"
    : > "$work.stub/linux/types.h"
    inc=(-I "$work.stub" -I "$work/include/uapi")
    [ $arch = generic ] || inc=(-I "$work.stub" -I "$work/arch/$arch/include/uapi" -I "$work/include/uapi")
    hdr=asm/fcntl.h
    [ $arch = generic ] && hdr=asm-generic/fcntl.h
    out=$(printf '#include <%s>\n' "$hdr" \
            | gcc -E -dM -nostdinc "${inc[@]}" -D__KERNEL__ - 2>&1) \
      || { echo "$arch: cannot preprocess $hdr: $out" >> "$check/uapi.log"; status=1; continue; }
    printf '%s\n' "$out" | python3 "$here/check-uapi.py" "$arch" >> "$check/uapi.log" 2>&1 \
      || status=1
  done
  cat "$check/uapi.log"
  grep '^total:' "$check/checkpatch.log" || true
  [ $status = 0 ] || die "the series has problems; see $check"
  echo "build-kernel.sh: the series applies to $kversion and passes checkpatch and the uapi check"
  exit 0
fi

# The build, keyed by every input.
tools=$( (gcc --version; ld --version; make --version; flex --version;
          bison --version; dpkg-query -W libelf-dev 2>/dev/null) | sha256sum)
key=$( (echo "$srchash"; cat "${patches[@]}" "$here/osync.config" "$0";
        echo "$tools") | sha256sum | cut -c1-16)
out=$cache/kernel/osync-$key
if [ -f "$out/bzImage" ]; then
  echo "build-kernel.sh: $kversion with the series, cached"
  echo "$out/bzImage"
  exit 0
fi
work=$cache/kernel/work-$key
# What an earlier run killed hard (SIGKILL, power loss) left behind.
for old in "$cache"/kernel/work-*; do
  [ -e "$old" ] && rm -rf "$old"
done
git -C "$pristine" worktree prune
trap 'git -C "$pristine" worktree remove --force "$work" >/dev/null 2>&1; rm -rf "$work" "$work.am.log" "$work.build"' EXIT
echo "build-kernel.sh: building $kversion with the series in $patchdir (about 5 minutes)"
worktree "$work"
rm -rf "$work.build"
mkdir -p "$work.build"
make -s -C "$work" O="$work.build" allnoconfig >/dev/null \
  || die "make allnoconfig failed"
"$work/scripts/kconfig/merge_config.sh" -m -O "$work.build" \
  "$work.build/.config" "$here/osync.config" > "$work.build/merge.log" 2>&1 \
  || { cat "$work.build/merge.log" >&2; die "merging $here/osync.config failed"; }
make -s -C "$work" O="$work.build" olddefconfig >/dev/null \
  || die "make olddefconfig failed"
missing=
while read -r opt; do
  grep -qx "$opt" "$work.build/.config" || missing="$missing $opt"
done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$here/osync.config")
[ -z "$missing" ] \
  || die "Kconfig dropped$missing from the configuration (a missing dependency?); fix $here/osync.config"
if ! make -C "$work" O="$work.build" -j"$jobs" bzImage > "$work.build/make.log" 2>&1; then
  cp "$work.build/make.log" "$cache/kernel/build-failed.log"
  grep -E 'error|Error' "$work.build/make.log" | head -n 20 >&2
  die "the kernel build failed; its log is in $cache/kernel/build-failed.log"
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$work.build/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$work.build/.config" "$out.tmp/config"
git -C "$work" log --oneline pristine..HEAD > "$out.tmp/series"
echo "$kversion" > "$out.tmp/version"
mv "$out.tmp" "$out"
echo "build-kernel.sh: built $kversion with the series"
echo "$out/bzImage"
