#!/usr/bin/python3
# Judge a run of driver/port-guest.sh: glibc's tests of the series on a
# cross-built port, in QEMU guests with Debian's kernels.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Read the guests' consoles and write the table and the verdict.

Each test program of tests.list ("UID,NAME ..." lines) must have run on
every kernel of the "kernels" file and exited 0 (PASS); 77 is glibc's
UNSUPPORTED, which is not a pass; no result, or any other status, is a
failure.  The guest must say that it ran the kernel of the package
(its "osync-guest: kernel RELEASE MACHINE" line) on the port's machine.
Debian's kernels have no O_RSYNC: a test that says it found one
("info: kernel O_RSYNC yes") misread the kernel, a failure.  The tests
that only compile (the "others" file) must PASS.  Writes --md and
--line ("PASS: ..." or "FAIL: ..."); exits 1 on a failure.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import (fragment_roots, patch_programs, patch_tests,  # noqa: E402
                     write_optin_lines)

# A test file of the glibc tree among the Makefiles that add tests: a
# subdirectory's own Makefile, or a sysdeps Makefile, whose
# "ifeq ($(subdir),X)" blocks say which subdirectory.
IF_RE = re.compile(r'(ifeq|ifneq|ifdef|ifndef)\b')
SUBDIR_RE = re.compile(r'ifeq\s*\(\$\(subdir\)\s*,\s*([\w-]+)\s*\)')


def subdirs_of(src, names):
    """NAME -> the glibc subdirectory whose make builds test NAME, from
    the Makefiles of the source tree SRC that name it."""
    found = {n: set() for n in names}
    words = {n: re.compile(r'(?<![\w-])%s(?![\w-])' % re.escape(n))
             for n in names}
    makefiles = [os.path.join(src, d, 'Makefile') for d in os.listdir(src)]
    for dirpath, _, files in os.walk(os.path.join(src, 'sysdeps')):
        makefiles += [os.path.join(dirpath, f) for f in files
                      if f == 'Makefile']
    for mk in makefiles:
        if not os.path.isfile(mk):
            continue
        with open(mk, errors='replace') as f:
            text = f.read()
        hit = [n for n in names if words[n].search(text)]
        if not hit:
            continue
        rel = os.path.relpath(mk, src)
        if not rel.startswith('sysdeps/'):
            for n in hit:
                found[n].add(os.path.dirname(rel))
            continue
        stack = []
        for line in text.split('\n'):
            if IF_RE.match(line):
                m = SUBDIR_RE.match(line)
                stack.append(m.group(1) if m else None)
            elif line.startswith('endif') and stack:
                stack.pop()
            sub = next((x for x in reversed(stack) if x), None)
            for n in hit:
                if sub and words[n].search(line):
                    found[n].add(sub)
    out = {}
    for n, subs in found.items():
        if len(subs) != 1:
            raise SystemExit('port-guest.py: test %s is in %s of the glibc '
                             'Makefiles of %s: cannot tell its subdirectory'
                             % (n, ' and '.join(sorted(subs)) or 'none', src))
        out[n] = subs.pop()
    return out


def list_tests(top, src, base):
    """Print the tests of the patch, one a line: "program SUBDIR NAME
    ENV..." (a test program, with its environment), "guest-sh SUBDIR
    NAME SCRIPT" (a tests-special that runs a shell script of the
    fragments with the dynamic loader, glibc's convention for ld.so's
    own tests: it runs in the guest) or "host SUBDIR NAME" (a
    tests-special that only compiles or reads files: it runs on the
    build machine)."""
    programs = patch_programs(top, base)
    names = patch_tests(top)
    scripts = {}
    for root in fragment_roots(top):
        for dirpath, _, files in os.walk(root, followlinks=True):
            for f in files:
                if f.startswith('tst-') and f.endswith('.sh'):
                    scripts[f[:-3]] = os.path.relpath(
                        os.path.join(dirpath, f), root)
    subs = subdirs_of(src, names)
    progs = {n for n, _ in programs}
    for n, env in programs:
        print(('program %s %s %s' % (subs[n], n, env)).strip())
    for n in names:
        if n in progs:
            continue
        if n in scripts:
            print('guest-sh %s %s %s' % (subs[n], n, scripts[n]))
        else:
            print('host %s %s' % (subs[n], n))

# The machine of the guest's uname for each port of port-guest.sh.
MACHINE = {'aarch64': 'aarch64'}


def read_console(path):
    """(kernel line words, {label: (status or None, output)})."""
    kernel = None
    runs = {}
    label = None
    lines = []
    with open(path, errors='replace') as f:
        for raw in f:
            raw = raw.rstrip('\n')
            # search: an x86 console's first line starts with the
            # firmware's escape sequences.
            m = re.search(r'osync-guest: kernel (\S+) (\S+)$', raw)
            if m:
                kernel = (m.group(1), m.group(2))
                continue
            m = re.match(r'osync-guest: begin (\S+)$', raw)
            if m:
                label, lines = m.group(1), []
                runs[label] = (None, '')
                continue
            m = re.match(r'osync-guest: end (\S+) (\d+) \d+ ms$', raw)
            if m and m.group(1) == label:
                runs[label] = (int(m.group(2)), '\n'.join(lines))
                label = None
                continue
            if raw.startswith('osync-guest: '):
                # init's own line ("done", a failed command): the end
                # of the program's output.
                label = None
                continue
            if label is not None:
                lines.append(raw)
                runs[label] = (None, '\n'.join(lines))
    return kernel, runs


