#!/bin/bash
# Self-test of check-ports.sh's probe: plant one wrong value at a time in
# a scratch copy of one port's installed glibc headers, run the same
# probe (lib.sh's ports_probe) on the copy, and require that it fails
# with the message that names the port and the broken constant.
set -euo pipefail

PORTS_PROG=selftest.sh
# shellcheck source=lib.sh
. "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)/lib.sh"

usage() {
  cat <<'EOF'
Usage: selftest.sh --src GLIBC_SRC_TREE --cache CACHE_DIR --out RESULT_DIR [--port PORT]

Uses the port's cached headers (building them like check-ports.sh would
if they are not cached yet), default port mips-o32; without --port, the
first of mips-o32, mipsel-o32, mips64el-n64, x86_64, nios2 that can be
checked on this machine.  Prints "PASS: ports: selftest-<case>" or
"FAIL: ports: selftest-<case>: <reason>" per case, then a summary; the
details go to RESULT_DIR/selftest.log.  Exit status 0 if every case
passed.
EOF
}

ports_parse_args "port" "" "$@"
port=${PORTS_OPT[port]:-}
if [ -n "$port" ]; then
  ports_load "$port" || ports_die "--port: no port '$port'; valid ids: $(ports_ids | tr '\n' ' ')"
  candidates=("$port")
else
  candidates=(mips-o32 mipsel-o32 mips64el-n64 x86_64 nios2)
fi

ports_init
PORTS_LOG=$PORTS_OUT/selftest.log
: >"$PORTS_LOG"
ports_log "selftest.sh on $(date -u '+%Y-%m-%d %H:%M:%S UTC'); source $PORTS_SRC ($PORTS_SRC_ID)"

ready=
for c in "${candidates[@]}"; do
  rc=0
  ports_prepare "$c" || rc=$?
  if [ "$rc" -eq 0 ]; then
    ready=$c
    break
  fi
  ports_log "  cannot use $c: $P_REASON"
done
if [ -z "$ready" ]; then
  printf 'UNSUPPORTED: ports: selftest: none of %s can be checked here: %s\n' "${candidates[*]}" "$P_REASON"
  exit 1
fi
ports_note "planting errors in a copy of $ready's headers ($P_LABEL)"

pristine=$PORTS_WORK/pristine
cp -a -- "$P_HDR" "$pristine"
npass=0 nfail=0 nskip=0

result() {   # VERDICT CASE [REASON]
  case $1 in
    PASS) npass=$((npass + 1)); printf 'PASS: ports: selftest-%s\n' "$2" ;;
    FAIL) nfail=$((nfail + 1)); printf 'FAIL: ports: selftest-%s: %s\n' "$2" "$3" ;;
    *) nskip=$((nskip + 1)); printf 'UNSUPPORTED: ports: selftest-%s: %s\n' "$2" "$3" ;;
  esac
  ports_log "  => $1: $2${3:+: $3}"
}

# The unmodified copy must pass, or the planted cases prove nothing.
ports_log ""
ports_log "== control: $ready, headers unmodified"
if ports_probe "$ready" "$pristine" "$P_KDIR" "${P_PROBE_CC[@]}"; then
  result PASS control
else
  result FAIL control "the unmodified headers do not pass: ${PROBE_ERR[*]}"
fi

