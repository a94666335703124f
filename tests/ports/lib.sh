# shellcheck shell=bash
# tests/ports/lib.sh: code shared by check-ports.sh and selftest.sh.
# Source it (after `set -euo pipefail`); it does nothing on its own.
#
# The caller sets, before calling anything below:
#   PORTS_SRC    top of the (patched) glibc source tree
#   PORTS_CACHE  cache directory (installed headers, kernel include dirs)
#   PORTS_OUT    result directory
#   PORTS_WORK   scratch directory, removed by the caller
#   PORTS_LOG    detailed log file

PORTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
PORTS_PROG=${PORTS_PROG:-$(basename -- "$0")}
PORTS_LOG=${PORTS_LOG:-/dev/null}
declare -gA PROBE_VAL=()
PROBE_ERR=()

ports_die() {
  printf '%s: error: %s\n' "$PORTS_PROG" "$*" >&2
  exit 2
}

ports_log() {
  printf '%s\n' "$*" >>"$PORTS_LOG"
}

# Progress goes to stderr (stdout carries only the PASS/FAIL lines).
ports_note() {
  printf '%s: %s\n' "$PORTS_PROG" "$*" >&2
  ports_log "$*"
}

# ---------------------------------------------------------------------
# The ports.  One row per checked configuration, fields separated by |:
#
#  1 id          name used in results and by --only
#  2 family      glibc port (sysdeps/unix/sysv/linux/<family>)
#  3 host        --host triplet given to glibc's configure
#  4 abi         short ABI description for the table
#  5 cross       cross compiler command with its ABI flags, "-" if Debian
#                12 has none for this port
#  6 kernel      kernel uapi include dir(s) for the cross compiler, ":"
#                separated, searched in order; the last one is also
#                configure's --with-headers
#  7 debarch     Debian architecture of linux-libc-dev-<debarch>-cross
#  8 hostconf    "-": the host gcc cannot stand in for this port, because
#                the port has an <asm/fcntl.h> of its own in Linux 6.1.
#                Otherwise the port uses asm-generic/fcntl.h unchanged
#                (arc, csky, ia64, loongarch, microblaze, nios2 and
#                openrisc all do in Linux 6.1; ia64's header only adds
#                force_o_largefile(), which is not a flag), so the host
#                gcc plus the port's glibc header path plus the host's
#                asm-generic headers check it; the field holds the
#                predefines its sysdeps/<family>/preconfigure looks for
#                (possibly none).
#  9 hostprobe   extra host gcc flags for the probe only (-m32 for ILP32
#                ports; configure runs without it so that it does not
#                need the host's 32-bit libc headers).
ports_table() {
  sed -e '/^#/d' -e '/^[[:space:]]*$/d' \
      -e 's/[[:space:]]*|[[:space:]]*/|/g' -e 's/[[:space:]]*$//' <<'EOF'
# id          |family    |host                    |abi                   |cross                                            |kernel                                     |debarch |hostconf |hostprobe
aarch64       |aarch64   |aarch64-linux-gnu       |lp64                  |aarch64-linux-gnu-gcc                            |/usr/aarch64-linux-gnu/include             |arm64   |-|
alpha         |alpha     |alpha-linux-gnu         |lp64                  |alpha-linux-gnu-gcc                              |/usr/alpha-linux-gnu/include               |alpha   |-|
arc           |arc       |arc-linux-gnu           |ilp32, ARCv2 hs38     |arc-linux-gnu-gcc                                |/usr/arc-linux-gnu/include                 |arc     ||-m32
arm-eabi      |arm       |arm-linux-gnueabi       |eabi soft-float       |arm-linux-gnueabi-gcc                            |/usr/arm-linux-gnueabi/include             |armel   |-|
arm-eabihf    |arm       |arm-linux-gnueabihf     |eabi hard-float       |arm-linux-gnueabihf-gcc                          |/usr/arm-linux-gnueabihf/include           |armhf   |-|
csky          |csky      |csky-linux-gnuabiv2     |abiv2 hard-float      |-                                                |-                                          |-       |-D__CSKYABI__=2 -D__CSKY_HARD_FLOAT__=1 -D__CSKY_HARD_FLOAT_ABI__=1 -D__CSKY_HARD_FLOAT_FPU_SF__=1|-m32
hppa          |hppa      |hppa-linux-gnu          |ilp32                 |hppa-linux-gnu-gcc                               |/usr/hppa-linux-gnu/include                |hppa    |-|
i686          |i386      |i686-linux-gnu          |ilp32                 |i686-linux-gnu-gcc                               |/usr/i686-linux-gnu/include                |i386    |-|
ia64          |ia64      |ia64-linux-gnu          |lp64                  |-                                                |-                                          |-       ||
loongarch64   |loongarch |loongarch64-linux-gnu   |lp64d                 |-                                                |-                                          |-       |-D__loongarch_lp64=1 -D__loongarch_double_float=1 -D__loongarch_grlen=64 -D__loongarch_frlen=64|
m68k          |m68k      |m68k-linux-gnu          |ilp32                 |m68k-linux-gnu-gcc                               |/usr/m68k-linux-gnu/include                |m68k    |-|
microblazeel  |microblaze|microblazeel-linux-gnu  |ilp32 little-endian   |-                                                |-                                          |-       ||-m32
mips-o32      |mips      |mips-linux-gnu          |o32 big-endian        |mips-linux-gnu-gcc                               |/usr/mips-linux-gnu/include                |mips    |-|
mipsel-o32    |mips      |mipsel-linux-gnu        |o32 little-endian     |mipsel-linux-gnu-gcc                             |/usr/mipsel-linux-gnu/include              |mipsel  |-|
mips64el-n32  |mips      |mips64el-linux-gnuabin32|n32 little-endian     |mips64el-linux-gnuabi64-gcc -mabi=n32            |/usr/mips64el-linux-gnuabi64/include       |mips64el|-|
mips64el-n64  |mips      |mips64el-linux-gnuabi64 |n64 little-endian     |mips64el-linux-gnuabi64-gcc                      |/usr/mips64el-linux-gnuabi64/include       |mips64el|-|
nios2         |nios2     |nios2-linux-gnu         |ilp32                 |-                                                |-                                          |-       ||-m32
or1k          |or1k      |or1k-linux-gnu          |ilp32                 |-                                                |-                                          |-       ||-m32
powerpc       |powerpc   |powerpc-linux-gnu       |ppc32 big-endian      |powerpc-linux-gnu-gcc                            |/usr/powerpc-linux-gnu/include             |powerpc |-|
powerpc64     |powerpc   |powerpc64-linux-gnu     |ppc64 big-endian      |powerpc64-linux-gnu-gcc                          |/usr/powerpc64-linux-gnu/include           |ppc64   |-|
powerpc64le   |powerpc   |powerpc64le-linux-gnu   |ppc64 ELFv2 little-endian|powerpc64le-linux-gnu-gcc                     |/usr/powerpc64le-linux-gnu/include         |ppc64el |-|
riscv32       |riscv     |riscv32-linux-gnu       |rv32gc ilp32d         |riscv64-linux-gnu-gcc -march=rv32gc -mabi=ilp32d |/usr/riscv64-linux-gnu/include             |riscv64 |-|
riscv64       |riscv     |riscv64-linux-gnu       |rv64gc lp64d          |riscv64-linux-gnu-gcc                            |/usr/riscv64-linux-gnu/include             |riscv64 |-|
s390          |s390      |s390-linux-gnu          |31-bit                |s390x-linux-gnu-gcc -m31                         |/usr/s390x-linux-gnu/include               |s390x   |-|
s390x         |s390      |s390x-linux-gnu         |64-bit                |s390x-linux-gnu-gcc                              |/usr/s390x-linux-gnu/include               |s390x   |-|
sh4           |sh        |sh4-linux-gnu           |sh4 little-endian     |sh4-linux-gnu-gcc                                |/usr/sh4-linux-gnu/include                 |sh4     |-|
sparcv9       |sparc     |sparcv9-linux-gnu       |32-bit                |sparc64-linux-gnu-gcc -m32                       |/usr/sparc64-linux-gnu/include             |sparc64 |-|
sparc64       |sparc     |sparc64-linux-gnu       |64-bit                |sparc64-linux-gnu-gcc                            |/usr/sparc64-linux-gnu/include             |sparc64 |-|
x86_64        |x86_64    |x86_64-linux-gnu        |lp64                  |x86_64-linux-gnu-gcc                             |/usr/include/x86_64-linux-gnu:/usr/include |amd64   |-|
x32           |x86_64    |x86_64-linux-gnux32     |x32                   |x86_64-linux-gnux32-gcc                          |/usr/x86_64-linux-gnux32/include           |x32     |-|
EOF
}

