#!/usr/bin/env python3
# The host side of the PostgreSQL power cuts (driver/suites.sh
# postgres): make crash states of a dm-log-writes log that a guest
# recorded under PostgreSQL (tests/external/pg-record.sh), with the
# power-cut harness's replayer (tests/crash/crashcheck.py), repair each
# with e2fsck, take the data directory out with debugfs rdump, start
# PostgreSQL on it, let it recover, and check that every commit
# acknowledged before the cut is there.
#
#   pgcheck.py --log LOG --base IMAGE --label LABEL --kind durable|control|planted
#              --states N --table FILE [--seed S] [--jobs J] [--work DIR]
#              [--pgbin DIR] [--plant lost-commit]
#
# LABEL: the run's marks in the log (tests/external/pgcommit.c): B:LABEL,
# A:LABEL:n after commit n was acknowledged, E:LABEL.  The states: every
# crash state crashcheck.gen_states makes of the log (a cut at each
# flush, FUA write and mark; none, all and random subsets of the
# epoch's ordinary writes) whose cut lies in the run's window (from its
# B mark to its E mark, both included), of which a seeded sample of N
# is checked; fewer than N is a failure.  An acknowledgement counts in
# the state cut at its own mark and in every later one.
# KIND durable (wal_sync_method open_datasync or open_sync): in every
# state PostgreSQL starts and recovers, every acknowledged row is
# there, and the rows are 1..max with no hole.  KIND control (fsync=off):
# some state must lose an acknowledged row (or fail to recover), or
# the check is blind; nothing else is required of it.  KIND planted (a
# server whose open functions drop O_DSYNC and O_SYNC): the same.
# --plant lost-commit: a self-test; the rows are read with the last
# acknowledged one left out, in every state that has one: the run must
# fail.
# PostgreSQL runs as the user nobody (it refuses root), from --pgbin
# (Debian 12's postgresql-15), on a socket in a directory of its own,
# never on a network port.  Appends a row to --table; prints "PASS: "
# and "FAIL: " lines; exits 1 on a failure.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

import argparse
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'crash'))
import crashcheck  # noqa: E402

NOBODY = 65534


def as_nobody(cmd):
    return ['setpriv', f'--reuid={NOBODY}', f'--regid={NOBODY}',
            '--clear-groups', '--'] + cmd


def marks(ops, label):
    """(index of B:LABEL, index of E:LABEL, [(index, n)] of its A marks)."""
    begin = end = None
    acks = []
    for i, (k, p) in enumerate(ops):
        if k != 'mark':
            continue
        f = p.split(':')
        if f[0] == 'B' and f[1:] == [label]:
            begin = i
        elif f[0] == 'E' and f[1:] == [label]:
            end = i
        elif f[0] == 'A' and len(f) == 3 and f[1] == label:
            acks.append((i, int(f[2])))
    return begin, end, acks


