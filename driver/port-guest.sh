#!/bin/bash
# glibc's tests of the series, cross-built for aarch64, run on Debian's
# own arm64 kernels under qemu-system-aarch64, as root and as an
# unprivileged user: the patch's tests on another port and on a real
# kernel (qemu-user would not do: it translates the open flags itself
# and has no seccomp).  `make check-aarch64'; outside make check, whose
# summary reports the result cached for its inputs.
#
#   port-guest.sh --top PROJECT --src PATCHED-TREE --cache DIR
#                 --out RESULTS [--status] [--kernels '6.1 6.12']
#
# The library and the tests come from driver/check-cross.sh's build
# (DIR/cross/aarch64, built and checked with check-abi first, if it is
# not there).  The tests are those of the patch (driver/port-guest.py
# list, from the Makefile fragments):
#   - the test programs, dynamic or static, built in the cross build and
#     run in the guest, each with the environment its Makefile fragment
#     gives it, a dynamic one through the build's own loader and C
#     library with the modules it needs at their build paths;
#   - the tests-special that run a shell script of the fragments with
#     the dynamic loader (glibc's convention for ld.so's own tests): run
#     in the guest with Debian's static busybox (arm64) as the shell and
#     its tools, in /busybox, not in /bin;
#   - the other tests-special (which compile, or read the built files):
#     made in the cross build on this machine, with the cross compiler
#     and Debian's arm64 kernel headers.
# Each kernel (6.1: Debian 12's linux-image-6.1.0-*-arm64; 6.12: Debian
# 13's linux-image-6.12.*-arm64; tests/qemu/guest.sh fetches them) boots
# once and runs every test as root, then as nobody (65534, no
# capabilities), with TMPDIR on the guest's tmpfs.  The guest has no
# /bin/cat and no shell in /bin.
#
# Results: RESULTS/aarch64.md (a table and the output of each test that
# did not pass), the consoles in DIR/port-guest/aarch64-KEY, and the
# lines of RESULTS/optin/aarch64.txt (driver/port-guest.py judge): a
# PASS or FAIL, and a SKIP for each test that needs root (ROOT_ONLY)
# and is rightly UNSUPPORTED as nobody; with --status, a SKIP with the
# reason when no run has these inputs.  KEY covers the build (its
# check-cross key: the source tree, compilers, script), the tests and
# their environment, each Debian package's name and version (kernels,
# busybox), QEMU's version, the cross libgcc_s, and this script,
# port-guest.py, guest.sh and init.c.  With --status nothing runs and
# nothing is fetched: the packages are the ones the last run found
# newest.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

top= src= cache= out= status=0 kernels="6.1 6.12" port=aarch64
while [ $# -gt 0 ]; do
  case $1 in
    --top) top=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --status) status=1; shift ;;
    --kernels) kernels=$2; shift 2 ;;
    *) die "unknown argument '$1'; see the comment at the top of $0" ;;
  esac
done
[ -n "$top" ] && [ -n "$src" ] && [ -n "$cache" ] && [ -n "$out" ] \
  || die "usage: $0 --top PROJECT --src PATCHED-TREE --cache DIR --out RESULTS [--status] [--kernels '6.1 6.12']"
PYTHON=${PYTHON:-python3}
guest=$top/tests/qemu/guest.sh
optin_start "$port" "$out"
[ -f "$src/version.h" ] || die "$src is not a glibc source tree; run make dist"
# The Debian packages of the guests as the last run found them:
# "kernel SERIES PACKAGE VERSION IMAGE" and "busybox VERSION BINARY".
pfile=$cache/port-guest/$port-packages
[ $status = 0 ] || [ -s "$pfile" ] \
  || optin_skip "$port: glibc's tests of the series on Debian's arm64 kernels never ran here (make check-aarch64, about an hour the first time)"
base=$(sed -n 's/^#define VERSION "\(.*\)"/\1/p' "$src/version.h")
cross=$("$here/check-cross.sh" --src "$src" --cache "$cache" --out "$out" --print-key "$port") \
  || { [ $status = 0 ] || optin_skip "$port: no cross compiler here (see driver/check-cross.sh)"; exit 1; }
read -r crosskey obj <<<"$cross"
# The users the tests run as: root, then nobody.
users="0 65534"
# The tests that need root, by design: as nobody they must be
# UNSUPPORTED, which counts as a skip.  open_by_handle_at needs
# CAP_DAC_READ_SEARCH.
root_only="tst-open-osync-handle"
# glibc's timeout for each test, times this: TCG emulates the arm64
# machine on a shared x86_64 one.
timeoutfactor=20

