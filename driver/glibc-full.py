#!/usr/bin/python3
# Judge a run of glibc's whole testsuite (driver/glibc-full.sh): the
# patched tree against the unpatched baseline.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Compare the patched tree's tests.sum with the baseline's.

Counted as failures (the patch is to blame until shown otherwise):
  - a test that fails (FAIL, ERROR, XPASS) on the patched tree and not
    on the baseline, unless the baseline also failed in one of its
    retries (glibc-full.sh's "retries" file); a pass on the patched
    tree's retry does not excuse it;
  - a test that passes on the baseline and is UNSUPPORTED (or XFAIL,
    UNTESTED) on the patched tree, unless the baseline gave that same
    result in one of its retries (the retries run both trees in one
    step, under the same conditions: a test that depends on how the run
    was started, as misc/tst-sched_setattr-thread does on its
    niceness, gives the same on both there); or missing from it;
  - a test that only the patched tree has (the series' own) that does
    not PASS;
  - a test that fails on both trees and is in neither known list
    (--known: driver/glibc-known-failures, make check's, and
    glibc-full.known; "TEST  REASON" lines): a shared failure needs a
    reason, written down after reading its output.
A run restricted to some subdirectories (GLIBC_FULL_SUBDIRS, recorded
in its inputs) is a test of the driver: its failures count, but without
one it is a SKIP that says so, never a PASS.
Writes a Markdown report (--md) and one line (--line): "PASS: ...",
"FAIL: ..." or "SKIP: ...", for make check's summary.  Exits 1 on a
failure.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import BAD, read_sum, write_optin_lines  # noqa: E402


def read_known(path):
    """TEST -> REASON from the known list (comments start with #)."""
    known = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].rstrip()
            if not line:
                continue
            m = re.fullmatch(r'(\S+)\s+(\S.*)', line)
            if not m:
                raise SystemExit('glibc-full.py: %s:%d: want "TEST REASON", '
                                 'got %r' % (path, n, line))
            known[m.group(1)] = m.group(2)
    return known


def read_retries(path):
    """TEST -> {'baseline': [results], 'patched': [results]}."""
    retries = {}
    if not os.path.exists(path):
        return retries
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            r = retries.setdefault(words[0], {'baseline': [], 'patched': []})
            for w in words[1:]:
                v, _, res = w.partition(':')
                r[v].append(res)
    return retries


def read_words(path):
    """The words of a one-line file (the baseline's subdirectories)."""
    with open(path) as f:
        words = f.read().split()
    if not words:
        raise SystemExit('glibc-full.py: %s is empty' % path)
    return words


def read_kv(path):
    kv = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                k, _, v = line.partition(': ')
                kv[k.strip()] = v.strip()
    return kv


def counts(res):
    c = {}
    for r in res.values():
        c[r] = c.get(r, 0) + 1
    return ', '.join('%d %s' % (n, r) for r, n in sorted(c.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--results', required=True)
    ap.add_argument('--known', required=True, action='append',
                    help='a known-failures list; may be given more than once')
    ap.add_argument('--md', required=True)
    ap.add_argument('--line', required=True)
    args = ap.parse_args()
    base = read_sum(os.path.join(args.results, 'baseline.sum'))
    new = read_sum(os.path.join(args.results, 'patched.sum'))
    known = {}
    for path in args.known:
        known.update(read_known(path))
    retries = read_retries(os.path.join(args.results, 'retries'))
    times = read_kv(os.path.join(args.results, 'times'))
    inputs = read_kv(os.path.join(args.results, 'inputs'))
    scope = inputs.get('subdirectories', 'all')
    restricted = scope.startswith('GLIBC_FULL_SUBDIRS=')
    # glibc 2.44's make check gives some 6000 results; a few hundred
    # means make stopped early.
    if not restricted and len(new) < 3000:
        raise SystemExit('glibc-full.py: only %d results for the patched '
                         'tree in %s: make check stopped early (see its '
                         'check-patched.log)' % (len(new), args.results))
    # The baseline ran only in these subdirectories (glibc-full.sh): each
    # must have given results, and every test of the patched tree that
    # did not pass must be among them.
    subdirs = read_words(os.path.join(args.results, 'baseline-subdirs'))
    for d in subdirs:
        if not any(t.startswith(d + '/') for t in base):
            raise SystemExit('glibc-full.py: no baseline result in %s/, one '
                             'of its subdirectories: make check stopped '
                             'early (see check-baseline.log in %s)'
                             % (d, args.results))
    outside = sorted(t for t, r in new.items() if r != 'PASS' and '/' in t
                     and t.split('/')[0] not in subdirs)
    if outside:
        raise SystemExit('glibc-full.py: the baseline did not run %s, which '
                         'did not pass on the patched tree'
                         % ', '.join(outside))

    regressions, flaky_both, lost, own_bad, unexplained = [], [], [], [], []
    same_in_retry = []
    shared = {}
    for t, r in sorted(new.items()):
        b = base.get(t)
        if r in BAD:
            if b in BAD:
                shared[t] = 'fails on both trees'
                continue
            if b is None:
                own_bad.append('%s (%s; not a test of the baseline)' % (t, r))
                continue
            rt = retries.get(t)
            if rt is None:
                regressions.append('%s (%s; baseline %s; never retried)'
                                   % (t, r, b))
            elif any(x in BAD for x in rt['baseline']):
                shared[t] = ('failed on the patched tree; %s on the '
                             'baseline, which failed in a retry (%s)'
                             % (b, ' '.join(rt['baseline'])))
            else:
                regressions.append('%s (%s; baseline %s, retries: baseline '
                                   '%s, patched %s)'
                                   % (t, r, b, ' '.join(rt['baseline']),
                                      ' '.join(rt['patched'])))
        elif b == 'PASS' and r != 'PASS':
            rt = retries.get(t)
            if rt is None:
                lost.append('%s (PASS -> %s; never retried)' % (t, r))
            elif r in rt['baseline']:
                same_in_retry.append(
                    '%s (PASS -> %s in the counted runs; retries: baseline '
                    '%s, patched %s)' % (t, r, ' '.join(rt['baseline']),
                                         ' '.join(rt['patched'])))
            else:
                lost.append('%s (PASS -> %s; retries: baseline %s, patched '
                            '%s)' % (t, r, ' '.join(rt['baseline']),
                                     ' '.join(rt['patched'])))
        elif b is None and r != 'PASS':
            own_bad.append('%s (%s; not a test of the baseline)' % (t, r))
    vanished = sorted(t for t in base if t not in new)
    base_only = sorted(t for t, r in base.items()
                       if r in BAD and new.get(t) not in BAD)
    for t in sorted(shared):
        if t not in known:
            unexplained.append(t)
    stale = sorted(t for t in known if t not in shared)
    failures = (len(regressions) + len(lost) + len(own_bad) + len(vanished)
                + len(unexplained))

    when = times.get('start', '?')
    wall = times.get('wall', '?')
    m = re.match(r'(\d+) s', wall)
    hours = '%.1f h' % (int(m.group(1)) / 3600) if m else wall
    md = []
    md.append("glibc's whole testsuite (`make check`), patched against "
              "unpatched, run by driver/glibc-full.sh: started %s, wall "
              "time %s (%s, niced; the sum of the steps that gave the "
              "result, over %s sessions), kernel %s.  %s."
              % (when, wall, hours, times.get('sessions', '?'),
                 inputs.get('kernel', '?'),
                 'Both trees ran only %s, restricted by GLIBC_FULL_SUBDIRS: '
                 'a test of the driver, not the whole testsuite'
                 % ' '.join(subdirs) if restricted
                 else "The patched tree ran every subdirectory; the "
                 "unpatched one the subdirectories of the patched tree's "
                 "tests that did not pass and the series' own (%s)"
                 % ' '.join(subdirs)))
    md.append('')
    md.append('| tree | results | counts |')
    md.append('|---|---|---|')
    md.append('| unpatched | %d | %s |' % (len(base), counts(base)))
    md.append('| patched | %d | %s |' % (len(new), counts(new)))
    md.append('')

    def section(title, items):
        md.append('%s: %s' % (title, 'none' if not items else ''))
        for i in items:
            md.append('- %s' % i)
        md.append('')

    section('New failures (the patch is to blame)', regressions)
    section('Pass on the unpatched tree, not on the patched one', lost)
    section('Tests of the unpatched tree missing from the patched one',
            vanished)
    section('Tests only the patched tree has that do not pass', own_bad)
    section('Shared failures not in the known lists (each needs a '
            'reason)', unexplained)
    section('Shared failures, with their reasons',
            ['`%s`: %s (%s)' % (t, known.get(t, 'no reason given'),
                                 shared[t]) for t in sorted(shared)])
    section('Fail on the unpatched tree only', base_only)
    section('Pass on the unpatched tree in the counted runs only: the '
            'same result as the patched tree\'s in a retry of the '
            'unpatched tree', same_in_retry)
    section('Retries (three runs on each tree of each test that failed '
            'on the patched tree only, or passed on the unpatched tree '
            'only)',
            ['%s: baseline %s, patched %s'
             % (t, ' '.join(r['baseline']), ' '.join(r['patched']))
             for t, r in sorted(retries.items())])
    if stale:
        section('Known failures that did not fail in this run', stale)
    text = '\n'.join(md)
    with open(args.md, 'w') as f:
        f.write(text)
    sys.stdout.write(text)

    summary = ("glibc's whole testsuite, run %s (%s): %d results on the "
               "patched tree (%d PASS), %d shared failures (%d of them "
               "explained in the known lists)"
               % (when[:10], hours, len(new),
                  sum(1 for r in new.values() if r == 'PASS'), len(shared),
                  len(shared) - len(unexplained)))
    if same_in_retry:
        summary += ('; %d passed on the unpatched tree in the counted runs '
                    'only and gave the patched tree\'s result on it in a '
                    'retry: %s' % (len(same_in_retry), '; '.join(same_in_retry)))
    bad = regressions + lost + own_bad + vanished + [
        '%s (shared, not in the known lists)' % t for t in unexplained]
    if restricted:
        summary = '%s; restricted by %s' % (summary, scope.split(' (')[0])
    if failures:
        verdict = ('FAIL', '%s; %d failures: %s'
                   % (summary, failures, '; '.join(bad)))
    elif restricted:
        verdict = ('SKIP', '%s; no new failure there, but not the whole '
                   'testsuite' % summary)
    else:
        verdict = ('PASS', '%s; no new failure' % summary)
    return write_optin_lines(args.line, [verdict])


if __name__ == '__main__':
    sys.exit(main())
