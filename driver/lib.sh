# Shared shell functions of the build and test driver.  Sourced, not run.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

# die MESSAGE...: print an error that says what to do, and stop.
die ()
{
  printf '%s: error: %s\n' "${0##*/}" "$*" >&2
  exit 1
}

note ()
{
  printf '%s: %s\n' "${0##*/}" "$*" >&2
  activity "$*"
}

# activity TEXT: what the phase of make check is doing now, for the line
# driver/osync.sh prints every minute (OSYNC_ACTIVITY, which it sets):
# TEXT up to its first path or ';'.
activity ()
{
  [ -n "${OSYNC_ACTIVITY:-}" ] || return 0
  local t=${1%%;*}
  t=${t%% in /*}
  t=${t%% (/*}
  printf '%s\n' "$t" > "$OSYNC_ACTIVITY" 2>/dev/null || true
}

# need_var NAME...: stop unless each variable is set (the Makefile
# passes them; running a script by hand without them is a usage error).
need_var ()
{
  local v
  for v in "$@"; do
    [ -n "${!v:-}" ] || die "$v is not set; run this through 'make' after ./configure"
  done
}

# hash_stdin: the first 16 hex digits of the SHA-256 of standard input.
hash_stdin ()
{
  sha256sum | cut -c1-16
}

# tool_versions: the first line of --version of every tool whose output
# goes into a build, as one string for cache keys.
tool_versions ()
{
  local t
  for t in "$CC" "$CXX" "${LD:-ld}" "$PYTHON" bison gawk make; do
    printf '%s: ' "$t"
    $t --version 2>/dev/null | head -n 1
  done
  # The kernel headers the builds compile against.
  dpkg-query -W linux-libc-dev 2>/dev/null || true
}

# prune_cache DIR PREFIX KEEP: remove all but the KEEP newest entries
# named PREFIX* in DIR, so the cache does not grow without bound.
prune_cache ()
{
  local dir=$1 prefix=$2 keep=$3
  ls -1dt "$dir/$prefix"* 2>/dev/null | tail -n +"$((keep + 1))" \
    | while read -r old; do rm -rf -- "$old"; done
}

# with_log LOG CMD...: run CMD with its output in LOG; on failure show
# the tail of the log and the log's name.  Under driver/osync.sh, LOG is
# also the log its minute lines count, and on failure the one its
# report ends with.
with_log ()
{
  local log=$1; shift
  [ -z "${OSYNC_ACTIVITY:-}" ] \
    || printf '%s\n' "$(cd "$(dirname "$log")" && pwd)/${log##*/}" > "$OSYNC_ACTIVITY.log" 2>/dev/null || true
  if ! "$@" >"$log" 2>&1; then
    tail -n 25 "$log" >&2
    [ -z "${OSYNC_ACTIVITY:-}" ] || cp "$OSYNC_ACTIVITY.log" "$OSYNC_ACTIVITY.failed" 2>/dev/null || true
    return 1
  fi
}

# The opt-in runs outside make check (make check-glibc-full, make
# check-aarch64) each leave one line, RESULTS/optin/NAME.txt, which make
# check's summary reads: "PASS: ...", "FAIL: ..." or "SKIP: REASON".
#
# optin_start NAME RESULTS: set optin_line and remove the line of an
# earlier run, which must not stand for this one.
optin_start ()
{
  mkdir -p "$2/optin"
  optin_name=$1
  optin_line=$2/optin/$1.txt
  rm -f "$optin_line"
}

# optin_skip REASON...: the line that says why there is no result; exit.
optin_skip ()
{
  echo "SKIP: $*" | tee "$optin_line"
  exit 0
}

# optin_judge JUDGE...: run the judge (a driver/*.py that writes the
# line given with --line, and exits 1 on a failure); a judge that
# writes no line leaves a FAIL line that says so.
optin_judge ()
{
  local rc=0
  "$@" --line "$optin_line" || rc=$?
  [ -s "$optin_line" ] \
    || echo "FAIL: $optin_name: ${1##*/} ${2##*/} wrote no verdict (exit status $rc)" > "$optin_line"
  return $rc
}

# optin_cached DIR STATUS JUDGE...: if DIR holds a finished run (DIR/done),
# judge it and exit: with STATUS 1 (--status), exit 0 after printing the
# line; else with the judge's status.  Returns when there is no run.
optin_cached ()
{
  local dir=$1 status=$2
  shift 2
  [ -f "$dir/done" ] || return 0
  if [ "$status" = 1 ]; then
    optin_judge "$@" > /dev/null || true
    cat "$optin_line"
    exit 0
  fi
  optin_judge "$@"
  exit
}
