#!/usr/bin/python3
# The project's facts (the file `facts` at the top), with the values
# derived from them, for every script and template.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""Read the project's facts file and substitute @NAME@ in templates.

  facts.py get NAME           print one value
  facts.py shell              NAME='value' lines for `eval`
  facts.py subst [FILE...]    copy FILE (or standard input) to standard
                              output with every @NAME@ replaced; an
                              unknown @NAME@ is an error
  facts.py c-header           #define lines for C programs

Derived values, so that no file spells them out again:
  OSYNC_NODE_ID        GLIBC_2_45 (the node as glibc's C macros name it)
  OSYNC_NODE_VERSION   2.45
  OSYNC_RSYNC_HEX      the bit in hexadecimal
  OSYNC_RSYNC_SHIFT    its bit number
  OSYNC_OPENAT2_RSYNC_HEX  OPENAT2_RSYNC, (1 << OSYNC_OPENAT2_RSYNC_SHIFT),
                       in hexadecimal
"""

import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME_RE = re.compile(r'@(OSYNC_[A-Z0-9_]+)@')


class Error(Exception):
    pass


def load(path=None):
    """Return the facts as a dict, derived values included."""
    path = path or os.path.join(TOP, 'facts')
    facts = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r'(OSYNC_[A-Z0-9_]+)=(\S+)', line)
            if not m:
                raise Error('%s:%d: not a NAME=VALUE line: %r'
                            % (path, n, line))
            facts[m.group(1)] = m.group(2)
    for need in ('OSYNC_NODE', 'OSYNC_RSYNC_BIT'):
        if need not in facts:
            raise Error('%s does not define %s' % (path, need))
    m = re.fullmatch(r'GLIBC_(\d+)\.(\d+)', facts['OSYNC_NODE'])
    if not m:
        raise Error('%s: OSYNC_NODE must be GLIBC_X.Y, not %s'
                    % (path, facts['OSYNC_NODE']))
    facts['OSYNC_NODE_ID'] = 'GLIBC_%s_%s' % m.groups()
    facts['OSYNC_NODE_VERSION'] = '%s.%s' % m.groups()
    bit = int(facts['OSYNC_RSYNC_BIT'], 8)
    if bit & (bit - 1) or not 0 < bit < 1 << 31:
        raise Error('%s: OSYNC_RSYNC_BIT must be one bit below the sign '
                    'bit, in octal with a leading 0, not %s'
                    % (path, facts['OSYNC_RSYNC_BIT']))
    facts['OSYNC_RSYNC_HEX'] = hex(bit)
    facts['OSYNC_RSYNC_SHIFT'] = str(bit.bit_length() - 1)
    if 'OSYNC_RWF_RSYNC' in facts:
        m = re.fullmatch(r'0x([0-9a-f]{8})', facts['OSYNC_RWF_RSYNC'])
        rwf = int(m.group(1), 16) if m else 0
        if not m or rwf & (rwf - 1) or not 0 < rwf < 1 << 31:
            raise Error('%s: OSYNC_RWF_RSYNC must be one bit below the sign '
                        'bit, as 0x and eight lowercase hexadecimal digits, '
                        'not %s' % (path, facts['OSYNC_RWF_RSYNC']))
    if 'OSYNC_OPENAT2_RSYNC_SHIFT' in facts:
        shift = facts['OSYNC_OPENAT2_RSYNC_SHIFT']
        # The upper 32 bits of open_how.flags, and not bit 32
        # (OPENAT2_REGULAR).
        if not re.fullmatch(r'\d+', shift) or not 33 <= int(shift) <= 63:
            raise Error('%s: OSYNC_OPENAT2_RSYNC_SHIFT must be a bit number '
                        'from 33 to 63 (32 is OPENAT2_REGULAR), not %s'
                        % (path, shift))
        facts['OSYNC_OPENAT2_RSYNC_HEX'] = hex(1 << int(shift))
    if 'OSYNC_UAPI_RSYNC' in facts:
        name = facts['OSYNC_UAPI_RSYNC']
        # glibc's headers test __O_RSYNC and define O_RSYNC: a kernel
        # header must define neither.
        if (not re.fullmatch(r'__O_[A-Z][A-Z0-9_]*', name)
                or name in ('__O_RSYNC', '__O_SYNC', '__O_DSYNC')):
            raise Error('%s: OSYNC_UAPI_RSYNC must be a reserved name '
                        '__O_NAME that no C library tests (not __O_RSYNC), '
                        'not %s' % (path, name))
    return facts


def subst(text, facts, where='<input>'):
    """TEXT with each @NAME@ replaced by its value."""
    def one(m):
        if m.group(1) not in facts:
            raise Error('%s: unknown fact @%s@ (the facts file defines %s)'
                        % (where, m.group(1), ', '.join(sorted(facts))))
        return facts[m.group(1)]
    return NAME_RE.sub(one, text)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        facts = load(os.environ.get('OSYNC_FACTS'))
        cmd, args = argv[0], argv[1:]
        if cmd == 'get' and len(args) == 1:
            if args[0] not in facts:
                raise Error('no fact %s' % args[0])
            print(facts[args[0]])
        elif cmd == 'shell' and not args:
            for k, v in sorted(facts.items()):
                print("%s='%s'" % (k, v))
        elif cmd == 'c-header' and not args:
            for k, v in sorted(facts.items()):
                if k in ('OSYNC_NODE', 'OSYNC_NODE_VERSION'):
                    v = '"%s"' % v
                print('#define %s %s' % (k, v))
        elif cmd == 'subst':
            if not args:
                sys.stdout.write(subst(sys.stdin.read(), facts))
            for a in args:
                with open(a) as f:
                    sys.stdout.write(subst(f.read(), facts, a))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (Error, OSError) as e:
        print('facts.py: error: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
