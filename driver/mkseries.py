#!/usr/bin/python3
# Turn the project's glibc fragments into a patched glibc tree and a
# git format-patch series.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Apply the project's glibc fragments to a pristine glibc tree.

The fragments live in the project at their glibc paths:

  * a top-level directory whose name is a top-level directory of the
    glibc tree (sysdeps/, io/, include/, ...) holds fragments;
  * inside it, FILE.diff is a unified diff (a/ and b/ prefixes) for the
    existing glibc file FILE, and any other file is a new file that the
    glibc tree must not have; a file that several commits change has
    one diff per commit, FILE.1.diff, FILE.2.diff, ..., each on top of
    the one before;
  * at the top, FILE.diff is a diff for glibc's top-level FILE (NEWS).

ChangeLog.entry holds one entry per commit of the series.  Its first
line is the GNU ChangeLog header ("DATE  NAME  <EMAIL>"); each entry
starts with a "Subject: " line, and its "* FILE ..." lines name the
files that commit changes.  Every fragment must be named by exactly one
entry, and every file an entry names must be a fragment.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROJECT_DIRS_NOT_GLIBC = {'driver', 'tests', 'doc', 'kemu', 'kernel',
                          'bench', 'dist', 'results', '.ci', '.git'}


class Error(Exception):
    """A problem the user must fix; the message says how."""


def git(repo, *args, env=None, capture=False):
    """Run git in REPO with a fixed identity and dates."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    res = subprocess.run(['git', '-C', repo] + list(args), env=full_env,
                         stdout=subprocess.PIPE if capture else
                         subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        raise Error('git %s failed in %s:\n%s'
                    % (' '.join(args), repo, res.stderr.strip()))
    return res.stdout.strip() if capture else None


def glibc_top_entries(tarball):
    """Names of the top-level files and directories of the glibc tree."""
    res = subprocess.run(['tar', '-tJf', tarball], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        raise Error('cannot list %s: %s' % (tarball, res.stderr.strip()))
    dirs, files = set(), set()
    for name in res.stdout.splitlines():
        parts = name.split('/')
        if len(parts) == 2 and parts[1]:
            files.add(parts[1])
        elif len(parts) > 2:
            dirs.add(parts[1])
    return dirs, files


def list_fragments(top, glibc_dirs, glibc_files):
    """Return the fragment paths (relative to TOP), sorted."""
    frags = []
    for entry in sorted(os.listdir(top)):
        path = os.path.join(top, entry)
        if os.path.isdir(path):
            if entry in PROJECT_DIRS_NOT_GLIBC or entry not in glibc_dirs:
                continue
            for root, _, names in os.walk(path):
                for name in names:
                    rel = os.path.relpath(os.path.join(root, name), top)
                    if not name.endswith('~'):
                        frags.append(rel)
        elif entry.endswith('.diff') and entry[:-5] in glibc_files:
            frags.append(entry)
    return sorted(frags)


def fragments_key(top, frags, extra_files):
    """A hash of every fragment's path and content and EXTRA_FILES."""
    h = hashlib.sha256()
    for rel in list(frags) + list(extra_files):
        h.update(rel.encode() + b'\0')
        with open(os.path.join(top, rel), 'rb') as f:
            h.update(f.read())
        h.update(b'\0')
    return h.hexdigest()[:16]


def parse_changelog(path):
    """Return (author, email, date, [(subject, body, files)])."""
    with open(path) as f:
        lines = f.read().split('\n')
    m = re.fullmatch(r'(\d{4}-\d\d-\d\d)  (.+?)  <([^>]+)>', lines[0])
    if not m:
        raise Error('%s: the first line must be the ChangeLog header '
                    '"YYYY-MM-DD  Name  <email>", not %r' % (path, lines[0]))
    date, author, email = m.groups()
    entries = []
    cur = None
    for line in lines[1:]:
        if line.startswith('Subject: '):
            cur = [line[len('Subject: '):].strip(), []]
            entries.append(cur)
        elif cur is not None:
            cur[1].append(line)
        elif line.strip():
            raise Error('%s: text before the first "Subject: " line: %r'
                        % (path, line))
    result = []
    for subject, body in entries:
        files = []
        pending = None
        for line in body:
            text = line.strip()
            if pending is not None:
                text = pending + ' ' + text
                pending = None
            elif not text.startswith('* '):
                continue
            else:
                text = text[2:]
            m = re.match(r'([^():[]+?)\s*(?:[([:]|$)', text)
            names = [n.strip() for n in m.group(1).split(',') if n.strip()]
            if m.group(1).rstrip().endswith(','):
                pending = text
                continue
            files.extend(names)
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        if not files:
            raise Error('%s: the entry "%s" names no file ("* FILE ...")'
                        % (path, subject))
        result.append((subject, '\n'.join(body), files))
    if not result:
        raise Error('%s has no entry (no "Subject: " line)' % path)
    return author, email, date, result