tests=$("$PYTHON" "$here/port-guest.py" list --top "$top" --src "$src" --base "$base") \
  || die "cannot list the tests of the patch (driver/port-guest.py list)"
grep -q '^program ' <<<"$tests" || die "the patch has no test programs (driver/port-guest.py list)"

# busybox_in DIR: the busybox binary of the package unpacked in DIR
# (bookworm's has bin/busybox, trixie's usr/bin/busybox).
busybox_in ()
{
  local f
  for f in "$1/bin/busybox" "$1/usr/bin/busybox"; do
    [ -x "$f" ] && { echo "$f"; return 0; }
  done
  return 1
}
mkdir -p "$cache/port-guest"
if [ $status = 1 ]; then
  packages=$(cat "$pfile")
else
  packages=
  for k in $kernels; do
    packages+="kernel $k $("$guest" --cache "$cache" --arch "$port" --debian-kernel "$k" --print-kernel)"$'\n'
  done
  if grep -q '^guest-sh ' <<<"$tests"; then
    # Debian's static busybox for arm64 (the newest of bookworm and
    # trixie), for the shell-script tests.
    suite=("$here/debian-suite.sh" --cache "$cache" --arch arm64)
    read -r bbpkg bbver < <("${suite[@]}" newest 'busybox-static') && [ -n "$bbver" ] \
      || die "cannot find Debian's busybox-static for arm64 (driver/debian-suite.sh failed; see above)"
    bbdir=$cache/qemu/arm64/${bbpkg}_$bbver
    if ! busybox_in "$bbdir" > /dev/null; then
      deb=$("${suite[@]}" download "$bbpkg" "${bbver%%-*}" "$cache/debs" | tail -n 1) \
        || die "cannot download $bbpkg $bbver (driver/debian-suite.sh failed; see above)"
      rm -rf "$bbdir"
      mkdir -p "$bbdir"
      dpkg-deb -x "$deb" "$bbdir" || { rm -rf "$bbdir"; die "cannot unpack $deb"; }
    fi
    bb=$(busybox_in "$bbdir") || die "$bbpkg $bbver has no bin/busybox or usr/bin/busybox"
    packages+="busybox $bbver $bb"$'\n'
  fi
  # Without its last newline, as --status reads it back ($(cat)): the
  # key that --status computes must be the key of this run.
  packages=${packages%$'\n'}
  printf '%s\n' "$packages" > "$pfile"
fi
gcc_s=$(aarch64-linux-gnu-gcc -print-file-name=libgcc_s.so.1)
[ -f "$gcc_s" ] || die "the aarch64 cross compiler has no libgcc_s.so.1 (Debian package libgcc-s1-arm64-cross)"
inputs ()
{
  echo "build: $crosskey"
  echo "tests: $tests"
  echo "users: $users; root only: $root_only; TIMEOUTFACTOR=$timeoutfactor"
  awk '{ print $1, $2, $3, $4 }' <<<"$packages"
  echo "qemu: $(dpkg-query -W -f='${Version}' qemu-system-arm 2>/dev/null)"
  echo "libgcc_s: $(sha256sum < "$gcc_s")"
  cat "$0" "$here/port-guest.py" "$guest" "$(dirname "$guest")/init.c"
}
key=$(inputs | hash_stdin)
res=$cache/port-guest/$port-$key
judge=("$PYTHON" "$here/port-guest.py" judge --results "$res" --port "$port"
       --root-only "$root_only" --md "$out/$port.md")
optin_cached "$res" $status "${judge[@]}"
[ $status = 0 ] \
  || optin_skip "$port: glibc's tests of the series have no result on Debian's arm64 kernels for these inputs (key $key); make check-aarch64 runs them"

# The build, and its check-abi.
"$here/check-cross.sh" --src "$src" --cache "$cache" --out "$out" "$port" \
  || die "driver/check-cross.sh $port failed (see above): no tests to run"
[ "$(cat "$obj/.osync-key")" = "$crosskey" ] \
  || die "$obj is not the build of $src (another run rebuilt it?); run again"
rm -rf "$res"
mkdir -p "$res"
inputs > "$res/inputs"
t0=$(date +%s)
echo "start: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" > "$res/times"

