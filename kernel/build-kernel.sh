#!/bin/bash
# The "new" kernel of the test matrix: Debian 13's linux-source-6.12
# with the patch series in kernel/patches, applied with git am.
#
#   build-kernel.sh --cache DIR [--source TARBALL | --linux VERSION]
#                   [--patches DIR] [--carrier open|openat2] [--jobs N]
#                   [--boot-only | --debug]
#       Build a bzImage from allnoconfig with kernel/osync.config (as
#       KCONFIG_ALLCONFIG: every option it does not name is off) and
#       print its path on the last line.  --boot-only leaves out the
#       options after the line "# == Only the matrix's guests need what
#       follows" of kernel/osync.config (32-bit programs, seccomp and the
#       network core under it, device-mapper), which kernel/boot-check.sh
#       does not need.  --debug adds kernel/debug.config after it all
#       (lockdep, KASAN, DEBUG_ATOMIC_SLEEP; make check-debug-kernel).
#       The result is cached under
#       DIR/kernel/osync-KEY, KEY a hash of every input: the tarball's
#       sha256, the series as applied, the config fragment, the facts,
#       this script and the tools.
#   build-kernel.sh --cache DIR --check-series OUTDIR [--source TARBALL |
#                   --linux VERSION] [--patches DIR] [--carrier open|openat2]
#       Apply the series with git am to a pristine tree of the tarball,
#       run the kernel's checkpatch.pl on every patch, check the patched
#       uapi headers of every architecture that has its own
#       <asm/fcntl.h> (and the tools/ copy, where the tree has one):
#       __O_RSYNC is OSYNC_RSYNC_BIT of the project's facts file and
#       collides with no other open flag and no internal f_flags bit,
#       and RWF_RSYNC in <linux/fs.h> is OSYNC_RWF_RSYNC, a bit of its
#       own, in RWF_SUPPORTED; that the carrier is the one asked for
#       (check-uapi.py --carrier);
#       and compile fs/fcntl.o and fs/open.o, whose fcntl_init() and
#       build_open_flags() check with BUILD_BUG_ON that the open flags
#       are distinct bits (unless a finished build of the same tarball
#       and series compiled them).
#       The check copies only the files it reads (see worktree below),
#       so a series that does not apply fails in a second or two.
#       Writes am.log, checkpatch.log, uapi.log and fcntl.log to OUTDIR; fails
#       if any check fails.  A check that passed is kept in the cache,
#       keyed by every input, and not redone.
#   build-kernel.sh --export DIR --submitter 'NAME <ADDRESS>'
#                   --base-commit SHA [--patches DIR]
#       Write the series as published, with the facts substituted
#       (cover letter included), to DIR.  The series carries
#       "Signed-off-by: <name and address of the submitter>", a
#       placeholder: the project has no person's DCO identity.  The
#       export refuses to write it without the person who signs it off
#       (--submitter, which replaces the placeholder and the From:
#       lines) and the commit the series applies to (--base-commit, the
#       id of the tag of the tree it was made on, e.g. `git rev-parse
#       v7.3-rc7`: a Debian tarball has no git history), which it
#       writes into the cover letter as git format-patch --base does.
#       The checks below apply the series with a stand-in identity
#       (Series Check <series-check@example.org>), so that checkpatch
#       sees a signed series.
#
# The tarball: by default Debian's linux-source-6.12, any 6.12.x
# revision, downloaded with driver/debian-suite.sh into the cache (the
# machine's apt configuration is not touched) and unpacked there;
# --linux VERSION takes linux-source-VERSION instead (e.g. the newest
# tree, for the mainline check); --source takes a tarball as it is.
# --patches gives another series (default: kernel/patches).
# --carrier says which patch 9 the series applies: "open" (the default),
# DIR's 0009-*.patch, which makes the flag an open(2) flag bit; or
# "openat2", DIR/openat2/0009-*.patch, the alternative that takes it
# from openat2(2) only, as OPENAT2_RSYNC.  --export writes both.  The
# patches write @OSYNC_RSYNC_BIT@ (and the other names of driver/facts.py)
# where the project's facts go; the series applied is the substituted
# one.  The tarball is unpacked once, into DIR/kernel/tree-HASH.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die () { echo "build-kernel.sh: error: $*" >&2; exit 1; }

