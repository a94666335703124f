# Where a long run stands: each phase of make check (and of make)
# announces itself with its number out of the total and the time it
# took the last time, prints a line with its elapsed time every minute
# while it runs, and, if it fails, ends with the failing phase, the
# last lines of its log and the path to the whole log.  Sourced by
# driver/osync.sh, which calls progress_run.
#
# The Makefile gives the phases of a run, in order, in OSYNC_PLAN (ids:
# the step, "build-VARIANT" for "build VARIANT").  The expected time of
# a phase is its time in the last run in this build directory
# (results/phase-times, written here), or, on a first run, the cold
# time committed in driver/phase-times.  Each phase's own output is in
# results/logs/ID.log.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

# progress_id STEP ARGS...: the id of a phase.
progress_id ()
{
  case $1 in
    build) echo "build-${2:-}" ;;
    *) echo "$1" ;;
  esac
}

# progress_title ID: what the phase does, in a few words.
progress_title ()
{
  case $1 in
    deps) echo "the Debian packages make check needs" ;;
    series) echo "the series of both glibc bases" ;;
    build-both) echo "glibc, both bases, unpatched (with its tests) then patched" ;;
    build-patched) echo "the patched glibc" ;;
    build-baseline) echo "the unpatched glibc" ;;
    kernel) echo "the kernels: the new one with each carrier, mainline's" ;;
    demo) echo "the demonstration" ;;
    check-glibc) echo "glibc's tests on the patched trees" ;;
    check-suite) echo "the DejaGnu suite" ;;
    summary) echo "the summary" ;;
    quick-series) echo "the series of glibc $OSYNC_PRIMARY_BASE" ;;
    quick-headers) echo "the unpatched glibc $OSYNC_PRIMARY_BASE headers" ;;
    quick-build) echo "the patched glibc $OSYNC_PRIMARY_BASE, libc.so.6 and ld.so only" ;;
    quick-demo) echo "the demonstration" ;;
    *) echo "$1" ;;
  esac
}

# progress_fmt SECONDS: "1h02m", "12m05s" or "45s".
progress_fmt ()
{
  local s=$1
  if [ "$s" -ge 3600 ]; then
    printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
  elif [ "$s" -ge 60 ]; then
    printf '%dm%02ds' $((s / 60)) $((s % 60))
  else
    printf '%ds' "$s"
  fi
}

# progress_expected ID: "SECONDS SOURCE" of the phase's expected time,
# or nothing.
progress_expected ()
{
  local f t
  for f in "$OSYNC_RESULTS/phase-times" "$OSYNC_TOP/driver/phase-times"; do
    [ -f "$f" ] || continue
    t=$(awk -v id="$1" '$1 == id { print $2 }' "$f")
    if [ -n "$t" ]; then
      case $f in
        "$OSYNC_RESULTS"/*) echo "$t the last run here" ;;
        *) echo "$t a cold run (driver/phase-times)" ;;
      esac
      return
    fi
  done
}

# progress_detail ID: what the phase is doing now, for the minute lines.
progress_detail ()
{
  local d= log n
  if [ "$1" = check-suite ]; then
    local dj=$OSYNC_RESULTS/dejagnu l f done=0 running=()
    for l in "$dj"/lane-*; do
      [ -d "$l" ] || continue
      if [ -f "$l/status" ]; then
        done=$((done + 1))
      else
        # The group, its time so far and, from the last run
        # (dejagnu/durations) or the committed times, its whole time.
        local g=${l##*/lane-} t0 e=
        t0=$(cat "$l/started" 2>/dev/null || date +%s)
        for f in "$dj/durations" "$OSYNC_TOP/tests/durations"; do
          [ -z "$e" ] && [ -f "$f" ] || continue
          e=$(awk -v g="$g" '$1 == g { print $2 }' "$f")
        done
        running+=("$g ($(progress_fmt $(( $(date +%s) - t0 )))${e:+ of $(progress_fmt "$e")})")
      fi
    done
    local total
    total=$(ls "$OSYNC_TOP"/tests/osync.*/*.exp 2>/dev/null | wc -l)
    [ -z "${SUITE_GROUPS:-}" ] || total=$(wc -w <<< "$SUITE_GROUPS")
    d="; $done of $total groups done"
    [ ${#running[@]} = 0 ] || d="$d; running: $(IFS=,; echo "${running[*]}" | sed 's/,/, /g')"
  else
    [ ! -s "$OSYNC_ACTIVITY" ] || d="; $(head -c 100 "$OSYNC_ACTIVITY" | head -n 1)"
    log=$(cat "$OSYNC_ACTIVITY.log" 2>/dev/null || true)
    if [ -n "$log" ] && [ -f "$log" ]; then
      n=$(wc -l < "$log")
      d="$d (${log##*/}: $n lines)"
    fi
  fi
  printf '%s' "$d"
}

