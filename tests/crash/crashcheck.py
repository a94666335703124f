#!/usr/bin/env python3
# The host side of the crash harness: replay a dm-log-writes log onto
# the file system image it was recorded from, generate crash states,
# let e2fsck repair each, read the files with debugfs, check what every
# acknowledged call promised.  No mount, no guest.
#
#   crashcheck.py --log LOG --base IMAGE --final IMAGE --expect FILE
#                 --states N --kernel NAME --table FILE --records N
#                 [--seed S] [--jobs J] [--work DIR]
#                 [--plant lost-write|unrepairable|drop-state|all-durable]
#
# LOG: the log device the guest recorded (the on-disk format of
# Documentation/admin-guide/device-mapper/log-writes.rst: a super
# sector, then per entry one sector of header and its data).  IMAGE:
# the file system as it was when the target was created (it is not
# changed); --final: the disk as the guest left it, which a replay of
# the whole log onto --base must give byte for byte.  --expect: one
# line per workload, "LABEL KIND": KIND is
#   data            every acknowledged record intact, appended data
#                   readable (O_DSYNC, fdatasync, a pre-2.12 O_SYNC);
#   data+mtime      also the inode's mtime >= the last acknowledged
#                   write's (O_SYNC, fsync);
#   rsync-data      every record an O_RSYNC read returned is on disk;
#   rsync-data+atime  also the atime the read set;
# and the kinds whose losses the model predicts, so that a run in
# which they lose nothing fails (the harness would be blind):
#   control         plain writes, never synced: some crash state in its
#                   window must lose one;
#   volatile        overwrites written back (sync_file_range, no flush)
#                   before each acknowledgement: some crash state in its
#                   window must lose one, or this checker's model of a
#                   volatile write cache makes written-back data durable;
#   rsync-unsynced  O_RSYNC reads on a kernel without O_RSYNC, which
#                   syncs nothing: some crash state must lose a record
#                   that was written back (even blocks) and one that was
#                   dirty (odd blocks);
#   planted         a self-test: a workload built to drop its O_DSYNC;
#                   some crash state must lose one of its records.
# LABEL is MODE.HEADERS.ABI (the file the workload wrote, and its marks,
# tests/crash/crashwl.c).
#
# Crash states: every cut at a flush, a FUA write or a mark of the log;
# at a cut, the disk holds everything before the last flush, the FUA
# writes since, and a subset of the writes of the epoch (the ordinary
# writes between that flush and the next one, which the device may
# still hold in its volatile cache): none, all, and seeded random
# subsets, as many as it takes to reach N states.  Fewer than N
# distinct states is a failure.  An acknowledgement is checked in the
# state cut at its own mark and in every later one: dm-log-writes logs
# a mark at once and an ordinary write only when the next flush
# completes, so a write acknowledged before its flush completed is, at
# its mark, still in the epoch that a power cut may lose.
#
# Prints "PASS: ..." and "FAIL: ..." lines (tests/lib/osync.exp's
# osync_run_checker) and appends the workloads' rows to --table.
# --plant: a self-test; lost-write drops an acknowledged record from
# one image (the check must catch it), unrepairable wipes one image
# (e2fsck must fail, and so must this), drop-state loses a checked
# state, all-durable makes every write of a cut's epoch durable (a
# model without a volatile cache: the volatile workload must catch it).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

import argparse
import multiprocessing
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

MAGIC = 0x6a736677736872
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
BLK = 4096
# The kinds of workload (see the top): those with a guarantee, those
# whose losses the model predicts, and those that promise nothing
# after their window.
GUARANTEED = ('data', 'data+mtime', 'rsync-data', 'rsync-data+atime')
MUST_LOSE = ('control', 'volatile', 'rsync-unsynced', 'planted')
WINDOW_ONLY = ('control', 'volatile', 'planted')
# The inode time each kind reads from debugfs's stat, if any.
TIME_OF = {'data': 'm', 'data+mtime': 'm', 'rsync-data+atime': 'a',
           'rsync-unsynced': 'a'}


class LogError(Exception):
    pass