# The ports of the glibc tree PORTS_SRC (ia64, a port of 2.36, left in
# 2.40; 31-bit s390, whose preconfigure 2.43 made refuse it), or all of
# them when no tree is given.
ports_ids() {
  local id family
  ports_table | cut -d'|' -f1,2 | while IFS='|' read -r id family; do
    if [ -n "${PORTS_SRC:-}" ]; then
      [ -d "$PORTS_SRC/sysdeps/unix/sysv/linux/$family" ] || continue
      if [ "$id" = s390 ] \
         && grep -qs 's390-32 is not supported' "$PORTS_SRC/sysdeps/s390/preconfigure"; then
        continue
      fi
    fi
    echo "$id"
  done
}

# ports_load ID: set the P_* fields of one row; fails for an unknown ID.
ports_load() {
  local row
  row=$(ports_table | awk -F'|' -v id="$1" '$1 == id')
  [ -n "$row" ] || return 1
  IFS='|' read -r P_ID P_FAMILY P_HOST P_ABI P_CROSS P_KDIRS P_DEBARCH \
    P_HOSTCONF P_HOSTPROBE <<<"$row"
}

# ports_check_coverage: every Linux port of the source tree must have a
# row, so that a port added to glibc is not silently left out.
ports_check_coverage() {
  local d name missing=
  for d in "$PORTS_SRC"/sysdeps/unix/sysv/linux/*/; do
    name=$(basename -- "$d")
    case $name in
      generic | x86 | wordsize-32 | wordsize-64) continue ;;
    esac
    [ -d "$PORTS_SRC/sysdeps/$name" ] || continue
    ports_table | cut -d'|' -f2 | grep -qx -- "$name" || missing="$missing $name"
  done
  if [ -n "$missing" ]; then
    printf '%s\n' "Linux port(s) of the source tree with no row in lib.sh's ports_table:$missing; add a row for each"
    return 1
  fi
}

# ---------------------------------------------------------------------
# Inputs that key the header cache.

# ports_src_id: a hash of the source tree's content: the sha256 of every
# file that `make install-headers` can read: all files git would see
# (tracked and untracked, not ignored), or every file outside .git when
# the tree is not a git repository, less the C and assembler sources
# (*.c, *.cc, *.S, *.s), the tests' own files (tst-*: programs, scripts
# and expected output) and the manual/, po/, localedata/ and benchtests/
# directories, which no installed header is made from.  So a change to
# the patch's .c files or tests does not throw away the cache, while any
# header, Makefile, configure fragment, Implies file or generator script
# does.
# git runs without taking locks: it does not even refresh the tree's
# index.
ports_src_id() {
  local -a git=(env GIT_OPTIONAL_LOCKS=0 git -c safe.directory='*' -C "$PORTS_SRC")
  local top
  if command -v git >/dev/null 2>&1 \
     && top=$("${git[@]}" rev-parse --show-toplevel 2>/dev/null) \
     && [ "$(cd -- "$top" && pwd -P)" = "$(cd -- "$PORTS_SRC" && pwd -P)" ]; then
    printf 'header-inputs:%s\n' "$(
      cd -- "$PORTS_SRC" &&
      "${git[@]}" ls-files -z --cached --others --exclude-standard |
        _ports_src_hash)"
    return
  fi
  printf 'header-inputs:%s\n' "$(
    cd -- "$PORTS_SRC" &&
    find . -path ./.git -prune -o -type f -print0 | sed -z 's|^\./||' |
      _ports_src_hash)"
}

# NUL-separated paths on stdin (relative to the current directory) ->
# one sha256 over the names and contents of the relevant ones.
_ports_src_hash() {
  grep -zvE '\.(c|cc|S|s)$|(^|/)tst-[^/]*$|^(manual|po|localedata|benchtests)/' |
    while IFS= read -r -d '' f; do
      [ -f "$f" ] && printf '%s\0' "$f"
    done | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1
}

# The scripts that build the cached headers are part of the key.
ports_script_id() {
  cat -- "$PORTS_DIR/check-ports.sh" "$PORTS_DIR/lib.sh" | sha256sum | cut -d' ' -f1
}

# ---------------------------------------------------------------------
# ports_select_method: decide how the loaded port is checked.  Sets
#   P_METHOD     cross | host | unsupported
#   P_LABEL      what the table says ("cross gcc 12.2.0", ...)
#   P_CONF_CC    CC given to glibc's configure
#   P_PROBE_CC   array: compiler command for the probe
#   P_WITH_HEADERS  configure's --with-headers
#   P_KERNEL_SRC kernel include dirs (":" list) or "host-asm-generic"
#   P_REASON     why not cross (host / unsupported), else empty
ports_select_method() {
  local cc_bin ver missing='' d
  P_METHOD=unsupported P_LABEL='' P_CONF_CC='' P_WITH_HEADERS='' P_KERNEL_SRC='' P_REASON=''
  P_PROBE_CC=()
  if [ "$P_CROSS" != - ]; then
    cc_bin=${P_CROSS%% *}
    if ! command -v -- "$cc_bin" >/dev/null 2>&1; then
      missing="cross compiler $cc_bin is not installed (Debian package gcc-$(printf '%s' "${cc_bin%-gcc}" | tr _ -))"
    else
      local found=
      IFS=: read -r -a _kd <<<"$P_KDIRS"
      for d in "${_kd[@]}"; do
        [ -f "$d/asm/fcntl.h" ] && found=$d && break
      done
      if [ -z "$found" ]; then
        missing="kernel headers ${P_KDIRS//:/ or }/asm/fcntl.h not found (Debian package linux-libc-dev-$P_DEBARCH-cross)"
      else
        ver=$("$cc_bin" -dumpfullversion 2>/dev/null || "$cc_bin" -dumpversion)
        P_METHOD=cross
        P_CONF_CC=$P_CROSS
        read -r -a P_PROBE_CC <<<"$P_CROSS"
        P_WITH_HEADERS=${P_KDIRS##*:}
        P_KERNEL_SRC=$P_KDIRS
        if [ "$P_CROSS" = "$cc_bin" ] && command -v gcc >/dev/null 2>&1 \
           && [ "$("$cc_bin" -dumpmachine)" = "$(gcc -dumpmachine)" ]; then
          P_LABEL="native gcc $ver"
        else
          P_LABEL="cross gcc $ver${P_CROSS#"$cc_bin"}"
        fi
        return 0
      fi
    fi
  else
    missing="Debian 12 has no cross compiler for $P_FAMILY"
  fi
  if [ "$P_HOSTCONF" != - ]; then
    if ! command -v gcc >/dev/null 2>&1; then
      P_REASON="$missing, and there is no host gcc (Debian package gcc)"
      return 0
    fi
    if [ ! -f /usr/include/asm-generic/fcntl.h ] || [ ! -f /usr/include/linux/version.h ]; then
      P_REASON="$missing, and the host kernel headers /usr/include/asm-generic/fcntl.h are missing (Debian package linux-libc-dev)"
      return 0
    fi
    ver=$(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)
    P_METHOD=host
    P_CONF_CC="gcc${P_HOSTCONF:+ $P_HOSTCONF}"
    read -r -a P_PROBE_CC <<<"gcc $P_HOSTCONF $P_HOSTPROBE"
    P_WITH_HEADERS=$PORTS_CACHE/kernel/$P_ID
    P_KERNEL_SRC=host-asm-generic
    P_LABEL="host gcc $ver + $P_FAMILY header path"
    P_REASON=$missing
    return 0
  fi
  P_REASON="$missing; the host gcc cannot stand in: $P_FAMILY has an <asm/fcntl.h> of its own"
}

# ports_kernel_dir DEST: make DEST an include dir holding only the
# kernel's linux/, asm/ and asm-generic/ for the loaded port, so that the
# glibc probe sees no other libc's headers.  For a host-gcc port asm/ is
# made of one-line wrappers around the host's asm-generic headers, which
# is exactly what those ports' uapi asm/ directories are in Linux 6.1.
ports_kernel_dir() {
  local dest=$1 sub d h
  rm -rf -- "$dest"
  mkdir -p -- "$dest"
  if [ "$P_KERNEL_SRC" = host-asm-generic ]; then
    ln -s /usr/include/linux "$dest/linux"
    ln -s /usr/include/asm-generic "$dest/asm-generic"
    mkdir -- "$dest/asm"
    for h in /usr/include/asm-generic/*.h; do
      h=${h##*/}
      printf '/* %s: Linux 6.1 uses asm-generic/%s unchanged.  */\n#include <asm-generic/%s>\n' \
        "$P_FAMILY" "$h" "$h" >"$dest/asm/$h"
    done
    return 0
  fi
  IFS=: read -r -a _kd <<<"$P_KERNEL_SRC"
  for sub in linux asm asm-generic; do
    for d in "${_kd[@]}"; do
      if [ -d "$d/$sub" ]; then
        ln -s -- "$d/$sub" "$dest/$sub"
        break
      fi
    done
    [ -e "$dest/$sub" ] || { printf 'no %s/ in %s\n' "$sub" "$P_KERNEL_SRC"; return 1; }
  done
}