# progress_ticker ID PARENT T0 LABEL EXPECT: a line every minute (every
# OSYNC_TICK seconds; the tests shorten it) while PARENT runs phase ID.
progress_ticker ()
{
  local id=$1 parent=$2 t0=$3 label=$4 expect=$5 sp=
  trap '[ -z "$sp" ] || kill "$sp" 2>/dev/null; exit 0' TERM INT
  while :; do
    sleep "${OSYNC_TICK:-60}" > /dev/null 2>&1 &
    sp=$!
    wait "$sp" || true
    sp=
    kill -0 "$parent" 2>/dev/null || exit 0
    printf '   %s: %s elapsed%s%s\n' "$label" \
      "$(progress_fmt $(( $(date +%s) - t0 )))" \
      "${expect:+ of about $(progress_fmt "$expect")}" \
      "$(progress_detail "$id")" >&2
  done
}

# progress_plan: the line make check's begin prints: its phases and the
# time they took together the last time.
progress_plan ()
{
  local id e total=0 known=0 n=0
  for id in ${OSYNC_PLAN:-}; do
    n=$((n + 1))
    e=$(progress_expected "$id")
    [ -z "$e" ] || { total=$((total + ${e%% *})); known=$((known + 1)); }
  done
  [ "$n" -gt 0 ] || return 0
  printf '== %s: %d phases; about %s by the times of the last run (or of a cold run)\n' \
    "${OSYNC_RUN_NAME:-make check}" "$n" "$(progress_fmt "$total")"
}

# progress_run STEP ARGS...: run "osync.sh STEP ARGS" again, as the
# inner run that does the work, with its output also in the phase's log;
# announce it, print the minute lines, and report a failure.  Exits
# with the inner run's status.
progress_run ()
{
  local id n=0 total=0 i label e expect= from= log t0 rc tpid failed
  id=$(progress_id "$@")
  for i in ${OSYNC_PLAN:-}; do
    total=$((total + 1))
    [ "$i" != "$id" ] || n=$total
  done
  label="[$id]"
  [ "$n" = 0 ] || label="[$n/$total]"
  label="$label $(progress_title "$id")"
  e=$(progress_expected "$id")
  [ -z "$e" ] || { expect=${e%% *}; from=${e#* }; }
  log=$OSYNC_RESULTS/logs/$id.log
  mkdir -p "$OSYNC_RESULTS/logs"
  export OSYNC_INNER=1 OSYNC_ACTIVITY=$OSYNC_STATE/activity-$id PYTHONUNBUFFERED=1
  rm -f "$OSYNC_ACTIVITY" "$OSYNC_ACTIVITY.log" "$OSYNC_ACTIVITY.failed"
  printf '== %s: started %s%s\n' "$label" "$(date -u +%H:%M:%S)" \
    "${expect:+; $(progress_fmt "$expect") in $from}"
  t0=$(date +%s)
  if [ "$1" != summary ]; then
    progress_ticker "$id" $$ "$t0" "$label" "$expect" &
    tpid=$!
  fi
  set +e
  "$0" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  [ -z "${tpid:-}" ] || { kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null || true; }
  local took=$(( $(date +%s) - t0 ))
  if [ "$rc" = 0 ]; then
    # This phase's time, for the next run's expectations.
    { [ ! -f "$OSYNC_RESULTS/phase-times" ] \
        || awk -v id="$id" '$1 != id' "$OSYNC_RESULTS/phase-times"
      echo "$id $took"; } > "$OSYNC_RESULTS/phase-times.new" \
      && mv "$OSYNC_RESULTS/phase-times.new" "$OSYNC_RESULTS/phase-times"
    [ "$took" -lt 60 ] || [ "$1" = summary ] || printf '   %s: done in %s\n' "$label" "$(progress_fmt "$took")"
    exit 0
  fi
  # The summary's own failures (tests that failed) are its report, and
  # its last line stays the last line.
  [ "$1" != summary ] || [ "$rc" != 1 ] || exit 1
  failed=$(cat "$OSYNC_ACTIVITY.failed" 2>/dev/null || true)
  [ -n "$failed" ] && [ -f "$failed" ] || failed=$log
  {
    echo
    printf '== FAILED: %s, after %s (exit status %s).\n' "$label" "$(progress_fmt "$took")" "$rc"
    echo "== The last lines of $failed:"
    tail -n 15 "$failed" | sed 's/^/   /'
    if [ "$failed" = "$log" ]; then
      echo "== The whole log: $failed"
    else
      echo "== The whole log: $failed (this phase's output: $log)"
    fi
  } >&2
  exit "$rc"
}