def parse_log(path):
    """The entries of a log: a list of (kind, payload), kind 'flush',
    'write' (payload (offset, data offset in log, length, fua)),
    'discard' or 'mark' (payload text)."""
    try:
        size = os.path.getsize(path)
        f = open(path, 'rb')
    except OSError as e:
        raise LogError(f'cannot read the log {path}: {e}')
    with f:
        sup = f.read(28)
        if len(sup) < 28:
            raise LogError(f'the log {path} has no super block ({size} bytes)')
        magic, version, nr, ss = struct.unpack('<QQQI', sup)
        if magic != MAGIC or version != 1:
            raise LogError(f'the log {path} is not a dm-log-writes log '
                           f'(magic {magic:#x}, version {version})')
        if ss not in (512, 1024, 2048, 4096):
            raise LogError(f'the log {path} has a bad sector size {ss}')
        ops = []
        pos = ss
        for i in range(nr):
            f.seek(pos)
            hdr = f.read(ss)
            if len(hdr) < ss:
                raise LogError(f'the log {path} is truncated: entry {i} of {nr} '
                               f'is past its end ({size} bytes)')
            sector, nsec, flags, dlen = struct.unpack('<QQQQ', hdr[:32])
            pos += ss
            if flags & MARK:
                if dlen > ss - 32:
                    raise LogError(f'the log {path}: entry {i} is a mark of {dlen} bytes')
                ops.append(('mark', hdr[32:32 + dlen].rstrip(b'\0').decode('ascii', 'replace')))
                continue
            if flags & FLUSH:
                ops.append(('flush', None))
            if flags & DISCARD:
                ops.append(('discard', (sector * ss, nsec * ss)))
                continue
            if nsec:
                if pos + nsec * ss > size:
                    raise LogError(f'the log {path} is truncated: the data of entry {i} '
                                   f'of {nr} is past its end')
                ops.append(('write', (sector * ss, pos, nsec * ss, bool(flags & FUA))))
                pos += nsec * ss
    marks = [p for k, p in ops if k == 'mark']
    if not marks or marks[-1] != 'dm-log-writes-end':
        raise LogError(f'the log {path} is truncated: it does not end with the '
                       f'target\'s "dm-log-writes-end" mark ({nr} entries; was the '
                       f'target removed, did the log device fill up?)')
    if 'crash-start' not in marks or 'crash-done' not in marks:
        raise LogError(f'the log {path} lacks the crash-start or crash-done mark '
                       '(did tests/crash/crashdm.c set up and tear down the target?)')
    return ops


