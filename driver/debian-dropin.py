#!/usr/bin/python3
# The backport as a drop-in for Debian's glibc source package.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Write the backport as files for Debian's glibc packaging.

  debian-dropin.py --top TOP --pristine REPO --patched REPO --out DIR

The patched repository holds the backport's series on top of the
pristine tree of Debian 12's glibc-source (which has Debian's own
patches applied), so the whole series, as one diff, applies at the end
of debian/patches/series.  DIR gets:

  debian/patches/any/unsubmitted-osync-flags.diff
      the diff, with a DEP-3 header (Description, Author, Forwarded,
      Last-Update);
  debian/patches/series.osync
      the line to append to debian/patches/series;
  debian/symbols.osync
      the lines for debian/symbols.wildcards: the new node's symbols
      get a dependency on the patched package and on a glibc older than
      the next upstream release, so that dpkg never installs a program
      that needs them next to an unpatched glibc whose node of the same
      name holds other symbols.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402

NAME = 'unsubmitted-osync-flags.diff'


def git(repo, *args):
    res = subprocess.run(['git', '-C', repo] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if res.returncode:
        sys.exit('debian-dropin: git %s failed in %s: %s'
                 % (' '.join(args), repo, res.stderr.strip()))
    return res.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', required=True)
    ap.add_argument('--pristine', required=True)
    ap.add_argument('--patched', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    f = facts.load(os.path.join(args.top, 'facts'))
    base = f['OSYNC_BACKPORT_BASE']
    pristine = git(args.pristine, 'rev-parse', 'HEAD').strip()
    subjects = git(args.patched, 'log', '--reverse', '--format=%s',
                   pristine + '..HEAD').strip().split('\n')
    if not subjects or not subjects[0]:
        sys.exit('debian-dropin: %s has no commit on top of the pristine '
                 'tree' % args.patched)
    diff = git(args.patched, 'diff', '--no-color', '--no-renames',
               pristine, 'HEAD')
    date = git(args.patched, 'log', '-1', '--format=%cs').strip()
    major, minor = (int(x) for x in base.split('.'))
    header = ['Description: O_SYNC, O_DSYNC and O_RSYNC as three distinct '
              'flags on Linux',
              ' Backport to glibc %s of the series for glibc %s, with the '
              'same' % (base, f['OSYNC_PRIMARY_BASE']),
              ' symbol versions (%s), so that a program built against it '
              'runs on' % f['OSYNC_NODE'],
              ' a glibc %s with the series and is refused at start-up by '
              'every' % f['OSYNC_PRIMARY_BASE'],
              ' other glibc.  The commits it folds together:',
              ' .']
    header += [' - ' + s for s in subjects]
    header += ['Author: osync-glibc project <osync-glibc@sourceware.invalid>',
               'Forwarded: no',
               'Last-Update: ' + date,
               '---', '']
    out = args.out    # The package's debian/ directory, in part.
    os.makedirs(os.path.join(out, 'patches', 'any'), exist_ok=True)
    with open(os.path.join(out, 'patches', 'any', NAME), 'w') as fh:
        fh.write('\n'.join(header) + diff)
    with open(os.path.join(out, 'patches', 'series.osync'), 'w') as fh:
        fh.write('any/%s\n' % NAME)
    with open(os.path.join(out, 'symbols.osync'), 'w') as fh:
        fh.write(
            '# For debian/symbols.wildcards of glibc %s with %s.  Set\n'
            '# OSYNC_DEBIAN_VERSION to the version of the patched package\n'
            '# (for example 2.36-9+deb12u14+osync1).  The alternative\n'
            '# dependency keeps a program that needs %s away from a glibc\n'
            '# %d.%d or later without this series, whose %s, if upstream\n'
            '# releases one without it, holds other symbols.\n'
            '| #PACKAGE# (>= OSYNC_DEBIAN_VERSION), #PACKAGE# (<< %d.%d)\n'
            ' (symver)%s OSYNC_DEBIAN_VERSION 1\n'
            % (base, NAME, f['OSYNC_NODE'], major, minor + 1, f['OSYNC_NODE'],
               major, minor + 1, f['OSYNC_NODE']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