ports_kernel_version() {
  local v=$1/linux/version.h
  [ -f "$v" ] || { echo unknown; return; }
  awk '/LINUX_VERSION_MAJOR/ {a=$3} /LINUX_VERSION_PATCHLEVEL/ {b=$3}
       /LINUX_VERSION_SUBLEVEL/ {c=$3} /LINUX_VERSION_CODE/ {code=$3}
       END { if (a != "") print a "." b "." c; else print "code " code }' "$v"
}

# ---------------------------------------------------------------------
# _ports_step LOG NAME CMD...: run one build step, output appended to LOG.
# A step killed by SIGTERM or SIGKILL from outside (a busy machine's
# clean-up, not a failure of the port) is run once more; both configure
# and make install-headers are safe to repeat in the same build dir.
_ports_step() {
  local log=$1 name=$2 rc=0
  shift 2
  "$@" >>"$log" 2>&1 || rc=$?
  if [ "$rc" -eq 143 ] || [ "$rc" -eq 137 ]; then
    printf '# killed by signal %d; running it once more\n' $((rc - 128)) >>"$log"
    ports_note "$P_ID: $name was killed by signal $((rc - 128)); running it once more"
    rc=0
    "$@" >>"$log" 2>&1 || rc=$?
  fi
  return "$rc"
}