def check_state(st, ctx, img, logf, tmp):
    cut, subset = st
    res = {'cut': cut, 'subset': len(subset), 'error': None, 'started': False,
           'acked': 0, 'lost': [], 'hole': None, 'rows': 0}
    path = os.path.join(tmp, 'img')
    fd = crashcheck.write_state(path, img, ctx['ops'], logf, ctx['ep'], cut, subset)
    os.close(fd)
    r = subprocess.run(['e2fsck', '-fy', path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode >= 4:
        res['error'] = (f'e2fsck cannot repair the image (exit {r.returncode}): '
                        + ' / '.join(r.stdout.strip().splitlines()[-3:]))
        return res
    out = os.path.join(tmp, 'out')
    shutil.rmtree(out, ignore_errors=True)
    os.mkdir(out)
    r = subprocess.run(['debugfs', '-R', f'rdump /pgdata {out}', path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    data = os.path.join(out, 'pgdata')
    if r.returncode != 0 or not os.path.isfile(os.path.join(data, 'PG_VERSION')):
        res['error'] = ('debugfs rdump /pgdata gave no data directory: '
                        + ' / '.join(r.stdout.strip().splitlines()[-3:]))
        return res
    # The lock file of the guest's postmaster, which a reboot leaves too.
    try:
        os.unlink(os.path.join(data, 'postmaster.pid'))
    except FileNotFoundError:
        pass
    for dirpath, dirs, files in os.walk(out):
        for n in dirs + files:
            os.lchown(os.path.join(dirpath, n), NOBODY, NOBODY)
    os.chown(out, NOBODY, NOBODY)
    os.chmod(data, 0o700)
    sock = os.path.join(tmp, 'sock')
    os.makedirs(sock, exist_ok=True)
    os.chown(sock, NOBODY, NOBODY)
    pg = ctx['pgbin']
    log = os.path.join(out, 'server.log')
    opts = (f'-k {sock} -c listen_addresses= -c fsync=off -c autovacuum=off '
            '-c shared_buffers=16MB -c max_connections=5')
    r = subprocess.run(as_nobody([f'{pg}/pg_ctl', '-D', data, '-l', log, '-w',
                                  '-t', '300', '-o', opts, 'start']),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        try:
            with open(log) as f:
                tail = f.read().strip().splitlines()[-3:]
        except OSError:
            tail = []
        res['error'] = 'PostgreSQL did not start (recovery failed): ' + ' / '.join(tail)
        return res
    res['started'] = True
    try:
        q = subprocess.run(as_nobody([f'{pg}/psql', '-h', sock, '-U', 'postgres',
                                      '-d', 'postgres', '-At', '-c',
                                      'SELECT n FROM t ORDER BY n']),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    finally:
        subprocess.run(as_nobody([f'{pg}/pg_ctl', '-D', data, '-m', 'immediate',
                                  '-w', 'stop']),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if q.returncode != 0:
        res['error'] = 'the query of table t failed: ' + q.stdout.strip()[-300:]
        return res
    rows = [int(x) for x in q.stdout.split()]
    acked = [n for (i, n) in ctx['acks'] if i <= cut]
    if ctx['plant'] == 'lost-commit' and acked:
        rows = [x for x in rows if x != acked[-1]]
    have = set(rows)
    res['rows'] = len(rows)
    res['acked'] = len(acked)
    res['lost'] = [n for n in acked if n not in have]
    if rows and rows != list(range(1, max(rows) + 1)):
        res['hole'] = sorted(set(range(1, max(rows) + 1)) - have)[:5]
    return res


def worker(args):
    chunk, ctx = args
    tmp = tempfile.mkdtemp(prefix='pgcrash-', dir=ctx['work'])
    os.chmod(tmp, 0o755)
    try:
        with open(ctx['log'], 'rb') as logf, open(ctx['base'], 'rb') as b:
            img = bytearray(b.read())
            applied = -1
            out = []
            for st in chunk:
                applied = crashcheck.advance(img, ctx['ops'], logf, applied,
                                             ctx['ep'].epoch_of[st[0]])
                t = time.monotonic()
                r = check_state(st, ctx, img, logf, tmp)
                r['time'] = time.monotonic() - t
                out.append(r)
            return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--log', required=True)
    ap.add_argument('--base', required=True)
    ap.add_argument('--label', required=True)
    ap.add_argument('--kind', choices=['durable', 'control', 'planted'], required=True)
    ap.add_argument('--states', type=int, required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--seed', type=int, default=15)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--work', default=os.environ.get('TMPDIR', '/tmp'))
    ap.add_argument('--pgbin', default='/usr/lib/postgresql/15/bin')
    ap.add_argument('--plant', choices=['lost-commit'])
    a = ap.parse_args()
    t0 = time.monotonic()
    name = f'postgres {a.label}'
    if os.geteuid() != 0:
        print(f'FAIL: {name}: pgcheck.py runs as root (it starts PostgreSQL as nobody)')
        sys.exit(1)
    try:
        ops = crashcheck.parse_log(a.log)
    except crashcheck.LogError as e:
        print(f'FAIL: {name}: {e}')
        sys.exit(1)
    begin, end, acks = marks(ops, a.label)
    if begin is None or end is None or not acks:
        print(f'FAIL: {name}: the log has no complete run B:{a.label} ... E:{a.label} '
              'with acknowledged commits; did the client run to its end in the guest?')
        sys.exit(1)
    ep, states, _ = crashcheck.gen_states(ops, a.states, a.seed)
    window = [s for s in states if begin <= s[0] <= end]
    if len(window) < a.states:
        print(f'FAIL: {name}: the run offers only {len(window)} distinct crash states, '
              f'fewer than the {a.states} asked; commit more transactions')
        sys.exit(1)
    rng = random.Random(a.seed)
    sample = sorted(rng.sample(window, a.states), key=lambda cs: (cs[0], sorted(cs[1])))
    ctx = {'ops': ops, 'ep': ep, 'acks': acks, 'log': a.log, 'base': a.base,
           'work': a.work, 'pgbin': a.pgbin, 'plant': a.plant}
    nchunk = max(1, a.jobs) * 4
    size = (len(sample) + nchunk - 1) // nchunk
    chunks = [(sample[i:i + size], ctx) for i in range(0, len(sample), size)]
    with multiprocessing.Pool(max(1, a.jobs)) as pool:
        results = [r for part in pool.map(worker, chunks) for r in part]
    elapsed = time.monotonic() - t0
    checked = len(results)
    errors = [r for r in results if r['error']]
    lost = [r for r in results if r['lost']]
    holes = [r for r in results if r['hole']]
    nostart = [r for r in results if not r['started']]
    with_ack = [r for r in results if r['acked']]
    acked_checks = sum(r['acked'] for r in results)
    per_state = sum(r['time'] for r in results) / max(1, checked)
    ok = True
    if checked != a.states:
        ok = False
        print(f'FAIL: {name}: {checked} crash states checked, {a.states} asked')
    print(f'crashcheck: {name}: {checked} crash states of {len(window)} in the run\'s '
          f'window ({len(acks)} acknowledged commits), {len(with_ack)} of them after '
          f'at least one acknowledgement; {per_state:.1f} s per state, {elapsed:.0f} s '
          f'with {a.jobs} jobs')
    if a.kind == 'durable':
        for r in (errors + lost + holes)[:10]:
            what = r['error'] or (f'acknowledged commits lost: {r["lost"][:5]}' if r['lost']
                                  else f'rows missing below the newest: {r["hole"]}')
            print(f'FAIL: {name}: state at log entry {r["cut"]} (+{r["subset"]} volatile): {what}')
        if errors or lost or holes:
            ok = False
            print(f'FAIL: {name}: {len(errors)} states not recovered, {len(lost)} lose '
                  f'acknowledged commits, {len(holes)} have holes, of {checked}')
        else:
            print(f'PASS: {name}: PostgreSQL recovers in all {checked} crash states and '
                  f'keeps every acknowledged commit ({acked_checks} checked in '
                  f'{len(with_ack)} states)')
    else:
        what = 'the control' if a.kind == 'control' else 'the planted bug'
        losing = len(lost) + len(nostart)
        if losing:
            print(f'PASS: {name}: {what} loses acknowledged commits in {len(lost)} '
                  f'crash states and does not recover in {len(nostart)}, of {checked}: '
                  'the check can see a loss')
        else:
            ok = False
            print(f'FAIL: {name}: {what} lost no acknowledged commit in any of '
                  f'{checked} crash states: the check is blind')
        for r in errors:
            if r['started']:
                ok = False
                print(f'FAIL: {name}: state at log entry {r["cut"]}: {r["error"]}')
    lost_commits = len({n for r in lost for n in r['lost']})
    with open(a.table, 'a') as t:
        t.write(f'| {a.label} | {a.kind} | {checked} | {len(with_ack)} | {acked_checks} | '
                f'{len(nostart)} | {len(lost)} | {lost_commits} | {len(holes)} | '
                f'{per_state:.1f} s |\n')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
