#!/usr/bin/env python3
# A synthetic dm-log-writes log for the self-test of crashcheck.py
# (tests/crash/selftest.sh): the log one workload would leave, correct
# or with a planted bug, recorded over a real ext4 image.
#
#   mklog.py --dir DIR --label LABEL --pattern PATTERN [--records N]
#            [--inode-size BYTES] [--misplace] [--time-ahead]
#
# Writes DIR/base.img (a 4 MiB ext4 made with mkfs.ext4 that holds the
# file /LABEL of N records of generation 0, crashcheck.py's record()),
# DIR/log.img (the log, in the on-disk format of the kernel's
# Documentation/admin-guide/device-mapper/log-writes.rst) and
# DIR/final.img (the disk after every write of the log).  Record i is
# block i, generation i + 1, overwritten in place (no metadata
# changes); its write goes to the block the file system gave it.
#
# The order is the one dm-log-writes logs in: a mark and a FUA write
# when they happen, an ordinary write only when the flush after it
# completes, just before that flush.  PATTERN, per record i (W a write,
# F a flush, A the acknowledgement "A:LABEL:i:i+1:MTIME:SIZE", R the
# mark of an O_RSYNC read "R:LABEL:i:i+1:ATIME"):
#   sync             W F A           a correct O_DSYNC write, or fsync;
#   fua              W(FUA) A        a correct write through FUA;
#   late             A W F           acknowledged before its flush
#                                    completed (a bug);
#   unflushed        A ... then, after the window, W ... F
#                                    never flushed in its window (plain
#                                    writes, or writes written back
#                                    with sync_file_range and no flush);
#   rsync-ok         W F R           an O_RSYNC read that flushes a
#                                    dirty or written-back record;
#   rsync-skipflush  i even: R; i odd: W(i-1) W(i) F R
#                                    a kernel that skips the flush for a
#                                    record written back and not flushed
#                                    (even), flushing only dirty ones;
#   rsync-none       R ... then, after the window, the even W F, the odd
#                                    W F: a kernel without O_RSYNC.
# --inode-size 128 makes inodes with no room for nanoseconds, whose
# times debugfs prints without the ":EXTRA" crashcheck.py reads.
# --misplace adds a write of one free block that the log records one
# block off from where the final image has it (a replayer with a wrong
# offset would agree with such a log).  --time-ahead gives the marks a
# time one second after the inode's (an mtime or atime the disk lacks).
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crashcheck import (BLK, FLUSH, FUA, MAGIC, MARK,  # noqa: E402
                        disk_time, record)

SS = 512
PATTERNS = ('sync', 'fua', 'late', 'unflushed', 'rsync-ok', 'rsync-skipflush',
            'rsync-none')


