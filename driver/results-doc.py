#!/usr/bin/python3
# doc/results.md, and the results table of README.md, from results/.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Write doc/results.md and README.md's results table from results/.

make results-doc runs this after a make check: it reads what make
check wrote in results/ (the summary, glibc's and the DejaGnu suite's
results, the matrix, crash and port tables, the phase times, the
demonstration) and the benchmarks' reports in bench/results/, and writes

  - doc/results.md, the whole record of that run, and
  - the table between the lines "<!-- results-table: begin -->" and
    "<!-- results-table: end -->" of README.md,

each saying which run it comes from.  Without --write, it prints
doc/results.md and the table.  It fails when results/ holds no
finished make check (no summary.txt, or one without its last line).
"""

import argparse
import datetime
import glob
import os
import re
import subprocess
import sys

BAD = {'FAIL', 'ERROR', 'UNRESOLVED', 'XPASS', 'KPASS'}
SKIP = {'UNSUPPORTED', 'UNTESTED', 'XFAIL', 'KFAIL'}
RESULT_RE = re.compile(r'(PASS|FAIL|ERROR|UNSUPPORTED|UNTESTED|XFAIL|XPASS|'
                       r'KFAIL|KPASS|UNRESOLVED): ')
LAST_RE = re.compile(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$')
BEGIN = '<!-- results-table: begin -->'
END = '<!-- results-table: end -->'


def read(path):
    with open(path, errors='replace') as f:
        return f.read()


def run_info(results, top):
    """(date, commit, last line) of the run whose results these are."""
    summary = os.path.join(results, 'summary.txt')
    if not os.path.exists(summary):
        raise SystemExit('results-doc.py: no %s: run make check first'
                         % summary)
    lines = read(summary).rstrip('\n').split('\n')
    if not LAST_RE.match(lines[-1]):
        raise SystemExit('results-doc.py: %s does not end with "N passed, '
                         'N failed, N skipped": the run did not finish; run '
                         'make check again' % summary)
    when = datetime.datetime.fromtimestamp(
        os.path.getmtime(summary), datetime.timezone.utc)
    try:
        commit = subprocess.run(
            ['git', '-C', top, 'describe', '--always', '--dirty'],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = 'unknown'
    return when.strftime('%Y-%m-%d %H:%M UTC'), commit, lines[-1]


def first_sentence(path, limit=160):
    """The first sentence of the comment that opens a .exp file."""
    words = []
    with open(path, errors='replace') as f:
        for line in f:
            if not line.startswith('#'):
                break
            words.append(line[1:].strip())
    text = ' '.join(w for w in words if w and not w.startswith(
        'Copyright'))
    # Sentences (up to ". " or ": ") until there are 50 characters.
    out = ''
    for m in re.finditer(r'.+?(?:[.:](?=\s|$)|$)', text):
        out += m.group(0)
        if len(out.strip()) >= 50:
            break
    text = out.strip().rstrip(':.')
    if len(text) > limit:
        text = text[:limit].rsplit(' ', 1)[0] + ' ...'
    return text.replace('|', '\\|')


def dejagnu_groups(results, top):
    """[(group, description, passed, failed, skipped)] from osync.sum."""
    path = os.path.join(results, 'dejagnu', 'osync.sum')
    counts = {}
    current = None
    if os.path.exists(path):
        for line in read(path).split('\n'):
            m = re.match(r'Running (\S+) \.\.\.$', line)
            if m:
                current = '/'.join(m.group(1).split('/')[-2:])
                counts.setdefault(current, [0, 0, 0])
                continue
            m = RESULT_RE.match(line)
            if m and current:
                r = m.group(1)
                counts[current][0 if r == 'PASS' else
                                1 if r in BAD else 2] += 1
    rows = []
    for exp in sorted(glob.glob(os.path.join(top, 'tests', 'osync.*',
                                             '*.exp'))):
        g = os.path.relpath(exp, os.path.join(top, 'tests'))
        p, f, s = counts.pop(g, [None, None, None])
        rows.append((g, first_sentence(exp), p, f, s))
    for g, (p, f, s) in sorted(counts.items()):
        rows.append((g, '(no longer in tests/)', p, f, s))
    return rows


def glibc_rows(results):
    """[(label, passed, new failures, note)] from summary.txt."""
    rows = []
    label = None
    for line in read(os.path.join(results, 'summary.txt')).split('\n'):
        m = re.match(r'  (glibc \S+, \S+): (\d+) tests; (\d+) pass on the '
                     r'patched tree$', line)
        if m:
            label = m.group(1)
            rows.append([label, m.group(3), '?', ''])
            continue
        m = re.match(r'  (glibc \S+, \S+): only conform and check-abi '
                     r'\((\d+) pass on the patched tree\); (.*)$', line)
        if m:
            rows.append([m.group(1), m.group(2), '0',
                         'conform and check-abi only: ' + m.group(3)])
            label = None
            continue
        m = re.match(r'    NEW failures \(the patch is to blame\): (.*)$',
                     line)
        if m and label and rows:
            new = m.group(1).strip()
            rows[-1][2] = '0' if new == 'none' else str(len(new.split()))
        m = re.match(r'    fail on the baseline: (.*)$', line)
        if m and label and rows and m.group(1) != 'none':
            rows[-1][3] = 'failing on the unpatched tree too: ' + m.group(1)
    return rows


def table(run, groups, glibc, last):
    when, commit, _ = run
    out = ['From `make check` of %s (written at commit %s); `make results-doc` '
           'rewrites this table from `results/`, and doc/results.md '
           'has the whole record.' % (when, commit), '',
           '| what `make check` ran | passed | failed | skipped |',
           '|---|---:|---:|---:|']
    for label, passed, new, _ in glibc:
        out.append('| %s: glibc\'s own tests (failures: new ones only) '
                   '| %s | %s | |' % (label, passed, new))
    # One row a directory of groups (doc/results.md has one a group).
    dirs = {}
    for g, _, p, f, s in groups:
        d = dirs.setdefault(g.split('/')[0], [0, 0, 0, []])
        if p is None:
            d[3].append(g.split('/')[1])
        else:
            d[0] += p
            d[1] += f
            d[2] += s
    for d, (p, f, s, missing) in sorted(dirs.items()):
        out.append('| `tests/%s`%s | %d | %d | %d |' % (
            d, ' (not run: %s)' % ', '.join(missing) if missing else '',
            p, f, s))
    m = LAST_RE.match(last)
    out.append('| **all, as the summary counts them** | **%s** | **%s** | '
               '**%s** |' % (m.group(1), m.group(2), m.group(3) or '0'))
    return '\n'.join(out) + '\n'


def include(path, title, note=None):
    if not os.path.exists(path):
        return []
    out = ['## ' + title, '']
    if note:
        out += [note, '']
    text = read(path).rstrip('\n')
    if path.endswith('.md'):
        # Headings of an included report go one level down.
        text = re.sub(r'(?m)^(#+) ', r'#\1 ', text)
        out.append(text)
    else:
        out += ['```', text, '```']
    return out + ['']


def results_md(results, top, run, groups, glibc):
    when, commit, last = run
    out = ['# Results', '',
           'Written by `make results-doc` from `results/` of the '
           '`make check` of %s (written at commit %s), and from the benchmarks\' '
           'reports in `bench/results/` (`make bench`).  Do '
           'not edit: run `make check`, then `make results-doc`.'
           % (when, commit), '']
    tb = os.path.join(results, 'tarballs.txt')
    if os.path.exists(tb):
        out += ['Sources: ' + '; '.join(
            l.strip() for l in read(tb).split('\n') if l.strip()) + '.', '']
    out += ['The summary\'s last line: **%s**.' % last, '',
            '## The DejaGnu suite, by group', '',
            '| group | what it shows (the first sentence of the group) | '
            'passed | failed | skipped |', '|---|---|---:|---:|---:|']
    for g, desc, p, f, s in groups:
        if p is None:
            out.append('| `%s` | %s | not run | | |' % (g, desc))
        else:
            out.append('| `%s` | %s | %d | %d | %d |' % (g, desc, p, f, s))
    out.append('')
    out += ['## glibc\'s own tests', '',
            '| base, ABI | passed on the patched tree | new failures | '
            'note |', '|---|---:|---:|---|']
    for label, passed, new, note in glibc:
        out.append('| %s | %s | %s | %s |' % (label, passed, new, note))
    # Not the whole summary (results/summary.txt has it): what was not
    # a pass and why, and the last line.
    why = [line.strip() for line in
           read(os.path.join(results, 'summary.txt')).split('\n')
           if re.match(r'\s+[0-9]+ x ', line)]
    out += ['', 'What the summary did not count as a pass, and why '
            '(`results/summary.txt` has the whole summary):', '']
    out += ['- %s' % line for line in why] or ['- nothing']
    out.append('')
    for abi_file in sorted(glob.glob(os.path.join(results, 'demo-*.txt'))):
        out += include(abi_file, 'The demonstration, %s'
                       % os.path.basename(abi_file)[5:-4])
    out += include(os.path.join(results, 'matrix.md'),
                   'The test matrix (tests/osync.matrix)')
    out += include(os.path.join(results, 'crash.md'),
                   'Power cuts (tests/osync.crash)')
    out += include(os.path.join(results, 'ports.md'),
                   'Headers of every Linux port (tests/osync.ports)')
    out += include(os.path.join(results, 'kernel-mainline', 'rsync.txt'),
                   'The kernel series on mainline, booted '
                   '(tests/osync.kernel/mainline.exp)')
    out += include(os.path.join(results, 'cross.md'),
                   'Cross-built ports (make check-cross)',
                   'Not part of make check: the last make check-cross '
                   'in this build directory.')
    out += ['## Benchmarks', '',
            'Not part of make check: the reports that `make bench` '
            '(bench/README) wrote into `bench/results/`, each with its '
            'first heading and the date it was committed.', '']
    for path in sorted(glob.glob(os.path.join(top, 'bench', 'results',
                                              '*.md'))):
        title = next((line.lstrip('#').strip()
                      for line in read(path).split('\n')
                      if line.startswith('#')),
                     'a report without a heading')
        try:
            day = subprocess.run(
                ['git', '-C', top, 'log', '-1', '--format=%cs', '--',
                 os.path.relpath(path, top)],
                capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            day = ''
        name = os.path.basename(path)
        out.append('- [`%s`](../bench/results/%s): %s%s' % (
            name, name, title, ', committed ' + day if day else ''))
    return '\n'.join(out).rstrip('\n') + '\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--results', required=True)
    parser.add_argument('--top', required=True)
    parser.add_argument('--write', action='store_true',
                        help='write doc/results.md and README.md')
    args = parser.parse_args()
    run = run_info(args.results, args.top)
    groups = dejagnu_groups(args.results, args.top)
    glibc = glibc_rows(args.results)
    md = results_md(args.results, args.top, run, groups, glibc)
    tb = table(run, groups, glibc, run[2])
    if not args.write:
        sys.stdout.write(md + '\n' + tb)
        return 0
    with open(os.path.join(args.top, 'doc', 'results.md'), 'w') as f:
        f.write(md)
    readme = os.path.join(args.top, 'README.md')
    text = read(readme)
    if text.count(BEGIN) != 1 or text.count(END) != 1 \
       or text.index(BEGIN) > text.index(END):
        raise SystemExit('results-doc.py: %s has no one pair of lines "%s" '
                         'and "%s"; put them back around the results table'
                         % (readme, BEGIN, END))
    a = text.index(BEGIN) + len(BEGIN)
    b = text.index(END)
    with open(readme, 'w') as f:
        f.write(text[:a] + '\n' + tb + text[b:])
    print('results-doc.py: wrote %s and the results table of %s, from the '
          'run of %s' % (os.path.join(args.top, 'doc', 'results.md'),
                         readme, run[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
