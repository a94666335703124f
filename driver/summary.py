#!/usr/bin/python3
# Summarize make check: glibc's tests on the patched tree against the
# unpatched baseline, for every glibc base and ABI, and the project's
# DejaGnu suite.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Write results/summary.txt and print it; exit 1 on any failure.

A glibc test counts as failed if it fails on the patched tree and not
on the baseline built the same way.  A failure the baseline shares is
counted as skipped, with its reason, only if driver/glibc-known-failures
names it (io/tst-close_range, io/tst-closefrom): any other shared
failure is a failure too, since an environment that breaks a test on
both trees hides every regression in it.  These count as failures too,
so that nothing wrong reads as "0 failed":

  - a test that passes on the baseline and is UNSUPPORTED (or UNTESTED,
    XFAIL) on the patched tree: the patch took something away;
  - a test that failed on the patched tree and passed when run again
    (FLAKY; glibc-tests.sh runs again a failure the baseline lacks): an
    intermittent failure the patch may cause;
  - a test of the patch (the tst-* files among the glibc fragments)
    that is missing, not a PASS, or passed only when run again (FLAKY);
  - a DejaGnu summary (osync.sum, the .sum files of check-suite's
    runtest runs joined) that is older than the start of the suite's
    run (results/dejagnu/started, which check-suite writes), in which
    a run has no summary block (runtest stopped half-way) or counts
    that disagree with its lines, or in which a test group (a .exp
    file of a tests/osync.*/ directory) did not report, or runtest's
    exit status (results/dejagnu/runtest-status) says it stopped;
  - a test group that ran fewer tests (results other than UNSUPPORTED
    and UNTESTED) than tests/minimums gives it, or that has no line
    there: a group that silently shrinks;
  - a port of tests/ports reported UNSUPPORTED (its cross compiler is
    missing: configure installs them all for make check);
  - an opt-in run outside make check (OPTIN: glibc's whole testsuite,
    the power-cut harness on a planted kernel, the series' tests on
    aarch64, its guest tests on a debug kernel) whose result cached
    for the current inputs is a failure, or whose lines
    (results/optin/NAME.txt, which the driver writes before the
    summary) are missing or unreadable.
    Each line counts: PASS as a pass, FAIL as a failure, SKIP (no
    result for the current inputs, or a part that cannot run, with its
    reason) as skipped;
  - a result that another run made: results/run-id names the run that
    make check's first step started, and each glibc .sum file
    (FILE.run-id) and the DejaGnu suite (dejagnu/run-id) must carry it.

