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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import facts  # noqa: E402

PROJECT_DIRS_NOT_GLIBC = {'.git'}


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
            for root, dirs, names in os.walk(path):
                # Python's byte code, left by a test that imported a
                # fragment, is no fragment.
                dirs[:] = [d for d in dirs if d != '__pycache__']
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
    tops = os.listdir(tmp)
    if len(tops) != 1 or not tops[0].startswith('glibc-'):
        raise Error('%s does not unpack into one glibc-VERSION directory'
                    % tarball)
    os.rename(os.path.join(tmp, tops[0]), repo)
    os.rmdir(tmp)
    init_repo(repo, tops[0])
    open(os.path.join(repo, '.osync-complete'), 'w').close()
    return repo


def commit_env(author, email, date):
    stamp = date + 'T00:00:00Z'
    return {'GIT_AUTHOR_NAME': author, 'GIT_AUTHOR_EMAIL': email,
            'GIT_AUTHOR_DATE': stamp, 'GIT_COMMITTER_NAME': author,
            'GIT_COMMITTER_EMAIL': email, 'GIT_COMMITTER_DATE': stamp}


def init_repo(repo, name):
    """Commit the tree at REPO as its first commit, every file in it."""
    git(repo, 'init', '-q')
    # The marker file is the driver's, not glibc's.
    with open(os.path.join(repo, '.git', 'info', 'exclude'), 'a') as f:
        f.write('/.osync-complete\n')
    git(repo, 'add', '-A', '-f')
    git(repo, 'commit', '-q', '-m', '%s as shipped in glibc-source' % name,
        env=commit_env('glibc-source', 'glibc-source@localhost',
                       '2022-08-02'))


def read_families(path):
    """The entry-point table (Versions): {family: [symbols]}, in order.
    The family "-" holds the entry points that keep their one version."""
    fams = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.split('#', 1)[0].split()
            if not fields:
                continue
            if len(fields) != 2:
                raise Error('%s:%d: want "SYMBOL FAMILY", not %r'
                            % (path, n, line.rstrip()))
            fams.setdefault(fields[1], []).append(fields[0])
    if not fams:
        raise Error('%s lists no entry point' % path)
    return fams


def add_node_symbols(repo, node, symbols):
    """Add SYMBOLS to NODE of libc in sysdeps/unix/sysv/linux/Versions,
    making the node (before GLIBC_PRIVATE) if it is not there."""
    path = os.path.join(repo, 'sysdeps/unix/sysv/linux/Versions')
    with open(path) as f:
        lines = f.read().split('\n')
    try:
        libc = lines.index('libc {')
        end = lines.index('}', libc)
    except ValueError:
        raise Error('%s has no "libc {" block' % path)
    head = '  %s {' % node
    if head not in lines[libc:end]:
        try:
            priv = lines.index('  GLIBC_PRIVATE {', libc, end)
        except ValueError:
            raise Error('%s: no GLIBC_PRIVATE node in libc' % path)
        lines[priv:priv] = [head, '  }']
    at = lines.index(head, libc)
    close = lines.index('  }', at)
    have = [l.strip().rstrip(';') for l in lines[at + 1:close]]
    lines[close:close] = ['    %s;' % s for s in symbols if s not in have]
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