# ports_ensure_headers: the loaded port's patched headers, installed by
# glibc's own `make install-headers`, from the cache or freshly built.
# Sets P_HDR (the installed usr/include), P_CACHE_STATE (hit / miss) and
# P_CACHE_KEY; on failure sets P_REASON and returns 1.
ports_ensure_headers() {
  local -a conf
  local cc_bin key_text key base entry tmp build log lockfd rc=0 t0 old
  conf=(--host="$P_HOST" --prefix=/usr --with-headers="$P_WITH_HEADERS"
        --disable-werror MAKEINFO=: "CC=$P_CONF_CC")
  # glibc 2.44's loongarch configure wants binutils 2.41 for the vector
  # instructions of its assembly sources; install-headers assembles
  # nothing, and the host's binutils (2.40) stand in for no assembler.
  if [ "$P_FAMILY" = loongarch ] && [ "$P_METHOD" = host ]; then
    conf+=(libc_cv_loongarch_vec_asm=yes)
  fi
  cc_bin=${P_CONF_CC%% *}
  key_text=$(
    printf 'check-ports header cache, format 1\n'
    printf 'source: %s\n' "$PORTS_SRC_ID"
    printf 'configure:'; printf ' %q' "${conf[@]}"; printf '\n'
    printf 'compiler: %s\n' "$(command -v -- "$cc_bin")"
    "$cc_bin" --version 2>&1 | sed 's/^/  /'
    printf 'kernel headers: %s\n' "$(sha256sum <"$P_WITH_HEADERS/linux/version.h" | cut -d' ' -f1)"
    printf 'scripts: %s\n' "$PORTS_SCRIPT_ID")
  key=$(printf '%s\n' "$key_text" | sha256sum | cut -c1-24)
  P_CACHE_KEY=$key
  base=$PORTS_CACHE/headers/$P_ID
  entry=$base/$key
  P_HDR=$entry/usr/include
  mkdir -p -- "$base"
  # One builder per port at a time, should two runs share the cache.
  exec {lockfd}>>"$base.lock"
  flock "$lockfd"
  if [ -f "$entry/.complete" ]; then
    P_CACHE_STATE=hit
    exec {lockfd}>&-
    return 0
  fi
  P_CACHE_STATE=miss
  build=$PORTS_WORK/build-$P_ID
  tmp=$base/.tmp.$$
  log=$PORTS_OUT/build/$P_ID.log
  mkdir -p -- "$PORTS_OUT/build"
  rm -rf -- "$build" "$tmp"
  mkdir -p -- "$build"
  ports_note "$P_ID: installing glibc headers (configure --host=$P_HOST, CC=$P_CONF_CC); log: $log"
  t0=$SECONDS
  {
    printf '# %s: glibc configure + make install-headers\n' "$P_ID"
    printf '# configure'; printf ' %q' "${conf[@]}"; printf '\n'
  } >"$log"
  # Only the options above reach configure: nothing from the caller's
  # environment that could change the result without changing the key.
  if ! _ports_step "$log" configure env -C "$build" \
         -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS -u CXX -u CXXFLAGS \
         -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CONFIG_SITE=/dev/null \
         "$PORTS_SRC/configure" "${conf[@]}"; then
    P_REASON="glibc configure --host=$P_HOST CC='$P_CONF_CC' failed: $(grep -m1 'error:' "$log" || tail -n1 "$log") (full log: $log)"
    rc=1
  # inhibit-unix-syscalls (the variable the Hurd sets) keeps make from
  # generating sysd-syscalls, the list of system-call stubs to compile:
  # 57 % of install-headers' time (aarch64, alone: 24.7 s, 10.6 s
  # without it), and no header comes from it (the
  # headers of every port were compared, byte for byte, with and
  # without it).
  elif ! _ports_step "$log" "make install-headers" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
         make -C "$build" -j1 install-headers install_root="$tmp" \
              install-bootstrap-headers=yes inhibit-unix-syscalls=yes; then
    P_REASON="glibc make install-headers for $P_HOST failed: $(grep -m1 -E 'Error|error:' "$log" || tail -n1 "$log") (full log: $log)"
    rc=1
  elif [ ! -f "$tmp/usr/include/fcntl.h" ] || [ ! -f "$tmp/usr/include/bits/fcntl-linux.h" ]; then
    P_REASON="make install-headers for $P_HOST installed no fcntl.h / bits/fcntl-linux.h (full log: $log)"
    rc=1
  else
    # The gnu/stubs-ABI.h that gnu/stubs.h includes are written by the
    # full build (they list the functions that are stubs), not by
    # install-headers, on ports with several ABIs (powerpc64 in 2.44).
    # They define no flag: empty ones let <fcntl.h> preprocess.
    for stub in $(sed -n 's|.*<gnu/\(stubs-[^>]*\.h\)>.*|\1|p' \
                    "$tmp/usr/include/gnu/stubs.h" 2>/dev/null); do
      [ -f "$tmp/usr/include/gnu/$stub" ] || : >"$tmp/usr/include/gnu/$stub"
    done
  fi
  if [ "$rc" -eq 0 ]; then
    printf '%s\n' "$key_text" >"$tmp/KEY"
    printf '%s\n' "${conf[*]}" >"$tmp/CONF"
    cp -- "$build/config.make" "$tmp/config.make"
    : >"$tmp/.complete"
    # An entry built with the same configure options (so for an older
    # source tree, compiler or script) can never be hit again; one for
    # the other method of the port (cross / host gcc) is kept.
    for old in "$base"/*/; do
      [ -f "$old/CONF" ] && [ "$(cat -- "$old/CONF")" = "${conf[*]}" ] && rm -rf -- "$old"
    done
    find "$base" -mindepth 1 -maxdepth 1 -name '.tmp.*' ! -name "${tmp##*/}" -exec rm -rf -- {} +
    mv -- "$tmp" "$entry"
    rm -rf -- "$build"
    ports_log "$P_ID: headers built in $((SECONDS - t0)) s"
  else
    rm -rf -- "$tmp"
  fi
  exec {lockfd}>&-
  return "$rc"
}

