#!/usr/bin/env bash
# e2e-asan.sh - lkmmc-asan (make asan: AddressSanitizer, UBSan, and
# LeakSanitizer at exit, and common/check.h's deep checks) checks
# litmus-tests/, the kernel's 34 litmus tests (also with witnesses and
# explanations, and under the model read from their cat files), the C
# programs of litmus-tests/programs (also with --first-error), the lazy
# core (--lazy, also under the cat files), two long-thread tests of
# bench/ (large tests' own paths), and dumps the IR of every malformed
# test of tests/errors/ and tests/frontend/, each set in one process: no
# sanitizer report, no failed check, no crash.  Run by make check-asan
# (part of make check).
# Prints "N passed, N failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
LKMMC_ASAN=${LKMMC_ASAN:-./lkmmc-asan}
LKMM_DIR=${LKMM_DIR:-build/linux/tools/memory-model}
scratch e2e-asan
# A sanitizer's report exits 86, which no test's status can be.
export ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=exitcode=86:halt_on_error=1:print_stacktrace=1

# run WHAT ARGS...: lkmmc-asan ARGS, any exit status but a sanitizer's
# or a crash's (a failed check aborts: 134).
run() {
	local what=$1; shift
	"$LKMMC_ASAN" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	if [ $rc -eq 86 ] || [ $rc -ge 128 ] ||
	   grep -qE 'Sanitizer|runtime error|check failed' "$tmp/err"; then
		bad "$what: sanitizer report, failed check or crash (exit $rc):"
		grep -E -A12 'ERROR|runtime error|check failed' "$tmp/err" | head -40
	else
		ok
	fi
}
run "litmus-tests/" litmus-tests/*.litmus
run "the kernel's litmus tests" "$LKMM_DIR"/litmus-tests/*.litmus
run "litmus-tests/ --exists-only" --exists-only litmus-tests/*.litmus
run "malformed tests" --dump-ir tests/errors/*.litmus tests/frontend/*.litmus
run "the kernel's tests, --witness --explain" --witness --explain "$LKMM_DIR"/litmus-tests/*.litmus
run "the kernel's tests, --model" --model "$LKMM_DIR" "$LKMM_DIR"/litmus-tests/*.litmus
run "C programs" litmus-tests/programs/*.c
run "C programs, --first-error" --first-error litmus-tests/programs/*.c
run "litmus-tests/ --lazy" --lazy litmus-tests/*.litmus
run "the kernel's tests, --lazy --model" --lazy --model "$LKMM_DIR" "$LKMM_DIR"/litmus-tests/*.litmus
# Large tests (over 200 events): the threads in turn asked first, co ; rf
# folded, coherence by timestamps (encoder/schedule.c, relkeyed.c).
bash bench/gen-families.sh --out "$tmp/long" --n 100 --families long-xy,long-plain --form litmus > /dev/null
run "long threads, --exists-only --witness" --exists-only --witness "$tmp"/long/*.litmus
run "long threads, full mode" "$tmp"/long/*.litmus
run "a long-thread test, --lazy" --lazy --exists-only "$tmp"/long/long-xy-*.litmus
report
