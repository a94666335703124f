#!/bin/sh
# Tests of kemu.  Prints "PASS: kemu: WHAT" or "FAIL: kemu: WHAT" per
# check (read by tests/osync.kemu/kemu.exp); exits 1 if any failed.
# Run through "make -C kemu check", which builds kemu, kt64 and kt32.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

here=$(cd "$(dirname "$0")" && pwd)
kemu=$here/../kemu
tmp=${KEMU_TMP:-$here/tmp}
failed=0

rm -rf "$tmp"
mkdir -p "$tmp" || exit 1
file=$tmp/file
: > "$file"
mkdir "$tmp/dir"

# pass WHAT, fail WHAT [DETAILS]; while $skipping holds a reason, each
# check is reported UNSUPPORTED with it instead, by its name: a check
# not run is a skip, counted one by one, never a pass.
skipping=
pass ()
{
  if [ -n "$skipping" ]; then
    echo "UNSUPPORTED: kemu: $1 ($skipping)"
  else
    echo "PASS: kemu: $1"
  fi
}
fail ()
{
  if [ -n "$skipping" ]; then
    echo "UNSUPPORTED: kemu: $1 ($skipping)"
  else
    echo "FAIL: kemu: $1${2:+ ($2)}"
    failed=1
  fi
}

# The project's __O_RSYNC bit, from the facts file (driver/facts.py).
facts=$here/../../driver/facts.py
rsync=$(python3 "$facts" get OSYNC_RSYNC_BIT) || {
  echo "FAIL: kemu: cannot read OSYNC_RSYNC_BIT with $facts; run from a complete checkout of the project"
  exit 1
}
# oct N: N (any shell arithmetic) in octal, as kemu and kt print it.
oct () { printf '%#o' $(($1)); }

# run OUT VERSION CMD...: run CMD under kemu with a fresh log; its
# stdout and stderr go to OUT, its status to $rc, the log to $tmp/log.
run ()
{
  out=$1 ver=$2
  shift 2
  rm -f "$tmp/log"
  "$kemu" --kernel "$ver" --log "$tmp/log" -- "$@" > "$out" 2>&1
  rc=$?
}

# getfl OUT: the F_GETFL value kt printed, as a decimal number.
getfl ()
{
  v=$(sed -n 's/^getfl \(0[0-7]*\)$/\1/p' "$1")
  [ -n "$v" ] && echo $((v))
}

# check_flags WHAT VERSION KT CALL FLAGS MASK WANT: KT (kt64 or kt32)
# opens the file with CALL and FLAGS (octal) under VERSION; F_GETFL
# masked with MASK must be WANT (both octal).
check_flags ()
{
  what=$1 ver=$2 kt=$3 call=$4 flags=$5 mask=$6 want=$7
  run "$tmp/out" "$ver" "$here/$kt" "$call" "$file" "$flags"
  got=$(getfl "$tmp/out")
  if [ "$rc" -ne 0 ] || [ -z "$got" ]; then
    fail "$what" "exit $rc: $(cat "$tmp/out")"
  elif [ $((got & mask)) -ne $((want)) ]; then
    fail "$what" "F_GETFL $(printf %#o "$got"), want $want in $mask"
  else
    pass "$what"
  fi
}

# check_log WHAT REGEXP: a line of the last run's log matches REGEXP.
check_log ()
{
  if grep -Eq "$2" "$tmp/log" 2>/dev/null; then
    pass "$1"
  else
    fail "$1" "log: $(cat "$tmp/log" 2>/dev/null), want /$2/"
  fi
}

