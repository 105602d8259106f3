#!/usr/bin/env bash
# End-to-end tests of batch mode (lkmmc -j N, --times, --progress): the
# answers of a parallel run are those of a serial run, in file order, with
# the same errors; the --times table has one well-formed row per test; the
# exit status combines the tests' statuses as a serial run does.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
scratch

# Our litmus tests, one malformed test in the middle, and fragments with a
# failing assertion (exit 3) and a hang.
files=(litmus-tests/*.litmus)
mid=$(( ${#files[@]} / 2 ))
sel=("${files[@]:0:$mid}" tests/errors/bad-clause-syntax.litmus "${files[@]:$mid}"
     litmus-tests/kernel-fragments/mcs-handoff-no-acquire.litmus
     litmus-tests/kernel-fragments/waitqueue-no-mb.litmus)
n=${#sel[@]}

"$LKMMC" "${sel[@]}" >"$tmp/serial.out" 2>"$tmp/serial.err"
serial_rc=$?
"$LKMMC" -j 2 --times "$tmp/times.tsv" "${sel[@]}" >"$tmp/par.out" 2>"$tmp/par.err"
par_rc=$?

# Time lines differ from run to run; everything else must be identical.
grep -v '^Time ' "$tmp/serial.out" >"$tmp/s.out"
grep -v '^Time ' "$tmp/par.out" >"$tmp/p.out"
if cmp -s "$tmp/s.out" "$tmp/p.out"; then ok; else bad "-j 2 stdout differs from the serial run"; diff "$tmp/s.out" "$tmp/p.out" | head -5; fi
if cmp -s "$tmp/serial.err" "$tmp/par.err"; then ok; else bad "-j 2 stderr differs from the serial run"; diff "$tmp/serial.err" "$tmp/par.err" | head -5; fi
if [ "$serial_rc" = 1 ] && [ "$par_rc" = 1 ]; then ok; else bad "exit status: serial $serial_rc, -j 2 $par_rc (want 1 and 1: a malformed test outranks a failing assertion)"; fi
grep -q 'bad-clause-syntax.litmus:[0-9]*:[0-9]*: error:' "$tmp/par.err" && ok || bad "the malformed test's located error is missing"

# --times: a header and one row per test, in file order, with sane fields.
if [ "$(head -1 "$tmp/times.tsv")" = "$(printf 'path\tstatus\tseconds\tpeak_rss_kb\tverdict\tstates')" ]; then ok; else bad "--times header: $(head -1 "$tmp/times.tsv")"; fi
if [ "$(tail -n +2 "$tmp/times.tsv" | cut -f1)" = "$(printf '%s\n' "${sel[@]}")" ]; then ok; else bad "--times rows are not the files in order"; fi
awk -F'\t' 'NR > 1 && !(NF == 6 && ($2 == "ok" || $2 == "error") && $3 ~ /^[0-9]+\.[0-9]+$/ && $4 > 1000 && $4 < 2000000) { print "bad row: " $0; e = 1 } END { exit e }' "$tmp/times.tsv" && ok || bad "--times has malformed rows"
awk -F'\t' '$1 ~ /bad-clause-syntax/ && $2 == "error" && $5 == "-" { f = 1 } END { exit !f }' "$tmp/times.tsv" && ok || bad "--times: the malformed test is not an error row"
# The verdict column is the Observation word of each answer, in order.
want=$(awk '/^Observation /{ print $(NF - 2) }' "$tmp/serial.out")
got=$(awk -F'\t' 'NR > 1 && $5 != "-" { print $5 }' "$tmp/times.tsv")
if [ "$want" = "$got" ]; then ok; else bad "--times verdicts differ from the Observation lines"; fi
awk -F'\t' '$1 ~ /^litmus-tests\/SB\+lock\+mb.litmus$/ && $5 == "Sometimes" && $6 == 4 { f = 1 } END { exit !f }' "$tmp/times.tsv" && ok || bad "--times: SB+lock+mb is not Sometimes with 4 states"

# Without the malformed test the failing assertion decides: exit 3.
"$LKMMC" -j 2 litmus-tests/SB+lock+mb.litmus litmus-tests/kernel-fragments/mcs-handoff-no-acquire.litmus >/dev/null 2>&1
rc=$?
if [ "$rc" = 3 ]; then ok; else bad "-j 2 with a failing assertion: exit $rc, want 3"; fi

# --progress: a final progress line naming every test, on stderr only.
"$LKMMC" -j 2 --progress "${files[@]:0:5}" >"$tmp/pr.out" 2>"$tmp/pr.err"
if grep -q "lkmmc: 5/5 tests, 0 failed" "$tmp/pr.err" && ! grep -q "tests, .* failed" "$tmp/pr.out"; then ok; else bad "--progress line missing or on stdout"; fi

# --files-from: the same batch from a list (with a blank line) gives the
# same answers; a missing list is a usage error.
printf '%s\n' "${sel[@]:0:5}" "" "${sel[@]:5}" >"$tmp/list.txt"
"$LKMMC" -j 2 --files-from "$tmp/list.txt" 2>/dev/null | grep -v '^Time ' >"$tmp/l.out"
if cmp -s "$tmp/s.out" "$tmp/l.out"; then ok; else bad "--files-from answers differ from the command-line run"; fi
"$LKMMC" --files-from "$tmp/none.txt" >/dev/null 2>"$tmp/nl.err"
[ $? = 2 ] && grep -q 'cannot read the list' "$tmp/nl.err" && ok || bad "--files-from a missing list is not a usage error"

# --timeout: a test that runs past the limit is stopped (its worker killed
# where the solver cannot be interrupted) and reported as a time-out row;
# the next test still gets its answer, and the batch exits 1.
bash bench/gen-families.sh --out "$tmp/locks" --families mcs --n 6 >/dev/null
"$LKMMC" --timeout 1 --times "$tmp/to.tsv" "$tmp/locks/mcs-06.litmus" litmus-tests/SB+lock+mb.litmus >"$tmp/to.out" 2>"$tmp/to.err"
rc=$?
[ $rc = 1 ] && ok || bad "--timeout 1 on mcs-06: exit $rc, want 1"
grep -q 'mcs-06.litmus: error: solver gave up' "$tmp/to.err" && ok || bad "--timeout 1: no time-out error for mcs-06"
awk -F'\t' '$1 ~ /mcs-06/ && $2 == "timeout" && $3 < 5 { f = 1 } END { exit !f }' "$tmp/to.tsv" && ok || bad "--times: mcs-06 is not a time-out row under 5 s: $(grep mcs-06 "$tmp/to.tsv")"
grep -q '^Observation SB+lock+mb Sometimes' "$tmp/to.out" && ok || bad "--timeout: the test after the time-out has no answer"

# More workers than tests, and usage errors.
"$LKMMC" -j 8 litmus-tests/SB+lock+mb.litmus >"$tmp/one.out" 2>&1 && grep -q '^Observation SB+lock+mb Sometimes' "$tmp/one.out" && ok || bad "-j 8 on one test"
"$LKMMC" -j 0 litmus-tests/SB+lock+mb.litmus >/dev/null 2>"$tmp/j0.err"
[ $? = 2 ] && grep -q -- '-j needs a number' "$tmp/j0.err" && ok || bad "-j 0 is not a usage error"
"$LKMMC" -j 2 --kmod "$tmp/kmod" litmus-tests/SB+lock+mb.litmus >/dev/null 2>"$tmp/jk.err"
[ $? = 2 ] && grep -q -- '-j cannot be combined with --kmod' "$tmp/jk.err" && ok || bad "-j with --kmod is not refused"

report