def record(label, blk, gen):
    unit = f'{label}:{blk}:{gen};'.encode()
    return (unit * (BLK // len(unit) + 1))[:BLK]


class Epochs:
    """The log cut into epochs at its flushes."""

    def __init__(self, ops):
        self.ops = ops
        # flush_before[i]: index of the last flush op at or before i (-1).
        self.epoch_of = []
        last = -1
        for i, (k, _) in enumerate(ops):
            if k == 'flush':
                last = i
            self.epoch_of.append(last)
        # next flush after each flush index (or len(ops)).
        self.next_flush = {}
        flushes = [i for i, (k, _) in enumerate(ops) if k == 'flush']
        for a, b in zip([-1] + flushes, flushes + [len(ops)]):
            self.next_flush[a] = b

    def volatile(self, cut):
        """Indexes of the ordinary writes of the epoch of CUT."""
        f = self.epoch_of[cut]
        return [j for j in range(f + 1, self.next_flush[f])
                if self.ops[j][0] in ('write', 'discard') and not
                (self.ops[j][0] == 'write' and self.ops[j][1][3])]


def gen_states(ops, n, seed, all_durable=False):
    """Crash states: (cut, frozenset of volatile op indexes).
    ALL_DURABLE: the planted model without a volatile cache, in which
    every write of a cut's epoch is durable (only the "all" subset)."""
    ep = Epochs(ops)
    cuts = [i for i, (k, p) in enumerate(ops)
            if k in ('flush', 'mark') or (k == 'write' and p[3])]
    seen = set()
    states = []
    if all_durable:
        return ep, [(c, frozenset(ep.volatile(c))) for c in cuts], len(cuts)
    for c in cuts:
        vol = ep.volatile(c)
        for s in (frozenset(), frozenset(vol)):
            key = (c, s)
            if key not in seen:
                seen.add(key)
                states.append(key)
    # How many distinct states this log has at most.
    # (At most 2^20 per cut: beyond that, asking for more states is
    # asking for a longer workload.)
    possible = sum(1 << min(len(ep.volatile(c)), 20) for c in cuts)
    if possible < n:
        return ep, states, possible
    rng = random.Random(seed)
    multi = [c for c in cuts if len(ep.volatile(c)) >= 2]
    # One seeded random subset per cut with a choice, then more until N.
    budget = max(n - len(states), len(multi))
    tries, max_tries = 0, 50 * (budget + 10)
    while budget > 0 and multi and tries < max_tries:
        tries += 1
        c = multi[(tries - 1) % len(multi)] if tries <= len(multi) else rng.choice(multi)
        vol = ep.volatile(c)
        s = frozenset(j for j in vol if rng.random() < 0.5)
        if (c, s) not in seen:
            seen.add((c, s))
            states.append((c, s))
            budget -= 1
    states.sort(key=lambda cs: (cs[0], sorted(cs[1])))
    return ep, states, possible


def windows(ops):
    """Per workload label: index of its B mark, its E mark, the B mark
    of the next workload (or the end of the log), and its
    acknowledgement marks [(op index, A or R, fields)]."""
    w = {}
    for i, (k, p) in enumerate(ops):
        if k != 'mark':
            continue
        parts = p.split(':')
        if parts[0] == 'B':
            w[parts[1]] = {'begin': i, 'end': None, 'acks': [], 'next': None}
        elif parts[0] == 'E' and parts[1] in w:
            w[parts[1]]['end'] = i
        elif parts[0] in ('A', 'R') and parts[1] in w:
            w[parts[1]]['acks'].append((i, parts[0], [int(x) for x in parts[2:]]))
    order = sorted(w, key=lambda l: w[l]['begin'])
    for a, b in zip(order, order[1:] + [None]):
        w[a]['next'] = w[b]['begin'] if b else len(ops)
    return w, order


# debugfs's stat of an inode with room for nanoseconds (256 bytes):
# " atime: 0x6571b2a3:2c4b4a1c -- ...".  A 128-byte inode has no ":EXTRA"
# and gives nothing here, which the checks that need a time fail on.
TIME_RE = re.compile(r'^\s*(a|m)time: 0x([0-9a-f]+):([0-9a-f]+)', re.M)
SIZE_RE = re.compile(r'Size: (\d+)')


def disk_time(sec, extra):
    # ext4: 32-bit seconds, extra = nsec << 2 | epoch bits.
    s = sec - (1 << 32) if sec & (1 << 31) else sec
    s += (extra & 3) << 32
    return (s, extra >> 2)


def write_state(path, img, ops, logf, ep, cut, subset):
    """Write the crash state (CUT, SUBSET) to the file PATH and return
    its descriptor, open for reading and writing: the durable part
    (IMG, the base image with the log applied up to the epoch's flush,
    as advance() keeps it), then the epoch's FUA writes up to the cut
    and the chosen ordinary writes, in the order of the log."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.pwrite(fd, img, 0)
    f = ep.epoch_of[cut]
    for j in range(f + 1, ep.next_flush[f]):
        k, p = ops[j]
        if k == 'write' and (p[3] and j <= cut or j in subset):
            logf.seek(p[1])
            os.pwrite(fd, logf.read(p[2]), p[0])
        elif k == 'discard' and j in subset:
            os.pwrite(fd, bytes(p[1]), p[0])
    return fd


def advance(img, ops, logf, applied, upto):
    """Apply the log's writes and discards after op APPLIED up to op
    UPTO (a flush) to the image IMG (a bytearray); returns the new
    APPLIED.  States taken in the order of their cuts replay the log
    once."""
    for j in range(applied + 1, upto + 1):
        k, p = ops[j]
        if k == 'write':
            logf.seek(p[1])
            img[p[0]:p[0] + p[2]] = logf.read(p[2])
        elif k == 'discard':
            img[p[0]:p[0] + p[1]] = bytes(p[1])
    return max(applied, upto)


def check_state(st, ctx):
    """Build, repair and check one crash state.  Returns a dict."""
    (cut, subset), img, ep, tmp = st, ctx['img'], ctx['ep'], ctx['tmp']
    ops, logf, w = ctx['ops'], ctx['logf'], ctx['w']
    path = os.path.join(tmp, 'img')
    fd = write_state(path, img, ops, logf, ep, cut, subset)
    res = {'cut': cut, 'errors': [], 'lost': {}, 'stale': {}, 'bad': set(), 'planted': None}
    plant = ctx['plant_at'] == (cut, subset)
    if plant:
        image = bytearray(os.pread(fd, len(img), 0))
    if plant and ctx['plant'] == 'lost-write':
        # The last acknowledgement before the cut in a window with a
        # guarantee: drop its record from the image.
        for label in ctx['order']:
            if ctx['kinds'].get(label, 'control') not in GUARANTEED:
                continue
            acks = [a for a in w[label]['acks'] if a[0] <= cut]
            if acks:
                _, _, fl = acks[-1]
                rec = record(label, fl[0], fl[1])
                at = image.find(rec)
                while at >= 0:
                    image[at:at + BLK] = bytes(BLK)
                    at = image.find(rec, at + 1)
                res['planted'] = f'{label} block {fl[0]} generation {fl[1]}'
                break
    if plant and ctx['plant'] == 'unrepairable':
        image[:] = bytes(len(image))
        res['planted'] = 'a wiped image'
    if plant:
        os.pwrite(fd, image, 0)
    os.close(fd)
    r = subprocess.run(['e2fsck', '-fy', path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode >= 4:
        res['errors'].append(f'e2fsck cannot repair the image (exit {r.returncode}): '
                             + ' / '.join(r.stdout.strip().splitlines()[-3:]))
        return res
    live = [l for l in ctx['order'] if w[l]['begin'] < cut]
    if not live:
        return res
    dump = os.path.join(tmp, 'd')
    os.makedirs(dump, exist_ok=True)
    cmds = []
    for l in live:
        cmds.append(f'stat /{l}')
        cmds.append(f'dump /{l} {dump}/{l}')
    cf = os.path.join(tmp, 'cmds')
    with open(cf, 'w') as c:
        c.write('\n'.join(cmds) + '\n')
    for l in live:
        try:
            os.unlink(f'{dump}/{l}')
        except FileNotFoundError:
            pass
    r = subprocess.run(['debugfs', '-f', cf, path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        res['errors'].append(f'debugfs failed (exit {r.returncode}): '
                             + ' / '.join(r.stdout.strip().splitlines()[-3:]))
        return res
    stats = {}
    for chunk in r.stdout.split('debugfs: ')[1:]:
        m = re.match(r'stat /(\S+)\n', chunk)
        if m:
            stats[m.group(1)] = chunk
    for l in live:
        kind = ctx['kinds'][l]
        win = w[l]
        # The state cut at an acknowledgement's own mark holds it: the
        # mark is logged when the call returned, a write only when the
        # flush after it completed.
        acks = [a for a in win['acks'] if a[0] <= cut]
        if kind in WINDOW_ONLY and cut >= win['next']:
            continue    # These promise nothing after their window.
        try:
            with open(f'{dump}/{l}', 'rb') as fh:
                data = fh.read()
        except FileNotFoundError:
            data = None
        if data is None or l not in stats:
            res['errors'].append(f'{l}: the file is gone, though it was made durable '
                                 'before its B mark')
            continue
        stext = stats[l]
        times = {m.group(1): disk_time(int(m.group(2), 16), int(m.group(3), 16))
                 for m in TIME_RE.finditer(stext)}
        need = TIME_OF.get(kind)
        if acks and need and need not in times:
            # Never skip a time check silently.
            res['errors'].append(
                f'{l}: debugfs\'s "stat /{l}" shows no {need}time this checker '
                f'can read ("{need}time: 0xSECONDS:EXTRA"; a 128-byte inode has '
                f'no EXTRA), so its {need}time check cannot run: '
                + ' / '.join(x.strip() for x in stext.splitlines()
                             if 'time' in x)[:300])
            acks_timed = []
        else:
            acks_timed = acks
        lost = []
        for (_, what, fl) in acks:
            blk, gen = fl[0], fl[1]
            if data[blk * BLK:(blk + 1) * BLK] != record(l, blk, gen):
                lost.append((blk, gen))
        if lost:
            res['lost'][l] = lost
        if acks_timed and kind == 'data+mtime':
            want = (acks[-1][2][2], acks[-1][2][3])
            if times['m'] < want:
                res['bad'].add(l)
                res['errors'].append(f'{l}: mtime {times["m"]} on disk is older than '
                                     f'the acknowledged write\'s {want}')
        if acks_timed and kind == 'data':
            last = acks[-1][2]
            # An acknowledged overwrite (a block below the initial size).
            if last[0] < ctx['nrec'] and times['m'] < (last[2], last[3]):
                res['stale'][l] = 1
        if acks_timed and kind in ('rsync-data+atime', 'rsync-unsynced'):
            want = (acks[-1][2][2], acks[-1][2][3])
            if times['a'] < want:
                res['stale'][l] = 1
                if kind == 'rsync-data+atime':
                    res['bad'].add(l)
                    res['errors'].append(f'{l}: atime {times["a"]} on disk is older '
                                         f'than the one the O_RSYNC|O_SYNC read set {want}')
    return res


def worker(args):
    chunk, ctx = args
    tmp = tempfile.mkdtemp(prefix='crash-', dir=ctx['tmpdir'])
    ops = ctx['ops']
    try:
        with open(ctx['log'], 'rb') as logf, open(ctx['base'], 'rb') as b:
            img = bytearray(b.read())
            ctx = dict(ctx, logf=logf, tmp=tmp)
            ep = ctx['ep']
            applied = -1    # ops up to this flush index are in img
            out = []
            for st in chunk:
                applied = advance(img, ops, logf, applied, ep.epoch_of[st[0]])
                ctx['img'] = img
                t = time.monotonic()
                r = check_state(st, ctx)
                r['time'] = time.monotonic() - t
                r['state'] = (st[0], len(st[1]))
                out.append(r)
            return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def replay_check(ops, log, base, final):
    """Replay the whole log onto BASE and compare with FINAL, the disk
    the guest left: a sentence on what differs, or None.  Bytes that a
    discard left and no later write covered are not compared (a device
    may keep or zero them)."""
    with open(base, 'rb') as f:
        img = bytearray(f.read())
    size = len(img)
    loose = []          # (start, end) of bytes discarded, not written since

    def cut_out(lo, hi):
        out = []
        for a, b in loose:
            if a < lo:
                out.append((a, min(b, lo)))
            if b > hi:
                out.append((max(a, hi), b))
        return out
    with open(log, 'rb') as logf:
        for i, (k, p) in enumerate(ops):
            if k == 'write':
                if p[0] + p[2] > size:
                    return (f'log entry {i} writes {p[2]} bytes at {p[0]}, past the '
                            f'end of the {size}-byte image')
                logf.seek(p[1])
                img[p[0]:p[0] + p[2]] = logf.read(p[2])
                loose = cut_out(p[0], p[0] + p[2])
            elif k == 'discard':
                img[p[0]:p[0] + p[1]] = bytes(p[1])
                loose.append((p[0], p[0] + p[1]))
    try:
        with open(final, 'rb') as f:
            got = f.read()
    except OSError as e:
        return f'cannot read the final disk image: {e}'
    if len(got) != size:
        return f'the final disk image has {len(got)} bytes, the base image {size}'
    mask = bytearray(size)
    for a, b in loose:
        mask[a:b] = b'\1' * (b - a)
    for off in range(0, size, BLK):
        if img[off:off + BLK] != got[off:off + BLK]:
            for j in range(off, min(off + BLK, size)):
                if img[j] != got[j] and not mask[j]:
                    return (f'byte {j} (block {j // BLK}) is {got[j]:#04x} on the final '
                            f'disk and {img[j]:#04x} in the replay')
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--log', required=True)
    ap.add_argument('--base', required=True)
    ap.add_argument('--final', required=True,
                    help='the disk the guest left, which replaying the whole log '
                    'onto --base must give')
    ap.add_argument('--expect', required=True)
    ap.add_argument('--states', type=int, required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--records', type=int, required=True,
                    help='N of the workloads (the initial number of blocks)')
    ap.add_argument('--seed', type=int, default=12)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--plant', choices=['lost-write', 'unrepairable', 'drop-state',
                                        'all-durable'])
    ap.add_argument('--timing', help='append a line on the time per state to this file')
    ap.add_argument('--work', default=os.environ.get('TMPDIR', '/tmp'))
    a = ap.parse_args()
    t0 = time.monotonic()
    name = f'crash, {a.kernel}'
    try:
        ops = parse_log(a.log)
    except LogError as e:
        print(f'FAIL: {name}: {e}')
        sys.exit(1)
    if not os.path.isfile(a.base):
        print(f'FAIL: {name}: no base image {a.base}')
        sys.exit(1)
    kinds = {}
    try:
        with open(a.expect) as f:
            for line in f:
                if line.strip():
                    l, k = line.split()
                    kinds[l] = k
    except (OSError, ValueError) as e:
        print(f'FAIL: {name}: cannot read the expectations {a.expect} ("LABEL KIND" lines): {e}')
        sys.exit(1)
    unknown = sorted(f'{l} {k}' for l, k in kinds.items() if k not in GUARANTEED + MUST_LOSE)
    if unknown:
        print(f'FAIL: {name}: {a.expect}: unknown kinds ({", ".join(unknown)}); the kinds '
              f'are {", ".join(GUARANTEED + MUST_LOSE)}')
        sys.exit(1)
    w, order = windows(ops)
    missing = [l for l in kinds if l not in w or w[l]['end'] is None]
    if missing:
        print(f'FAIL: {name}: the log has no complete window (B...E marks) for '
              f'{", ".join(missing)}; did the workload run to its end in the guest?')
        sys.exit(1)
    order = [l for l in order if l in kinds]
    ok = True
    # The replayer's offsets and order, against the disk the guest left.
    diff = replay_check(ops, a.log, a.base, a.final)
    if diff:
        ok = False
        print(f'FAIL: {name}: a replay of the whole log onto {a.base} differs from '
              f'the final disk image {a.final}: {diff}')
    else:
        print(f'PASS: {name}: a replay of the whole log ({len(ops)} entries) gives the '
              'final disk image')
    ep, states, possible = gen_states(ops, a.states, a.seed,
                                      all_durable=a.plant == 'all-durable')
    if a.plant == 'all-durable':
        # The self-test checks the windows of the workloads that guard
        # the model.
        states = [s for s in states
                  if any(w[l]['begin'] <= s[0] < w[l]['next']
                         for l in order if kinds[l] == 'volatile')]
        if not states:
            print(f'FAIL: {name}: no volatile workload to plant all-durable against')
            sys.exit(1)
    elif len(states) < a.states:
        print(f'FAIL: {name}: the log offers only {min(possible, len(states))} distinct '
              f'crash states, fewer than the {a.states} asked; record a longer workload '
              '(more records per workload)')
        sys.exit(1)
    plant_at = None
    if a.plant in ('lost-write', 'unrepairable'):
        # The first state well inside a window with a guarantee.
        for l in order:
            if kinds[l] in ('data', 'data+mtime') and len(w[l]['acks']) >= 2:
                after = w[l]['acks'][1][0]
                plant_at = next(s for s in states if s[0] > after)
                break
        if plant_at is None:
            print(f'FAIL: {name}: no workload with a guarantee to plant a fault in')
            sys.exit(1)
        states = [plant_at]     # The self-test checks that one state.
    if a.plant == 'drop-state':
        states = states[:a.states]
    ctx = {'ops': ops, 'ep': ep, 'w': w, 'order': order, 'kinds': kinds,
           'log': a.log, 'base': a.base, 'tmpdir': a.work,
           'plant': a.plant, 'plant_at': plant_at, 'nrec': a.records}
    # Contiguous chunks, so each worker replays the log once.
    nchunk = max(1, a.jobs) * 4
    size = (len(states) + nchunk - 1) // nchunk
    chunks = [(states[i:i + size], ctx) for i in range(0, len(states), size)]
    with multiprocessing.Pool(max(1, a.jobs)) as pool:
        results = [r for part in pool.map(worker, chunks) for r in part]
    elapsed = time.monotonic() - t0
    if a.plant == 'drop-state':
        results.pop()

    # Per window: states whose cut is in [B, next B); "acked" those of
    # them cut at or after the workload's first acknowledgement, the
    # states that check one of its records (the others check only the
    # starting state).
    rows = {l: {'states': 0, 'acked': 0, 'lost_states': 0, 'lost': set(), 'stale': 0,
                'bad': 0} for l in order}
    errors = []
    planted_seen = None
    for r in results:
        for e in r['errors']:
            errors.append(f'state at log entry {r["cut"]} (+{r["state"][1]} volatile): {e}')
        for l in order:
            if w[l]['begin'] <= r['cut'] < w[l]['next']:
                rows[l]['states'] += 1
                if w[l]['acks'] and r['cut'] >= w[l]['acks'][0][0]:
                    rows[l]['acked'] += 1
        for l, lost in r['lost'].items():
            rows[l]['lost_states'] += 1
            rows[l]['lost'].update(lost)
        for l in r['stale']:
            rows[l]['stale'] += 1
        for l in r['bad']:
            rows[l]['bad'] += 1
        if r['planted']:
            planted_seen = (r['planted'], r['lost'], r['errors'])
    checked = len(results)
    per_state = sum(r['time'] for r in results) / max(1, checked)
    if a.plant:
        what = {'all-durable': 'a model in which every write of an epoch is durable'}
        print(f'crashcheck: {name}: planted {a.plant}:  '
              f'{planted_seen[0] if planted_seen else what.get(a.plant, "nothing")} '
              f'(self-test: this run must fail)')
    if a.plant != 'all-durable' and (checked < a.states or checked < len(states)):
        print(f'FAIL: {name}: only {checked} crash states checked, {len(states)} '
              f'generated, {a.states} asked')
        ok = False
    else:
        print(f'PASS: {name}: {checked} crash states checked (>= {a.states}), '
              f'{per_state * 1000:.0f} ms per state, {elapsed:.0f} s in all '
              f'with {a.jobs} jobs')
    for e in errors[:10]:
        print(f'FAIL: {name}: {e}')
    if errors:
        ok = False
        print(f'FAIL: {name}: {len(errors)} failed checks in all')
    stale_dsync = 0
    predicted = {
        'control': 'plain writes, never synced',
        'volatile': 'overwrites written back and not flushed (the model of a '
                    'volatile write cache)',
        'planted': 'a build that drops O_DSYNC (self-test)',
    }
    with open(a.table, 'a') as t:
        for l in order:
            row, kind = rows[l], kinds[l]
            mode, hs, abi = (l.split('.', 2) + ['?', '?'])[:3]
            lost = len(row['lost'])
            if kind in predicted:
                note = (f'{predicted[kind]}: {row["lost_states"]} states lose acknowledged '
                        f'writes ({lost} records)')
                if row['lost_states']:
                    print(f'PASS: {name}: {l} ({kind}, {predicted[kind]}) loses acknowledged '
                          f'writes in {row["lost_states"]} crash states, as the model '
                          'predicts: the harness sees a loss')
                else:
                    ok = False
                    note += ' (FAIL: the model predicts losses)'
                    print(f'FAIL: {name}: {l} ({kind}, {predicted[kind]}) lost nothing in '
                          f'any of its {row["acked"]} crash states after an acknowledgement: '
                          'the model predicts losses, so the harness is blind')
            elif kind == 'rsync-unsynced':
                back = sorted(x for x in row['lost'] if x[0] % 2 == 0)
                dirty = sorted(x for x in row['lost'] if x[0] % 2 == 1)
                note = (f'no O_RSYNC here: {row["lost_states"]} states lack bytes a read '
                        f'returned ({len(back)} records written back, {len(dirty)} dirty), '
                        f'{row["stale"]} lack its atime')
                if back and dirty:
                    print(f'PASS: {name}: {l} ({kind}): without O_RSYNC in the kernel, '
                          f'{row["lost_states"]} crash states lack bytes a read returned, '
                          f'records written back and not flushed ({len(back)}) and dirty '
                          f'ones ({len(dirty)}), as the model predicts')
                else:
                    ok = False
                    note += ' (FAIL: the model predicts both)'
                    print(f'FAIL: {name}: {l} ({kind}): the kernel has no O_RSYNC, so the '
                          'model predicts that some crash state loses a record written back '
                          'and not flushed (even blocks) and one that was dirty (odd blocks); '
                          f'lost: {len(back)} written back, {len(dirty)} dirty: the harness '
                          'is blind')
            elif lost:
                # For reads: the even blocks were written back (or written
                # directly) and not flushed, the odd ones dirty.
                split = ''
                if kind.startswith('rsync'):
                    back = sum(1 for x in row['lost'] if x[0] % 2 == 0)
                    split = (f' ({back} of them written back or direct and not '
                             f'flushed, {lost - back} dirty)')
                note = f'LOST {lost} acknowledged records{split} in {row["lost_states"]} states'
                ok = False
                print(f'FAIL: {name}: {l} ({kind}): {lost} acknowledged records lost '
                      f'in {row["lost_states"]} crash states{split}: '
                      f'{sorted(row["lost"])[:5]}')
            else:
                note = '0 lost'
                print(f'PASS: {name}: {l} ({kind}): no acknowledged record lost '
                      f'in {row["acked"]} crash states of its window after an '
                      'acknowledgement, nor in any later one')
            if row['bad']:
                what = 'atime' if kind.startswith('rsync') else 'mtime'
                note += f'; {what} older than acknowledged in {row["bad"]} states (FAIL)'
                print(f'FAIL: {name}: {l} ({kind}): the {what} on disk is older than the '
                      f'acknowledged call\'s in {row["bad"]} crash states')
            if kind == 'data' and mode == 'odsync':
                stale_dsync += row['stale']
            stale = row['stale'] if kind in ('data', 'rsync-unsynced') else ''
            t.write(f'| {mode} | {kind} | {a.kernel} | {abi} | {hs} | {row["states"]} | '
                    f'{row["acked"]} | {lost if kind in GUARANTEED else "-"} | '
                    f'{lost if kind in MUST_LOSE else "-"} | {stale} | {note} |\n')
    if any(l.startswith('odsync.') for l in order):
        if stale_dsync > 0:
            print(f'PASS: {name}: {stale_dsync} crash states after an acknowledged '
                  'O_DSYNC overwrite have a stale mtime (what O_SYNC adds)')
        else:
            ok = False
            print(f'FAIL: {name}: no crash state after an acknowledged O_DSYNC overwrite '
                  'has a stale mtime: the harness does not show what O_SYNC adds')
    line = (f'{a.kernel}: {checked} crash states from a log of {len(ops)} entries, '
            f'{per_state * 1000:.0f} ms per state in one job (replay, e2fsck, debugfs, '
            f'checks), {elapsed:.0f} s wall with {a.jobs} jobs '
            f'({elapsed / max(1, checked) * 1000:.0f} ms per state)')
    print(f'crashcheck: {line}')
    if a.timing:
        with open(a.timing, 'a') as t:
            t.write(line + '\n')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
