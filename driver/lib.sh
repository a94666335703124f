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
