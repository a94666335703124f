#!/usr/bin/python3
# Summarize make check: glibc's tests on the patched tree against the
# unpatched baseline, and the project's DejaGnu suite.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Write results/summary.txt and print it; exit 1 on any failure.

A glibc test counts as failed only if it fails on the patched tree and
not on the baseline built the same way: failures the baseline shares
come from the machine, not from the patch, and are listed, not counted.
"""

import argparse
import os
import re
import sys

BAD = {'FAIL', 'ERROR', 'UNRESOLVED', 'XPASS'}
SKIP = {'UNSUPPORTED', 'UNTESTED', 'XFAIL', 'KFAIL'}


def read_sum(path):
    """Map test name to result from a glibc or DejaGnu .sum file."""
    results = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'(PASS|FAIL|ERROR|UNSUPPORTED|UNTESTED|XFAIL|'
                         r'XPASS|KFAIL|UNRESOLVED|FLAKY): (.*)',
                         line.rstrip('\n'))
            if m:
                name = m.group(2).strip()
                # Keep every DejaGnu line, even when two have one name.
                while name in results:
                    name += ' '
                results[name] = m.group(1)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--results', required=True)
    parser.add_argument('--state', required=True)
    parser.add_argument('--abis', required=True)
    args = parser.parse_args()
    out = []
    passed = failed = skipped = 0
    skip_reasons = {}

    def skip(reason):
        nonlocal skipped
        skipped += 1
        skip_reasons[reason] = skip_reasons.get(reason, 0) + 1

    out.append("glibc's own tests (io posix rt misc, conform fcntl.h, "
               "check-abi), patched against the unpatched baseline:")
    for abi in args.abis.split():
        files = {v: os.path.join(args.results, 'glibc-%s-%s.sum' % (v, abi))
                 for v in ('baseline', 'patched')}
        for v, path in files.items():
            if not os.path.exists(path):
                out.append('  %s: no results for the %s tree (%s)'
                           % (abi, v, path))
                failed += 1
        if not all(os.path.exists(p) for p in files.values()):
            continue
        base = read_sum(files['baseline'])
        new = read_sum(files['patched'])
        # io, posix, rt and misc have some 400 tests; a few dozen means
        # the tests were built but not run.
        for v, res in (('baseline', base), ('patched', new)):
            if len(res) < 300:
                out.append('  %s: only %d results for the %s tree: its tests '
                           'did not run' % (abi, len(res), v))
                failed += 1
        base_fail = sorted(t for t, r in base.items() if r in BAD)
        new_fail = sorted(t for t, r in new.items() if r in BAD)
        added = []
        abi_pass = 0
        flaky = sorted(t for t, r in new.items() if r == 'FLAKY')
        for test, res in sorted(new.items()):
            if res in ('PASS', 'FLAKY'):
                abi_pass += 1
            elif res in BAD:
                if base.get(test) in BAD:
                    continue
                added.append(test)
            elif res == 'XFAIL':
                skip('glibc marks the test as expected to fail (XFAIL): '
                     + test)
            else:
                skip('the glibc test needs something this machine lacks '
                     '(%s): %s' % (res, test))
        vanished = sorted(t for t in base if t not in new)
        passed += abi_pass
        failed += len(added) + len(vanished)
        out.append('  %s: %d tests; %d pass on the patched tree'
                   % (abi, len(new), abi_pass))
        out.append('    fail on the baseline: %s'
                   % (' '.join(base_fail) or 'none'))
        out.append('    fail on the patched tree: %s'
                   % (' '.join(new_fail) or 'none'))
        out.append('    NEW failures (the patch is to blame): %s'
                   % (' '.join(added) or 'none'))
        if flaky:
            out.append('    failed once, passed when run again (counted as '
                       'passes): %s' % ' '.join(flaky))
        if vanished:
            out.append('    run on the baseline but not on the patched '
                       'tree: %s' % ' '.join(vanished))
        only_new = sorted(t for t in new if t not in base)
        if only_new:
            out.append('    new tests of the patch: %s'
                       % ' '.join('%s (%s)' % (t, new[t]) for t in only_new))

    suite = os.path.join(args.results, 'dejagnu', 'osync.sum')
    out.append('')
    out.append("The project's DejaGnu suite (%s):" % suite)
    if os.path.exists(suite):
        res = read_sum(suite)
        counts = {}
        for test, r in res.items():
            counts[r] = counts.get(r, 0) + 1
            if r == 'PASS':
                passed += 1
            elif r in BAD:
                failed += 1
                out.append('  %s: %s' % (r, test.strip()))
            else:
                skip('DejaGnu %s: %s' % (r, test.strip()))
        out.append('  ' + ', '.join('%d %s' % (n, r)
                                    for r, n in sorted(counts.items())))
    else:
        out.append('  no osync.sum: the suite did not run')
        failed += 1

    if skip_reasons:
        out.append('')
        out.append('Skipped, and why:')
        for reason, n in sorted(skip_reasons.items()):
            out.append('  %d x %s' % (n, reason))
    out.append('')
    last = '%d passed, %d failed' % (passed, failed)
    if skipped:
        last += ', %d skipped' % skipped
    out.append(last)
    text = '\n'.join(out) + '\n'
    with open(os.path.join(args.results, 'summary.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