cache= source= linux=6.12 jobs=$(( $(nproc) + 1 ))
check= patchdir=$here/patches export= boot_only= debug= submitter= base_commit=
carrier=open
placeholder='<name and address of the submitter>'
project_from='osync-glibc project <osync-glibc@sourceware.invalid>'
check_ident='Series Check <series-check@example.org>'
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --linux) linux=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --check-series) check=$2; shift 2 ;;
    --patches) patchdir=$2; shift 2 ;;
    --carrier) carrier=$2; shift 2 ;;
    --export) export=$2; shift 2 ;;
    --submitter) submitter=$2; shift 2 ;;
    --base-commit) base_commit=$2; shift 2 ;;
    --boot-only) boot_only=1; shift ;;
    --debug) debug=1; shift ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$cache" ] || [ -n "$export" ] \
  || die "usage: $0 --cache DIR [--source TARBALL | --linux VERSION] [--check-series OUTDIR] | --export DIR"
facts=$top/driver/facts.py
matrix_only="# == Only the matrix's guests need what follows"
[ -x "$facts" ] || die "$facts is missing; this script runs from a checkout of the project"
all=("$patchdir"/*.patch)
[ -f "${all[0]}" ] || die "no patches (*.patch) in $patchdir"
# The alternative patch 9 (openat2/0009-*.patch) goes with the series
# when it is there; --carrier openat2 needs it.
alt=()
for p in "$patchdir"/openat2/*.patch; do
  [ -f "$p" ] && alt+=("$p")
done
case $carrier in
  open) ;;
  openat2)
    [ ${#alt[@]} -eq 1 ] && [[ ${alt[0]##*/} == 0009-* ]] \
      || die "--carrier openat2 needs one patch, the alternative patch 9, in $patchdir/openat2/ (0009-*.patch); found ${#alt[@]}" ;;
  *) die "--carrier must be open or openat2, not '$carrier'" ;;
esac
for p in "${alt[@]}"; do
  for q in "${all[@]}"; do
    [ "${q##*/}" != "${p##*/}" ] \
      || die "$p has the name of $q; the alternative patch needs a name of its own"
  done
done
# The cover letter (0000-*) goes with the series but has nothing to
# apply; with the openat2 carrier, the alternative patch 9 replaces
# the series' own.
patches=()
for p in "${all[@]}"; do
  case ${p##*/} in
    0000-*) ;;
    0009-*) [ "$carrier" = openat2 ] || patches+=("$p") ;;
    *) patches+=("$p") ;;
  esac