# ---------------------------------------------------------------------
# The probe.

# _ports_cc NAME CMD...: run one compilation, output in $_pdir/NAME.out,
# everything into the log.
_ports_cc() {
  local name=$1 rc=0
  shift
  "$@" >"$_pdir/$name.out" 2>&1 || rc=$?
  {
    printf '  $'; printf ' %q' "$@"; printf '\n'
    if [ -s "$_pdir/$name.out" ]; then sed 's/^/    | /' "$_pdir/$name.out"; fi
    [ "$rc" -eq 0 ] || printf '    (exit %s)\n' "$rc"
  } >>"$PORTS_LOG"
  return "$rc"
}

# _ports_errors FILE: the failed checks of a compilation, one a line:
# the static assertion messages, else the compiler's error lines.
_ports_errors() {
  local m
  m=$(sed -n 's/.*static assertion failed: "\(.*\)".*/\1/p' "$1")
  if [ -z "$m" ]; then
    m=$(sed -n -E 's%^([^ ]*/)?([^/ ]+:[0-9]+:([0-9]+:)?) *(fatal )?error: (.*)%\2 \5%p' "$1" | head -n 5)
  fi
  [ -n "$m" ] || m=$(tail -n 3 "$1")
  printf '%s\n' "$m"
}

# _ports_values FILE PREFIX: read the @@@NAME@@@VALUE@@@ markers into
# PROBE_VAL[PREFIX.NAME] as 32-bit hex.
_ports_values() {
  local name raw v
  while IFS=' ' read -r name raw; do
    v=$((raw))
    ((v < 0)) && v=$((v + 4294967296))
    printf -v "PROBE_VAL[$2.$name]" '0x%x' "$v"
  done < <(sed -n 's/.*@@@\([A-Za-z0-9_]*\)@@@[^-0-9]*\(-\{0,1\}[0-9][0-9a-fA-FxX]*\)@@@.*/\1 \2/p' "$1")
}