for kt in kt64 kt32; do
  case $kt in
    kt64) arch=x86_64 ;;
    kt32) arch=i386 ;;
  esac
  # A kernel without 32-bit emulation cannot run kt32 at all: each of
  # its checks is a skip, with the reason (they run, and fail quickly).
  skipping=
  if ! why=$("$here/$kt" 2>&1 >/dev/null) && [ -n "$why" ] \
     && [ -z "${why##*Exec format error*}" ]; then
    skipping="this machine cannot execute $arch programs (Exec format error)"
  fi

  # O_SYNC is O_DSYNC|__O_SYNC (04010000); 2.6.32 knew only O_DSYNC.
  # The kernel gets O_DSYNC (the log), but F_GETFL reports __O_SYNC
  # too, as a real kernel before 4.13 did with a bit it ignored.
  for call in open openat; do
    check_flags "$kt $call O_SYNC under 2.6.32: F_GETFL keeps the ignored __O_SYNC" \
      2.6.32 $kt $call 04010001 04010000 04010000
    check_log "$kt $call O_SYNC under 2.6.32 reaches the kernel as O_DSYNC" \
      "^[0-9]+ $arch $call 04010001 010001\$"
    check_flags "$kt $call O_SYNC under 2.6.33 stays O_SYNC" \
      2.6.33 $kt $call 04010001 04010000 04010000
    check_flags "$kt $call O_SYNC under current stays O_SYNC" \
      current $kt $call 04010001 04010000 04010000
    if [ -s "$tmp/log" ]; then
      fail "$kt $call under current rewrites nothing" "$(cat "$tmp/log")"
    else
      pass "$kt $call under current rewrites nothing"
    fi
  done

  # --log-all logs a call the emulated kernel takes unchanged too.
  rm -f "$tmp/log"
  "$kemu" --kernel 2.6.32 --log "$tmp/log" --log-all -- \
    "$here/$kt" openat "$file" 010001 > "$tmp/out" 2>&1
  check_log "$kt --log-all logs an O_DSYNC openat unchanged" \
    "^[0-9]+ $arch openat 010001 010001\$"

  # O_PATH (010000000): unknown to 2.6.32, which opened the file
  # O_RDONLY instead.
  check_flags "$kt O_PATH under 2.6.32: F_GETFL keeps the ignored bit" \
    2.6.32 $kt openat 010000000 010000000 010000000
  check_log "$kt O_PATH under 2.6.32 is dropped" \
    "^[0-9]+ $arch openat 010000000 0\$"
  check_flags "$kt O_PATH under 2.6.39 is kept" \
    2.6.39 $kt openat 010000000 010000000 010000000

  # The project's __O_RSYNC is unknown to every row.  The kernels
  # glibc 2.36 and 2.44 support start at 3.2; before 4.13 F_GETFL
  # reported the bit open ignored, from 4.13 on it does not.
  for ver in 2.6.32 3.2 3.11 4.13 5.5 5.6; do
    case $ver in
      2.6.32|3.2|3.11) want=$(oct "rsync | 010000") how="keeps the ignored bit" ;;
      *) want=010000 how="drops it" ;;
    esac
    check_flags "$kt O_RSYNC|O_DSYNC under $ver: F_GETFL $how" \
      $ver $kt open "$(oct "rsync | 010001")" "$(oct "rsync | 010000")" $want
    check_log "$kt O_RSYNC under $ver reaches the kernel as O_DSYNC" \
      "^[0-9]+ $arch open $(oct "rsync | 010001") 010001\$"
  done
  # Under the current kernel, --log-all shows what was passed, and
  # F_GETFL is the real kernel's (which strips the bit itself).
  rm -f "$tmp/log"
  "$kemu" --kernel current --log "$tmp/log" --log-all -- \
    "$here/$kt" open "$file" "$(oct "rsync | 010001")" > "$tmp/out" 2>&1
  check_log "$kt --log-all under current logs the __O_RSYNC passed" \
    "^[0-9]+ $arch open $(oct "rsync | 010001") $(oct "rsync | 010001")\$"
  got=$(getfl "$tmp/out")
  if [ -n "$got" ] && [ $((got & (rsync | 010000))) -eq $((010000)) ]; then
    pass "$kt under current F_GETFL is the real kernel's (no __O_RSYNC)"
  else
    fail "$kt under current F_GETFL is the real kernel's (no __O_RSYNC)" "$(cat "$tmp/out")"
  fi

  # The kept bits follow the descriptor into a forked child, and not
  # into a descriptor number reused for another file.
  run "$tmp/out" 3.2 "$here/$kt" inherit "$file" "$(oct "rsync | 010001")"
  got=$(getfl "$tmp/out")
  if [ "$rc" -eq 0 ] && [ -n "$got" ] \
     && [ $((got & (rsync | 010000))) -eq $((rsync | 010000)) ]; then
    pass "$kt under 3.2 a forked child's F_GETFL keeps the ignored bit"
  else
    fail "$kt under 3.2 a forked child's F_GETFL keeps the ignored bit" "exit $rc: $(cat "$tmp/out")"
  fi
  run "$tmp/out" 3.2 "$here/$kt" reuse "$file" "$(oct "rsync | 010001")"
  got=$(getfl "$tmp/out")
  if [ "$rc" -eq 0 ] && [ -n "$got" ] && [ $((got & (rsync | 010000))) -eq 0 ]; then
    pass "$kt under 3.2 a reused descriptor number keeps no bits"
  else
    fail "$kt under 3.2 a reused descriptor number keeps no bits" "exit $rc: $(cat "$tmp/out")"
  fi

  # O_TMPFILE is __O_TMPFILE|O_DIRECTORY, so that kernels before 3.11
  # fail it with EISDIR instead of opening the directory for writing.
  run "$tmp/out" 3.11 "$here/$kt" openat "$tmp/dir" 020200002
  if [ "$rc" -eq 0 ] && grep -q '^getfl ' "$tmp/out"; then
    pass "$kt O_TMPFILE under 3.11 works"
  else
    fail "$kt O_TMPFILE under 3.11 works" "exit $rc: $(cat "$tmp/out")"
  fi
  run "$tmp/out" 2.6.39 "$here/$kt" openat "$tmp/dir" 020200002
  if grep -q 'Is a directory' "$tmp/out"; then
    pass "$kt O_TMPFILE under 2.6.39 fails with EISDIR"
  else
    fail "$kt O_TMPFILE under 2.6.39 fails with EISDIR" "$(cat "$tmp/out")"
  fi

  # openat2 is new in 5.6.
  for ver in 2.6.32 3.2 5.5; do
    run "$tmp/out" $ver "$here/$kt" openat2 "$file" "$(oct "rsync")"
    if grep -qx 'openat2 ENOSYS' "$tmp/out"; then
      pass "$kt openat2 (the probe) under $ver fails with ENOSYS"
    else
      fail "$kt openat2 (the probe) under $ver fails with ENOSYS" "$(cat "$tmp/out")"
    fi
  done
  # From 5.6 on, openat2 rejects the unknown bit: the real kernel's
  # doing, which kemu lets through.
  run "$tmp/out" 5.6 "$here/$kt" openat2 "$file" "$(oct "rsync")"
  if grep -qx 'openat2 Invalid argument' "$tmp/out"; then
    pass "$kt openat2 with __O_RSYNC under 5.6 fails with EINVAL"
  else
    fail "$kt openat2 with __O_RSYNC under 5.6 fails with EINVAL" "$(cat "$tmp/out")"
  fi
  run "$tmp/out" 2.6.32 "$here/$kt" openat2 "$file"
  check_log "$kt openat2 under 2.6.32 is logged" \
    "^[0-9]+ $arch openat2 0 ENOSYS\$"
  run "$tmp/out" 5.6 "$here/$kt" openat2 "$file"
  if grep -qx 'openat2 ok' "$tmp/out"; then
    pass "$kt openat2 under 5.6 works"
  else
    fail "$kt openat2 under 5.6 works" "$(cat "$tmp/out")"
  fi

  # F_SETFL: only the log shows it (the kernel ignores these bits).
  run "$tmp/out" 2.6.32 "$here/$kt" setfl "$file" "$(oct "rsync | 04002000")"
  if [ "$rc" -eq 0 ]; then
    pass "$kt F_SETFL under 2.6.32 succeeds"
  else
    fail "$kt F_SETFL under 2.6.32 succeeds" "exit $rc: $(cat "$tmp/out")"
  fi
  check_log "$kt F_SETFL under 2.6.32 is logged" \
    "^[0-9]+ $arch fcntl $(oct "rsync | 04002000") 02000\$"
  if [ $kt = kt32 ]; then
    check_log "$kt F_SETFL with fcntl64 under 2.6.32 is logged" \
      "^[0-9]+ $arch fcntl64 $(oct "rsync | 04002000") 02000\$"
  fi

  # Other processes and threads of the tracee.
  for how in fork thread; do
    check_flags "$kt O_SYNC from a $how under 2.6.32: F_GETFL keeps __O_SYNC" \
      2.6.32 $kt $how 04010001 04010000 04010000
    check_log "$kt O_SYNC from a $how under 2.6.32 is logged" \
      "^[0-9]+ $arch open 04010001 010001\$"
  done

  # Exit status and signals.
  run "$tmp/out" 2.6.32 "$here/$kt" exit 3
  if [ "$rc" -eq 3 ]; then
    pass "$kt exit status 3 is passed through"
  else
    fail "$kt exit status 3 is passed through" "got $rc"
  fi
  run "$tmp/out" 2.6.32 "$here/$kt" kill
  if [ "$rc" -eq 143 ]; then
    pass "$kt death by SIGTERM gives status 143"
  else
    fail "$kt death by SIGTERM gives status 143" "got $rc"
  fi
  run "$tmp/out" 2.6.32 "$here/$kt" signal
  if [ "$rc" -eq 0 ] && grep -qx 'signals 2' "$tmp/out"; then
    pass "$kt SIGUSR1 is delivered to its handler"
  else
    fail "$kt SIGUSR1 is delivered to its handler" "exit $rc: $(cat "$tmp/out")"
  fi
