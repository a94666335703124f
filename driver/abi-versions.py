#!/usr/bin/python3
# The symbol versions of the patch on every Linux port, from Versions.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Check every Linux port's libc.abilist against Versions.

Versions (at the top of the project) lists each entry point the patch
versions.  On every port, an entry point keeps all the versions it had
in the pristine tree's libc.abilist of that port, now as old (compat)
versions, and gains the node of the facts file.  Nothing else in an
abilist may change.  mkseries.py writes the abilists by that rule; this
checks the result in a patched tree, independently of how it was made.

  abi-versions.py --versions Versions --pristine SRC --patched SRC --check
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402


def read_versions(path, node):
    """Return [(symbol, new version)] of the table in PATH."""
    entries = []
    with open(path) as f:
        for line in f:
            fields = line.split('#', 1)[0].split()
            if not fields:
                continue
            if len(fields) != 2:
                raise SystemExit('%s: bad line (want "SYMBOL FAMILY"): %s'
                                 % (path, line.rstrip()))
            if fields[1] == '-':
                continue      # It keeps its one version.
            entries.append((fields[0], node))
    return entries


def abilists(src):
    """Linux libc.abilist files of SRC, by port name."""
    base = os.path.join(src, 'sysdeps', 'unix', 'sysv', 'linux')
    found = {}
    for root, _, files in os.walk(base):
        if 'libc.abilist' in files:
            port = os.path.relpath(root, base)
            found[port] = os.path.join(root, 'libc.abilist')
    return dict(sorted(found.items()))


def read_abilist(path):
    with open(path) as f:
        return [l.rstrip('\n') for l in f if l.strip()]


def versions_of(lines, symbol):
    return sorted({l.split()[0] for l in lines if l.split()[1] == symbol},
                  key=version_key)


def version_key(v):
    return [int(x) for x in v.split('_', 1)[1].split('.')]


def expected_abilist(lines, entries):
    """The patched abilist: LINES plus the new version of each entry."""
    out = set(lines)
    for sym, new in entries:
        if versions_of(lines, sym):
            out.add('%s %s F' % (new, sym))
    return sorted(out, key=lambda l: l.encode())  # LC_ALL=C sort order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--versions', required=True)
    parser.add_argument('--pristine', required=True)
    parser.add_argument('--patched', required=True)
    parser.add_argument('--check', action='store_true', required=True)
    args = parser.parse_args()
    node = facts.load()['OSYNC_NODE']
    entries = read_versions(args.versions, node)
    base = open(os.path.join(args.pristine, 'version.h')).read()
    base = re.search(r'VERSION "([^"]+)"', base).group(1)

    failed = 0
    patched = abilists(args.patched)
    for port, path in abilists(args.pristine).items():
        if port not in patched:
            print('FAIL: abi %s: %s: no libc.abilist in the patched tree'
                  % (base, port))
            failed += 1
            continue
        want = expected_abilist(read_abilist(path), entries)
        got = read_abilist(patched[port])
        if got == want:
            print('PASS: abi %s: %s libc.abilist matches Versions'
                  % (base, port))
            continue
        failed += 1
        extra = sorted(set(got) - set(want))
        missing = sorted(set(want) - set(got))
        print('FAIL: abi %s: %s libc.abilist: %s%s%s' % (
            base, port, 'unexpected: ' + ', '.join(extra) if extra else '',
            '; ' if extra and missing else '',
            'missing: ' + ', '.join(missing) if missing else
            ('' if extra else 'order differs')))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