# _ports_flags DMFILE EXCLUDE: the open flag macros of a -dM dump (every
# object-like O_*, __O_* and FASYNC), as PROBE_FLAG (NAME) lines.
_ports_flags() {
  sed -n 's/^#define \(O_[A-Za-z0-9_]*\|__O_[A-Za-z0-9_]*\|FASYNC\) .*/\1/p' "$1" |
    grep -vxE "$2" | sort -u | sed 's/.*/PROBE_FLAG (&);/'
}

# ports_probe TAG HDR KDIR CC [CC-FLAGS...]
# Check one port with tests/ports/probe.c.  TAG names the port in every
# message; HDR is the installed glibc include dir to test; KDIR an
# include dir with the port's kernel linux/, asm/ and asm-generic/.
# Fills PROBE_VAL (g.NAME = glibc value, k.NAME = kernel value) and
# PROBE_ERR (the failed checks); returns 0 when every check passed.
ports_probe() {
  local tag=$1 hdr=$2 kdir=$3
  shift 3
  local -a cc=("$@") common glibc kernel gdefs
  local gccinc n nk ng checks ok_g=0
  PROBE_VAL=()
  PROBE_ERR=()
  _pdir=$(mktemp -d "$PORTS_WORK/probe-$tag.XXXXXX")
  ports_log "  probe $tag: headers $hdr, kernel $kdir"
  if ! gccinc=$("${cc[@]}" -print-file-name=include) || [ ! -f "$gccinc/stddef.h" ]; then
    PROBE_ERR+=("$tag: ${cc[*]} has no internal include directory with stddef.h")
    return 1
  fi
  common=(-std=gnu11 -O0 -nostdinc -isystem "$gccinc" -DPROBE_PORT="\"$tag\"")
  glibc=(-isystem "$hdr" -isystem "$kdir" -D_GNU_SOURCE)
  kernel=(-isystem "$kdir")

  # The flags __O_RSYNC must stay clear of, collected from the headers.
  if ! _ports_cc glibc-dM "${cc[@]}" "${common[@]}" "${glibc[@]}" -dM -E \
         -o "$_pdir/glibc.dM" -x c "$PORTS_DIR/probe.c" -DPROBE_GLIBC; then
    PROBE_ERR+=("$tag: preprocessing glibc <fcntl.h> failed: $(_ports_errors "$_pdir/glibc-dM.out" | head -n1)")
    return 1
  fi
  _ports_flags "$_pdir/glibc.dM" 'O_RSYNC|__O_RSYNC' >"$_pdir/glibc-flags.h"
  if ! _ports_cc kernel-dM "${cc[@]}" "${common[@]}" "${kernel[@]}" -dM -E \
         -o "$_pdir/kernel.dM" -x c "$PORTS_DIR/probe.c" -DPROBE_KERNEL; then
    PROBE_ERR+=("$tag: preprocessing kernel <asm/fcntl.h> failed: $(_ports_errors "$_pdir/kernel-dM.out" | head -n1)")
    return 1
  fi
  _ports_flags "$_pdir/kernel.dM" '' >"$_pdir/kernel-flags.h"
  ng=$(wc -l <"$_pdir/glibc-flags.h")
  nk=$(wc -l <"$_pdir/kernel-flags.h")
  ports_log "  kernel flags ($nk): $(sed 's/PROBE_FLAG (\(.*\));/\1/' "$_pdir/kernel-flags.h" | tr '\n' ' ')"
  ports_log "  glibc flags ($ng): $(sed 's/PROBE_FLAG (\(.*\));/\1/' "$_pdir/glibc-flags.h" | tr '\n' ' ')"
  if [ "$nk" -lt 5 ] || [ "$ng" -lt 5 ]; then
    PROBE_ERR+=("$tag: found only $nk kernel and $ng glibc open flag macros; the headers are not the expected ones")
    return 1
  fi

  # Values.
  if _ports_cc glibc-values "${cc[@]}" "${common[@]}" "${glibc[@]}" -S \
       -o "$_pdir/glibc.s" "$PORTS_DIR/probe.c" -DPROBE_GLIBC; then
    _ports_values "$_pdir/glibc.s" g
    ok_g=1
    for n in O_DSYNC __O_FULLSYNC O_SYNC O_RSYNC; do
      [ -n "${PROBE_VAL[g.$n]:-}" ] || ok_g=0
    done
    [ "$ok_g" = 1 ] || PROBE_ERR+=("$tag: glibc values not found in the assembler output")
  fi
  if _ports_cc kernel-values "${cc[@]}" "${common[@]}" "${kernel[@]}" -S \
       -o "$_pdir/kernel.s" "$PORTS_DIR/probe.c" -DPROBE_KERNEL; then
    _ports_values "$_pdir/kernel.s" k
  fi

  # Checks.  Each compilation must both succeed and report that it
  # compiled at least one check per flag, else it counts as a failure.
  _ports_check() {   # NAME MIN-CHECKS CC-ARGS...
    local name=$1 min=$2
    shift 2
    if _ports_cc "$name" "${cc[@]}" "${common[@]}" "$@" -DPROBE_CHECK -S \
         -o "$_pdir/$name.s" "$PORTS_DIR/probe.c"; then
      checks=$(sed -n 's/.*@@@checks@@@[^0-9]*\([0-9]*\)@@@.*/\1/p' "$_pdir/$name.s")
      if [ -z "$checks" ] || [ "$checks" -lt "$min" ]; then
        PROBE_ERR+=("$tag: $name compiled ${checks:-no} checks, expected at least $min")
      fi
      ports_log "  $name: ${checks:-?} checks passed"
    else
      mapfile -t -O "${#PROBE_ERR[@]}" PROBE_ERR < <(_ports_errors "$_pdir/$name.out")
    fi
  }
  _ports_check glibc-check $((ng + 10)) "${glibc[@]}" -DPROBE_GLIBC \
    -DPROBE_FLAGS_FILE="\"$_pdir/glibc-flags.h\""
  if [ "$ok_g" = 1 ]; then
    gdefs=(-DG_O_DSYNC="${PROBE_VAL[g.O_DSYNC]}ULL"
           -DG_O_FULLSYNC="${PROBE_VAL[g.__O_FULLSYNC]}ULL"
           -DG_O_SYNC="${PROBE_VAL[g.O_SYNC]}ULL"
           -DG_O_RSYNC="${PROBE_VAL[g.O_RSYNC]}ULL")
    _ports_check posix-check 3 -isystem "$hdr" -isystem "$kdir" \
      -std=c11 -D_POSIX_C_SOURCE=200809L -DPROBE_GLIBC_POSIX "${gdefs[@]}"
    _ports_check kernel-check $((nk + 3)) "${kernel[@]}" -DPROBE_KERNEL \
      "${gdefs[@]}" -DPROBE_FLAGS_FILE="\"$_pdir/kernel-flags.h\""
  else
    [ "${#PROBE_ERR[@]}" -gt 0 ] || PROBE_ERR+=("$tag: glibc <fcntl.h> constants could not be evaluated: $(_ports_errors "$_pdir/glibc-values.out" | head -n1)")
    PROBE_ERR+=("$tag: kernel comparison skipped: glibc's values are unknown")
  fi
  [ "${#PROBE_ERR[@]}" -eq 0 ]
}