done

skipping=

# Usage errors.
"$kemu" --kernel 2.4.0 -- true > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "unknown kernel version '2.4.0'" "$tmp/out"; then
  pass "unknown version fails with status 2"
else
  fail "unknown version fails with status 2" "exit $rc: $(cat "$tmp/out")"
fi
"$kemu" --kernel 2.6.32 > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'no command given' "$tmp/out"; then
  pass "missing command fails with status 2"
else
  fail "missing command fails with status 2" "exit $rc: $(cat "$tmp/out")"
fi
"$kemu" -- true > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'no --kernel given' "$tmp/out"; then
  pass "missing --kernel fails with status 2"
else
  fail "missing --kernel fails with status 2" "exit $rc: $(cat "$tmp/out")"
fi
"$kemu" --kernel 2.6.32 -- "$tmp/no-such-command" > "$tmp/out" 2>&1
rc=$?
if [ $rc -eq 127 ] && grep -q 'No such file' "$tmp/out"; then
  pass "command not found fails with status 127"
else
  fail "command not found fails with status 127" "exit $rc: $(cat "$tmp/out")"
fi

# PTRACE_O_EXITKILL: killing kemu kills the tracee.
"$kemu" --kernel 2.6.32 -- sh -c 'echo $$ > "$1"; exec sleep 60' sh \
  "$tmp/pid" > /dev/null 2>&1 &
kpid=$!
i=0
while [ ! -s "$tmp/pid" ] && [ $i -lt 50 ]; do
  sleep 0.1
  i=$((i + 1))
done
tpid=$(cat "$tmp/pid" 2>/dev/null)
kill -KILL $kpid
wait $kpid 2>/dev/null
i=0
# Gone, or a zombie waiting for init.
while [ -n "$tpid" ] && [ $i -lt 50 ] \
      && grep -qv '^[0-9]* ([^)]*) Z' "/proc/$tpid/stat" 2>/dev/null; do
  sleep 0.1
  i=$((i + 1))
done
if [ -n "$tpid" ] && [ "$tpid" != $kpid ] && [ $i -lt 50 ]; then
  pass "killing kemu kills the tracee"
else
  kill -KILL "$tpid" 2>/dev/null
  fail "killing kemu kills the tracee"
fi

exit $failed