What was not tested counts as skipped, with the reason: an ABI of the
project (--all-abis, the Makefile's ALL_ABIS) that this run did not
build (one for each base), glibc's tests of an ABI this machine cannot
execute, a known failure both trees share, every UNSUPPORTED line of
the suite; and a test group that reported only UNSUPPORTED is named as
not tested.

The last line is "N passed, N failed" with ", N skipped" when some
were skipped.
"""

import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkseries import read_skip  # noqa: E402

BAD = {'FAIL', 'ERROR', 'UNRESOLVED', 'XPASS', 'KPASS'}
SKIP = {'UNSUPPORTED', 'UNTESTED', 'XFAIL', 'KFAIL'}
RESULT_RE = re.compile(r'(PASS|FAIL|ERROR|UNSUPPORTED|UNTESTED|XFAIL|XPASS|'
                       r'KFAIL|KPASS|UNRESOLVED|FLAKY): (.*)')
# The counts of DejaGnu's summary block, by the result they count.
COUNT_LABELS = {
    'expected passes': 'PASS', 'unexpected failures': 'FAIL',
    'unexpected successes': 'XPASS', 'expected failures': 'XFAIL',
    'unknown successes': 'KPASS', 'known failures': 'KFAIL',
    'unresolved testcases': 'UNRESOLVED', 'untested testcases': 'UNTESTED',
    'unsupported tests': 'UNSUPPORTED',
}
# The opt-in runs whose cached results the summary reports, by the name
# of their line in results/optin/ (driver/osync.sh step_summary).
OPTIN = {'glibc-full': "glibc's whole testsuite (make check-glibc-full)",
         'crash-plant': 'the power-cut harness on a kernel with a planted '
                        'skipped flush (make check-crash-plant)',
         'aarch64': "the series' tests on aarch64 (make check-aarch64)",
         'debug-kernel': "the series' guest tests on a debug kernel "
                         '(make check-debug-kernel)'}


def write_optin_lines(path, lines):
    """Write the lines of an opt-in run (OPTIN) that the summary reads,
    each a (KIND, TEXT) with KIND PASS, FAIL or SKIP; print them; return
    the exit status of the run's judge: 1 if one is a FAIL."""
    text = ''.join('%s: %s\n' % (kind, t) for kind, t in lines)
    with open(path, 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if any(kind == 'FAIL' for kind, _ in lines) else 0


# glibc's fragment directories (the README's fragment convention); the
# 2.44 fragments live under glibc/ at their glibc paths.
FRAGMENT_DIRS = ('sysdeps', 'io', 'misc', 'posix', 'rt')
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def noexec_reason(path):
    """The reason glibc-tests.sh gave for not running the tests of a
    tree (its "UNSUPPORTED: run-tests (...)" line), or None."""
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'UNSUPPORTED: run-tests \((.*)\)$', line.strip())
            if m:
                return m.group(1)
    return None


def read_sum(path):
    """Map test name to result from a glibc or DejaGnu .sum file."""
    results = {}
    with open(path, errors='replace') as f:
        for line in f:
            m = RESULT_RE.match(line.rstrip('\n'))
            if m:
                name = m.group(2).strip()
                # Keep every DejaGnu line, even when two have one name.
                while name in results:
                    name += ' '
                results[name] = m.group(1)
    return results


def fragment_roots(top):
    """glibc/ when it exists, else the top-level fragment directories."""
    gdir = os.path.join(top, 'glibc')
    if os.path.isdir(gdir):
        return [gdir]
    return [os.path.join(top, d) for d in FRAGMENT_DIRS]


# The make variables whose words are tests glibc runs and reports.
TEST_VARS = {'tests', 'tests-internal', 'tests-special', 'tests-container',
             'tests-static', 'xtests'}


def makefile_tests(path):
    """(tests, other) named on the added lines of a Makefile fragment
    (a unified diff): tst-* words assigned to a variable of TEST_VARS,
    and tst-* words assigned to any other variable (modules-names ...).
    Context lines tell which variable a '+' line continues; where a
    hunk starts inside an assignment, glibc's "# VARIABLE" line that
    closes the list names it; with neither, the words count as tests."""
    tests, other = set(), set()
    var = None          # The variable of the current list, if known.
    words = set()       # tst-* words added to the current list.
    inside = False      # In a backslash-continued list.

    def close(name):
        (tests if name is None or name in TEST_VARS else other).update(words)
        words.clear()

    with open(path, errors='replace') as f:
        for raw in f:
            raw = raw.rstrip('\n')
            if raw.startswith(('@@', '---', '+++', 'diff ', 'index ')):
                close(var)
                var, inside = None, False
                continue
            if raw.startswith('-'):
                continue
            added = raw.startswith('+')
            line = raw[1:]
            m = re.match(r'([A-Za-z0-9_.$()-]+)\s*[+:]?=(.*)', line)
            in_list = inside or bool(m)
            if m and not inside:
                close(var)
                var, line = m.group(1), m.group(2)
            elif not inside:
                close(var)
                var = None
            c = re.fullmatch(r'\s*#\s*([A-Za-z0-9_-]+)\s*', line)
            if inside and c:
                var = var or c.group(1)
            if added and in_list:
                words.update(re.findall(r'(?<![\w-])(tst-[A-Za-z0-9_-]+)',
                                        line.split('#', 1)[0]))
            inside = line.rstrip().endswith('\\')
            if not inside:
                close(var)
                var = None
    close(var)
    return tests, other


def backport_skips(top, base):
    """The stems of the tests a backport does not take (backport-BASE/
    SKIP names their sources, as 2.36 has no openat2 wrapper)."""
    if not base:
        return set()
    names = read_skip(os.path.join(top, 'backport-%s' % base, 'SKIP'))
    return {os.path.basename(n)[:-2] for n in names
            if os.path.basename(n).startswith('tst-') and n.endswith('.c')}


def patch_tests(top, problems=None):
    """The tests the patch adds: the tst-* names its Makefile fragments
    add to glibc's test lists.  A tst-* file among the fragments that
    no fragment adds as a test or a helper (modules-names ...) is a
    test that never runs, appended to PROBLEMS."""
    files, tests, helpers = set(), set(), set()
    for root in fragment_roots(top):
        for dirpath, _, names in os.walk(root, followlinks=True):
            for name in names:
                path = os.path.join(dirpath, name)
                if re.fullmatch(r'Makefile(\.\d+)?\.diff', name):
                    t, o = makefile_tests(path)
                    tests |= t
                    helpers |= o
                elif name.startswith('tst-') and not name.endswith('.diff'):
                    files.add(os.path.splitext(name)[0])
    if problems is not None:
        for stem in sorted(files - tests - helpers):
            problems.append('%s is a test among the glibc fragments that no '
                            'Makefile fragment adds to tests (or '
                            'modules-names): it never runs' % stem)
    return sorted(tests)


def patch_programs(top, base=None):
    """The tests of the patch that are programs (a tst-*.c among the
    fragments), without those the backport of BASE skips, each with the
    environment its Makefile fragment gives it (NAME-ENV = ...), as
    [(name, env)]: the tests the guests run (tests/osync.matrix)."""
    sources, env = set(), {}
    for root in fragment_roots(top):
        for dirpath, _, names in os.walk(root, followlinks=True):
            for name in names:
                path = os.path.join(dirpath, name)
                if name.startswith('tst-') and name.endswith('.c'):
                    sources.add(name[:-2])
                elif re.fullmatch(r'Makefile(\.\d+)?\.diff', name):
                    with open(path, errors='replace') as f:
                        for line in f:
                            m = re.match(r'\+(tst-[\w-]+)-ENV\s*=\s*(.*)$',
                                         line.rstrip('\n'))
                            if m:
                                env[m.group(1)] = m.group(2).strip()
    skip = backport_skips(top, base)
    return [(t, env.get(t, '')) for t in patch_tests(top)
            if t in sources and t not in skip]


def expected_groups(top):
    """The DejaGnu test groups: osync.DIR/FILE.exp for each .exp file of
    each tests/osync.*/ directory."""
    return sorted(os.path.relpath(p, os.path.join(top, 'tests'))
                  for p in glob.glob(os.path.join(top, 'tests', 'osync.*',
                                                  '*.exp')))


def check_dejagnu(path, started, groups, minimums=None):
    """Problems with a DejaGnu .sum that make its results unusable or
    incomplete, as a list of sentences, the results read, and the test
    groups that reported only UNSUPPORTED ({group: their names}).
    MINIMUMS: {group: least number of tests run}, from tests/minimums."""
    problems = []
    if not os.path.exists(path):
        return ['no %s: the suite did not run (make check-suite)' % path], {}, {}
    if not os.path.exists(started):
        problems.append('no %s: nothing shows when the suite was started, '
                        'so %s may be stale; run make check-suite'
                        % (started, path))
    elif os.path.getmtime(path) < os.path.getmtime(started):
        problems.append('%s is older than the start of the last run (%s): '
                        'a stale result; run make check-suite'
                        % (path, started))
    seen = {}
    ran = {}            # Per group: results other than UNSUPPORTED, UNTESTED.
    skips = {}          # Per group: the names of its UNSUPPORTED results.
    current = None
    # One entry a runtest run: check-suite runs the groups in lanes, one
    # runtest each, and joins their .sum files; each run starts with
    # "Test run by" and must end with its own summary block.
    runs = []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('Test run by ') or not runs:
                runs.append({'counts': {}, 'declared': {},
                             'in_summary': False})
                if line.startswith('Test run by '):
                    continue
            run = runs[-1]
            m = re.match(r'Running (\S+) \.\.\.$', line)
            if m:
                parts = m.group(1).split('/')
                current = '/'.join(parts[-2:])
                seen.setdefault(current, 0)
                ran.setdefault(current, 0)
                skips.setdefault(current, [])
                continue
            if re.match(r'\s*=== \S+ Summary ===$', line):
                run['in_summary'] = True
                current = None
                continue
            m = re.match(r'# of (.*?)\s+(\d+)$', line)
            if m and run['in_summary'] and m.group(1) in COUNT_LABELS:
                run['declared'][COUNT_LABELS[m.group(1)]] = int(m.group(2))
                continue
            m = RESULT_RE.match(line)
            if m:
                run['counts'][m.group(1)] = run['counts'].get(m.group(1),
                                                              0) + 1
                if current is not None:
                    seen[current] += 1
                    if m.group(1) == 'UNSUPPORTED':
                        skips[current].append(m.group(2).strip())
                    elif m.group(1) != 'UNTESTED':
                        ran[current] += 1
    if not runs:
        problems.append('%s is empty: runtest stopped before it ran a test '
                        '(see osync.log next to it)' % path)
    for i, run in enumerate(runs, 1):
        which = path if len(runs) == 1 else '%s (run %d of %d)' % (
            path, i, len(runs))
        if not run['in_summary']:
            problems.append('%s has no summary block: runtest stopped '
                            'half-way (see osync.log next to it)' % which)
            continue
        declared, counts = run['declared'], run['counts']
        for kind in sorted(set(declared) | (set(counts) & set(
                COUNT_LABELS.values()))):
            if declared.get(kind, 0) != counts.get(kind, 0):
                problems.append('%s: its summary counts %d %s but it holds '
                                '%d such lines: a damaged file'
                                % (which, declared.get(kind, 0), kind,
                                   counts.get(kind, 0)))
    only_unsupported = {}
    for g in groups:
        if g not in seen:
            problems.append('test group %s never ran (no "Running" line in '
                            '%s)' % (g, path))
        elif seen[g] == 0:
            problems.append('test group %s reported no result' % g)
        elif ran[g] == 0 and skips[g]:
            # Nothing tested: named, and its lines count as skipped.  It
            # must still name each test it did not run, or the count of
            # what was not tested shrinks with it (a group that stops at
            # its first skip would otherwise pass as one skip).
            only_unsupported[g] = skips[g]
            if (minimums is not None and g in minimums
                    and len(skips[g]) < minimums[g]):
                problems.append('test group %s reported only UNSUPPORTED, '
                                '%d of them, fewer than its minimum of %d '
                                '(tests/minimums): a group that cannot run '
                                'must still report each test it did not run '
                                '(first: %s)' % (g, len(skips[g]), minimums[g],
                                                 skips[g][0]))
        elif minimums is not None and g not in minimums:
            problems.append('test group %s has no minimum in tests/minimums; '
                            'add "%s %d" (the tests it ran)' % (g, g, ran[g]))
        elif minimums is not None and ran[g] < minimums[g]:
            problems.append('test group %s ran %d tests (results other than '
                            'UNSUPPORTED), fewer than its minimum of %d '
                            '(tests/minimums): a group that shrank; find the '
                            'tests it no longer runs' % (g, ran[g], minimums[g]))
    return problems, read_sum(path), only_unsupported


def read_pairs(path, pattern, form):
    """The "KEY VALUE" lines of PATH (# starts a comment), each matching
    PATTERN (two groups), as {key: value}; FORM names the line's form
    in the error for one that does not match."""
    pairs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if line:
                m = re.fullmatch(pattern, line)
                if not m:
                    raise SystemExit('summary.py: %s:%d: not a "%s" line: %r'
                                     % (path, n, form, line))
                pairs[m.group(1)] = m.group(2)
    return pairs


def read_known_failures(path):
    """driver/glibc-known-failures: {test: reason}; a line without its
    reason is an error."""
    return read_pairs(path, r'(\S+)\s+(\S.*)', 'TEST REASON')


def read_minimums(path):
    """tests/minimums: {group: least number of tests run}."""
    return {g: int(n) for g, n in read_pairs(
        path, r'(osync\.\S+/\S+\.exp)\s+(\d+)', 'osync.DIR/GROUP.exp N').items()}


def run_problems(results, files):
    """The FILES (results read) that another run than the current one
    (results/run-id) made, as a list of sentences: each glibc .sum
    carries the id of the run that made it in FILE.run-id, the DejaGnu
    suite's osync.sum in dejagnu/run-id."""
    path = os.path.join(results, 'run-id')
    if not os.path.exists(path):
        return ['no %s: nothing says which run the results belong to, so '
                'they may be an earlier run\'s; run make check (its first '
                'step, check-begin, starts a run)' % path]
    with open(path) as f:
        run = f.read().strip()
    problems = []
    for sum_ in files:
        if not os.path.exists(sum_):
            continue            # Reported as missing elsewhere.
        stamp = (os.path.join(os.path.dirname(sum_), 'run-id')
                 if sum_.endswith('osync.sum') else sum_ + '.run-id')
        got = None
        if os.path.exists(stamp):
            with open(stamp) as f:
                got = f.read().strip()
        if got != run:
            problems.append('%s was made by %s, not by this run (%s, in %s): '
                            'a result of an earlier run; run make check'
                            % (sum_, 'run ' + got if got else 'no known run',
                               run, path))
    return problems


def read_phases(path):
    """The driver's (phase, seconds) lines, or None without the file."""
    if not os.path.exists(path):
        return None
    phases = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            m = re.fullmatch(r'(\S.*?)\s+(\d+(?:\.\d+)?)', line.strip())
            if not m:
                raise SystemExit('summary.py: %s:%d: not a "PHASE SECONDS" '
                                 'line: %r; fix the driver that wrote it'
                                 % (path, n, line.rstrip('\n')))
            phases.append((m.group(1), float(m.group(2))))
    return phases


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--results', required=True)
    parser.add_argument('--state', required=True)
    parser.add_argument('--abis', required=True)
    parser.add_argument('--bases', default='',
                        help='glibc bases, the first the primary, e.g. '
                        '"2.44 2.36"; results are then read from '
                        'glibc-{baseline,patched}-BASE-ABI.sum; without '
                        'it, from glibc-{baseline,patched}-ABI.sum')
    parser.add_argument('--base-abis', action='append', default=[],
                        metavar='BASE=ABIS',
                        help='the ABIs of BASE, when they are not all of '
                        '--abis (the backport is built for fewer)')
    parser.add_argument('--top', default=TOP,
                        help='the project (for the patch\'s tests, the '
                        'DejaGnu test groups and their minimums)')
    parser.add_argument('--all-abis', default='',
                        help='every ABI the project builds (the Makefile\'s '
                        'ALL_ABIS); each one a base is not built for counts '
                        'as a skip')
    parser.add_argument('--known-failures',
                        default=os.path.join(TOP, 'driver',
                                             'glibc-known-failures'),
                        help='the glibc tests that may fail on both trees, '
                        'each with its reason')
    args = parser.parse_args()
    out = []
    passed = failed = skipped = 0
    skip_reasons = {}
    known = read_known_failures(args.known_failures)
    all_abis = args.all_abis.split() or args.abis.split()
    read_files = []     # The results read, which must be this run's.
    frag_problems = []
    new_tests = patch_tests(args.top, frag_problems)
    for p in frag_problems:
        out.append('  FAILED: ' + p)
    failed += len(frag_problems)
    if not new_tests:
        print('summary.py: no Makefile fragment under %s adds a tst-* test '
              '(looked in glibc/ or %s): cannot tell which tests the patch '
              'adds; pass --top with the project' % (
                  args.top, ', '.join(FRAGMENT_DIRS)), file=sys.stderr)
        return 2

    def skip(reason):
        nonlocal skipped
        skipped += 1
        skip_reasons[reason] = skip_reasons.get(reason, 0) + 1

    def is_patch_test(name):
        return name.rsplit('/', 1)[-1] in new_tests

    out.append("glibc's own tests (driver/glibc-tests.list, conform "
               "fcntl.h, check-abi), patched against the unpatched "
               "baseline:")
    bases = args.bases.split() or ['']
    base_abis = {}
    for item in args.base_abis:
        b, _, a = item.partition('=')
        base_abis[b] = a.split()
    def shared_failure(test):
        """A test that fails on both trees: a known failure is skipped,
        with its reason; True (a failure) for any other."""
        if test in known:
            skip('glibc test fails on both trees, a known failure '
                 '(driver/glibc-known-failures): %s: %s' % (test, known[test]))
            return False
        return True

    for base in bases:
        built = base_abis.get(base, args.abis.split())
        for abi in all_abis:
            if abi not in built:
                label = 'glibc %s, %s' % (base, abi) if base else abi
                skip('%s: not built (ABIS=%s), so neither glibc\'s tests nor '
                     'the suite\'s %s runs ran; make check ABIS=\'%s\' builds '
                     'and checks it' % (label, ' '.join(built), abi,
                                        ' '.join(all_abis)))
                out.append('  %s: not built, not tested (ABIS=%s)'
                           % (label, ' '.join(built)))
        for abi in built:
            tag = '%s-%s' % (base, abi) if base else abi
            label = 'glibc %s, %s' % (base, abi) if base else abi
            files = {v: os.path.join(args.results, 'glibc-%s-%s.sum'
                                     % (v, tag))
                     for v in ('baseline', 'patched')}
            read_files.extend(files.values())
            missing = [v for v, p in files.items() if not os.path.exists(p)]
            for v in missing:
                out.append('  %s: no results for the %s tree (%s); run make '
                           'check-glibc' % (label, v, files[v]))
                failed += 1
            if missing:
                continue
            base_res = read_sum(files['baseline'])
            new = read_sum(files['patched'])
            # A machine that cannot execute this ABI's programs ran only
            # the checks that compile (glibc-tests.sh says why, in a
            # run-tests line); the tests that run are a skip, with the
            # reason, and the checks that compile still count.
            noexec = [noexec_reason(files[v]) for v in files
                      if noexec_reason(files[v])]
            if noexec:
                skip('%s: glibc\'s tests (glibc-tests.list, the '
                     'patch\'s tests among them) not run: %s; conform and check-abi '
                     'were' % (label, noexec[0]))
                abi_pass = 0
                for test, res in sorted(new.items()):
                    if test == 'run-tests':
                        continue
                    if res == 'PASS':
                        abi_pass += 1
                    elif res in BAD and base_res.get(test) not in BAD:
                        out.append('    NEW failure: %s' % test)
                        failed += 1
                    elif res in BAD and shared_failure(test):
                        out.append('    fails on both trees, not a known '
                                   'failure: %s' % test)
                        failed += 1
                passed += abi_pass
                out.append('  %s: only conform and check-abi (%d pass on the '
                           'patched tree); %s' % (label, abi_pass,
                                                  noexec[0]))
                continue
            # glibc-tests.list, conform and check-abi give some 160
            # results in 2.44 and 140 in 2.36 (io alone 60 to 80);
            # fewer than 100 means the tests were built but not run.
            for v, res in (('baseline', base_res), ('patched', new)):
                if len(res) < 100:
                    out.append('  %s: only %d results for the %s tree: its '
                               'tests did not run' % (label, len(res), v))
                    failed += 1
            base_fail = sorted(t for t, r in base_res.items() if r in BAD)
            new_fail = sorted(t for t, r in new.items() if r in BAD)
            added = []
            lost = []
            flaky = []
            unknown_shared = []
            abi_pass = 0
            for test, res in sorted(new.items()):
                if is_patch_test(test):
                    continue            # Judged below.
                if res == 'PASS':
                    abi_pass += 1
                elif res == 'FLAKY':
                    # glibc-tests.sh runs again only a failure the
                    # baseline lacks.
                    flaky.append('%s (baseline %s)'
                                 % (test, base_res.get(test, 'not run')))
                elif res in BAD:
                    if base_res.get(test) in BAD:
                        if shared_failure(test):
                            unknown_shared.append(test)
                        continue
                    added.append(test)
                elif base_res.get(test) in ('PASS', 'FLAKY'):
                    lost.append('%s (PASS -> %s)' % (test, res))
                elif res == 'XFAIL':
                    skip('glibc marks the test as expected to fail (XFAIL): '
                         + test)
                else:
                    skip('the glibc test needs something this machine lacks '
                         '(%s): %s' % (res, test))
            vanished = sorted(t for t in base_res if t not in new
                              and not is_patch_test(t))
            own = []
            own_bad = []
            for stem in sorted(set(new_tests) - backport_skips(args.top, base)):
                names = sorted(t for t in new
                               if t.rsplit('/', 1)[-1] == stem)
                if not names:
                    own.append('%s (MISSING)' % stem)
                    own_bad.append(stem)
                    continue
                for t in names:
                    own.append('%s (%s)' % (t, new[t]))
                    if new[t] == 'PASS':
                        abi_pass += 1
                    else:
                        own_bad.append(t)
            passed += abi_pass
            failed += (len(added) + len(vanished) + len(lost) + len(own_bad)
                       + len(flaky) + len(unknown_shared))
            out.append('  %s: %d tests; %d pass on the patched tree'
                       % (label, len(new), abi_pass))
            out.append('    fail on the baseline: %s'
                       % (' '.join(base_fail) or 'none'))
            out.append('    fail on the patched tree: %s'
                       % (' '.join(new_fail) or 'none'))
            out.append('    NEW failures (the patch is to blame): %s'
                       % (' '.join(added) or 'none'))
            if lost:
                out.append('    pass on the baseline, not run on the patched '
                           'tree (counted as failures): %s' % ' '.join(lost))
            if flaky:
                out.append('    FLAKY: failed on the patched tree, passed when '
                           'run again (counted as failures: an intermittent '
                           'failure the patch may cause): %s' % ' '.join(flaky))
            if unknown_shared:
                out.append('    fail on both trees and are not known failures '
                           '(driver/glibc-known-failures; counted as failures: '
                           'an environment that breaks a test on both trees '
                           'hides a regression in it): %s'
                           % ' '.join(unknown_shared))
            if vanished:
                out.append('    run on the baseline but not on the patched '
                           'tree: %s' % ' '.join(vanished))
            out.append('    new tests of the patch: %s' % ' '.join(own))
            if own_bad:
                out.append('    tests of the patch that did not pass (each '
                           'must PASS on every base and ABI; a retried pass '
                           'is a failure): %s' % ' '.join(own_bad))

    suite = os.path.join(args.results, 'dejagnu', 'osync.sum')
    started = os.path.join(args.results, 'dejagnu', 'started')
    out.append('')
    out.append("The project's DejaGnu suite (%s):" % suite)
    read_files.append(suite)
    minimums = os.path.join(args.top, 'tests', 'minimums')
    if not os.path.exists(minimums):
        print('summary.py: no %s (the least number of tests of each DejaGnu '
              'test group); restore it from git' % minimums, file=sys.stderr)
        return 2
    problems, res, only_unsupported = check_dejagnu(
        suite, started, expected_groups(args.top), read_minimums(minimums))
    status = os.path.join(args.results, 'dejagnu', 'runtest-status')
    if os.path.exists(status):
        with open(status) as f:
            rc = f.read().strip()
        if rc not in ('0', '1'):
            problems.append('runtest stopped with exit status %s (killed, or '
                            'a Tcl error; see osync.log next to osync.sum)'
                            % rc)
    for p in problems:
        out.append('  FAILED: ' + p)
    failed += len(problems)
    counts = {}
    for test, r in res.items():
        counts[r] = counts.get(r, 0) + 1
        name = test.strip()
        if r == 'PASS':
            passed += 1
        elif r in BAD:
            failed += 1
            out.append('  %s: %s' % (r, name))
        elif re.match(r'ports: ', name):
            failed += 1
            out.append('  %s: %s (counted as a failure: make check needs '
                       'every port\'s compiler; ./configure installs them, '
                       'see driver/debian-packages)' % (r, name))
        else:
            skip('DejaGnu %s: %s' % (r, name))
    if counts:
        out.append('  ' + ', '.join('%d %s' % (n, r)
                                    for r, n in sorted(counts.items())))
    for g, names in sorted(only_unsupported.items()):
        out.append('  NOT TESTED: test group %s reported only UNSUPPORTED '
                   '(%d, counted as skipped): %s' % (g, len(names), names[0]))

    # Every result read must be this run's (results/run-id).
    stale = run_problems(args.results, read_files)
    run_file = os.path.join(args.results, 'run-id')
    if os.path.exists(run_file):
        with open(run_file) as f:
            out.insert(0, 'Run %s (%s).' % (f.read().strip(), run_file))
    if stale:
        out.append('')
        out.append('Results of another run:')
        for p in stale:
            out.append('  FAILED: ' + p)
        failed += len(stale)

    out.append('')
    out.append('Opt-in runs outside make check (their result for the current '
               'inputs, cached):')
    for name, what in sorted(OPTIN.items()):
        path = os.path.join(args.results, 'optin', name + '.txt')
        lines = []
        if os.path.exists(path):
            with open(path, errors='replace') as f:
                lines = [ln.strip() for ln in f if ln.strip()]
        if not lines:
            failed += 1
            out.append('  FAILED: %s: no %s: the driver did not report on '
                       'it' % (what, path))
        for ln in lines:
            m = re.fullmatch(r'(PASS|FAIL|SKIP): (.+)', ln)
            if not m:
                failed += 1
                out.append('  FAILED: %s: not a PASS, FAIL or SKIP line in '
                           '%s: %r' % (what, path, ln[:200]))
            elif m.group(1) == 'PASS':
                passed += 1
                out.append('  PASS: ' + m.group(2))
            elif m.group(1) == 'FAIL':
                failed += 1
                out.append('  FAIL: ' + m.group(2))
            else:
                skip(m.group(2))
                out.append('  SKIP: ' + m.group(2))

    phases = read_phases(os.path.join(args.results, 'phases.txt'))
    if phases:
        out.append('')
        out.append('Wall time of each phase:')
        width = max(len(p) for p, _ in phases)
        for p, s in phases:
            out.append('  %-*s %7.0f s' % (width, p, s))
        out.append('  %-*s %7.0f s' % (width, 'total',
                                       sum(s for _, s in phases)))

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
