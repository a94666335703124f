#!/usr/bin/env python3
"""Check the synchronized-read open flag in one architecture's uapi
<asm/fcntl.h>, or RWF_RSYNC in <linux/fs.h>.

  check-uapi.py ARCH < cpp -dM output of <asm/fcntl.h>
      checks that the flag, named OSYNC_UAPI_RSYNC of the project's
      facts file (driver/facts.py), is OSYNC_RSYNC_BIT and shares no bit
      with any other open flag of that header, with the internal f_flags
      bits __FMODE_EXEC (0x20), FMODE_NONOTIFY (0x4000000, an open flag
      of its own, O_EMPTYPATH, since Linux 7.2) and __O_REGULAR (bit 30,
      since 7.2), or with the sign bit; that it is no bit a posted RFC
      asks for; and that the header defines neither __O_RSYNC nor
      O_RSYNC, the names C libraries test and define.
  check-uapi.py --rwf include/uapi/linux/fs.h
      checks that RWF_RSYNC is OSYNC_RWF_RSYNC of the facts file, shares
      no bit with another RWF_ flag, is no value a posted RFC asks for,
      and is in RWF_SUPPORTED.
  check-uapi.py --carrier open|openat2 include/uapi/linux/openat2.h
                include/linux/fcntl.h
      checks the carrier of the flag: with "open" (patch 9), the flag
      is in VALID_OPEN_FLAGS and <linux/openat2.h> defines no
      OPENAT2_RSYNC; with "openat2" (the alternative patch 9),
      OPENAT2_RSYNC is 1 << OSYNC_OPENAT2_RSYNC_SHIFT, above bit 31,
      shares no bit with another OPENAT2_ flag, is in
      VALID_OPENAT2_FLAGS, and the flag is not in VALID_OPEN_FLAGS, so
      that open(2) drops it and openat2(2) refuses it.

Prints one line (for the architecture named by the argument, or
"rwf"); exits 1 on a problem.

Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "driver"))
import facts  # noqa: E402

FACTS = facts.load(os.environ.get("OSYNC_FACTS"))
RSYNC = int(FACTS["OSYNC_RSYNC_BIT"], 8)
RWF_RSYNC = FACTS["OSYNC_RWF_RSYNC"]
NAME = FACTS["OSYNC_UAPI_RSYNC"]
INTERNAL = {"__FMODE_EXEC": 0x20, "FMODE_NONOTIFY": 0x4000000,
            "__O_REGULAR": 1 << 30, "the sign bit": 0x80000000}
# Values that posted RFCs ask for: taking one would make the same bit
# mean two things on two kernels.
CLAIMED_OPEN = {1 << 27: "O_ALT (RFC, linux-api, 2026-07-15)"}
CLAIMED_RWF = {0x200: "RWF_WRITETHROUGH (RFC, 2026-03-09) and "
                      "RWF_DONTCACHE_LAZY (2026-03-26)"}
# Names a C library tests or defines itself: glibc's <bits/fcntl-linux.h>
# defines O_RSYNC as __O_RSYNC if that is defined.
LIBC_NAMES = ("__O_RSYNC", "O_RSYNC")
# Names that are composites or aliases of other flags, or not flags.
SKIP = {"O_ACCMODE", "O_RDONLY", "O_SYNC", "O_TMPFILE", "O_NDELAY",
        "O_FSYNC", NAME}


def c_value(text, macros, depth=0):
    """The integer value of a simple C constant expression."""
    if depth > 10:
        raise ValueError("macro nesting too deep")
    text = text.strip()
    text = re.sub(r"/\*.*?\*/", "", text)

    def name(m):
        word = m.group(0)
        if word in macros:
            return "(%d)" % c_value(macros[word], macros, depth + 1)
        raise ValueError("unknown name %s" % word)

    text = re.sub(r"\b[A-Za-z_]\w*\b", name, text)
    text = re.sub(r"\b0([0-7]+)\b", r"0o\1", text)
    # Octal, hexadecimal and decimal numbers, (1 << N) as Linux 7.x
    # writes them, |, + and parentheses; nothing else reaches eval.
    text = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", text)
    if not re.fullmatch(r"([0-9a-fA-Fxo()|+ ]|<<)+", text):
        raise ValueError("not a simple constant: %s" % text)
    return eval(text)


def check_rwf(path):
    """RWF_RSYNC in the uapi <linux/fs.h> at PATH."""
    with open(path) as f:
        text = f.read()
    flags = dict(re.findall(
        r"^#define\s+(RWF_[A-Z_]+)\s+\(\(__force __kernel_rwf_t\)"
        r"(0x[0-9a-fA-F]+)\)", text, re.M))
    problems = []
    if "RWF_RSYNC" not in flags:
        print("rwf: FAIL: RWF_RSYNC is not defined in %s" % path)
        return 1
    if flags["RWF_RSYNC"] != RWF_RSYNC:
        problems.append("RWF_RSYNC is %s, want %s"
                        % (flags["RWF_RSYNC"], RWF_RSYNC))
    rsync = int(flags["RWF_RSYNC"], 16)
    if rsync in CLAIMED_RWF:
        problems.append("RWF_RSYNC %s is asked for by %s"
                        % (flags["RWF_RSYNC"], CLAIMED_RWF[rsync]))
    for name, value in sorted(flags.items()):
        if name != "RWF_RSYNC" and int(value, 16) & rsync:
            problems.append("RWF_RSYNC collides with %s (%s)" % (name, value))
    m = re.search(r"^#define\s+RWF_SUPPORTED\s+\(((?:[^)]|\\\n)*)\)",
                  text, re.M)
    if not m or "RWF_RSYNC" not in re.findall(r"RWF_[A-Z_]+", m.group(1)):
        problems.append("RWF_RSYNC is not in RWF_SUPPORTED")
    if len(flags) < 8:
        problems.append("only %d RWF flags found; is this <linux/fs.h>?"
                        % len(flags))
    if problems:
        print("rwf: FAIL: %s" % "; ".join(problems))
        return 1
    print("rwf: RWF_RSYNC %s, disjoint from %d RWF flags, in RWF_SUPPORTED"
          % (RWF_RSYNC, len(flags) - 1))
    return 0


def macro_names(text, macro):
    """The names in the (backslash-continued) definition of MACRO."""
    m = re.search(r"^#define\s+%s\b((?:[^\n]*\\\n)*[^\n]*)" % macro,
                  text, re.M)
    return set(re.findall(r"\b[A-Za-z_]\w*\b", m.group(1))) if m else None


def check_carrier(carrier, openat2_h, fcntl_h):
    """The carrier of the flag: open(2)'s flag bit or OPENAT2_RSYNC."""
    comment = re.compile(r"/\*.*?\*/", re.S)
    with open(openat2_h) as f:
        uapi = comment.sub("", f.read())
    with open(fcntl_h) as f:
        internal = comment.sub("", f.read())
    problems = []
    valid = macro_names(internal, "VALID_OPEN_FLAGS")
    if valid is None:
        print("carrier: FAIL: no VALID_OPEN_FLAGS in %s" % fcntl_h)
        return 1
    flags = dict(re.findall(r"^#define\s+(OPENAT2_[A-Z0-9_]+)\s+(.+?)\s*$",
                            uapi, re.M))
    if carrier == "open":
        if NAME not in valid:
            problems.append("%s is not in VALID_OPEN_FLAGS" % NAME)
        if "OPENAT2_RSYNC" in flags:
            problems.append("<linux/openat2.h> defines OPENAT2_RSYNC too")
        what = "%s in VALID_OPEN_FLAGS, no OPENAT2_RSYNC" % NAME
    elif carrier == "openat2":
        want = 1 << int(FACTS["OSYNC_OPENAT2_RSYNC_SHIFT"])
        if NAME in valid:
            problems.append("%s is in VALID_OPEN_FLAGS: open(2) would take "
                            "it" % NAME)
        if "OPENAT2_RSYNC" not in flags:
            problems.append("OPENAT2_RSYNC is not defined in %s" % openat2_h)
        else:
            macros = {k: re.sub(r"\(__u64\)", "", v)
                      for k, v in flags.items()}
            try:
                value = c_value(macros["OPENAT2_RSYNC"], macros)
            except ValueError as e:
                value = None
                problems.append("OPENAT2_RSYNC: %s" % e)
            if value is not None and value != want:
                problems.append("OPENAT2_RSYNC is %#x, want %#x"
                                % (value, want))
            if value is not None and value < 1 << 32:
                problems.append("OPENAT2_RSYNC is not above bit 31")
            for name, text in sorted(macros.items()):
                if name == "OPENAT2_RSYNC":
                    continue
                try:
                    other = c_value(text, macros)
                except ValueError:
                    continue
                if value is not None and other & value:
                    problems.append("OPENAT2_RSYNC collides with %s" % name)
        extra = macro_names(internal, "VALID_OPENAT2_FLAGS")
        if not extra or "OPENAT2_RSYNC" not in extra:
            problems.append("OPENAT2_RSYNC is not in VALID_OPENAT2_FLAGS")
        what = ("OPENAT2_RSYNC %#x in VALID_OPENAT2_FLAGS, %s not in "
                "VALID_OPEN_FLAGS" % (want, NAME))
    else:
        print("carrier: FAIL: unknown carrier %r (open or openat2)" % carrier)
        return 1
    if problems:
        print("carrier %s: FAIL: %s" % (carrier, "; ".join(problems)))
        return 1
    print("carrier %s: %s" % (carrier, what))
    return 0