def add_abilist_symbols(repo, node, symbols):
    """Give each of SYMBOLS version NODE in every Linux libc.abilist
    that has the symbol, keeping the file's C-locale order."""
    base = os.path.join(repo, 'sysdeps/unix/sysv/linux')
    count = 0
    for root, _, names in os.walk(base):
        if 'libc.abilist' not in names:
            continue
        path = os.path.join(root, 'libc.abilist')
        with open(path) as f:
            lines = f.read().splitlines()
        have = {tuple(l.split()[:2]) for l in lines}
        names_in = {l.split()[1] for l in lines if len(l.split()) > 1}
        for sym in symbols:
            if sym not in names_in or (node, sym) in have:
                continue
            new = '%s %s F' % (node, sym)
            key = new.encode()
            i = 0
            while i < len(lines) and lines[i].encode() < key:
                i += 1
            lines.insert(i, new)
            count += 1
        with open(path, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return count


NEWS_SUBSECTION = ('Deprecated and removed features, and other changes '
                   'affecting compatibility:')


def add_news(repo, entry, version):
    """Put ENTRY (the items of NEWS.entry, for NEWS_SUBSECTION) into the
    section "Version VERSION" of NEWS: into its subsection NEWS_SUBSECTION,
    in place of the placeholder a new section has there, or, if NEWS has
    no such section yet (a release tarball), into a new one at the top."""
    path = os.path.join(repo, 'NEWS')
    with open(path) as f:
        lines = f.read().split('\n')
    items = entry.strip('\n').split('\n')
    if items[0] == NEWS_SUBSECTION:
        items = items[1:]
    while items and not items[0].strip():
        items.pop(0)
    versions = [i for i, l in enumerate(lines) if l.startswith('Version ')]
    if not versions:
        raise Error('%s has no "Version" line' % path)
    head = 'Version %s' % version
    if head not in lines:
        at = versions[0]
        lines[at:at] = [head, '', NEWS_SUBSECTION, ''] + items + ['']
    else:
        start = lines.index(head)
        end = next((i for i in versions if i > start), len(lines))
        try:
            sub = lines.index(NEWS_SUBSECTION, start, end)
        except ValueError:
            raise Error('%s: the section "%s" has no "%s" subsection'
                        % (path, head, NEWS_SUBSECTION))
        at = sub + 1
        while at < end and not lines[at].strip():
            at += 1
        if at < end and lines[at].strip().startswith('[Add '):
            del lines[at]
            end -= 1
        # The items first, each group of lines one blank line apart.
        at = sub + 1
        while at < end and not lines[at].strip():
            at += 1
        lines[sub + 1:at] = [''] + items + ['']
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


def commit_message(subject, body, signer):
    """The commit message of an entry: the subject and the text before
    the GNU ChangeLog block (glibc dropped those in 2.31) and without
    the project's own "Family:" lines, signed off by SIGNER ("Name
    <email>", the identity of ChangeLog.entry's header; a person signs
    off before the series is posted)."""
    kept = []
    for line in body.split('\n'):
        if line.startswith('\t* ') or line.startswith('\t'):
            break
        if line.startswith('Family: '):
            continue
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    if len(subject) > 72:
        raise Error('the subject "%s" has %d characters; at most 72'
                    % (subject, len(subject)))
    if not kept:
        raise Error('the entry "%s" has no commit message: write what the '
                    'commit changes and why before its ChangeLog lines'
                    % subject)
    return (subject + '\n\n' + '\n'.join(kept) + '\n\nSigned-off-by: '
            + signer + '\n')


def entry_families(body):
    return [l[len('Family: '):].strip() for l in body.split('\n')
            if l.startswith('Family: ')]


def read_skip(path):
    """Glibc paths a backport does not take (one a line)."""
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {l.split('#', 1)[0].strip() for l in f} - {''}


def build_series(top, base, tarball, tar_sha, cache, dist):
    top = os.path.abspath(top)
    cache = os.path.abspath(cache)
    facts_ = facts.load(os.path.join(top, 'facts'))
    primary = facts_['OSYNC_PRIMARY_BASE']
    fragdir = os.path.join(top, 'glibc')
    overdir = None if base == primary else os.path.join(top, 'backport-' + base)
    if overdir and not os.path.isdir(overdir):
        raise Error('there is no backport to glibc %s (no %s); the bases are '
                    '%s and %s' % (base, overdir, primary,
                                   facts_['OSYNC_BACKPORT_BASE']))
    glibc_dirs, glibc_files = glibc_top_entries(tarball)
    frags = list_fragments(fragdir, glibc_dirs, glibc_files)
    if not frags:
        raise Error('no glibc fragment found under %s' % fragdir)
    overrides = (list_fragments(overdir, glibc_dirs, glibc_files)
                 if overdir else [])
    skip = read_skip(os.path.join(overdir, 'SKIP')) if overdir else set()
    changelog = os.path.join(fragdir, 'ChangeLog.entry')
    author, email, date, entries = parse_changelog(changelog)
    families = read_families(os.path.join(top, 'Versions'))
    key = fragments_key(top, ['glibc/' + f for f in frags]
                        + ['backport-%s/%s' % (base, f) for f in overrides],
                        ['glibc/ChangeLog.entry', 'Versions', 'facts',
                         'glibc/NEWS.entry',
                         os.path.relpath(os.path.abspath(__file__), top),
                         os.path.relpath(facts.__file__, top)]
                        + ([os.path.relpath(os.path.join(overdir, 'SKIP'),
                                            top)]
                           if os.path.exists(os.path.join(overdir or '',
                                                          'SKIP')) else []))
    pristine = ensure_pristine(tarball, tar_sha, cache)
    pristine_files = set(git(pristine, 'ls-files', capture=True).split('\n'))

    # Check the layout before touching anything.
    def index(dirname, lst):
        targets = {}
        for frag in lst:
            target, number = target_of(frag)
            targets.setdefault(target, []).append((number, frag))
        for target, l in targets.items():
            l.sort()
            numbers = [n for n, _ in l]
            if numbers != [0] and numbers != list(range(1, len(l) + 1)):
                raise Error('the fragments of %s in %s must be %s.diff alone '
                            'or %s.1.diff, %s.2.diff, ... without gaps; '
                            'found %s' % (target, dirname, target, target,
                                          target, ', '.join(f for _, f in l)))
            targets[target] = [f for _, f in l]
        return targets
    targets = index(fragdir, frags)
    over_targets = index(overdir, overrides) if overdir else {}
    for target, lst in over_targets.items():
        if target not in targets or len(lst) != len(targets[target]):
            raise Error('%s overrides %s, which glibc/ has as %s; give one '
                        'override per fragment, with the same names'
                        % (overdir, ', '.join(lst), ', '.join(
                            targets.get(target, ['nothing']))))
    for target in skip:
        if target not in targets:
            raise Error('%s/SKIP names %s, which no fragment changes'
                        % (overdir, target))
    for target, lst in targets.items():
        if target in skip:
            continue
        src_dir = overdir if target in over_targets else fragdir
        use = over_targets.get(target, lst)
        for frag, primary_frag in zip(use, lst):
            if frag.endswith('.diff'):
                # A backport changes a file the series adds with a diff
                # against the primary base's version of it.
                if (target not in pristine_files
                        and (src_dir == fragdir
                             or primary_frag.endswith('.diff'))):
                    raise Error('%s is a diff for %s, which glibc %s does '
                                'not have; a new file goes in as %s itself'
                                % (os.path.join(src_dir, frag), target, base,
                                   target))
                if os.path.getsize(os.path.join(src_dir, frag)):
                    check_diff_names(src_dir, frag)
            elif target in pristine_files:
                raise Error('%s would replace the existing glibc file %s; '
                            'change existing files with a unified diff in '
                            '%s.diff' % (os.path.join(src_dir, frag), target,
                                         target))
    named = {}
    for subject, body, files in entries:
        for fam in entry_families(body):
            if fam not in families or fam == '-':
                raise Error('ChangeLog.entry ("%s") names the family %s, '
                            'which Versions does not have' % (subject, fam))
        for name in sorted(set(files)):
            if name in ('sysdeps/unix/sysv/linux/Versions', 'NEWS') \
               or name.endswith('/libc.abilist'):
                continue
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

    patched = os.path.join(cache, 'src', 'glibc-%s-patched' % base)
    stamp = os.path.join(patched, '.osync-complete')
    done = open(stamp).read().strip() if os.path.exists(stamp) else ''
    if done != key:
        shutil.rmtree(patched, ignore_errors=True)
        git(os.path.dirname(patched), 'clone', '-q', pristine, patched)
        with open(os.path.join(patched, '.git', 'info', 'exclude'),
                  'a') as f:
            f.write('/.osync-complete\n')
        env = commit_env(author, email, date)
        queue = {t: list(over_targets.get(t, l)) for t, l in targets.items()}
        primary_queue = {t: list(l) for t, l in targets.items()}
        news = os.path.join(fragdir, 'NEWS.entry')
        target_news = None
        if os.path.exists(news):
            with open(news) as f:
                target_news = facts.subst(f.read(), facts_, news)
        made = 0
        for subject, body, files in entries:
            for target in sorted(set(files)):
                if target not in queue:
                    continue
                frag = queue[target].pop(0)
                primary_frag = primary_queue[target].pop(0)
                if target in skip:
                    continue
                src_dir = overdir if target in over_targets else fragdir
                with open(os.path.join(src_dir, frag)) as f:
                    text = facts.subst(f.read(), facts_,
                                       os.path.join(src_dir, frag))
                if frag.endswith('.diff') and not text.strip():
                    continue      # An empty override: not in this base.
                if frag.endswith('.diff') and target not in pristine_files:
                    # The primary base's new file, changed by the diff.
                    write_new_file(patched, target, fragdir, primary_frag,
                                   facts_)
                if frag.endswith('.diff'):
                    with tempfile.NamedTemporaryFile('w', delete=False,
                                                     suffix='.diff') as f:
                        f.write(text)
                    try:
                        git(patched, 'apply', '--index', '--recount',
                            '--whitespace=nowarn', f.name)
                    except Error as e:
                        raise Error('%s does not apply to glibc %s (%s); %s'
                                    % (os.path.join(src_dir, frag), base,
                                       tarball, e)
                                    + ('' if overdir else
                                       '; if this glibc %s tarball is newer '
                                       'than the one the series was made '
                                       'for, rebase the fragments onto it'
                                       % base))
                    finally:
                        os.unlink(f.name)
                else:
                    write_new_file(patched, target, src_dir, frag, facts_)
            # NEWS is upstream's: the backport leaves it alone.
            if 'NEWS' in files and target_news and not overdir:
                add_news(patched, target_news,
                         facts_['OSYNC_NODE_VERSION'])
            fams = entry_families(body)
            for fam in fams:
                add_node_symbols(patched, facts_['OSYNC_NODE'],
                                 families[fam])
                add_abilist_symbols(patched, facts_['OSYNC_NODE'],
                                    families[fam])
            git(patched, 'add', '-A')
            if not git(patched, 'status', '--porcelain', capture=True):
                continue          # Nothing of this step is in this base.
            with tempfile.NamedTemporaryFile('w', delete=False) as f:
                f.write(facts.subst(
                    commit_message(subject, body,
                                   '%s <%s>' % (author, email)),
                    facts_, changelog))
            try:
                git(patched, 'commit', '-q', '--cleanup=verbatim', '-F',
                    f.name, env=env)
            finally:
                os.unlink(f.name)
            made += 1
        with open(os.path.join(patched, '.osync-commits'), 'w') as f:
            f.write('%d\n' % made)
        with open(stamp, 'w') as f:
            f.write(key + '\n')
    with open(os.path.join(patched, '.osync-commits')) as f:
        made = int(f.read())

    shutil.rmtree(dist, ignore_errors=True)
    os.makedirs(dist)
    cover = os.path.join(fragdir, 'cover-letter')
    # An RFC until the kernel has merged __O_RSYNC (the cover letter
    # says so): glibc does not allocate the kernel's flag bits.
    args = ['format-patch', '-q', '--no-signature',
            '--subject-prefix=RFC PATCH', '-o', os.path.abspath(dist)]
    if os.path.exists(cover) and not overdir:
        args.append('--cover-letter')
    # The cover letter is from the identity the commits are from.
    git(patched, *args, 'HEAD~%d' % made,
        env=commit_env(author, email, date))
    if os.path.exists(cover) and not overdir:
        write_cover(os.path.join(dist, '0000-cover-letter.patch'), cover,
                    facts_, base, tarball, tar_sha)
    return pristine, patched


def write_new_file(patched, target, src_dir, frag, facts_):
    """Add TARGET to the tree PATCHED from the fragment FRAG of SRC_DIR,
    a file the series adds."""
    with open(os.path.join(src_dir, frag)) as f:
        text = facts.subst(f.read(), facts_, os.path.join(src_dir, frag))
    dst = os.path.join(patched, target)
    os.makedirs(os.path.dirname(dst) or patched, exist_ok=True)
    with open(dst, 'w') as f:
        f.write(text)
    shutil.copymode(os.path.join(src_dir, frag), dst)
    git(patched, 'add', '-f', target)


# The manual's text, which the tarballs' missing manual/ keeps out of
# the patches: appended to the cover letter (doc/README).
MANUAL_TEXTS = ('tunables.texi.in', 'operating-modes.texi.in')


def write_cover(path, cover, facts_, base, tarball, tar_sha):
    """Fill git's cover-letter template from the project's text."""
    with open(cover) as f:
        text = facts.subst(f.read(), facts_, cover)
    subject, _, blurb = text.partition('\n')
    blurb = blurb.strip('\n') + ('\n\nBase: glibc %s, %s (sha256 %s).\n'
                                  % (base, os.path.basename(tarball),
                                     tar_sha))
    docdir = os.path.join(os.path.dirname(os.path.dirname(cover)), 'doc')
    manual = ''
    for name in MANUAL_TEXTS:
        doc = os.path.join(docdir, name)
        with open(doc) as f:
            texi = facts.subst(f.read(), facts_, doc)
        manual += ('\n==== For manual/%s ====\n\n%s'
                   % ('tunables.texi' if name.startswith('tunables')
                      else 'llio.texi', texi.lstrip('\n')))
    with open(path) as f:
        letter = f.read()
    if '*** SUBJECT HERE ***' not in letter or '*** BLURB HERE ***' not in letter:
        raise Error('git format-patch wrote an unexpected cover letter')
    letter = letter.replace('*** SUBJECT HERE ***', subject.strip())
    letter = letter.replace('*** BLURB HERE ***', blurb)
    letter = letter.rstrip('\n') + '\n' + manual
    with open(path, 'w') as f:
        f.write(letter)


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
    parser.add_argument('--base', required=True,
                        help='the glibc release (2.44, or 2.36 for the '
                        'backport)')
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
            print('\n'.join(list_fragments(os.path.join(args.top, 'glibc'),
                                            d, f)))
            return 0
        pristine, patched = build_series(args.top, args.base, args.tarball,
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
