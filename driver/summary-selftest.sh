#!/bin/bash
# Self-test of driver/summary.py: feed it synthetic results, one thing
# wrong at a time, and check that each makes it exit non-zero with a
# message that names the problem; a clean synthetic run must exit 0.
# Prints "PASS: summary: WHAT" / "FAIL: summary: WHAT" lines (read by
# tests/osync.driver/summary.exp); exits 1 if any check failed.
#
#   summary-selftest.sh [--tmp DIR] [--python PYTHON]
# Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tmp=${TMPDIR:-/tmp}/osync-summary-selftest.$$
python=${PYTHON:-python3}
while [ $# -gt 0 ]; do
  case $1 in
    --tmp) tmp=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    *) echo "summary-selftest.sh: unknown argument '$1'; usage: $0 [--tmp DIR] [--python PYTHON]" >&2
       exit 2 ;;
  esac
done
bases="2.44 2.36"
abis="x86_64 i386"
failed=0
pass () { echo "PASS: summary: $*"; }
fail () { echo "FAIL: summary: $*"; failed=1; }

# The patch's tests, as summary.py finds them (from the fragments).
mapfile -t own < <("$python" -c '
import sys; sys.path.insert(0, sys.argv[1]); import summary
print("\n".join(summary.patch_tests(sys.argv[2])))' "$here" "$top" | grep .)
if [ ${#own[@]} -eq 0 ]; then
  echo "FAIL: summary: no tst-* among the glibc fragments of $top; the self-test needs the patch's tests"
  exit 1
fi
mapfile -t groups < <(cd "$top/tests" && ls -1 osync.*/*.exp)
# The least number of tests of each group (tests/minimums).
declare -A minimum
while read -r g m; do
  case $g in ''|'#'*) continue ;; esac
  minimum[$g]=$m
done < "$top/tests/minimums"
# A failure both trees may share: the first of the known ones.
known=$(awk '!/^#/ && NF { print $1; exit }' "$here/glibc-known-failures")
if [ -z "$known" ]; then
  echo "FAIL: summary: $here/glibc-known-failures names no test; the self-test needs one"
  exit 1
fi

# clean DIR: a synthetic results directory in which everything passed
# (made once, then copied).
clean ()
{
  [ -d "$tmp/clean" ] || make_clean "$tmp/clean"
  rm -rf "$1"
  cp -a "$tmp/clean" "$1"
  # The suite started a minute ago and wrote its summary now.
  touch -d '-1 minute' "$1/dejagnu/started"
  touch "$1/dejagnu/osync.sum"
}

make_clean ()
{
  local d=$1 b a v i g
  rm -rf "$d"
  mkdir -p "$d/dejagnu"
  for b in $bases; do
    for a in $abis; do
      for v in baseline patched; do
        {
          for i in $(seq 1 200); do echo "PASS: io/tst-synthetic-$i"; done
          echo "UNSUPPORTED: misc/tst-needs-hardware"
          echo "FAIL: $known"
          if [ $v = patched ]; then
            for i in "${own[@]}"; do echo "PASS: io/$i"; done
          fi
        } > "$d/glibc-$v-$b-$a.sum"
        echo selftest-run > "$d/glibc-$v-$b-$a.sum.run-id"
      done
    done
  done
  echo selftest-run > "$d/run-id"
  echo selftest-run > "$d/dejagnu/run-id"
  touch -d '-1 minute' "$d/dejagnu/started"
  # The opt-in runs: one with a good cached result, one never run.
  mkdir -p "$d/optin"
  echo "PASS: glibc's whole testsuite, synthetic: no new failure" > "$d/optin/glibc-full.txt"
  echo "PASS: power cuts on a planted kernel, synthetic: caught" > "$d/optin/crash-plant.txt"
  echo "SKIP: aarch64: synthetic, never run" > "$d/optin/aarch64.txt"
  echo "SKIP: debug kernel: synthetic, never run" > "$d/optin/debug-kernel.txt"
  # Two runtest runs joined, as check-suite's lanes leave osync.sum.
  local half=$(( (${#groups[@]} + 1) / 2 ))
  { lane_sum "${groups[@]:0:half}"; lane_sum "${groups[@]:half}"; } \
    > "$d/dejagnu/osync.sum"
}

# lane_sum GROUP...: one runtest run's .sum in which GROUPs passed,
# each with as many tests as its minimum.
lane_sum ()
{
  local g i n=0
  echo "Test run by root on $(date)"
  echo "Native configuration is x86_64-pc-linux-gnu"
  echo
  printf '\t\t=== osync tests ===\n\n'
  echo "Schedule of variations:"
  echo "    unix"
  echo
  echo "Running target unix"
  for g in "$@"; do
    echo "Running $top/tests/$g ..."
    for i in $(seq 1 "${minimum[$g]:-1}"); do
      echo "PASS: $g: synthetic check $i"
      n=$((n + 1))
    done
  done
  printf '\n\t\t=== osync Summary ===\n\n'
  printf '# of expected passes\t\t%d\n' $n
}

# run NAME DIR [ARG...]: summary.py on DIR; its status in $rc, output
# in $out.
run ()
{
  local d=$2
  shift 2
  out=$("$python" "$here/summary.py" --results "$d" --state "$d" \
          --abis "$abis" --all-abis "$abis" --bases "$bases" --top "$top" \
          "$@" 2>&1)
  rc=$?
}

# must_fail WHAT PATTERN: the last run exited non-zero and its output
# matches PATTERN (grep -E).
must_fail ()
{
  if [ $rc -eq 0 ]; then
    fail "$1 (summary.py exited 0; its last line: $(tail -n 1 <<<"$out"))"
  elif ! grep -Eq -- "$2" <<<"$out"; then
    fail "$1 (exit $rc, but no /$2/ in: $(tr '\n' ' ' <<<"$out"))"
  else
    pass "$1"
  fi
}

# recount SUM: rewrite the summary block's counts from the lines.
recount ()
{
  "$python" - "$1" <<'EOF'
import re, sys
path = sys.argv[1]
labels = [('PASS', 'expected passes'), ('FAIL', 'unexpected failures'),
          ('UNRESOLVED', 'unresolved testcases'),
          ('UNSUPPORTED', 'unsupported tests')]
out = ''
# Each runtest run (from "Test run by") gets its own block.
for run in re.split(r'(?m)^(?=Test run by )', open(path).read()):
    if not run:
        continue
    head = run.split('\n\t\t=== osync Summary ===')[0]
    block = '\n\t\t=== osync Summary ===\n\n'
    for kind, label in labels:
        n = len(re.findall(r'^%s: ' % kind, head, re.M))
        if n:
            block += '# of %s\t\t%d\n' % (label, n)
    out += head + block
open(path, 'w').write(out)
EOF
}

d=$tmp/r
mkdir -p "$tmp" || { echo "FAIL: summary: cannot create $tmp"; exit 1; }

# 1. Clean.
clean "$d"
run clean "$d"
last=$(tail -n 1 <<<"$out")
if [ $rc -eq 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed(,\ [0-9]+\ skipped)?$ ]]; then
  pass "a clean synthetic run exits 0 ($last)"
else
  fail "a clean synthetic run exits 0 (exit $rc: $(tr '\n' ' ' <<<"$out"))"
fi
clean_passed=${last%% passed*}
if grep -q 'Wall time' <<<"$out"; then
  fail "no phases.txt, no phase table"
else
  pass "no phases.txt, no phase table"
fi

# 2. Phases: the driver's "PHASE SECONDS" lines become a table.
clean "$d"
printf 'build patched 612\ncheck-glibc 1500\ncheck-suite 300\n' > "$d/phases.txt"
run phases "$d"
if [ $rc -eq 0 ] && grep -Eq '^  check-glibc +1500 s$' <<<"$out" \
   && grep -Eq '^  build patched +612 s$' <<<"$out" \
   && grep -Eq '^  total +2412 s$' <<<"$out"; then
  pass "phases.txt is shown as a table with a total"
else
  fail "phases.txt is shown as a table with a total (exit $rc: $(tr '\n' ' ' <<<"$out"))"
fi

# 3. UNRESOLVED and ERROR in the DejaGnu suite.
clean "$d"
sed -i "0,/^PASS: /s//UNRESOLVED: /" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run unresolved "$d"
must_fail "an UNRESOLVED DejaGnu test is a failure" '^  UNRESOLVED: '
clean "$d"
sed -i "0,/^PASS: .*/s//&\nERROR: tcl error sourcing a .exp file/" "$d/dejagnu/osync.sum"
run error "$d"
must_fail "an ERROR in osync.sum is a failure" '^  ERROR: tcl error'

# 4. A sum that runtest did not finish: no summary block.
clean "$d"
sed -i '/=== osync Summary ===/,$d' "$d/dejagnu/osync.sum"
run truncated "$d"
must_fail "a truncated osync.sum (runtest killed half-way) is a failure" \
  'no summary block'
# ... or with one lane's run (the last) killed before its summary.
clean "$d"
"$python" -c '
import sys
p = sys.argv[1]
t = open(p).read()
open(p, "w").write(t.rsplit("\n\t\t=== osync Summary ===", 1)[0] + "\n")
' "$d/dejagnu/osync.sum"
run lanecut "$d"
must_fail "a lane whose runtest was killed (no summary block of its own) is a failure" \
  'run 2 of 2\) has no summary block'
# ... and one cut in the middle of a group's lines, then given a summary
# block that no longer matches.
clean "$d"
sed -i "0,/^PASS: /{//d}" "$d/dejagnu/osync.sum"
run damaged "$d"
must_fail "an osync.sum whose counts disagree with its lines is a failure" \
  'summary counts [0-9]+ PASS but it holds'

# 5. A stale sum: older than the start of the run, or no start at all.
clean "$d"
touch -d '-2 minutes' "$d/dejagnu/osync.sum"
run stale "$d"
must_fail "an osync.sum older than the run's start is a failure" 'stale'
clean "$d"
rm "$d/dejagnu/started"
run nostart "$d"
must_fail "an osync.sum without a record of the run's start is a failure" \
  'may be stale'
clean "$d"
echo 137 > "$d/dejagnu/runtest-status"
run killed "$d"
must_fail "runtest's exit status 137 (killed) is a failure" \
  'runtest stopped with exit status 137'
clean "$d"
echo 1 > "$d/dejagnu/runtest-status"
run status1 "$d"
if [ $rc -eq 0 ]; then
  pass "runtest's exit status 1 (a test failed) alone is no failure"
else
  fail "runtest's exit status 1 (a test failed) alone is no failure ($(tr '\n' ' ' <<<"$out"))"
fi
clean "$d"
rm "$d/dejagnu/osync.sum"
run nosum "$d"
must_fail "no osync.sum is a failure" 'the suite did not run'

# 6. A test group that never ran, or ran without a result.
clean "$d"
g=${groups[0]}
sed -i "\\|^Running .*/$g \\.\\.\\.\$|,+1d" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run nogroup "$d"
must_fail "a test group that never ran is a failure" "test group $g never ran"
clean "$d"
sed -i "\\|^PASS: $g: |d" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run emptygroup "$d"
must_fail "a test group without a result is a failure" \
  "test group $g reported no result"

# 7. PASS on the baseline, UNSUPPORTED (or XFAIL) on the patched tree.
for kind in UNSUPPORTED XFAIL UNTESTED; do
  clean "$d"
  sed -i "s|^PASS: io/tst-synthetic-7\$|$kind: io/tst-synthetic-7|" \
    "$d/glibc-patched-2.36-i386.sum"
  run regression "$d"
  must_fail "PASS on the baseline, $kind on the patched tree is a failure" \
    "io/tst-synthetic-7 \\(PASS -> $kind\\)"
done

# 8. A test of the patch that is missing, fails, or passed on a retry.
for t in "${own[@]}"; do
  clean "$d"
  sed -i "/^PASS: io\\/$t\$/d" "$d/glibc-patched-2.44-x86_64.sum"
  run missing "$d"
  must_fail "the patch's test $t missing on 2.44 x86_64 is a failure" \
    "$t \\(MISSING\\)"
done
clean "$d"
sed -i "s|^PASS: io/${own[0]}\$|FLAKY: io/${own[0]}|" "$d/glibc-patched-2.36-x86_64.sum"
run ownflaky "$d"
must_fail "a retried pass of the patch's test ${own[0]} is a failure" \
  "did not pass.*io/${own[0]}"
clean "$d"
sed -i "s|^PASS: io/${own[0]}\$|UNSUPPORTED: io/${own[0]}|" "$d/glibc-patched-2.44-i386.sum"
run ownunsupported "$d"
must_fail "an UNSUPPORTED test of the patch is a failure" \
  "did not pass.*io/${own[0]}"

# 9. A glibc test that passes on the baseline and failed once on the
# patched tree (passed when run again): a failure, not a skip.
clean "$d"
sed -i "s|^PASS: io/tst-synthetic-3\$|FLAKY: io/tst-synthetic-3|" "$d/glibc-patched-2.44-x86_64.sum"
run flaky "$d"
must_fail "a glibc test that passes on the baseline and passed only on a retry on the patched tree is a failure" \
  'FLAKY: failed on the patched tree.*counted as failures.*io/tst-synthetic-3 \(baseline PASS\)'

# 10. A port whose cross compiler is missing.
clean "$d"
sed -i "0,/^PASS: .*/s//&\nUNSUPPORTED: ports: hppa: hppa-linux-gnu-gcc not found (Debian package gcc-hppa-linux-gnu)/" \
  "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run port "$d"
must_fail "a port reported UNSUPPORTED (no cross compiler) is a failure" \
  "UNSUPPORTED: ports: hppa.*counted as a failure"

# 11. The results of a base or ABI are missing, or too few.
clean "$d"
rm "$d/glibc-baseline-2.36-i386.sum"
run nobase "$d"
must_fail "missing results of the second base are a failure" \
  'glibc 2.36, i386: no results for the baseline tree'
clean "$d"
sed -i '/^PASS: io\/tst-synthetic-[0-9]*[0-9][0-9]$/d' "$d/glibc-patched-2.44-x86_64.sum"
run few "$d"
must_fail "a glibc run with too few results is a failure" \
  'only [0-9]+ results for the patched tree'

# 12. Failures both trees share: a known one (driver/glibc-known-
# failures) is a skip with its reason; any other is a failure.
clean "$d"
run knownshared "$d"
if [ $rc -eq 0 ] && grep -Eq "x glibc test fails on both trees, a known failure .*: $known: [^ ]" <<<"$out"; then
  pass "a known failure both trees share is a skip, with its reason"
else
  fail "a known failure both trees share is a skip, with its reason (exit $rc: $(tr '\n' ' ' <<<"$out"))"
fi
clean "$d"
for v in baseline patched; do
  echo "FAIL: io/tst-fails-on-both" >> "$d/glibc-$v-2.36-x86_64.sum"
done
run unknownshared "$d"
must_fail "a failure both trees share that is not a known one is a failure" \
  'fail on both trees and are not known failures.*io/tst-fails-on-both'
clean "$d"
printf 'io/tst-without-reason\n' > "$tmp/known"
run noreason "$d" --known-failures "$tmp/known"
must_fail "a known failure without its reason is refused" \
  'not a "TEST REASON" line'

# 12a. A new failure the baseline does not share.
clean "$d"
sed -i "s|^PASS: io/tst-synthetic-9\$|FAIL: io/tst-synthetic-9|" "$d/glibc-patched-2.44-i386.sum"
run newfail "$d"
must_fail "a failure the baseline does not have is a failure" \
  'NEW failures \(the patch is to blame\): io/tst-synthetic-9'

# 13. The opt-in runs: a cached failure, a missing or unreadable line,
# and a skip (never run), which is counted as a skip, not a pass.
clean "$d"
echo "FAIL: glibc's whole testsuite, synthetic: io/tst-x (FAIL; baseline PASS)" > "$d/optin/glibc-full.txt"
run optinfail "$d"
must_fail "an opt-in run's cached failure is a failure" \
  "^  FAIL: glibc's whole testsuite, synthetic: io/tst-x"
clean "$d"
rm "$d/optin/glibc-full.txt"
run optinmissing "$d"
must_fail "an opt-in run the driver did not report on is a failure" \
  'glibc-full.txt: the driver did not report on it'
clean "$d"
echo "maybe" > "$d/optin/glibc-full.txt"
run optinbad "$d"
must_fail "an opt-in line that is not PASS, FAIL or SKIP is a failure" \
  'not a PASS, FAIL or SKIP line'
clean "$d"
run optinpass "$d"
last=$(tail -n 1 <<<"$out")
echo "SKIP: glibc's whole testsuite: synthetic, never run" > "$d/optin/glibc-full.txt"
run optinskip "$d"
last2=$(tail -n 1 <<<"$out")
if [ $rc -eq 0 ] && grep -q "^  SKIP: glibc's whole testsuite: synthetic, never run" <<<"$out" \
   && grep -q "1 x glibc's whole testsuite: synthetic, never run" <<<"$out" \
   && [ "${last2%% passed*}" -eq $(( ${last%% passed*} - 1 )) ]; then
  pass "an opt-in run without a result is a skip with its reason, not a pass ($last2)"
else
  fail "an opt-in run without a result is a skip with its reason, not a pass (as a PASS: $last; as a SKIP: $(tr '\n' ' ' <<<"$out"))"
fi
# ... and a file of several lines counts each: a pass and a skip.
printf "PASS: glibc's whole testsuite: synthetic\nSKIP: glibc's whole testsuite: a part not run\n" > "$d/optin/glibc-full.txt"
run optinlines "$d"
last2=$(tail -n 1 <<<"$out")
if [ $rc -eq 0 ] && grep -q "1 x glibc's whole testsuite: a part not run" <<<"$out" \
   && [ "${last2%% passed*}" -eq "${last%% passed*}" ]; then
  pass "each line of an opt-in run counts: a pass and a skip ($last2)"
else
  fail "each line of an opt-in run counts: a pass and a skip (a PASS alone: $last; a PASS and a SKIP: $(tr '\n' ' ' <<<"$out"))"
fi

# 14. A test file among the fragments that no Makefile fragment runs.
clean "$d"
fake=$tmp/top
rm -rf "$fake"
mkdir -p "$fake"
ln -s "$top/tests" "$fake/tests"
if [ -d "$top/glibc" ]; then
  cp -rL "$top/glibc" "$fake/glibc"
  orphan=$fake/glibc/sysdeps/unix/sysv/linux/tst-never-run.c
else
  for x in sysdeps io misc posix rt; do
    [ -d "$top/$x" ] && cp -rL "$top/$x" "$fake/$x"
  done
  orphan=$fake/sysdeps/unix/sysv/linux/tst-never-run.c
fi
mkdir -p "$(dirname "$orphan")"
# Never plant into the project's fragments (a symlinked copy would).
# The scratch copy itself may lie inside the checkout (results/).
case $(realpath -m "$orphan") in
  "$(realpath "$top")"/glibc/*|"$(realpath "$top")"/sysdeps/*)
    echo "FAIL: summary: the scratch copy $fake reaches into $top; not planting there"
    exit 1 ;;
esac
echo '/* A test nobody runs.  */' > "$orphan"
out=$("$python" "$here/summary.py" --results "$d" --state "$d" \
        --abis "$abis" --bases "$bases" --top "$fake" 2>&1)
rc=$?
must_fail "a tst-* file among the fragments that no Makefile runs is a failure" \
  'tst-never-run is a test among the glibc fragments that no Makefile'

# 15. Which files are tests: a synthetic fragment tree whose Makefile
# diff adds one test to a list that starts before the hunk, one with a
# list of its own, a tests-special .out, and a helper module.
syn=$tmp/syn/glibc/sysdeps/unix/sysv/linux
mkdir -p "$syn"
for f in tst-a.c tst-b.c tst-c.py tst-b-mod.c; do : > "$syn/$f"; done
cat > "$syn/Makefile.1.diff" <<'EOF'
diff --git a/sysdeps/unix/sysv/linux/Makefile b/sysdeps/unix/sysv/linux/Makefile
--- a/sysdeps/unix/sysv/linux/Makefile
+++ b/sysdeps/unix/sysv/linux/Makefile
@@ -10,3 +10,4 @@
   tst-old \
+  tst-a \
   # tests
 
@@ -20,0 +21,11 @@
+tests += \
+  tst-b \
+  # tests
+modules-names += \
+  tst-b-mod \
+  # modules-names
+$(objpfx)tst-b: $(objpfx)tst-b-mod.so
+tests-special += $(objpfx)tst-c.out
EOF
got=$("$python" -c '
import sys; sys.path.insert(0, sys.argv[1]); import summary
p = []
print(" ".join(summary.patch_tests(sys.argv[2], p)), len(p))' "$here" "$tmp/syn")
if [ "$got" = "tst-a tst-b tst-c 0" ]; then
  pass "the patch's tests come from its Makefile fragments, helpers excluded ($got)"
else
  fail "the patch's tests come from its Makefile fragments, helpers excluded (got '$got', want 'tst-a tst-b tst-c 0')"
fi

# 15. Results of another run than the current one (results/run-id).
clean "$d"
echo earlier-run > "$d/glibc-patched-2.36-x86_64.sum.run-id"
run otherrun "$d"
must_fail "a glibc result of an earlier run is a failure" \
  'glibc-patched-2.36-x86_64.sum was made by run earlier-run, not by this run'
clean "$d"
rm "$d/glibc-baseline-2.44-x86_64.sum.run-id"
run norunid "$d"
must_fail "a glibc result no run claims is a failure" \
  'glibc-baseline-2.44-x86_64.sum was made by no known run'
clean "$d"
echo earlier-run > "$d/dejagnu/run-id"
run suiterun "$d"
must_fail "a DejaGnu suite of an earlier run is a failure" \
  'osync.sum was made by run earlier-run'
clean "$d"
rm "$d/run-id"
run nocurrent "$d"
must_fail "results without a current run (results/run-id) are a failure" \
  'no .*run-id: nothing says which run'
# ... and the driver's begin starts a run: a new id, no old summary.
clean "$d"
echo "0 passed, 0 failed" > "$d/summary.txt"
if OSYNC_TOP=$top OSYNC_CACHE=$tmp/cache GLIBC_TARBALL=none \
     OSYNC_STATE=$tmp/state OSYNC_RESULTS=$d OSYNC_DIST=$tmp/dist ABIS=x86_64 \
     PYTHON=$python "$here/osync.sh" begin > "$tmp/begin.out" 2>&1 \
   && [ ! -e "$d/summary.txt" ] && [ -s "$d/run-id" ] \
   && [ "$(cat "$d/run-id")" != selftest-run ]; then
  pass "osync.sh begin writes a new run id and removes the last summary"
else
  fail "osync.sh begin writes a new run id and removes the last summary ($(cat "$tmp/begin.out"); run-id $(cat "$d/run-id" 2>&1); summary.txt $( [ -e "$d/summary.txt" ] && echo left || echo gone))"
fi
run afterbegin "$d"
must_fail "after begin, the results of the run before are a failure" \
  'was made by run selftest-run, not by this run'

# 16. A test group that runs fewer tests than its minimum, or has none.
g=${groups[0]}
clean "$d"
sed -i "0,\\|^PASS: $g: |{\\|^PASS: $g: |d}" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run shrunk "$d"
must_fail "a test group that runs fewer tests than its minimum is a failure" \
  "test group $g ran [0-9]+ tests .*fewer than its minimum of ${minimum[$g]}"
fake=$tmp/mintop
rm -rf "$fake"
mkdir -p "$fake/tests"
for x in "$top"/*; do
  case ${x##*/} in tests) ;; *) ln -s "$x" "$fake/" ;; esac
done
for x in "$top"/tests/*; do ln -s "$x" "$fake/tests/"; done
rm "$fake/tests/minimums"
grep -v "^$g " "$top/tests/minimums" > "$fake/tests/minimums"
clean "$d"
out=$("$python" "$here/summary.py" --results "$d" --state "$d" --abis "$abis" \
        --bases "$bases" --top "$fake" 2>&1)
rc=$?
must_fail "a test group without a minimum in tests/minimums is a failure" \
  "test group $g has no minimum in tests/minimums"

# 17. What was not tested counts as skipped, with the reason: a group
# that reported only UNSUPPORTED, an ABI not built.
clean "$d"
sed -i "s|^PASS: \\($g: .*\\)|UNSUPPORTED: \\1|" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run onlyunsupported "$d"
last=$(tail -n 1 <<<"$out")
if [ $rc -eq 0 ] && grep -q "NOT TESTED: test group $g reported only UNSUPPORTED (${minimum[$g]}," <<<"$out" \
   && [[ $last =~ ,\ ([0-9]+)\ skipped$ ]] && [ "${BASH_REMATCH[1]}" -ge "${minimum[$g]}" ]; then
  pass "a test group that reported only UNSUPPORTED is named as not tested, its results skipped ($last)"
else
  fail "a test group that reported only UNSUPPORTED is named as not tested, its results skipped (exit $rc: $(tr '\n' ' ' <<<"$out"))"
fi
# A group that stops at its first skip would count one skip for all
# the tests it did not run: below its minimum, it fails.
clean "$d"
sed -i "s|^PASS: \\($g: .*\\)|UNSUPPORTED: \\1|" "$d/dejagnu/osync.sum"
awk -v g="UNSUPPORTED: $g: " 'index($0, g) == 1 { if (n++) next } { print }' \
  "$d/dejagnu/osync.sum" > "$d/dejagnu/osync.sum.new"
mv "$d/dejagnu/osync.sum.new" "$d/dejagnu/osync.sum"
recount "$d/dejagnu/osync.sum"
run onlyoneunsupported "$d"
must_fail "a test group that reported one UNSUPPORTED for all its tests is a failure" \
  "test group $g reported only UNSUPPORTED, 1 of them, fewer than its minimum of ${minimum[$g]}"
clean "$d"
run clean2 "$d"
clean_skipped=$(tail -n 1 <<<"$out" | sed -n 's/.*, \([0-9]*\) skipped$/\1/p')
rm "$d"/glibc-*-i386.sum*
out=$("$python" "$here/summary.py" --results "$d" --state "$d" --abis x86_64 \
        --all-abis "x86_64 i386" --bases "$bases" --top "$top" 2>&1)
rc=$?
last=$(tail -n 1 <<<"$out")
# Two trees fewer, each with one UNSUPPORTED and one known failure;
# two ABIs not built.
if [ $rc -eq 0 ] && [ "$(grep -c "x glibc 2\.[0-9]*, i386: not built" <<<"$out")" -eq 2 ] \
   && [[ $last =~ ,\ ([0-9]+)\ skipped$ ]] \
   && [ "${BASH_REMATCH[1]}" -eq $(( ${clean_skipped:-0} - 4 + 2 )) ]; then
  pass "an ABI not built counts as skipped, once for each base ($last)"
else
  fail "an ABI not built counts as skipped, once for each base (clean: ${clean_skipped:-?} skipped with two ABIs; exit $rc: $(tr '\n' ' ' <<<"$out"))"
fi

# 18. glibc-tests.sh keeps its results by the kernel and the environment
# too, and by the baseline's results.
fb=$tmp/fakebuild
mkdir -p "$fb/obj" "$fb/src"
touch "$fb/obj/.osync-installed" "$fb/src/version.h"
echo "srcdir = $fb/src" > "$fb/obj/Makefile"
echo "FAIL: io/tst-a" > "$tmp/base1"
echo "PASS: io/tst-a" > "$tmp/base2"
k1=$("$here/glibc-tests.sh" --build "$fb/obj" --baseline "$tmp/base1" --print-key 2>&1)
k2=$("$here/glibc-tests.sh" --build "$fb/obj" --baseline "$tmp/base2" --print-key 2>&1)
k3=$(exec 9</dev/null; "$here/glibc-tests.sh" --build "$fb/obj" --print-key 2>&1)
missing=
grep -qxF "kernel: $(uname -srvm)" <<<"$k1" || missing+=" the kernel"
grep -Eq '^inherited descriptors:.* 9( |$)' <<<"$k3" || missing+=" the inherited descriptors"
grep -qxF "uid: $(id -u)" <<<"$k1" || missing+=" the user"
{ grep -q '^Seccomp' <<<"$k1" && grep -q '^seccomp actions: ' <<<"$k1"; } || missing+=" seccomp"
grep -q '^/dev/shm: ' <<<"$k1" || missing+=" /dev/shm"
[ "$k1" != "$k2" ] || missing+=" the baseline's results"
if [ -z "$missing" ]; then
  pass "glibc's test results are cached by the kernel, the user, the inherited descriptors, seccomp, /dev/shm and the baseline's results"
else
  fail "glibc's test results are cached by the kernel, the user, the inherited descriptors, seccomp, /dev/shm and the baseline's results (the key lacks$missing: $(tr '\n' ' ' <<<"$k1"))"
fi

# 19. The judge of make check-aarch64 (driver/port-guest.py judge), on
# a synthetic run: one kernel, two programs as root and as nobody, one
# of which needs root, and a test made on the build machine.  A clean
# run is a pass and a skip (the test that needs root, UNSUPPORTED as
# nobody); each of these is a failure: an UNSUPPORTED that is no
# test's right, a test that needs root passing as nobody, a guest that
# ran another machine, a test that never ended, a test that read
# O_RSYNC in a kernel without it, a failed test on the build machine.
pg=$tmp/port-guest
port_run ()
{
  rm -rf "$pg"
  mkdir -p "$pg"
  printf '%s\n' '@mount tmpfs /dev/shm tmpfs' '@chdir /tmp' '@user 0 0' \
    '0,tst-a TMPDIR=/tmp /glibc/tst-a' '0,tst-h TMPDIR=/tmp /glibc/tst-h' \
    '@user 65534 65534' \
    '65534,tst-a TMPDIR=/tmp /glibc/tst-a' '65534,tst-h TMPDIR=/tmp /glibc/tst-h' \
    > "$pg/tests.list"
  echo "6.12 linux-image-6.12.9+deb13-arm64 6.12.9-1 60" > "$pg/kernels"
  printf 'start: 2026-12-05 12:00:00 UTC\nend: 2026-12-05 12:01:00 UTC\nwall: 60 s\n' > "$pg/times"
  echo "tst-c PASS" > "$pg/host"
  { echo "osync-guest: kernel 6.12.9+deb13-arm64 aarch64"
    echo "osync-guest: start"
    for u in 0 65534; do
      echo "osync-guest: begin $u,tst-a"
      echo "info: kernel O_RSYNC no"
      echo "osync-guest: end $u,tst-a 0 900 ms"
      echo "osync-guest: begin $u,tst-h"
      if [ $u = 0 ]; then
        echo "osync-guest: end $u,tst-h 0 800 ms"
      else
        printf 'error: open_by_handle_at needs CAP_DAC_READ_SEARCH\nUNSUPPORTED: not root\n'
        echo "osync-guest: end $u,tst-h 77 10 ms"
      fi
    done
    echo "osync-guest: done"; } > "$pg/console-6.12.log"
}
port_judge ()
{
  out=$("$python" "$here/port-guest.py" judge --results "$pg" --port aarch64 \
          --root-only tst-h --md "$pg/aarch64.md" --line "$pg/line" 2>&1)
  rc=$?
  line=$(cat "$pg/line" 2>/dev/null)
}
# port_must_fail WHAT PATTERN: the judge exited non-zero and its FAIL
# line matches PATTERN (grep -E).
port_must_fail ()
{
  if [ $rc -ne 0 ] && grep -q '^FAIL: ' <<<"$line" && grep -Eq -- "$2" <<<"$line"; then
    pass "port-guest.py judge: $1"
  else
    fail "port-guest.py judge: $1 (exit $rc; line: $line)"
  fi
}
port_run
port_judge
if [ $rc -eq 0 ] && [[ $(sed -n 1p <<<"$line") == "PASS: aarch64: "* ]] \
   && [ "$(grep -c '^SKIP: aarch64: tst-h as uid 65534 .*UNSUPPORTED, as it must be' <<<"$line")" = 1 ] \
   && [ "$(wc -l <<<"$line")" = 2 ]; then
  pass "port-guest.py judge: a clean run is a pass, and the test that needs root a skip as nobody"
else
  fail "port-guest.py judge: a clean run is a pass, and the test that needs root a skip as nobody (exit $rc; lines: $line; output: $out)"
fi
port_run
sed -i 's/^osync-guest: end 65534,tst-a 0 /osync-guest: end 65534,tst-a 77 /' "$pg/console-6.12.log"
port_judge
port_must_fail "a test UNSUPPORTED as nobody that does not need root is a failure" \
  'tst-a as uid 65534 on 6\.12\.9\+deb13-arm64: UNSUPPORTED'
port_run
sed -i 's/^osync-guest: end 65534,tst-h 77 /osync-guest: end 65534,tst-h 0 /' "$pg/console-6.12.log"
port_judge
port_must_fail "a test that needs root and passes as nobody is a failure" \
  'tst-h as uid 65534 .*want UNSUPPORTED'
port_run
sed -i 's/^\(osync-guest: kernel .*\) aarch64$/\1 x86_64/' "$pg/console-6.12.log"
port_judge
port_must_fail "a guest that ran another machine is a failure" \
  'the 6\.12 guest ran .*x86_64.*, not 6\.12\.9\+deb13-arm64 on aarch64'
port_run
sed -i '/^osync-guest: end 0,tst-h /,$d' "$pg/console-6.12.log"
port_judge
port_must_fail "a test that never ended (the guest stopped) is a failure" \
  'tst-h as root on 6\.12\.9\+deb13-arm64: no result'
port_run
sed -i '0,/^info: kernel O_RSYNC no$/s//info: kernel O_RSYNC yes/' "$pg/console-6.12.log"
port_judge
port_must_fail "a test that read O_RSYNC in Debian's kernel, which has none, is a failure" \
  'tst-a as root .*saw O_RSYNC in a kernel without it'
port_run
echo "tst-c FAIL" > "$pg/host"
port_judge
port_must_fail "a failed test on the build machine is a failure" 'tst-c: FAIL'

# 20. The judge of make check-glibc-full (driver/glibc-full.py), on a
# synthetic run restricted to io/ (so at best a SKIP): a clean one is a
# skip with no failure; a test that passes on the baseline and is
# UNSUPPORTED on the patched tree is a failure, unless the baseline
# gave UNSUPPORTED too in one of its retries; a test that fails on the
# patched tree only is a failure, unless the baseline failed in a
# retry, however often the patched tree then passes; a failure both
# trees share needs a reason in a known list.
gf=$tmp/glibc-full
gf_run ()
{
  rm -rf "$gf"
  mkdir -p "$gf"
  printf 'PASS: io/tst-a\nPASS: io/tst-b\nFAIL: io/tst-c\n' > "$gf/baseline.sum"
  printf 'PASS: io/tst-a\nPASS: io/tst-b\nFAIL: io/tst-c\n' > "$gf/patched.sum"
  echo io > "$gf/baseline-subdirs"
  echo "subdirectories: GLIBC_FULL_SUBDIRS=io (restricted: a test of the driver, not the whole testsuite)" > "$gf/inputs"
  printf 'start: 2026-12-05 12:00:00 UTC\nwall: 60 s\nsessions: 1\n' > "$gf/times"
  echo "io/tst-c  a synthetic shared failure" > "$gf/known"
}
gf_judge ()
{
  out=$("$python" "$here/glibc-full.py" --results "$gf" --known "$gf/known" \
          --md "$gf/md" --line "$gf/line" 2>&1)
  rc=$?
  line=$(cat "$gf/line" 2>/dev/null)
}
gf_expect ()
{
  local what=$1 want=$2 pattern=$3
  if [ "$want" = FAIL ] && [ $rc -ne 0 ] && grep -q '^FAIL: ' <<<"$line" && grep -Eq -- "$pattern" <<<"$line"; then
    pass "glibc-full.py: $what"
  elif [ "$want" = SKIP ] && [ $rc -eq 0 ] && grep -q '^SKIP: ' <<<"$line" && grep -Eq -- "$pattern" <<<"$line"; then
    pass "glibc-full.py: $what"
  else
    fail "glibc-full.py: $what (exit $rc; line: $line; output: $(tail -n 3 <<<"$out"))"
  fi
}
gf_run
gf_judge
gf_expect "a clean restricted run is a skip with no failure" SKIP 'no new failure there'
gf_run
sed -i 's/^PASS: io\/tst-b$/UNSUPPORTED: io\/tst-b/' "$gf/patched.sum"
gf_judge
gf_expect "PASS -> UNSUPPORTED, never retried, is a failure" FAIL 'io/tst-b \(PASS -> UNSUPPORTED; never retried\)'
echo "io/tst-b baseline:PASS baseline:PASS baseline:PASS patched:UNSUPPORTED patched:UNSUPPORTED patched:UNSUPPORTED" > "$gf/retries"
gf_judge
gf_expect "PASS -> UNSUPPORTED with the baseline passing its retries is a failure" FAIL 'io/tst-b \(PASS -> UNSUPPORTED; retries: baseline PASS PASS PASS'
echo "io/tst-b baseline:PASS baseline:UNSUPPORTED baseline:PASS patched:UNSUPPORTED patched:UNSUPPORTED patched:UNSUPPORTED" > "$gf/retries"
gf_judge
gf_expect "PASS -> UNSUPPORTED with the baseline UNSUPPORTED in a retry is no failure, and is reported" SKIP 'gave the patched tree.s result on it in a retry: io/tst-b'
gf_run
sed -i 's/^PASS: io\/tst-a$/FAIL: io\/tst-a/' "$gf/patched.sum"
echo "io/tst-a baseline:PASS baseline:PASS baseline:PASS patched:PASS patched:PASS patched:PASS" > "$gf/retries"
gf_judge
gf_expect "a failure on the patched tree only is one, though its retries pass" FAIL 'io/tst-a \(FAIL; baseline PASS, retries'
echo "io/tst-a baseline:PASS baseline:FAIL baseline:PASS patched:FAIL patched:PASS patched:PASS" > "$gf/retries"
gf_judge
gf_expect "a failure on the patched tree that the baseline shows in a retry is shared, and needs a reason" \
  FAIL 'io/tst-a \(shared, not in the known lists\)'
echo "io/tst-a  a synthetic failure of both trees, one in a retry" >> "$gf/known"
gf_judge
gf_expect "... which a known list gives" SKIP 'no new failure there'
gf_run
: > "$gf/known"
gf_judge
gf_expect "a shared failure in no known list is a failure" FAIL 'io/tst-c \(shared, not in the known lists\)'

rm -rf "$tmp"
exit $failed