def run(*cmd):
    """CMD's standard output; its standard error only when it fails
    (debugfs prints its banner there)."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.exit(f'mklog.py: {" ".join(cmd)} failed (exit {r.returncode}): '
                 f'{r.stdout.strip()} {r.stderr.strip()}')
    return r.stdout


def debugfs(img, req, write=False):
    return run('debugfs', *(['-w'] if write else []), '-R', req, img)


class Log:
    def __init__(self):
        self.entries = []

    def mark(self, text):
        # The text sits in the header sector, after the entry's 32 bytes.
        data = text.encode()
        assert len(data) <= SS - 32
        self.entries.append((struct.pack('<QQQQ', 0, 0, MARK, len(data)) + data)
                            .ljust(SS, b'\0'))

    def flush(self):
        self.entries.append(struct.pack('<QQQQ', 0, 0, FLUSH, 0).ljust(SS, b'\0'))

    def write(self, offset, data, fua=False):
        assert offset % SS == 0 and len(data) % SS == 0
        self.entries.append(struct.pack('<QQQQ', offset // SS, len(data) // SS,
                                        FUA if fua else 0, len(data))
                            .ljust(SS, b'\0') + data)

    def save(self, path):
        with open(path, 'wb') as f:
            f.write(struct.pack('<QQQI', MAGIC, 1, len(self.entries), SS)
                    .ljust(SS, b'\0'))
            for e in self.entries:
                f.write(e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dir', required=True)
    ap.add_argument('--label', required=True)
    ap.add_argument('--pattern', required=True, choices=PATTERNS)
    ap.add_argument('--records', type=int, default=6)
    ap.add_argument('--inode-size', type=int, default=256)
    ap.add_argument('--misplace', action='store_true')
    ap.add_argument('--time-ahead', action='store_true')
    a = ap.parse_args()
    if a.records < 2 or a.records % 2:
        sys.exit('mklog.py: --records must be even and at least 2')
    os.makedirs(a.dir, exist_ok=True)
    base = os.path.join(a.dir, 'base.img')
    with open(base, 'wb') as f:
        f.truncate(4 << 20)
    # Small and without a journal: the states differ only in data blocks.
    run('mkfs.ext4', '-q', '-F', '-b', str(BLK), '-N', '16', '-I', str(a.inode_size),
        '-O', '^has_journal', '-E', 'lazy_itable_init=0', base)
    n = a.records
    with tempfile.NamedTemporaryFile(dir=a.dir) as src:
        for i in range(n):
            src.write(record(a.label, i, 0))
        src.flush()
        debugfs(base, f'write {src.name} {a.label}', write=True)
    phys = [int(b) for b in debugfs(base, f'blocks /{a.label}').split()]
    if len(phys) != n:
        sys.exit(f'mklog.py: /{a.label} has {len(phys)} blocks, not {n}')
    stat = debugfs(base, f'stat /{a.label}')
    times = {}
    for m in re.finditer(r'^\s*(a|m)time: 0x([0-9a-f]+)(?::([0-9a-f]+))?', stat, re.M):
        times[m.group(1)] = disk_time(int(m.group(2), 16), int(m.group(3) or '0', 16))
    if set(times) != {'a', 'm'}:
        sys.exit(f'mklog.py: cannot read the times of /{a.label}: {stat}')
    ahead = 1 if a.time_ahead else 0
    msec, mnsec = times['m'][0] + ahead, times['m'][1]
    asec, ansec = times['a'][0] + ahead, times['a'][1]

    log = Log()
    disk = bytearray(open(base, 'rb').read())

    def w(i, fua=False):
        data = record(a.label, i, i + 1)
        log.write(phys[i] * BLK, data, fua)
        disk[phys[i] * BLK:(phys[i] + 1) * BLK] = data

    def ack(i):
        log.mark(f'A:{a.label}:{i}:{i + 1}:{msec}:{mnsec}:{n * BLK}')

    def read(i):
        log.mark(f'R:{a.label}:{i}:{i + 1}:{asec}:{ansec}')

    log.mark('crash-start')
    log.flush()
    log.mark(f'B:{a.label}')
    after = []          # What the pattern leaves for after the window.
    for i in range(n):
        p = a.pattern
        if p == 'sync':
            w(i), log.flush(), ack(i)
        elif p == 'fua':
            w(i, fua=True), ack(i)
        elif p == 'late':
            ack(i), w(i), log.flush()
        elif p == 'unflushed':
            ack(i)
            after.append(i)
        elif p == 'rsync-ok':
            w(i), log.flush(), read(i)
        elif p == 'rsync-skipflush':
            if i % 2 == 0:
                read(i)
            else:
                w(i - 1), w(i), log.flush(), read(i)
        elif p == 'rsync-none':
            read(i)
            after.append(i)
    log.mark(f'E:{a.label}')
    if a.pattern == 'rsync-none':
        after = [i for i in after if i % 2 == 0] + [None] + \
            [i for i in after if i % 2 == 1]
    for i in after:
        if i is None:
            log.flush()
        else:
            w(i)
    log.flush()
    if a.misplace:
        free = [int(b) for b in debugfs(base, 'ffb 2 500').split(':')[-1].split()]
        if len(free) != 2:
            sys.exit('mklog.py: no two free blocks for --misplace')
        junk = b'misplaced block;' * (BLK // 16)
        log.write(free[1] * BLK, junk)
        disk[free[0] * BLK:(free[0] + 1) * BLK] = junk
        log.flush()
    log.mark('crash-done')
    log.mark('dm-log-writes-end')
    log.save(os.path.join(a.dir, 'log.img'))
    with open(os.path.join(a.dir, 'final.img'), 'wb') as f:
        f.write(disk)


if __name__ == '__main__':
    main()