# ---------------------------------------------------------------------
# ports_parse_args "VALUE-OPTIONS" "FLAG-OPTIONS" ARG...: parse the
# command line of either script.  --src, --cache and --out always take a
# value (as "--opt value" or "--opt=value"), so do the caller's
# VALUE-OPTIONS; FLAG-OPTIONS take none.  Results go to PORTS_OPT[name]
# and PORTS_SRC / PORTS_CACHE / PORTS_OUT.  The caller defines usage().
declare -gA PORTS_OPT=()
ports_parse_args() {
  local vopts=" src cache out $1 " fopts=" $2 " a n
  shift 2
  while [ $# -gt 0 ]; do
    a=$1
    shift
    case $a in
      -h | --help) usage; exit 0 ;;
      --*=*)
        n=${a%%=*}
        n=${n#--}
        [[ $vopts == *" $n "* ]] || { usage >&2; ports_die "unknown option '${a%%=*}'"; }
        PORTS_OPT[$n]=${a#*=} ;;
      --?*)
        n=${a#--}
        if [[ $vopts == *" $n "* ]]; then
          [ $# -ge 1 ] || { usage >&2; ports_die "$a needs an argument"; }
          PORTS_OPT[$n]=$1
          shift
        elif [[ $fopts == *" $n "* ]]; then
          PORTS_OPT[$n]=1
        else
          usage >&2
          ports_die "unknown option '$a'"
        fi ;;
      *) usage >&2; ports_die "unexpected argument '$a'" ;;
    esac
  done
  PORTS_SRC=${PORTS_OPT[src]:-}
  PORTS_CACHE=${PORTS_OPT[cache]:-}
  PORTS_OUT=${PORTS_OPT[out]:-}
}

# ---------------------------------------------------------------------
# ports_init: check the arguments and the tools, make the scratch dir.
# Needs PORTS_SRC, PORTS_CACHE and PORTS_OUT (from --src/--cache/--out).
ports_init() {
  local tool pkg
  [ -n "${PORTS_SRC:-}" ] || ports_die "--src is required: the top directory of the patched glibc source tree"
  [ -n "${PORTS_CACHE:-}" ] || ports_die "--cache is required: a directory for the installed headers (created if missing)"
  [ -n "${PORTS_OUT:-}" ] || ports_die "--out is required: a directory for ports.md and ports.log (created if missing)"
  [ -d "$PORTS_SRC" ] || ports_die "--src $PORTS_SRC: no such directory"
  if [ ! -f "$PORTS_SRC/configure" ] || [ ! -f "$PORTS_SRC/sysdeps/unix/sysv/linux/bits/fcntl-linux.h" ]; then
    ports_die "--src $PORTS_SRC is not a glibc source tree (no configure or sysdeps/unix/sysv/linux/bits/fcntl-linux.h); pass the top directory of the patched tree"
  fi
  PORTS_SRC=$(cd -- "$PORTS_SRC" && pwd -P)
  mkdir -p -- "$PORTS_CACHE" || ports_die "cannot create the cache directory $PORTS_CACHE; pass a writable --cache"
  mkdir -p -- "$PORTS_OUT" || ports_die "cannot create the result directory $PORTS_OUT; pass a writable --out"
  PORTS_CACHE=$(cd -- "$PORTS_CACHE" && pwd -P)
  PORTS_OUT=$(cd -- "$PORTS_OUT" && pwd -P)
  case $PORTS_OUT/ in
    "$PORTS_SRC"/*) ports_die "--out must not be inside the source tree $PORTS_SRC" ;;
  esac
  case $PORTS_CACHE/ in
    "$PORTS_SRC"/*) ports_die "--cache must not be inside the source tree $PORTS_SRC" ;;
  esac
  for tool in make:make gawk:gawk bison:bison python3:python3 \
              sha256sum:coreutils flock:util-linux sed:sed; do
    pkg=${tool#*:}
    tool=${tool%%:*}
    command -v "$tool" >/dev/null 2>&1 ||
      ports_die "$tool is needed (by glibc's configure or by this script) but not installed; install the Debian package $pkg"
  done
  [ -f "$PORTS_DIR/probe.c" ] || ports_die "$PORTS_DIR/probe.c is missing; it belongs next to lib.sh"
  PORTS_WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/check-ports.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf -- '$PORTS_WORK'" EXIT
  PORTS_SRC_ID=$(ports_src_id)
  PORTS_SCRIPT_ID=$(ports_script_id)
}

# ports_prepare ID: load the port, choose the method, make its kernel
# include dir and get its installed headers.  Sets P_KDIR besides the
# P_* of ports_load / ports_select_method / ports_ensure_headers.
# Returns 0 ready to probe, 1 failed (P_REASON), 2 unsupported (P_REASON).
ports_prepare() {
  local err
  ports_load "$1" || { P_REASON="unknown port $1"; return 1; }
  ports_select_method
  ports_log ""
  ports_log "== $P_ID: glibc port $P_FAMILY, --host=$P_HOST, $P_ABI"
  if [ "$P_METHOD" = unsupported ]; then
    ports_log "  unsupported: $P_REASON"
    return 2
  fi
  [ -z "$P_REASON" ] || ports_log "  note: $P_REASON; checked with the host gcc instead"
  ports_log "  method: $P_LABEL; configure CC=$P_CONF_CC; probe CC=${P_PROBE_CC[*]}"
  P_KDIR=$PORTS_CACHE/kernel/$P_ID
  if ! err=$(ports_kernel_dir "$P_KDIR" 2>&1); then
    P_REASON="cannot set up the kernel include dir: $err"
    return 1
  fi
  if [ "$P_KERNEL_SRC" = host-asm-generic ]; then
    ports_log "  kernel headers: host asm-generic (Linux $(ports_kernel_version "$P_KDIR")) via $P_KDIR"
  else
    ports_log "  kernel headers: ${P_KERNEL_SRC//:/ + } (Linux $(ports_kernel_version "$P_KDIR")) via $P_KDIR"
  fi
  ports_ensure_headers || return 1
  ports_log "  glibc headers: $P_HDR (cache $P_CACHE_STATE, key $P_CACHE_KEY)"
  ports_log "  sysdeps: $(sed -n 's/^config-sysdirs *= *//p' "${P_HDR%/usr/include}/config.make" | awk '{print $1, $2, $3, "..."}')"
}
