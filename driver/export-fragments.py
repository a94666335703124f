#!/usr/bin/python3
# Write the commits of a glibc work tree back into the project as
# fragments.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Export the commits of a glibc git tree as the project's fragments.

For developers: clone the pristine tree the driver keeps in the cache
(src/pristine-*), make one commit per entry of ChangeLog.entry, then run

  driver/export-fragments.py --tree CLONE --tarball TARBALL

from the project's top directory.  Every existing fragment is replaced:
a file one commit changes becomes FILE.diff, a file several commits
change becomes FILE.1.diff, FILE.2.diff, ..., and a new file is copied.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkseries  # noqa: E402


def git(tree, *args):
    return subprocess.run(['git', '-C', tree] + list(args), check=True,
                          stdout=subprocess.PIPE, text=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--tree', required=True)
    parser.add_argument('--tarball', required=True)
    args = parser.parse_args()
    if not os.path.exists('ChangeLog.entry'):
        sys.exit('export-fragments: run this from the project\'s top '
                 'directory')
    root = git(args.tree, 'rev-list', '--max-parents=0', 'HEAD').split()[0]
    commits = git(args.tree, 'rev-list', '--reverse', root + '..HEAD').split()
    changes = {}
    for c in commits:
        out = git(args.tree, 'diff-tree', '--no-commit-id', '--name-status',
                  '-r', '--no-renames', c + '^', c)
        for line in out.splitlines():
            status, path = line.split('\t', 1)
            changes.setdefault(path, []).append((status, c))
    dirs, files = mkseries.glibc_top_entries(args.tarball)
    for old in mkseries.list_fragments('.', dirs, files):
        os.unlink(old)
    for path, lst in sorted(changes.items()):
        if lst[0][0] == 'A':
            if len(lst) != 1:
                sys.exit('export-fragments: the new file %s is changed by '
                         '%d commits; fold them into one' % (path, len(lst)))
            os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
            with open(path, 'w') as f:
                f.write(git(args.tree, 'show', '%s:%s' % (lst[0][1], path)))
            print('new  %s' % path)
            continue
        for i, (status, c) in enumerate(lst, 1):
            if status != 'M':
                sys.exit('export-fragments: %s: status %s in %s is not '
                         'supported' % (path, status, c))
            name = path + ('.%d.diff' % i if len(lst) > 1 else '.diff')
            os.makedirs(os.path.dirname(name) or '.', exist_ok=True)
            with open(name, 'w') as f:
                f.write(git(args.tree, 'diff', '--no-color', c + '^', c,
                            '--', path))
            print('diff %s' % name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
