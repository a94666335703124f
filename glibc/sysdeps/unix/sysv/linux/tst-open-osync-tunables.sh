#!/bin/sh
# Test the tunables of the open functions as ld.so lists them.
# Copyright The GNU Toolchain Authors.
# This file is part of the GNU C Library.
#
# The GNU C Library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# The GNU C Library is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Lesser General Public License for more details.
#
# You should have received a copy of the GNU Lesser General Public
# License along with the GNU C Library; if not, see
# <https://www.gnu.org/licenses/>.

# glibc.io.rsync and glibc.io.legacy_osync are INT_32 tunables from 0
# to 1, 0 by default; a value GLIBC_TUNABLES sets within the bounds is
# taken, one outside them ignored.

set -e

rtld=$1
test_wrapper_env=$2
run_program_env=$3

LC_ALL=C
export LC_ALL

status=0
check ()
{
  tunables=$1 rsync=$2 legacy=$3
  out=$(${test_wrapper_env} ${run_program_env} GLIBC_TUNABLES="$tunables" \
	$rtld --list-tunables | grep '^glibc\.io\.' | sort)
  want="glibc.io.legacy_osync: $legacy (min: 0, max: 1)
glibc.io.rsync: $rsync (min: 0, max: 1)"
  if [ "$out" = "$want" ]; then
    echo "PASS: GLIBC_TUNABLES='$tunables'"
  else
    echo "FAIL: GLIBC_TUNABLES='$tunables': got"
    echo "$out"
    echo "want"
    echo "$want"
    status=1
  fi
}

check "" 0 0
check "glibc.io.rsync=1" 1 0
check "glibc.io.legacy_osync=1" 0 1
check "glibc.io.rsync=1:glibc.io.legacy_osync=1" 1 1
check "glibc.io.rsync=2:glibc.io.legacy_osync=-1" 0 0
exit $status