# The tests, built in the cross build (one run at a time), one make a
# subdirectory.
exec 9> "$cache/cross/$port.lock"
flock 9
srcdir=$(sed -n 's/^srcdir = //p' "$obj/Makefile")
for sub in $(awk '$1 != "guest-sh" { print $2 }' <<<"$tests" | sort -u); do
  targets=()
  while read -r kind s name _; do
    [ "$s" = "$sub" ] || continue
    case $kind in
      program) targets+=("$obj/$sub/$name") ;;
      host)
        rm -f "$obj/$sub/$name.out" "$obj/$sub/$name.test-result"
        targets+=("$obj/$sub/$name.out") ;;
    esac
  done <<<"$tests"
  note "$port: building glibc's tests of the series in $obj/$sub"
  (cd "$obj" && make -r -C "$srcdir/$sub" objdir="$obj" subdir="$sub" ..=../ \
     run-built-tests=no "${targets[@]}" >> "$res/build-tests.log" 2>&1) \
    || { tail -n 30 "$res/build-tests.log" >&2
         die "cannot build the tests of the series in $sub for $port; see $res/build-tests.log"; }
done
: > "$res/host"
while read -r kind sub name _; do
  [ "$kind" = host ] || continue
  r=$(head -n 1 "$obj/$sub/$name.test-result" 2>/dev/null | cut -d: -f1)
  echo "$name ${r:-NORESULT}" >> "$res/host"
  cp "$obj/$sub/$name.out" "$res/$name.out" 2>/dev/null || true
done <<<"$tests"

# The guest's files: the loader, the C library and libgcc_s in /glibc,
# with the tests; a library a test needs by path (a module) at that
# path; busybox in /busybox, for the shell scripts.
files=$res/files
mkdir -p "$files/glibc" "$files/dev/shm"
ldso=$(sed -n 's/^ld.so-version=//p' "$obj/soversions.mk")
[ -n "$ldso" ] || die "$obj/soversions.mk names no dynamic loader"
cp "$obj/elf/ld.so" "$files/glibc/$ldso"
cp "$obj/libc.so" "$files/glibc/libc.so.6"
cp "$gcc_s" "$files/glibc/libgcc_s.so.1"
cmds=()
while read -r kind sub name rest; do
  case $kind in
    program)
      p=$obj/$sub/$name
      cp "$p" "$files/glibc/$name"
      for need in $(aarch64-linux-gnu-readelf -d "$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        case $need in
          libc.so.6|"$ldso"|libgcc_s.so.1) ;;
          /*) mkdir -p "$files$(dirname "$need")"; cp "$need" "$files$need" ;;
          *) die "$name needs $need, which this script does not put in the guest; add it" ;;
        esac
      done
      if aarch64-linux-gnu-readelf -l "$p" | grep -q 'INTERP'; then
        cmd="/glibc/$ldso --library-path /glibc /glibc/$name --direct"
      else
        cmd="/glibc/$name --direct"
      fi
      cmds+=("$name TMPDIR=/tmp TIMEOUTFACTOR=$timeoutfactor $rest $cmd") ;;
    guest-sh)
      cp "$srcdir/$rest" "$files/glibc/$name.sh"
      # The arguments of glibc's rule for such a test: ld.so, its
      # test-wrapper-env without a wrapper (env), and run_program_env
      # without the build's directories, which the guest has not.
      cmds+=("$name PATH=/busybox /busybox/sh /glibc/$name.sh /glibc/$ldso env LC_ALL=C") ;;
  esac
done <<<"$tests"
if grep -q '^busybox ' <<<"$packages"; then
  mkdir -p "$files/busybox"
  cp "$(awk '$1 == "busybox" { print $3 }' <<<"$packages")" "$files/busybox/busybox"
  for a in sh grep sort sed tr cut head tail wc test expr printf echo env; do
    ln -s busybox "$files/busybox/$a"
  done
fi
list=$res/tests.list
{ echo "@mount tmpfs /dev/shm tmpfs"; echo "@chdir /tmp"; } > "$list"
for u in $users; do
  echo "@user $u $u" >> "$list"
  for c in "${cmds[@]}"; do
    echo "$u,$c" >> "$list"
  done
done
flock -u 9

# One boot of each kernel.
: > "$res/kernels"
while read -r what k pkg ver image; do
  [ "$what" = kernel ] || continue
  s=$(date +%s)
  note "$port: $pkg $ver under qemu-system-aarch64"
  "$guest" --cache "$cache" --arch "$port" --kernel "$image" --files "$files" \
    --list "$list" --out "$res/console-$k.log" --timeout 3600 \
    || die "the $port guest with $pkg did not finish; see $res/console-$k.log"
  echo "$k $pkg $ver $(( $(date +%s) - s ))" >> "$res/kernels"
done <<<"$packages"
t1=$(date +%s)
{ echo "end: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "wall: $((t1 - t0)) s"; } >> "$res/times"
rm -rf "$files"
touch "$res/done"
optin_judge "${judge[@]}"