def main():
    if sys.argv[1] == "--rwf":
        return check_rwf(sys.argv[2])
    if sys.argv[1] == "--carrier":
        return check_carrier(*sys.argv[2:5])
    arch = sys.argv[1]
    macros = {}
    for line in sys.stdin:
        m = re.match(r"#define (\w+) (.*)", line)
        if m:
            macros[m.group(1)] = m.group(2)
    problems = []
    for name in LIBC_NAMES:
        if name in macros:
            problems.append("%s is defined, a name C libraries test or "
                            "define" % name)
    if NAME not in macros:
        print("%s: FAIL: %s is not defined%s"
              % (arch, NAME, "".join("; " + p for p in problems)))
        return 1
    rsync = c_value(macros[NAME], macros)
    if rsync != RSYNC:
        problems.append("%s is 0%o, want 0%o" % (NAME, rsync, RSYNC))
    if rsync in CLAIMED_OPEN:
        problems.append("%s 0%o is asked for by %s"
                        % (NAME, rsync, CLAIMED_OPEN[rsync]))
    flags = 0
    count = 0
    for name in sorted(macros):
        if (not re.fullmatch(r"_*O_[A-Z]+", name) or name in SKIP
                or name in LIBC_NAMES):
            continue
        try:
            value = c_value(macros[name], macros)
        except ValueError:
            continue
        count += 1
        flags |= value
        if value & rsync:
            problems.append("%s collides with %s (0%o)"
                            % (NAME, name, value))
    for name, bit in INTERNAL.items():
        if rsync & bit:
            problems.append("%s collides with %s" % (NAME, name))
    if count < 15:
        problems.append("only %d open flags found; is this <asm/fcntl.h>?"
                        % count)
    if problems:
        print("%s: FAIL: %s" % (arch, "; ".join(problems)))
        return 1
    print("%s: %s 0%o, disjoint from %d open flags (0%o) and the "
          "internal bits" % (arch, NAME, rsync, count, flags))
    return 0


if __name__ == "__main__":
    sys.exit(main())
