#!/bin/bash
# In the guest of hostguest.sh: make the glibc installed in the staging
# root ROOT the guest's C library.
#   hostroot-glibc.sh ROOT
# The dynamic loader and every shared library of ROOT/lib64 replace
# Debian's of the same name in /usr/lib/x86_64-linux-gnu (where
# /lib64/ld-linux-x86-64.so.2, every program's interpreter, points),
# each written aside and renamed into place, so that no running
# program sees a half-written library; the character set converters
# go where that glibc looks for them.  The copies and renames run on
# ROOT's own loader and libraries (ld.so --library-path): a program
# started half-way, with the new loader and Debian's libc.so.6 or the
# other way round, would crash (their private interfaces differ).  The root is an overlay with its
# upper layer in memory: the host's files are untouched.
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -euo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
root=$1
dest=/usr/lib/x86_64-linux-gnu
die () { echo "hostroot-glibc.sh: error: $*"; exit 1; }
[ -f "$root/lib64/libc.so.6" ] || die "$root is not a glibc staging root"
on_root=("$root/lib64/ld-linux-x86-64.so.2" --library-path "$root/lib64")
n=0
for f in "$root"/lib64/*.so*; do
  [ -f "$f" ] || continue
  b=${f##*/}
  "${on_root[@]}" /bin/cp -L "$f" "$dest/.$b.new" || die "cannot copy $f"
  "${on_root[@]}" /bin/mv -f "$dest/.$b.new" "$dest/$b" || die "cannot replace $dest/$b"
  n=$((n + 1))
done
if [ -d "$root/usr/lib64/gconv" ]; then
  "${on_root[@]}" /bin/mkdir -p /usr/lib64
  "${on_root[@]}" /bin/cp -a "$root/usr/lib64/gconv" /usr/lib64/ || die "cannot copy the converters"
fi
echo "hostroot-glibc.sh: $n libraries of $root replace Debian's"
/lib64/ld-linux-x86-64.so.2 --version | head -n 1
/bin/true || die "/bin/true does not run on the glibc of $root"
