#!/usr/bin/env python3
# Compare a suite's results on the yardstick (Debian 13's stock 6.12,
# the unpatched glibc 2.44) with those on the new kernel and the
# patched glibc 2.44 (driver/suites.sh).
#
#   tally.py --suite S --yard FILE --new FILE --known FILE --table FILE
#
# FILE: "TEST RESULT ..." lines (PASS, FAIL, SKIP).  Prints "PASS:" and
# "FAIL:" lines and writes a Markdown table of the counts and of every
# test whose result differs.  Fails when a test failed on the new side
# only, or was skipped there only, or failed on both, without a line
# "S TEST new|both REASON" in --known; when the two sides did not run
# the same tests; or when a line of --known for S matches nothing.  A
# difference that needs no line (a test skipped or failed on the
# yardstick only) is tabled with what that side's run said of it.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
import argparse
import sys


def read(path):
    """The results of FILE, and what each line says after the result."""
    out, said = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split(None, 2)
            if len(w) >= 2:
                out[w[0]] = w[1]
                said[w[0]] = w[2].strip() if len(w) > 2 else ''
    return out, said


def main():
    ap = argparse.ArgumentParser()
    for a in ('--suite', '--yard', '--new', '--known', '--table'):
        ap.add_argument(a, required=True)
    a = ap.parse_args()
    (yard, yard_said), (new, _) = read(a.yard), read(a.new)
    known = {}
    with open(a.known) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            w = line.split(None, 3)
            if len(w) < 4 or w[2] not in ('new', 'both'):
                print(f'FAIL: {a.suite}: {a.known}: bad line "{line}" '
                      '(SUITE TEST new|both REASON)')
                sys.exit(1)
            if w[0] == a.suite:
                known[w[1]] = (w[2], w[3])
    ok = True
    used = set()
    rows = []
    for name, res in (('Debian 13 stock 6.12, glibc 2.44', yard),
                      ('new kernel, patched glibc 2.44', new)):
        v = list(res.values())
        rows.append(f'| {name} | {len(v)} | {v.count("PASS")} | {v.count("FAIL")} | '
                    f'{v.count("SKIP")} |')
        print(f'COUNT: {a.suite}: {name}: run {len(v)}, passed {v.count("PASS")}, '
              f'failed {v.count("FAIL")}, skipped {v.count("SKIP")}')
    if set(yard) != set(new):
        ok = False
        print(f'FAIL: {a.suite}: the two sides ran different tests: only on the '
              f'yardstick {sorted(set(yard) - set(new))[:10]}, only on the new side '
              f'{sorted(set(new) - set(yard))[:10]}')
    diffs = []
    for t in sorted(set(yard) | set(new)):
        y, n = yard.get(t, '-'), new.get(t, '-')
        need = None
        if n == 'FAIL' and y == 'FAIL':
            need = 'both'
        elif n == 'FAIL' or (n == 'SKIP' and y == 'PASS'):
            need = 'new'
        if y != n or need:
            why = known.get(t, (None, ''))[1]
            if not why and need is None and y in ('SKIP', 'FAIL'):
                why = f'on the yardstick: {yard_said[t] or y}'
            diffs.append(f'| {t} | {y} | {n} | {why} |')
        if need is None:
            continue
        if known.get(t, (None,))[0] == need:
            used.add(t)
            print(f'KNOWN: {a.suite}: {t} ({y} on the yardstick, {n} on the new side): '
                  f'{known[t][1]}')
        else:
            ok = False
            where = 'on both sides' if need == 'both' else 'on the new side only'
            print(f'FAIL: {a.suite}: {t} is {n} {where} ({y} on the yardstick), with no '
                  f'reason in {a.known}')
    for t in sorted(set(known) - used):
        ok = False
        print(f'FAIL: {a.suite}: {a.known} gives a reason for {t}, which this run does '
              'not need; remove it')
    if ok:
        print(f'PASS: {a.suite}: every failure and lost test on the new side is explained '
              f'({len(used)} known differences)')
    with open(a.table, 'w') as t:
        t.write('| kernel and glibc | run | passed | failed | skipped |\n|---|---|---|---|---|\n')
        t.write('\n'.join(rows) + '\n')
        if diffs:
            t.write('\n| test | yardstick | new | reason |\n|---|---|---|---|\n')
            t.write('\n'.join(diffs) + '\n')
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
