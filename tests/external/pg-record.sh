#!/bin/bash
# In the guest of tests/qemu/hostguest.sh: PostgreSQL commits on a
# dm-log-writes disk, one recording per setting (driver/suites.sh
# postgres; tests/external/pgcheck.py checks the logs on the host).
#
#   pg-record.sh BIN N SETTING:DATA:LOG...
#
# BIN: the directory of crashdm (tests/crash/crashdm.c) and pgcommit
# (tests/external/pgcommit.c), and dropsync.so
# (tests/external/dropsync.c).  For each SETTING (open_datasync,
# open_sync: wal_sync_method; fsync_off: the control, fsync=off;
# open_datasync_dropped: open_datasync with the server's open functions
# dropping O_DSYNC and O_SYNC, the planted bug):
# crashdm puts the ext4 of the disk DATA (made on the host, with a
# PostgreSQL cluster in /pgdata owned by nobody) on a log-writes
# target logging to the disk LOG and mounts it on /mnt; Debian 12's
# postgres (the guest's C library is whatever hostguest.sh --glibc
# made it) starts on /mnt/pgdata as nobody, on a socket in /tmp;
# pgcommit commits N transactions and marks each acknowledged one;
# the descriptors that postgres's processes hold on WAL segments are
# listed with their open flags (/proc/PID/fdinfo: "pg-record: walfd
# SETTING FLAGS PATH"); postgres is stopped with an immediate shutdown
# (no checkpoint: what is on the disk is what the commits made
# durable) and the target removed.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail
bin=$1 n=$2
shift 2
pg=/usr/lib/postgresql/15/bin
die () { echo "pg-record: error: $*"; exit 1; }
for run in "$@"; do
  IFS=: read -r setting data log <<<"$run"
  label=pg.$setting
  preload=
  case $setting in
    open_datasync|open_sync) opts=(-c "wal_sync_method=$setting" -c fsync=on) ;;
    fsync_off) opts=(-c wal_sync_method=fdatasync -c fsync=off) ;;
    open_datasync_dropped)
      opts=(-c wal_sync_method=open_datasync -c fsync=on)
      preload=LD_PRELOAD=$bin/dropsync.so ;;
    *) die "unknown setting '$setting'" ;;
  esac
  "$bin/crashdm" setup "$data" "$log" "$label" /mnt || die "crashdm setup $label"
  env $preload setpriv --reuid=65534 --regid=65534 --clear-groups -- \
    "$pg/postgres" -D /mnt/pgdata -k /tmp -c listen_addresses= \
    -c autovacuum=off -c shared_buffers=16MB -c max_connections=5 \
    -c synchronous_commit=on -c full_page_writes=on "${opts[@]}" \
    > "/out/$label.server.log" 2>&1 &
  pid=$!
  up=
  for i in $(seq 1 600); do
    if "$pg/pg_isready" -q -h /tmp -U postgres; then up=1; break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 1
  done
  [ -n "$up" ] || { tail -n 20 "/out/$label.server.log"; die "postgres did not start ($label)"; }
  t0=$(date +%s%N)
  "$bin/pgcommit" "host=/tmp user=postgres dbname=postgres" "$label" "$label" "$n" \
    || { kill -QUIT $pid; die "pgcommit failed ($label)"; }
  t1=$(date +%s%N)
  echo "pg-record: $label: $n commits in $(( (t1 - t0) / 1000000 )) ms"
  for fd in /proc/[0-9]*/fd/*; do
    target=$(readlink "$fd" 2>/dev/null) || continue
    case $target in
      */pg_wal/0*)
        p=${fd%/fd/*}
        flags=$(awk '$1 == "flags:" { print $2 }' "$p/fdinfo/${fd##*/}" 2>/dev/null)
        echo "pg-record: walfd $setting $flags $target $(tr '\0' ' ' < "$p/cmdline" 2>/dev/null)" ;;
    esac
  done
  kill -QUIT $pid
  wait $pid
  "$bin/crashdm" teardown "$label" /mnt || die "crashdm teardown $label"
  echo "pg-record: done $label"
done