# plant CASE EXPECTED HOW TEXT
#   HOW=append: TEXT (printf %b) is appended to bits/fcntl-linux.h, so it
#               overrides what the port's bits/fcntl.h and fcntl-linux.h
#               defined; works on every port.
#   HOW=drop:   lines of bits/fcntl.h matching the regex TEXT are deleted
#               (the port's own override of a default).
# EXPECTED is the exact failed-check message, without the "<port>: ".
plant() {
  local name=$1 expect=$2 how=$3 text=$4 dir e found=
  dir=$PORTS_WORK/case-$name
  ports_log ""
  ports_log "== $name: expect \"$ready: $expect\""
  rm -rf -- "$dir"
  cp -a -- "$pristine" "$dir"
  case $how in
    append)
      printf '\n/* selftest %s: planted error.  */\n%b\n' "$name" "$text" >>"$dir/bits/fcntl-linux.h" ;;
    drop)
      if ! grep -qE -- "$text" "$dir/bits/fcntl.h"; then
        result UNSUPPORTED "$name" "$ready's bits/fcntl.h has no line matching $text"
        return
      fi
      sed -i -E "/$text/d" "$dir/bits/fcntl.h" ;;
  esac
  if diff -r "$pristine" "$dir" >>"$PORTS_LOG" 2>&1; then
    result FAIL "$name" "planting the error did not change the headers"
    return
  fi
  if ports_probe "$ready" "$dir" "$P_KDIR" "${P_PROBE_CC[@]}"; then
    result FAIL "$name" "the planted error was not detected"
    return
  fi
  for e in "${PROBE_ERR[@]}"; do
    ports_log "  reported: $e"
    [ "$e" = "$ready: $expect" ] && found=1
  done
  if [ -n "$found" ]; then
    result PASS "$name"
  else
    result FAIL "$name" "expected \"$ready: $expect\", got: $(printf '%s; ' "${PROBE_ERR[@]}")"
  fi
}

plant fullsync-override-dropped '__O_FULLSYNC != kernel __O_SYNC' \
  drop '^#[[:space:]]*define[[:space:]]+__O_FULLSYNC[[:space:]]'
plant fullsync-wrong '__O_FULLSYNC != kernel __O_SYNC' \
  append '#undef __O_FULLSYNC\n#define __O_FULLSYNC (__O_DSYNC << 1)'
plant dsync-wrong 'O_DSYNC != kernel O_DSYNC' \
  append '#undef __O_DSYNC\n#define __O_DSYNC 01'
plant osync-not-composite 'O_SYNC != (__O_FULLSYNC | O_DSYNC)' \
  append '#undef O_SYNC\n#define O_SYNC __O_FULLSYNC'
plant rsync-is-o_path '__O_RSYNC overlaps kernel O_PATH' \
  append '#undef __O_RSYNC\n#define __O_RSYNC __O_PATH'
plant rsync-fmode-exec '__O_RSYNC overlaps the kernel-internal bit 0x20 (__FMODE_EXEC)' \
  append '#undef __O_RSYNC\n#define __O_RSYNC 0x20'
plant rsync-fmode-nonotify '__O_RSYNC overlaps the kernel-internal bit 0x4000000 (was __FMODE_NONOTIFY)' \
  append '#undef __O_RSYNC\n#define __O_RSYNC 0x4000000'
plant rsync-two-bits '__O_RSYNC is not a single bit' \
  append '#undef __O_RSYNC\n#define __O_RSYNC 0x18000000'
plant rsync-sign-bit '__O_RSYNC is not positive (zero, negative or the sign bit)' \
  append '#undef __O_RSYNC\n#define __O_RSYNC 0x80000000'
plant rsync-still-alias 'O_RSYNC == O_SYNC (still an alias)' \
  append '#undef O_RSYNC\n#define O_RSYNC O_SYNC'
plant rsync-not-own-macro 'O_RSYNC != __O_RSYNC' \
  append '#undef O_RSYNC\n#define O_RSYNC (__O_RSYNC << 1)'
plant rsync-is-fullsync 'O_RSYNC|O_DSYNC == O_SYNC' \
  append '#undef __O_RSYNC\n#define __O_RSYNC __O_FULLSYNC'
plant rsync-is-dsync 'O_RSYNC|O_DSYNC == O_DSYNC' \
  append '#undef __O_RSYNC\n#define __O_RSYNC __O_DSYNC'
plant rsync-missing-in-posix 'O_RSYNC in strict POSIX mode is not defined' \
  append '#ifndef __USE_GNU\n# undef O_RSYNC\n#endif'

ports_log ""
ports_log "selftest: $npass passed, $nfail failed, $nskip unsupported"
ports_note "details in $PORTS_LOG"
printf 'selftest: %d passed, %d failed, %d skipped\n' "$npass" "$nfail" "$nskip"
[ "$nfail" -eq 0 ]