def target_of(frag):
    """The glibc path a fragment changes or creates, and its number."""
    m = re.fullmatch(r'(.+?)(?:\.(\d+))?\.diff', frag)
    if m:
        return m.group(1), int(m.group(2) or 0)
    return frag, 0


def check_diff_names(top, frag):
    """A FRAG.diff must change exactly the file it is named after."""
    want = target_of(frag)[0]
    seen = set()
    with open(os.path.join(top, frag)) as f:
        for line in f:
            if line.startswith('--- ') or line.startswith('+++ '):
                name = line[4:].split('\t')[0].strip()
                if name != '/dev/null':
                    seen.add(re.sub(r'^[ab]/', '', name))
    if seen != {want}:
        raise Error('%s must be a unified diff of %s alone (a/%s, b/%s); '
                    'it names %s' % (frag, want, want, want,
                                     ', '.join(sorted(seen)) or 'no file'))


def ensure_pristine(tarball, tar_sha, cache):
    """A git repository holding the pristine tree, cached by TAR_SHA."""
    repo = os.path.join(cache, 'src', 'pristine-' + tar_sha[:16])
    if os.path.exists(os.path.join(repo, '.osync-complete')):
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.dirname(repo), exist_ok=True)
    tmp = tempfile.mkdtemp(dir=os.path.dirname(repo), prefix='.unpack-')
    subprocess.run(['tar', '-xJf', tarball, '-C', tmp], check=True)
    os.rename(os.path.join(tmp, 'glibc-2.36'), repo)
    os.rmdir(tmp)
    init_repo(repo)
    open(os.path.join(repo, '.osync-complete'), 'w').close()
    return repo


def commit_env(author, email, date):
    stamp = date + 'T00:00:00Z'
    return {'GIT_AUTHOR_NAME': author, 'GIT_AUTHOR_EMAIL': email,
            'GIT_AUTHOR_DATE': stamp, 'GIT_COMMITTER_NAME': author,
            'GIT_COMMITTER_EMAIL': email, 'GIT_COMMITTER_DATE': stamp}


def init_repo(repo):
    """Commit the tree at REPO as its first commit, every file in it."""
    git(repo, 'init', '-q')
    # The marker file is the driver's, not glibc's.
    with open(os.path.join(repo, '.git', 'info', 'exclude'), 'a') as f:
        f.write('/.osync-complete\n')
    git(repo, 'add', '-A', '-f')
    git(repo, 'commit', '-q', '-m', 'glibc 2.36 as shipped in glibc-source',
        env=commit_env('glibc-source', 'glibc-source@localhost',
                       '2022-08-02'))