done
[ "$carrier" = open ] || patches+=("${alt[@]}")
all+=("${alt[@]}")
[ ${#patches[@]} -gt 0 ] || die "no patches other than a cover letter in $patchdir"

# subst_series OUT IDENT [BASE]: the series with the facts substituted,
# signed off and sent by IDENT, into OUT; with BASE, the cover letter
# ends with "base-commit: BASE", as git format-patch --base writes it.
subst_series () {
  local p out=$1 ident=$2 base=${3:-}
  mkdir -p "$out"
  for p in "${all[@]}"; do
    "$facts" subst "$p" > "$out/${p##*/}" \
      || die "cannot substitute the facts in $p (driver/facts.py subst)"
    grep -qxF "Signed-off-by: $placeholder" "$out/${p##*/}" \
      || case ${p##*/} in 0000-*) ;; *)
           die "${p##*/} has no 'Signed-off-by: $placeholder' line for the submitter" ;; esac
    IDENT=$ident PH=$placeholder PF=$project_from BASE=$base perl -0pi -e '
      s/^Signed-off-by: \Q$ENV{PH}\E$/Signed-off-by: $ENV{IDENT}/mg;
      s/^From: \Q$ENV{PF}\E$/From: $ENV{IDENT}/mg;
      s/\n(-- \n[^\n]*\n*)\z/\nbase-commit: $ENV{BASE}\n$1/
        if $ENV{BASE} ne "" && $ARGV =~ m{/0000-[^/]*$};' "$out/${p##*/}" \
      || die "cannot write the submitter into $out/${p##*/}"
  done
}

# series_sum: the sha256 of the series as applied (facts substituted),
# commit messages included: the key of the check (checkpatch reads them).
series_sum () {
  local p
  for p in "${patches[@]}"; do "$facts" subst "$p"; done | sha256sum | cut -d' ' -f1
}

# code_sum: the sha256 of what the series changes in the tree, each
# patch from its first "diff --git" line to its signature line ("-- "):
# the key of the build, so that a commit message or a cover letter
# reworded does not rebuild the kernel and void every result keyed by
# it.  A patch without a diff is an error (git am would fail as well).
code_sum () {
  local p
  for p in "${patches[@]}"; do
    "$facts" subst "$p" | awk -v f="$p" '
      /^diff --git / { d = 1 }
      d && /^-- $/ { exit }
      d { print }
      END { if (!d) { print f ": no diff in this patch" > "/dev/stderr"; exit 1 } }' \
      || die "cannot read the diff of $p"
  done | sha256sum | cut -d' ' -f1
}

if [ -n "$export" ]; then
  [ -n "$submitter" ] \
    || die "--export needs --submitter 'NAME <ADDRESS>': the series is signed off by '$placeholder', which is no one; the person who sends it signs it off (Documentation/process/submitting-patches.rst, DCO)"
  [[ $submitter =~ ^[^\<\>@]+\ \<[^\<\>@\ ]+@[^\<\>\ ]+\>$ ]] \
    || die "--submitter '$submitter' is not 'NAME <ADDRESS>'"
  case $submitter in
    *"$placeholder"*|*sourceware.invalid*|*example.org*)
      die "--submitter '$submitter' is a stand-in, not a person" ;;
  esac
  [[ $base_commit =~ ^[0-9a-f]{40}$ ]] \
    || die "--export needs --base-commit SHA, the 40-digit id of the commit the series applies to (git rev-parse v7.3-rc7 in a clone of mainline), not '$base_commit'"
  subst_series "$export" "$submitter" "$base_commit"
  if grep -lF "$placeholder" "$export"/*.patch >/dev/null; then
    die "the placeholder '$placeholder' remains in $export"
  fi
  if grep -l '@OSYNC_[A-Z0-9_]*@' "$export"/*.patch >/dev/null; then
    die "unsubstituted names remain in $export"
  fi
  echo "build-kernel.sh: exported ${#all[@]} patches to $export"
  exit 0
fi

for t in git xz make gcc flex bison bc perl dpkg-deb sha256sum; do
  command -v $t >/dev/null \
    || die "$t is missing; run ./configure (it installs what the kernel build needs)"
done
[ -f /usr/include/gelf.h ] \
  || die "libelf's headers are missing (objtool needs them); run ./configure (it installs libelf-dev)"
mkdir -p "$cache/kernel"

# The tarball: Debian's linux-source-$linux, downloaded and unpacked
# into the cache, unless --source gave one.
if [ -z "$source" ]; then
  deb=$("$top/driver/debian-suite.sh" --cache "$cache" download \
          "linux-source-$linux" "$linux" "$cache/debs" | tail -n 1) \
    || die "cannot download Debian's linux-source-$linux (driver/debian-suite.sh failed; see above)"
  [ -f "$deb" ] || die "driver/debian-suite.sh gave no .deb for linux-source-$linux"
  unpacked=$cache/linux-source/$(basename "$deb" .deb)
  if [ ! -f "$unpacked/done" ]; then
    rm -rf "$unpacked"
    mkdir -p "$unpacked"
    dpkg-deb -x "$deb" "$unpacked" \
      || { rm -rf "$unpacked"; die "cannot unpack $deb; remove it and run again"; }
    touch "$unpacked/done"
  fi
  source=$(ls "$unpacked"/usr/src/linux-source-*.tar.* 2>/dev/null | head -n 1)
  [ -n "$source" ] || die "$deb holds no /usr/src/linux-source-*.tar.*; is it a linux-source package?"
fi
[ -f "$source" ] \
  || die "no kernel source '$source'; give a tarball with --source or a Debian version with --linux"

# Interrupted runs still clean up (the EXIT traps below).
trap 'exit 130' INT TERM
# Identities for the pristine commit and for git am, whatever the
# user's git configuration says.
export GIT_AUTHOR_NAME=osync-glibc GIT_AUTHOR_EMAIL=osync-glibc@sourceware.invalid
export GIT_COMMITTER_NAME=osync-glibc GIT_COMMITTER_EMAIL=osync-glibc@sourceware.invalid

# The tarball unpacked, once: the pristine tree, never changed.  Builds
# and checks apply the series to a copy of it (worktree, below).
# Directories of this script's earlier versions (pristine-HASH, git
# repositories of the whole tree) are removed.
srcsum=$(sha256sum "$source" | cut -d' ' -f1)
pristine=$cache/kernel/tree-${srcsum:0:16}
for old in "$cache"/kernel/pristine-*; do
  [ -e "$old" ] && rm -rf "$old"
done
if [ ! -f "$pristine/.osync-unpacked" ]; then
  echo "build-kernel.sh: unpacking $source into $pristine"
  # Each run unpacks into a directory of its own and renames it into
  # place with its marker inside, so the tree never exists unfinished
  # and two runs on one tarball cannot mix their files, nor remove the
  # tree the other is copying: the first to finish wins.
  tmp=$pristine.tmp.$$
  rm -rf "$tmp"
  mkdir -p "$tmp"
  tar -xf "$source" -C "$tmp" --strip-components=1 \
    || { rm -rf "$tmp"; die "cannot unpack $source; is it a complete Linux source tarball? (remove it to download it again)"; }
  [ -f "$tmp/Makefile" ] && [ -f "$tmp/include/uapi/asm-generic/fcntl.h" ] \
    || { rm -rf "$tmp"; die "$source does not look like a Linux source tree"; }
  touch "$tmp/.osync-unpacked"
  mv -T "$tmp" "$pristine" 2>/dev/null || rm -rf "$tmp"
  [ -f "$pristine/.osync-unpacked" ] \
    || die "cannot unpack $source into $pristine (is something else there? remove it and run again)"
fi
kversion=$(make -s -C "$pristine" kernelversion 2>/dev/null) \
  || die "cannot read the kernel version of $source"

# worktree DIR full|check: a copy of the pristine tree with the series
# (facts substituted, in DIR.series) applied by git am; its output goes
# to DIR.am.log.  "full" copies the whole tree, to build; "check" only
# what the series check reads: the files the series names, the uapi
# headers, scripts/ (checkpatch.pl) and fs/fcntl.c with
# include/linux/fcntl.h.  DIR is a git repository whose first commit,
# tagged pristine, holds the files the series names, as the tarball has
# them; the rest of the copy stays untracked.  git am reads and writes
# only the files a patch names, and refuses a patch that creates a file
# that is there, tracked or not, so it applies the series exactly as it
# would in a repository of the whole tree.  (Such a repository, made
# once a tarball, cost 29 s, and each checkout of it 22 s; the copy of
# the whole tree took 11 s, and 29 s once with the disk still writing
# back, that of the check's files under a second.)
worktree () {
  local dir=$1 what=$2 p named=() existing=() f n
  rm -rf "$dir" "$dir.series"
  subst_series "$dir.series" "$check_ident"
  applied=()
  for p in "${patches[@]}"; do applied+=("$dir.series/${p##*/}"); done
  mapfile -t named < <(sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' \
                         "${applied[@]}" | sort -u)
  [ ${#named[@]} -gt 0 ] || die "the patches in $patchdir name no file (no 'diff --git' line)"
  for f in "${named[@]}"; do
    [ ! -e "$pristine/$f" ] || existing+=("$f")
  done
  case $what in
    full)
      cp -a "$pristine" "$dir" || die "cannot copy $pristine to $dir (is the disk full?)" ;;
    check)
      mkdir -p "$dir"
      (cd "$pristine" && extra=(scripts include/uapi arch/*/include/uapi
                                 fs/fcntl.c fs/open.c include/linux/fcntl.h)
       [ ! -d tools/include/uapi ] || extra+=(tools/include/uapi)
       mapfile -t extra < <(printf '%s\n' "${existing[@]}" "${extra[@]}" | sort -u)
       cp -a --parents -t "$dir" -- "${extra[@]}") \
        || die "cannot copy the files of the series check from $pristine to $dir" ;;
  esac
  rm -f "$dir/.osync-unpacked"
  # Debian's top-level .gitignore ignores everything at the top level,
  # hence add -f.
  (cd "$dir" && git init -q && { [ ${#existing[@]} -eq 0 ] || git add -f -- "${existing[@]}"; } \
     && git commit -q --allow-empty -m "$(basename "$source") as shipped: the files the series names" \
     && git tag pristine) \
    || die "cannot make a git repository in $dir"
  if ! git -C "$dir" am "${applied[@]}" > "$dir.am.log" 2>&1; then
    cat "$dir.am.log" >&2
    n=$(git -C "$dir" rev-list --count pristine..HEAD)
    git -C "$dir" am --abort >/dev/null 2>&1 || true
    die "the series in $patchdir does not apply to $kversion ($source): ${applied[$n]##*/} fails (git am); rebase it"
  fi
}

if [ -n "$check" ]; then
  mkdir -p "$check"
  # A series that passed on this tarball with these tools passes again:
  # the logs of a passing check are kept, keyed by every input (the
  # tarball, the series as applied, this script, the uapi checker and
  # the tools), and a warm run reports them.  Failures are not kept.
  ckey=$( (echo "$srcsum"; series_sum
           cat "$0" "$here/check-uapi.py"
           gcc --version; make --version; perl --version; git --version) \
          | sha256sum | cut -c1-16)
  passed=$cache/kernel/checked-$ckey
  if [ -f "$passed/done" ]; then
    cp "$passed"/*.log "$check/"
    cat "$check/uapi.log"
    grep '^total:' "$check/checkpatch.log" || true
    echo "build-kernel.sh: the series applies to $kversion and passes checkpatch, the uapi check and fcntl_init's (checked before with the same inputs: $passed)"
    exit 0
  fi
  work=$cache/kernel/check-$$
  trap 'rm -rf "$work" "$work.am.log" "$work.stub" "$work.series" "$work.build"' EXIT
  worktree "$work" check
  { echo "git am onto $kversion ($source):"; cat "$work.am.log"
    git -C "$work" log --oneline pristine..HEAD; } > "$check/am.log"
  status=0
  (cd "$work" && ./scripts/checkpatch.pl --no-tree --strict "${applied[@]}") \
    > "$check/checkpatch.log" 2>&1 || status=1
  # The uapi headers as user space sees them: asm-generic, each
  # architecture whose <asm/fcntl.h> defines values of its own, and the
  # tools/ copy of asm-generic where the tree has one.
  : > "$check/uapi.log"
  arches=(generic)
  for h in "$work"/arch/*/include/uapi/asm/fcntl.h; do
    [ -f "$h" ] && arches+=("$(basename "$(dirname "$(dirname "$(dirname "$(dirname "$h")")")")")")
  done
  [ -f "$work/tools/include/uapi/asm-generic/fcntl.h" ] && arches+=(tools)
  [ ${#arches[@]} -ge 5 ] \
    || { echo "only ${#arches[@]} uapi fcntl.h headers found" >> "$check/uapi.log"; status=1; }
  mkdir -p "$work.stub/linux"
  # Only the macros matter: <linux/types.h> can be empty.
  : > "$work.stub/linux/types.h"
  for arch in "${arches[@]}"; do
    case $arch in
      generic) inc=(-I "$work.stub" -I "$work/include/uapi"); hdr=asm-generic/fcntl.h ;;
      tools) inc=(-I "$work.stub" -I "$work/tools/include/uapi"); hdr=asm-generic/fcntl.h ;;
      *) inc=(-I "$work.stub" -I "$work/arch/$arch/include/uapi" -I "$work/include/uapi"); hdr=asm/fcntl.h ;;
    esac
    out=$(printf '#include <%s>\n' "$hdr" \
            | gcc -E -dM -nostdinc "${inc[@]}" -D__KERNEL__ - 2>&1) \
      || { echo "$arch: cannot preprocess $hdr: $out" >> "$check/uapi.log"; status=1; continue; }
    printf '%s\n' "$out" | python3 "$here/check-uapi.py" "$arch" >> "$check/uapi.log" 2>&1 \
      || status=1
  done
  # RWF_RSYNC in <linux/fs.h>, the same value in every tree.
  python3 "$here/check-uapi.py" --rwf "$work/include/uapi/linux/fs.h" >> "$check/uapi.log" 2>&1 \
    || status=1
  # The carrier: the open flag bit, or openat2()'s OPENAT2_RSYNC.
  python3 "$here/check-uapi.py" --carrier "$carrier" "$work/include/uapi/linux/openat2.h" \
    "$work/include/linux/fcntl.h" >> "$check/uapi.log" 2>&1 || status=1
  # fcntl_init()'s BUILD_BUG_ON: the count of distinct open flag bits.
  {
    echo "make fs/fcntl.o on $kversion with the series (fcntl_init's BUILD_BUG_ON):"
    grep -n -A3 'BUILD_BUG_ON([0-9]* - 1' "$work/fs/fcntl.c" || echo "no flag count in fs/fcntl.c"
    grep -n 'VALID_OPEN_FLAGS' -A5 "$work/include/linux/fcntl.h" | head -n 6
  } > "$check/fcntl.log"
  # A finished kernel build of this tarball with this series compiled
  # fs/fcntl.c and fs/open.c, whatever its configuration: the
  # BUILD_BUG_ONs of fcntl_init() and build_open_flags() depend on
  # none.  Then the check need not compile them again (a minute and
  # more, cold).
  built= ssum=$(code_sum)
  for b in "$cache"/kernel/osync-*; do
    if [ -f "$b/bzImage" ] && [ "$(cat "$b/code.sha256" 2>/dev/null)" = "$ssum" ] \
       && [ "$(awk '{print $NF}' "$b/source" 2>/dev/null)" = "$srcsum" ]; then
      built=$b
      break
    fi
  done
  if [ -n "$built" ]; then
    echo "fcntl: fs/fcntl.o and fs/open.o build, the open flag checks hold (compiled in the kernel build $built)" | tee -a "$check/fcntl.log"
  elif worktree "$work" full \
     && make -s -C "$work" O="$work.build" allnoconfig >> "$check/fcntl.log" 2>&1 \
     && make -C "$work" O="$work.build" -j"$jobs" fs/fcntl.o fs/open.o >> "$check/fcntl.log" 2>&1 \
     && [ -f "$work.build/fs/fcntl.o" ] && [ -f "$work.build/fs/open.o" ]; then
    echo "fcntl: fs/fcntl.o and fs/open.o build, the open flag checks hold" | tee -a "$check/fcntl.log"
  else
    echo "fcntl: FAIL: fs/fcntl.o or fs/open.o does not build (see $check/fcntl.log)" | tee -a "$check/fcntl.log"
    status=1
  fi
  cat "$check/uapi.log"
  grep '^total:' "$check/checkpatch.log" || true
  [ $status = 0 ] || die "the series has problems on $kversion; see $check"
  rm -rf "$passed" "$passed.tmp"
  mkdir -p "$passed.tmp"
  cp "$check"/am.log "$check"/checkpatch.log "$check"/uapi.log "$check"/fcntl.log "$passed.tmp/"
  touch "$passed.tmp/done"
  mv "$passed.tmp" "$passed"
  echo "build-kernel.sh: the series applies to $kversion and passes checkpatch, the uapi check and fcntl_init's"
  exit 0
fi

# The configuration fragment: kernel/osync.config, or with --boot-only
# (kernel/boot-check.sh) the part before the options that only the
# matrix's guests need.
conf=$(cat "$here/osync.config")
if [ -n "$boot_only" ]; then
  grep -q "^$matrix_only" "$here/osync.config" \
    || die "$here/osync.config has no line starting '$matrix_only'; --boot-only cannot tell what to leave out"
  conf=$(sed "/^$matrix_only/,\$d" "$here/osync.config")
fi
if [ -n "$debug" ]; then
  [ -z "$boot_only" ] || die "--debug and --boot-only exclude each other"
  [ -f "$here/debug.config" ] || die "$here/debug.config is missing"
  conf=$(printf '%s\n%s' "$conf" "$(cat "$here/debug.config")")
fi

# The build, keyed by every input.
tools=$( (gcc --version; ld --version; make --version; flex --version;
          bison --version; dpkg-query -W libelf-dev 2>/dev/null) | sha256sum)
key=$( (echo "$srcsum"; code_sum
        echo "$conf"; cat "$top/facts" "$0"; echo "$tools") \
       | sha256sum | cut -c1-16)
out=$cache/kernel/osync-$key
if [ -f "$out/bzImage" ]; then
  echo "build-kernel.sh: $kversion with the series, cached"
  echo "$out/bzImage"
  exit 0
fi
work=$cache/kernel/work-$key
# One build at a time in this cache, so that what an earlier run killed
# hard (SIGKILL, power loss) left behind can be removed safely.
command -v flock >/dev/null || die "flock is missing (apt-get install util-linux)"
exec 9> "$cache/kernel/build.lock"
flock 9
if [ -f "$out/bzImage" ]; then
  echo "build-kernel.sh: $kversion with the series, cached"
  echo "$out/bzImage"
  exit 0
fi
for old in "$cache"/kernel/work-*; do
  [ -e "$old" ] && rm -rf "$old"
done
trap 'rm -rf "$work" "$work.am.log" "$work.build" "$work.series"' EXIT
echo "build-kernel.sh: building $kversion with the series in $patchdir, $carrier carrier (about 7 minutes)"
worktree "$work" full
rm -rf "$work.build"
mkdir -p "$work.build"
# An option Kconfig renamed is written under its old name, after a line
# "# renamed: CONFIG_OLD -> CONFIG_NEW"; a tree whose Kconfig no longer
# defines the old name gets the new one.
fragment=$work.build/osync.config
echo "$conf" > "$fragment"
while read -r _ _ old _ new; do
  if ! grep -rqx --include='Kconfig*' "config ${old#CONFIG_}" "$work"; then
    grep -rqx --include='Kconfig*' "config ${new#CONFIG_}" "$work" \
      || die "$kversion's Kconfig defines neither $old nor $new (renamed again?); fix $here/osync.config"
    sed -i "s/^$old=/$new=/" "$fragment"
    echo "build-kernel.sh: $kversion calls $old $new"
  fi
done < <(grep -E '^# renamed: CONFIG_[A-Z0-9_]+ -> CONFIG_[A-Z0-9_]+$' "$fragment")
# allnoconfig with the fragment as KCONFIG_ALLCONFIG: the fragment's
# options are set first, and every other option that has a prompt is
# then answered "no", including those that only the fragment's options
# make visible (merging the fragment into an allnoconfig afterwards
# gave those their defaults instead: the ACPI drivers, cpufreq,
# ethtool's netlink interface and the like; for 6.12, 1342 objects and
# 577 s of make -j3 against 1129 objects and 458 s, ACPI still on).
if ! make -s -C "$work" O="$work.build" KCONFIG_ALLCONFIG="$fragment" allnoconfig \
       > "$work.build/config.log" 2>&1; then
  cat "$work.build/config.log" >&2
  die "make allnoconfig with $here/osync.config failed"
fi
missing=
while read -r opt; do
  grep -qx "$opt" "$work.build/.config" || missing="$missing $opt"
done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment")
[ -z "$missing" ] \
  || die "Kconfig dropped$missing from the configuration of $kversion (a missing dependency?); fix $here/osync.config"
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
code_sum > "$out.tmp/code.sha256"
echo "$carrier" > "$out.tmp/carrier"
echo "$kversion" > "$out.tmp/version"
echo "$source $srcsum" > "$out.tmp/source"
mv "$out.tmp" "$out"
echo "build-kernel.sh: built $kversion with the series"
echo "$out/bzImage"
