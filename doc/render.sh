#!/bin/sh
# render.sh OUTDIR
# Write the documentation with the project's facts in place: each
# doc/NAME.in becomes OUTDIR/NAME (osync.7, operating-modes.texi), by
# driver/facts.py subst, which fails on an unknown @NAME@.  `make dist`
# runs it with OUTDIR dist/doc.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
for src in "$here"/*.in; do
  name=$(basename "$src" .in)
  "${PYTHON:-python3}" "$here/../driver/facts.py" subst "$src" > "$out/$name.tmp" \
    || { rm -f "$out/$name.tmp"; echo "$0: cannot render $src" >&2; exit 1; }
  mv "$out/$name.tmp" "$out/$name"
  echo "  $out/$name"
done