def unsupported_reason(output):
    """The reason glibc's test driver gave for UNSUPPORTED: the lines
    after "UNSUPPORTED:" (or the last line)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        if 'UNSUPPORTED' in ln:
            return lines[i:i + 2]
    return lines[-1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    lp = sub.add_parser('list', help='the tests of the patch to run')
    lp.add_argument('--top', required=True)
    lp.add_argument('--src', required=True)
    lp.add_argument('--base', required=True)
    jp = sub.add_parser('judge', help='judge a run')
    jp.add_argument('--results', required=True)
    jp.add_argument('--port', required=True)
    jp.add_argument('--root-only', default='',
                    help='tests that need root: UNSUPPORTED (77) as '
                    'another user, counted as a skip')
    jp.add_argument('--md', required=True)
    jp.add_argument('--line', required=True)
    args = ap.parse_args()
    if args.cmd == 'list':
        list_tests(args.top, args.src, args.base)
        return 0
    res = args.results
    labels = []
    with open(os.path.join(res, 'tests.list')) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith('@'):
                labels.append(w[0])
    kernels = []
    with open(os.path.join(res, 'kernels')) as f:
        for line in f:
            w = line.split()
            if w:
                kernels.append({'series': w[0], 'pkg': w[1], 'ver': w[2],
                                'secs': int(w[3])})
    others = []
    if os.path.exists(os.path.join(res, 'host')):
        with open(os.path.join(res, 'host')) as f:
            others = [tuple(line.split()[:2]) for line in f if line.strip()]
    root_only = set(args.root_only.split())
    times = {}
    with open(os.path.join(res, 'times')) as f:
        for line in f:
            k, _, v = line.partition(': ')
            times[k] = v.strip()

    bad = []
    skips = []
    cells = {}          # (name, uid, series) -> text
    details = []
    for k in kernels:
        console = os.path.join(res, 'console-%s.log' % k['series'])
        kline, runs = read_console(console)
        release = k['pkg'][len('linux-image-'):]
        if kline != (release, MACHINE[args.port]):
            bad.append('the %s guest ran %s, not %s on %s'
                       % (k['series'], kline, release, MACHINE[args.port]))
        for label in labels:
            uid, name = label.split(',', 1)
            who = 'root' if uid == '0' else 'uid %s' % uid
            status, output = runs.get(label, (None, ''))
            if status == 0:
                text = 'PASS'
            elif status == 77:
                text = 'UNSUPPORTED'
            elif status is None:
                text = 'no result'
            else:
                text = 'FAIL (%d)' % status
            if re.search(r'^info: kernel O_RSYNC yes', output, re.M):
                text += ', saw O_RSYNC in a kernel without it'
            if re.search(r'seccomp is not available', output):
                text += ', found no seccomp in a kernel that has it'
            cells[(name, uid, k['series'])] = text
            if name in root_only and uid != '0':
                if text == 'UNSUPPORTED':
                    skips.append('%s as %s on %s: UNSUPPORTED, as it must '
                                 'be: it needs root (%s)'
                                 % (name, who, release,
                                    ' '.join(unsupported_reason(output))))
                    continue
                text += ', want UNSUPPORTED: the test needs root'
                cells[(name, uid, k['series'])] = text
            if text != 'PASS':
                bad.append('%s as %s on %s: %s' % (name, who, release, text))
                details.append('### %s as %s on %s: %s\n\n```\n%s\n```\n'
                               % (name, who, release, text,
                                  '\n'.join(output.splitlines()[-40:])))
    for name, r in others:
        if r != 'PASS':
            bad.append('%s: %s' % (name, r))

    uids = sorted({lab.split(',', 1)[0] for lab in labels}, key=int)
    names = []
    for lab in labels:
        n = lab.split(',', 1)[1]
        if n not in names:
            names.append(n)
    kdesc = ', '.join('%s %s (%d s)' % (k['pkg'], k['ver'], k['secs'])
                      for k in kernels)
    md = ["glibc's tests of the series, cross-built for %s "
          "(driver/check-cross.sh), run by driver/port-guest.sh under "
          "qemu-system-%s (TCG) on Debian's kernels %s; started %s, wall "
          "time %s." % (args.port, args.port, kdesc, times.get('start', '?'),
                        times.get('wall', '?')), '']
    head = ['test']
    for k in kernels:
        for u in uids:
            head.append('%s, %s' % (k['pkg'][len('linux-image-'):],
                                    'root' if u == '0' else 'uid ' + u))
    md.append('| ' + ' | '.join(head) + ' |')
    md.append('|' + '---|' * len(head))
    for n in names:
        row = [n] + [cells.get((n, u, k['series']), '?')
                     for k in kernels for u in uids]
        md.append('| ' + ' | '.join(row) + ' |')
    for name, r in others:
        md.append('| %s (on this machine, with the %s cross compiler and '
                  'kernel headers) | %s |' % (name, args.port, r))
    md.append('')
    md.extend(details)
    text = '\n'.join(md) + '\n'
    with open(args.md, 'w') as f:
        f.write(text)
    sys.stdout.write(text)
    what = ("%s: glibc's tests of the series (%d programs, as root and as "
            "uid %s; %s) on Debian's %s under qemu-system-%s, run %s"
            % (args.port, len(names), ' '.join(u for u in uids if u != '0'),
               ', '.join('%s %s' % o for o in others) or 'nothing else',
               ' and '.join(k['pkg'][len('linux-image-'):] for k in kernels),
               args.port, times.get('start', '?')[:10]))
    lines = [('FAIL', '%s: %s' % (what, '; '.join(bad))) if bad
             else ('PASS', '%s: all pass' % what)]
    return write_optin_lines(args.line,
                             lines + [('SKIP', '%s: %s' % (args.port, x))
                                      for x in skips])


if __name__ == '__main__':
    sys.exit(main())
