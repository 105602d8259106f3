#!/usr/bin/env bash
# e2e-frontend.sh - end-to-end checks of the front end through the CLI:
#  1. every malformed input tests/errors/NAME.litmus must make
#     "lkmmc --dump-ir" exit with status 1, without crashing, and print
#     exactly the line in tests/errors/NAME.expect as its first line on
#     stderr ("file:line:col: error: message");
#  2. "lkmmc --dump-ir" must succeed on the 34 litmus tests of the kernel's
#     tools/memory-model/litmus-tests (extracted by "make kernel-tree"),
#     and print a condition line;
#  3. tests/frontend: kernel C whose failures show at run time (an array
#     index out of range, recursion past --unroll, or past L under
#     --unroll auto:L) are failing assertions;
#  4. a test named "C name.litmus" is printed "Test name" as herd7 does.
# Prints a final line "N passed, N failed"; exits non-zero on any failure.
#
# usage: tests/e2e-frontend.sh   (from anywhere; LKMMC=path overrides the
#        binary, e.g. LKMMC=./lkmmc-asan; LKMM_DIR the kernel's
#        tools/memory-model directory)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
LKMM_DIR=${LKMM_DIR:-build/linux/tools/memory-model}

if [ ! -x "$LKMMC" ]; then
	bad "no $LKMMC (run make)"
	report; exit
fi

# 1. malformed inputs
nerr=0
for t in tests/errors/*.litmus; do
	exp=${t%.litmus}.expect
	nerr=$((nerr + 1))
	if [ ! -f "$exp" ]; then
		bad "$t: no $exp"
		continue
	fi
	"$LKMMC" --dump-ir "$t" > /dev/null 2> "${TMPDIR:-/tmp}/e2e-fe.$$"
	rc=$?
	got=$(head -n 1 "${TMPDIR:-/tmp}/e2e-fe.$$")
	want=$(cat "$exp")
	if [ $rc -ne 1 ]; then
		bad "$t: exit status $rc, want 1 ($got)"
	elif [ "$got" != "$want" ]; then
		bad "$t: got '$got', want '$want'"
	else
		ok
	fi
done
rm -f "${TMPDIR:-/tmp}/e2e-fe.$$"
if [ "$nerr" -lt 30 ]; then
	bad "only $nerr malformed inputs in tests/errors (want at least 30)"
fi

# 2. the kernel's litmus tests
if [ ! -d "$LKMM_DIR/litmus-tests" ]; then
	make --no-print-directory kernel-tree > /dev/null 2>&1 ||
		{ mkdir -p build/linux &&
		  tar -xJf /usr/src/linux-source-6.1.tar.xz -C build/linux \
		      --strip-components=1 --wildcards '*/tools/memory-model/*'; }
fi
nk=0
for t in "$LKMM_DIR"/litmus-tests/*.litmus; do
	[ -f "$t" ] || continue
	nk=$((nk + 1))
	out=$("$LKMMC" --dump-ir "$t" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$t: exit status $rc: $(echo "$out" | head -n 1)"
	elif ! echo "$out" | grep -qE '^(exists|~exists|forall) \('; then
		bad "$t: no condition in the dump"
	else
		ok
	fi
done
if [ "$nk" -ne 34 ]; then
	bad "found $nk kernel litmus tests in $LKMM_DIR/litmus-tests, want 34"
fi

# 3. run-time failures of kernel C (tests/frontend): an array index that
#    can be out of range and a recursion deeper than --unroll are failing
#    assertions (exit status 3, located warning naming the code), and the
#    recursion fits at a larger --unroll (exit 0).
run_assert() { # FILE OPTS WANT_RC WANT_STDERR_SUBSTRING
	"$LKMMC" $2 "$1" > /dev/null 2> "${TMPDIR:-/tmp}/e2e-fe.$$"
	local rc=$? got
	got=$(cat "${TMPDIR:-/tmp}/e2e-fe.$$")
	if [ $rc -ne "$3" ]; then
		bad "$1 $2: exit status $rc, want $3 ($got)"
	elif [ -n "$4" ] && ! grep -qF -- "$4" "${TMPDIR:-/tmp}/e2e-fe.$$"; then
		bad "$1 $2: stderr lacks '$4': $got"
	else
		ok
	fi
}
run_assert tests/frontend/index-out-of-range.litmus "" 3 \
	"index-out-of-range.litmus:18:17: warning: assertion can fail in P1: index in range: a[r0]"
run_assert tests/frontend/recursion-bound.litmus "" 3 \
	"recursion-bound.litmus:9:25: warning: assertion can fail in P0: recursion deeper than --unroll 2: sum(x, n - 1)"
run_assert tests/frontend/recursion-bound.litmus "--unroll 3" 0 ""
run_assert tests/frontend/recursion-bound.litmus "--unroll auto" 0 ""
run_assert tests/frontend/recursion-bound.litmus "--unroll auto:2" 3 \
	"assertion can fail in P0: recursion deeper than --unroll 2"
rm -f "${TMPDIR:-/tmp}/e2e-fe.$$"

# 4. the name line's .litmus suffix is not part of the name
t=tests/frontend/name-suffix.litmus
out=$("$LKMMC" "$t" 2>&1)
check "$t: Test, Observation and Time name the test without .litmus" \
	test "$(printf '%s\n' "$out" | grep '^Test \|^Observation \|^Time ' | cut -d' ' -f1,2)" = \
	"Test name-suffix
Observation name-suffix
Time name-suffix"
check "$t --json: \"test\" without .litmus" \
	bash -c "'$LKMMC' --json '$t' 2>/dev/null | grep -q '\"test\":\"name-suffix\"'"

report