def build_series(top, tarball, tar_sha, cache, dist):
    top = os.path.abspath(top)
    cache = os.path.abspath(cache)
    glibc_dirs, glibc_files = glibc_top_entries(tarball)
    frags = list_fragments(top, glibc_dirs, glibc_files)
    if not frags:
        raise Error('no glibc fragment found under %s' % top)
    changelog = os.path.join(top, 'ChangeLog.entry')
    author, email, date, entries = parse_changelog(changelog)
    key = fragments_key(top, frags,
                        ['ChangeLog.entry',
                         os.path.relpath(os.path.abspath(__file__), top)])
    pristine = ensure_pristine(tarball, tar_sha, cache)
    pristine_files = set(git(pristine, 'ls-files', capture=True).split('\n'))

    # Check the layout before touching anything.
    targets = {}
    for frag in frags:
        target, number = target_of(frag)
        if frag.endswith('.diff'):
            if target not in pristine_files:
                raise Error('%s is a diff for %s, which glibc 2.36 does not '
                            'have; a new file goes in as %s itself'
                            % (frag, target, target))
            check_diff_names(top, frag)
        elif frag in pristine_files:
            raise Error('%s would replace the existing glibc file %s; '
                        'change existing files with a unified diff in %s.diff'
                        % (frag, frag, frag))
        targets.setdefault(target, []).append((number, frag))
    for target, lst in targets.items():
        lst.sort()
        numbers = [n for n, _ in lst]
        if numbers != [0] and numbers != list(range(1, len(lst) + 1)):
            raise Error('the fragments of %s must be %s.diff alone or '
                        '%s.1.diff, %s.2.diff, ... without gaps; found %s'
                        % (target, target, target, target,
                           ', '.join(f for _, f in lst)))
        targets[target] = [f for _, f in lst]
    named = {}
    for subject, _, files in entries:
        for name in sorted(set(files)):
            if name not in targets:
                raise Error('ChangeLog.entry ("%s") names %s, which no '
                            'fragment changes' % (subject, name))
            named.setdefault(name, []).append(subject)
    missing = sorted(set(targets) - set(named))
    if missing:
        raise Error('ChangeLog.entry names no entry for %s; add a "* FILE" '
                    'line to the entry whose commit changes it'
                    % ', '.join(missing))
    for name, subjects in sorted(named.items()):
        if len(subjects) != len(targets[name]):
            raise Error('%d ChangeLog entries name %s, which has %d '
                        'fragments (%s); give it one diff per entry, '
                        'numbered in the order of the entries'
                        % (len(subjects), name, len(targets[name]),
                           ', '.join(targets[name])))

    patched = os.path.join(cache, 'src', 'patched-' + key)
    if not os.path.exists(os.path.join(patched, '.osync-complete')):
        shutil.rmtree(patched, ignore_errors=True)
        git(os.path.dirname(patched), 'clone', '-q', pristine, patched)
        with open(os.path.join(patched, '.git', 'info', 'exclude'),
                  'a') as f:
            f.write('/.osync-complete\n')
        env = commit_env(author, email, date)
        for subject, body, files in entries:
            for target in sorted(set(files)):
                frag = targets[target].pop(0)
                src = os.path.join(top, frag)
                if frag.endswith('.diff'):
                    git(patched, 'apply', '--index', '--whitespace=nowarn',
                        src)
                else:
                    dst = os.path.join(patched, target)
                    os.makedirs(os.path.dirname(dst) or patched,
                                exist_ok=True)
                    shutil.copy2(src, dst)
                    git(patched, 'add', '-f', target)
            msg = subject + '\n\n' + body + '\n'
            with tempfile.NamedTemporaryFile('w', delete=False) as f:
                f.write(msg)
            try:
                git(patched, 'commit', '-q', '--cleanup=verbatim', '-F',
                    f.name, env=env)
            finally:
                os.unlink(f.name)
        prune(os.path.join(cache, 'src'), 'patched-', 3)
        open(os.path.join(patched, '.osync-complete'), 'w').close()

    shutil.rmtree(dist, ignore_errors=True)
    os.makedirs(dist)
    git(patched, 'format-patch', '-q', '--no-signature', '-o',
        os.path.abspath(dist), 'HEAD~%d' % len(entries))
    return pristine, patched


def prune(directory, prefix, keep):
    """Remove all but the KEEP newest PREFIX* entries of DIRECTORY."""
    entries = sorted((e for e in os.listdir(directory)
                      if e.startswith(prefix)),
                     key=lambda e: os.path.getmtime(
                         os.path.join(directory, e)), reverse=True)
    for old in entries[keep:]:
        shutil.rmtree(os.path.join(directory, old), ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--top', required=True,
                        help='the project directory (fragments)')
    parser.add_argument('--tarball', required=True)
    parser.add_argument('--tarball-sha256', required=True)
    parser.add_argument('--cache', required=True)
    parser.add_argument('--dist', required=True,
                        help='where to write the NNNN-*.patch series')
    parser.add_argument('--print', choices=['pristine', 'patched'],
                        action='append', default=[],
                        help='print these paths after the series is made')
    parser.add_argument('--list-fragments', action='store_true')
    args = parser.parse_args()
    try:
        if args.list_fragments:
            d, f = glibc_top_entries(args.tarball)
            print('\n'.join(list_fragments(args.top, d, f)))
            return 0
        pristine, patched = build_series(args.top, args.tarball,
                                         args.tarball_sha256, args.cache,
                                         args.dist)
    except Error as e:
        print('mkseries: error: %s' % e, file=sys.stderr)
        return 1
    for what in args.print:
        print({'pristine': pristine, 'patched': patched}[what])
    return 0


if __name__ == '__main__':
    sys.exit(main())
