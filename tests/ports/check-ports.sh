#!/bin/bash
# Check the O_SYNC / O_DSYNC / O_RSYNC split of a patched glibc on
# every Linux port: install each port's headers with glibc's own
# `make install-headers` (cached), compile tests/ports/probe.c against
# them and against the port's kernel headers, and report.  See README.
set -euo pipefail

PORTS_PROG=check-ports.sh
# shellcheck source=lib.sh
. "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)/lib.sh"

usage() {
  cat <<'EOF'
Usage: check-ports.sh --src GLIBC_SRC_TREE --cache CACHE_DIR --out RESULT_DIR
                      [--only PORT[,PORT...]] [--strict]
       check-ports.sh --list

  --src    top directory of the patched glibc source tree (read only)
  --cache  where installed headers are kept between runs
  --out    where ports.md, ports.log and build/*.log are written
  --only   check only these ports: port ids (see --list) or glibc port
           names (e.g. mips selects every mips row)
  --strict count UNSUPPORTED ports as failures
  --list   print the port ids and exit

stdout gets one line per port, "PASS: ports: <port>",
"FAIL: ports: <port>: <reason>" or "UNSUPPORTED: ports: <port>: <reason>",
then a summary line.  Exit status: 0 if no port failed, 1 if one did,
2 on a usage or setup error.
EOF
}

ports_parse_args "only" "strict list" "$@"
if [ -n "${PORTS_OPT[list]:-}" ]; then
  ports_table | awk -F'|' '{printf "%-14s %-11s %s\n", $1, $2, $3}'
  exit 0
fi
only=${PORTS_OPT[only]:-}
strict=${PORTS_OPT[strict]:-0}

# Which ports.
ids=()
if [ -n "$only" ]; then
  IFS=, read -r -a wanted <<<"$only"
  for w in "${wanted[@]}"; do
    [ -n "$w" ] || continue
    mapfile -t m < <(ports_table | awk -F'|' -v w="$w" '$1 == w || $2 == w {print $1}')
    [ "${#m[@]}" -gt 0 ] ||
      ports_die "--only: no port '$w'; valid ids: $(ports_ids | tr '\n' ' ')(or a glibc port name such as mips)"
    for id in "${m[@]}"; do
      case " ${ids[*]} " in *" $id "*) ;; *) ids+=("$id") ;; esac
    done
  done
else
  mapfile -t ids < <(ports_ids)
fi

ports_init
PORTS_LOG=$PORTS_OUT/ports.log
: >"$PORTS_LOG"
start=$SECONDS
ports_log "check-ports.sh on $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
ports_log "source: $PORTS_SRC ($PORTS_SRC_ID)"
ports_log "cache:  $PORTS_CACHE"
ports_log "ports:  ${ids[*]}"

npass=0 nfail=0 nskip=0
rows=() notes=()
if ! cov=$(ports_check_coverage); then
  printf 'FAIL: ports: coverage: %s\n' "$cov"
  ports_log "coverage: $cov"
  nfail=$((nfail + 1))
fi

# Install the headers of as many ports at once as there are cores: a
# port's install is mostly glibc's configure, which keeps one core
# busy.  The loop below finds them in the cache (ports_prepare locks
# each port's cache entry), and reports a failure in order.
jobs=0
for id in "${ids[@]}"; do
  ( PORTS_LOG=/dev/null ports_prepare "$id" >/dev/null 2>&1 ) &
  jobs=$((jobs + 1))
  if [ "$jobs" -ge "$(nproc)" ]; then
    wait -n || true
    jobs=$((jobs - 1))
  fi
done
wait || true

for id in "${ids[@]}"; do
  t0=$SECONDS
  rc=0
  ports_prepare "$id" || rc=$?
  verdict='' reason=''
  PROBE_VAL=()
  PROBE_ERR=()
  case $rc in
    2) verdict=UNSUPPORTED reason=$P_REASON ;;
    1) verdict=FAIL reason=$P_REASON ;;
    0)
      if ports_probe "$id" "$P_HDR" "$P_KDIR" "${P_PROBE_CC[@]}"; then
        verdict=PASS
      else
        verdict=FAIL
        reason=
        for e in "${PROBE_ERR[@]}"; do
          reason="${reason:+$reason; }${e#"$id: "}"
        done
      fi ;;
  esac
  for k in g.O_DSYNC g.__O_FULLSYNC g.O_SYNC g.O_RSYNC k.O_DSYNC k.__O_SYNC k.O_SYNC; do
    ports_log "  $k = ${PROBE_VAL[$k]:-?}"
  done
  for e in "${PROBE_ERR[@]}"; do
    ports_log "  check failed: $e"
  done
  ports_log "  verdict: $verdict${reason:+ ($reason)} in $((SECONDS - t0)) s"
  case $verdict in
    PASS) npass=$((npass + 1)); printf 'PASS: ports: %s\n' "$id" ;;
    FAIL) nfail=$((nfail + 1)); printf 'FAIL: ports: %s: %s\n' "$id" "$reason" ;;
    *) nskip=$((nskip + 1)); printf 'UNSUPPORTED: ports: %s: %s\n' "$id" "$reason" ;;
  esac
  how=${P_LABEL:-none}
  rows+=("| $id | $P_HOST ($P_ABI) | ${PROBE_VAL[g.O_DSYNC]:-?} | ${PROBE_VAL[g.__O_FULLSYNC]:-?} | ${PROBE_VAL[g.O_SYNC]:-?} | ${PROBE_VAL[g.O_RSYNC]:-?} | ${PROBE_VAL[k.O_DSYNC]:-?} | ${PROBE_VAL[k.__O_SYNC]:-?} | $how | $verdict |")
  if [ "$verdict" != PASS ]; then
    notes+=("- $id: $verdict: $reason")
  elif [ "${P_METHOD:-}" = host ] && [ -n "$P_REASON" ]; then
    notes+=("- $id: $P_REASON; checked with the host gcc, the $P_FAMILY header path and the host's asm-generic kernel headers")
  fi
done

# The run must not have touched the source tree.
case $PORTS_SRC_ID in
  git-tree:*)
    if [ "$(ports_src_id)" != "$PORTS_SRC_ID" ]; then
      printf '%s: warning: the source tree %s changed during the run\n' "$PORTS_PROG" "$PORTS_SRC" >&2
      ports_log "warning: the source tree changed during the run"
    fi ;;
esac

{
  printf '# O_SYNC, O_DSYNC and O_RSYNC on the glibc Linux ports\n\n'
  printf 'Source: %s (%s). Values in hex; "kernel" columns are the port'"'"'s Linux uapi %s.\n\n' \
    "\`$PORTS_SRC\`" "$PORTS_SRC_ID" "\`<asm/fcntl.h>\`"
  printf '| Port | Triplet / ABI | O_DSYNC | __O_FULLSYNC | O_SYNC | O_RSYNC | kernel O_DSYNC | kernel __O_SYNC | Checked with | Verdict |\n'
  printf '|---|---|---|---|---|---|---|---|---|---|\n'
  printf '%s\n' "${rows[@]}"
  printf '\n%d passed, %d failed, %d unsupported.\n' "$npass" "$nfail" "$nskip"
  if [ "${#notes[@]}" -gt 0 ]; then
    printf '\nNotes:\n\n'
    printf '%s\n' "${notes[@]}"
  fi
  printf '\n"host gcc + <port> header path": no cross compiler; the host gcc compiled the probe against the port'"'"'s installed glibc headers (configured with --host=<triplet>) and the host'"'"'s asm-generic kernel headers, which that port uses unchanged in Linux 6.1. Details: ports.log.\n'
} >"$PORTS_OUT/ports.md"

ports_log ""
ports_log "total: $npass passed, $nfail failed, $nskip unsupported in $((SECONDS - start)) s"
ports_note "results in $PORTS_OUT/ports.md and $PORTS_OUT/ports.log ($((SECONDS - start)) s)"
printf 'ports: %d passed, %d failed, %d skipped\n' "$npass" "$nfail" "$nskip"
if [ "$nfail" -gt 0 ] || { [ "$strict" = 1 ] && [ "$nskip" -gt 0 ]; }; then
  exit 1
fi
exit 0
