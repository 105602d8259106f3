#!/usr/bin/env bash
# e2e-programs.sh - end-to-end checks of whole C programs (the pthread +
# <lkmm.h> form, frontend/cprog.c) through the real binary:
#  1. every program of litmus-tests/programs gets the answer its
#     " * Expected:" line states ("No errors", "Assertion violated at line
#     N" for main's asserts, "Assertion failed at line N" for a thread's,
#     "Spins forever at line N", "Deadlock"), with exit status 0 or 3;
#  2. every bad program tests/program-errors/NAME.c exits with status 1 and
#     prints exactly tests/program-errors/NAME.expect as its first line on
#     stderr (at least 20 of them);
#  3. the options work on programs: -j 2 gives the serial answers, --times
#     writes a row per program, -D reaches clang's preprocessor, --dump-ir
#     shows the threads main creates;
#  3c. --first-error on every program of litmus-tests/programs: a program
#     without errors gets exactly its usual answer; one with errors exits
#     with status 3 and shows one error that its full answer also shows
#     (the same heading line, the same located message; for a data race,
#     a data race, possibly another racing pair than the full answer
#     picked), re-checked against the model, and says it stopped;
#  3d. and finds the error of three programs in its first 5 schedules,
#     the release-less MCS lock's race in the first (waiters queued),
#     before the model is built over the whole program (each schedule's
#     execution judged by the model built over it alone), with the
#     built-in model and with the kernel's cat files; the lost wake-up's
#     hang too, in some schedule (herd7's cut is the schedules'
#     assumption, not their solver's constraint);
#  4. a litmus test and the C program lkmmc --to-c makes of it get the same
#     answer (bench/conformance-programs.sh on the kernel's 34 tests and
#     every test of litmus-tests/).
# Prints "N passed, N failed"; exits non-zero on any failure.
#
# usage: tests/e2e-programs.sh   (LKMMC=path overrides the binary)
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
scratch

if [ ! -x "$LKMMC" ]; then
	bad "no $LKMMC (run make)"
	report; exit
fi

# 1. our programs: $p run, its exit status $rc, stdout and stderr in $tmp.
# has FILE PATTERN WHY: a line of FILE matches PATTERN, else the case
# fails saying WHY (what was printed instead).
has() { grep -q "$2" "$1" || case_fail "$p: $3"; }
nprog=0
for p in litmus-tests/programs/*.c; do
	nprog=$((nprog + 1))
	want=$(field "$p" Expected)
	case_begin
	"$LKMMC" "$p" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	line=${want##* }
	case $want in
	"No errors")
		case_status "$p" $rc 0
		has "$tmp/out" "^No errors (bound [0-9]*, [0-9]* events)$" \
			"no 'No errors' line: $(head -n 1 "$tmp/out")"
		;;
	"Assertion violated at line "*)
		case_status "$p" $rc 3
		has "$tmp/out" "^Assertion violated at $p:$line: " \
			"want '$want', got: $(head -n 1 "$tmp/out")"
		has "$tmp/err" "^$p:$line:[0-9]*: error: assertion violated" \
			"no located error on stderr"
		;;
	"Deadlock")
		case_status "$p" $rc 3
		has "$tmp/out" "^Deadlock: " "no 'Deadlock:' line: $(head -n 2 "$tmp/out")"
		;;
	"Spins forever at line "*)
		case_status "$p" $rc 3
		has "$tmp/out" "^Spins forever at $p:$line: P[0-9]* " \
			"want '$want', got: $(grep Spins "$tmp/out")"
		;;
	"Assertion failed at line "*)
		case_status "$p" $rc 3
		has "$tmp/out" "^Assertion failed: .* at $p:$line:[0-9]* in P[0-9]*$" \
			"want '$want', got: $(grep Assertion "$tmp/out")"
		;;
	*)
		case_fail "$p: no ' * Expected:' line"
		;;
	esac
	case_end
done
[ "$nprog" -ge 10 ] || bad "only $nprog programs in litmus-tests/programs"

# 2. bad programs
nerr=0
for t in tests/program-errors/*.c; do
	nerr=$((nerr + 1))
	exp=${t%.c}.expect
	if [ ! -f "$exp" ]; then
		bad "$t: no $exp"
		continue
	fi
	"$LKMMC" "$t" > /dev/null 2> "$tmp/err"
	rc=$?
	got=$(head -n 1 "$tmp/err")
	if [ $rc -ne 1 ]; then
		bad "$t: exit status $rc, want 1 ($got)"
	elif [ "$got" != "$(cat "$exp")" ]; then
		bad "$t: got '$got', want '$(cat "$exp")'"
	else
		ok
	fi
done
[ "$nerr" -ge 20 ] || bad "only $nerr bad programs in tests/program-errors (want at least 20)"

# 3. options on programs
progs=$(ls litmus-tests/programs/*.c)
for p in $progs; do "$LKMMC" "$p"; done > "$tmp/serial" 2> /dev/null
"$LKMMC" -j 2 --times "$tmp/times.tsv" $progs > "$tmp/batch" 2> /dev/null
check "-j 2 on programs prints the serial answers" cmp -s "$tmp/serial" "$tmp/batch"
check "--times has a row per program" \
	test "$(grep -c '\.c	\(ok\|error\)	' "$tmp/times.tsv")" -eq "$nprog"
cat > "$tmp/defs.c" <<'PROG'
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>
int x;
void *P0(void *a) { WRITE_ONCE(x, VALUE); return NULL; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	assert(x == 2);
	return 0;
}
PROG
"$LKMMC" -D VALUE=2 "$tmp/defs.c" > "$tmp/out" 2>&1
check "-D VALUE=2 reaches the preprocessor" grep -q "^No errors" "$tmp/out"
"$LKMMC" -D VALUE=3 "$tmp/defs.c" > "$tmp/out" 2>&1
check "-D VALUE=3 makes the assert fail" grep -q "^Assertion violated" "$tmp/out"
"$LKMMC" --dump-ir litmus-tests/programs/ticket-lock.c > "$tmp/out" 2>&1
check "--dump-ir: the loop in main creates 3 threads" \
	test "$(grep -c '^thread P' "$tmp/out")" -eq 3

# 3c. --first-error: one error of the full answer's, or the full answer
for p in litmus-tests/programs/*.c; do
	case_begin
	"$LKMMC" "$p" > "$tmp/full" 2> "$tmp/full.err"
	full_rc=$?
	"$LKMMC" --first-error "$p" > "$tmp/first" 2> "$tmp/first.err"
	rc=$?
	if [ "$(field "$p" Expected)" = "No errors" ]; then
		case_status "$p --first-error" $rc 0
		cmp -s "$tmp/full" "$tmp/first" ||
			case_fail "$p: --first-error changed the answer of a program without errors"
	elif grep -q '^Deadlock' "$tmp/full"; then
		# no execution ends: not an error of one execution, the usual answer
		case_status "$p --first-error" $rc 3
		cmp -s "$tmp/full" "$tmp/first" ||
			case_fail "$p: --first-error changed a deadlock's answer"
	else
		case_status "$p --first-error" $rc "$full_rc"
		head1=$(sed -n 2p "$tmp/first")
		msg=$(grep -m1 -E ': (error|warning): (assertion|data race|P[0-9]+ spins|[a-z-]+$)' "$tmp/first.err")
		case "$head1" in
		'Data race between '*)
			# the full answer shows one racing pair of its choice;
			# the first error may be another pair of the same flag
			grep -q '^Data race between ' "$tmp/full" ||
				case_fail "$p: --first-error shows a data race, the full answer none"
			case "$msg" in
			*': error: data race on '*) ;;
			*) case_fail "$p: located message '$msg' is not a data race's" ;;
			esac ;;
		*)
			grep -qxF -- "$head1" "$tmp/full" ||
				case_fail "$p: --first-error shows '$head1', which the full answer does not"
			[ -n "$msg" ] && grep -qxF -- "$msg" "$tmp/full.err" ||
				case_fail "$p: located message '$msg' not in the full answer's" ;;
		esac
		grep -q '^  re-checked against the model: consistent' "$tmp/first" ||
			case_fail "$p: the first error was not re-checked"
		grep -q '^Stopped at the first error (--first-error)' "$tmp/first" ||
			case_fail "$p: no 'Stopped at the first error' line"
	fi
	case_end
done

# 3d. --first-error's interleavings (solver/firsterr.c): these programs fail
# in one of the pass's first five schedules (each thread up to its first
# loop then each in turn, the threads in turn, round robin by 1, 2 and 3
# events: made by lkmmc, not chosen by Z3), far within its limit, and that
# is the one shown, re-checked; the MCS lock whose hand-over lacks its
# release (bench/gen-families.sh, 3 threads) races in the first: its
# waiters queue up while the first holds the lock
bash bench/gen-families.sh --out "$tmp/mcs" --n 3 --families mcs-idx-norel --form c >/dev/null
for p in counter-nolock ticket-lock-noacq rcu-mp-nosync mcs mcs-cat spin-lost-wakeup; do
	case_begin
	f=litmus-tests/programs/$p.c want='[1-5]' model=
	[ $p = spin-lost-wakeup ] && want='[0-9]+'
	case $p in mcs*) f=$tmp/mcs/mcs-idx-norel-03.c want=1 ;; esac
	[ $p = mcs-cat ] && model="--model ${LKMM_DIR:-build/linux/tools/memory-model}"
	# shellcheck disable=SC2086 # $model: an option and its value, or nothing
	"$LKMMC" --first-error --stats $model "$f" > "$tmp/first" 2> "$tmp/first.err"
	# the whole program's model is judged by a circuit, made only then
	! grep -q '^stats: first error: circuit of' "$tmp/first.err" ||
		case_fail "$p: the model was built over the whole program before the error was shown"
	grep -qE "^stats: first error: found in schedule $want " "$tmp/first.err" ||
		case_fail "$p: --first-error did not find its error in schedule $want: $(grep 'first error: found\|first error: none' "$tmp/first.err")"
	[ $p != mcs ] || grep -q '^Data race between .* on who$' "$tmp/first" ||
		case_fail "$p: not the race on who: $(head -3 "$tmp/first")"
	[ $p != mcs-cat ] || grep -q '^Flag data-race$' "$tmp/first" ||
		case_fail "$p: not the data-race flag: $(head -3 "$tmp/first")"
	[ $p != spin-lost-wakeup ] || grep -q '^Spins forever at .*:24: P0 ' "$tmp/first" ||
		case_fail "$p: not the hang: $(head -3 "$tmp/first")"
	grep -q '^  re-checked against the model: consistent' "$tmp/first" ||
		case_fail "$p: the interleaving's error was not re-checked"
	case_end
done

cat > "$tmp/race.c" <<'PROG'
#include <pthread.h>
#include <lkmm.h>
int x;
void *P0(void *a) { x = 1; return NULL; }
void *P1(void *a) { x = 2; return NULL; }
int main(void)
{
	pthread_t t0, t1;
	pthread_create(&t0, NULL, P0, NULL);
	pthread_create(&t1, NULL, P1, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	return 0;
}
PROG
"$LKMMC" --first-error "$tmp/race.c" > "$tmp/out" 2> "$tmp/err"
check "--first-error: a race alone is the first error (status 3)" test $? -eq 3
check "--first-error: the race is shown in the program's terms" \
	grep -q "^Data race between $tmp/race.c:[45] and $tmp/race.c:[45] on x$" "$tmp/out"
check "--first-error: the race's located error" \
	grep -q "^$tmp/race.c:[45]:[0-9]*: error: data race on x " "$tmp/err"

# every execution discarded by __VERIFIER_assume: vacuous, said so, not a deadlock
cat > "$tmp/vacuous.c" <<'PROG'
#include <pthread.h>
#include <assert.h>
#include <genmc.h>
#include <lkmm.h>
int x;
void *P0(void *a) { int r = READ_ONCE(x); __VERIFIER_assume(r == 5); return NULL; }
void *P1(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void)
{
	pthread_t t0, t1;
	pthread_create(&t0, NULL, P0, NULL);
	pthread_create(&t1, NULL, P1, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	assert(x == 1);
	return 0;
}
PROG
"$LKMMC" "$tmp/vacuous.c" > "$tmp/out" 2> "$tmp/err"
check "assumptions that discard every execution: status 0, as GenMC" test $? -eq 0
check "assumptions that discard every execution: said, not a deadlock" \
	grep -q "^No execution satisfies the program's assumptions (__VERIFIER_assume)" "$tmp/out"
check "assumptions that discard every execution: a warning" \
	grep -q "warning: no execution satisfies the program's assumptions" "$tmp/err"
sed -i 's/r == 5/r == 1/' "$tmp/vacuous.c"
"$LKMMC" "$tmp/vacuous.c" > "$tmp/out" 2> /dev/null
check "an assumption some execution satisfies: no such line" \
	sh -c "! grep -q '^No execution satisfies' '$tmp/out' && grep -q '^No errors' '$tmp/out'"

# 3b. answers in the program's terms: the counterexample as steps in one
#     order (solver/interleave.h), races and hangs located in the source
p=litmus-tests/programs/mp-wmb-norb.c
"$LKMMC" "$p" > "$tmp/out" 2> "$tmp/err"
check "mp-wmb-norb: not an interleaving, said so" \
	grep -q "^  no interleaving gives this execution (it is not sequentially consistent)" "$tmp/out"
check "mp-wmb-norb: the stale read comes first, out of program order" \
	test "$(grep -m1 '^    P' "$tmp/out")" = \
	"    P1 mp-wmb-norb.c:26  READ_ONCE(data)           reads data = 0 (the initial value)  [out of program order: before line 24]"
check "mp-wmb-norb: the flag read names its write" \
	grep -q "^    P1 mp-wmb-norb.c:24  READ_ONCE(flag) .* reads flag = 1 (from P0 line 18)$" "$tmp/out"
check "mp-wmb-norb: the threads named by their functions" \
	grep -q "^  threads: P0 = writer(0), P1 = reader(0)$" "$tmp/out"
check "mp-wmb-norb: no per-thread listing without --witness" \
	bash -c "! grep -q '^  P0:$' $tmp/out"
"$LKMMC" --witness "$p" > "$tmp/out" 2> /dev/null
check "--witness adds the per-thread listing after the steps" \
	grep -q "^  per thread:$" "$tmp/out"
p=litmus-tests/programs/sb-barriers.c
"$LKMMC" "$p" > "$tmp/out" 2> /dev/null
check "sb-barriers: the second load misses the first thread's store" \
	grep -q "reads x = 0 (the initial value); not yet visible: P0 line 16's 1$" "$tmp/out"
p=litmus-tests/programs/counter-nolock.c
"$LKMMC" "$p" > "$tmp/out" 2> "$tmp/err"
check "counter-nolock: a sequentially consistent execution is an interleaving" \
	grep -q "^  as an interleaving (each read reads the latest write listed before it):$" "$tmp/out"
check "counter-nolock: the race in source terms" \
	grep -q "^Data race between $p:15 and $p:15 on counter$" "$tmp/out"
check "counter-nolock: the race as a located error" \
	grep -q "^$p:15:[0-9]*: error: data race on counter between line 15 (P0) and line 15 (P1)" "$tmp/err"
"$LKMMC" --json "$p" > "$tmp/json" 2> /dev/null
check "--json on a program carries the steps" \
	grep -q '"    P0 counter-nolock.c:15  counter ' "$tmp/json"
"$LKMMC" --witness litmus-tests/SB+pos.litmus > "$tmp/out" 2> /dev/null
check "a litmus test's witness stays a per-thread listing" \
	bash -c "grep -q '^  P0:$' $tmp/out && ! grep -q 'interleaving\|^  threads:' $tmp/out"

# 3c. abort() and exit() in a thread end its path: main's asserts, which
#     that path never reaches, are not checked on it; a return anywhere
#     in a thread function ends it too.  One program, its threads chosen
#     with -D (END: P0 ends early when it sees y; LOOP: P0 returns from
#     inside a loop; neither: 3d's), the final assert with -D COND=...
cat > "$tmp/two.c" <<'PROG'
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
#include <lkmm.h>
int x, y;
void *P0(void *a)
{
#if defined(END)
	if (READ_ONCE(y))
		END;
	WRITE_ONCE(x, 1);
#elif defined(LOOP)
	for (int i = 0; i < 3; i++) {
		if (READ_ONCE(x))
			return NULL;
	}
	WRITE_ONCE(y, 1);
#else
	WRITE_ONCE(x, 1);
#endif
	return NULL;
}
void *P1(void *a)
{
#if defined(END)
	WRITE_ONCE(y, 1);
#elif defined(LOOP)
	WRITE_ONCE(x, 1);
#else
	WRITE_ONCE(y, READ_ONCE(x));
#endif
	return NULL;
}
int main(void)
{
	pthread_t t, u;
	pthread_create(&t, NULL, P0, NULL);
	pthread_create(&u, NULL, P1, NULL);
	pthread_join(t, NULL);
	pthread_join(u, NULL);
	assert(COND);
	return 0;
}
PROG
aline=$(grep -n 'assert(COND)' "$tmp/two.c" | cut -d: -f1)
"$LKMMC" -D 'END=abort()' -D 'COND=x == 1' "$tmp/two.c" > "$tmp/out" 2>&1
check "abort() ends the path: the assert holds on every other one" grep -q "^No errors" "$tmp/out"
"$LKMMC" -D 'END=exit(1)' -D 'COND=x == 1' "$tmp/two.c" > "$tmp/out" 2>&1
check "exit() ends the path as abort() does" grep -q "^No errors" "$tmp/out"
"$LKMMC" -D 'END=return NULL' -D 'COND=x == 1' "$tmp/two.c" > "$tmp/out" 2>&1
check "a return there instead: main's assert still applies, and is violated" \
	grep -q "^Assertion violated" "$tmp/out"
"$LKMMC" -D 'END=abort()' -D 'COND=y == 0' "$tmp/two.c" > "$tmp/out" 2>&1
check "abort() exempts only the paths that reach it" grep -q "^Assertion violated" "$tmp/out"
"$LKMMC" --unroll 4 -D LOOP -D 'COND=y == 0 || x == 1' "$tmp/two.c" > "$tmp/out" 2>&1
check "a return inside a loop ends the thread" grep -q "^No errors" "$tmp/out"
"$LKMMC" --unroll 4 -D LOOP -D 'COND=y == 0' "$tmp/two.c" > "$tmp/out" 2>&1
check "the path that leaves the loop stores y" grep -q "^Assertion violated" "$tmp/out"

# 3d. a final assert is any C condition over the globals' final values
#     (x is always 1 at the end, y is 0 or 1)
for c in "x < 2" "x - 1 >= 0" "x * 2 == 2 && y <= 1" "!(x > 1) || y" "-x + 3 > y" \
	 "READ_ONCE(y) < x + 1"; do
	"$LKMMC" -D "COND=$c" "$tmp/two.c" > "$tmp/out" 2>&1
	check "assert($c) holds" grep -q "^No errors" "$tmp/out"
done
for c in "x <= 0" "x + y == 2" "!(x > 0 && y < 1)" "y > 0" "x * y"; do
	"$LKMMC" -D "COND=$c" "$tmp/two.c" > "$tmp/out" 2>&1
	check "assert($c) is violated" \
		grep -q "^Assertion violated at $tmp/two.c:$aline: assert(COND)" "$tmp/out"
done
sed 's/assert(COND)/assert(x < 2 \&\& (x \& 1))/' "$tmp/two.c" > "$tmp/bad.c"
"$LKMMC" "$tmp/bad.c" > "$tmp/out" 2> "$tmp/err"
check "a bitwise operator in a final assert is a located error saying what is accepted" \
	grep -q "^$tmp/bad.c:$aline:19: error: an assert after the joins is a condition over the globals' final values (constants, .*, + - \*, comparisons, !, && and ||): 'x & 1' is not one" "$tmp/err"

# 3e. one answer: main's asserts and the threads' are one block, and
#     "none of N can fail" (both counted) only when none can; --json says
#     the same lines
p=litmus-tests/programs/sb-asserts.c
heads() { grep -v '^ \|^$' "$1" | sed 's/:[0-9]*:[0-9]* in P/ in P/'; }
"$LKMMC" "$p" > "$tmp/out" 2> /dev/null
check "sb-asserts: main's assert fails, the thread's holds: no 'none can fail'" \
	test "$(heads "$tmp/out")" = "Program $p
Assertion violated at $p:44: assert(FINAL_COND)"
"$LKMMC" --json "$p" > "$tmp/json" 2> /dev/null
check "sb-asserts --json: no 'none can fail' either" \
	bash -c "grep -q '\"Assertion violated at ' $tmp/json && ! grep -q 'none of' $tmp/json"
"$LKMMC" -D 'THREAD_COND=r0 < 1' "$p" > "$tmp/out" 2> /dev/null
check "sb-asserts: both fail: main's and the thread's, one after the other" \
	test "$(heads "$tmp/out")" = "Program $p
Assertion violated at $p:44: assert(FINAL_COND)
Assertion failed: assert(THREAD_COND) at $p in P0"
"$LKMMC" -D 'FINAL_COND=r0 + r1 >= 0' "$p" > "$tmp/out" 2> /dev/null
check "sb-asserts: neither fails: none of 2 (main's counted in), then No errors" \
	test "$(heads "$tmp/out")" = "Program $p
Assertions: none of 2 can fail
No errors (bound 2, 11 events)"

# 3f. main as GenMC's tests write it (genmc-main.c, genmc-ids.c: No
#     errors above): what it computes is used, not only accepted
p=litmus-tests/programs/genmc-main.c
sed 's/total == 26/total == 25/' "$p" > "$tmp/genmc-main.c"
"$LKMMC" "$tmp/genmc-main.c" > "$tmp/out" 2> /dev/null
check "genmc-main: the final value read into a local is the counter's (26, not 25)" \
	grep -q "^Assertion violated at $tmp/genmc-main.c:46: assert(total == 25 && last == N)" "$tmp/out"
p=litmus-tests/programs/genmc-ids.c
"$LKMMC" --dump-ir "$p" > "$tmp/out" 2> /dev/null
check "genmc-ids: main's WRITE_ONCE(start, base * 2) is the initial state" \
	grep -q "^  start: int (int) = 10 " "$tmp/out"
check "genmc-ids: ids[] filled by main's loop" \
	grep -q "^  ids\[1\]: int (int) = 1 " "$tmp/out"
sed 's/r == 2 \* base || //' "$p" > "$tmp/genmc-ids.c"
"$LKMMC" "$tmp/genmc-ids.c" > "$tmp/out" 2> /dev/null
check "genmc-ids: main returns without joining, P1 still runs and can see 10" \
	grep -q "^Assertion failed: assert(r == 0) at $tmp/genmc-ids.c:[0-9:]* in P1$" "$tmp/out"

# 3g. the C library's headers: printing has no effect on memory, what
#     its arguments read is read
"$LKMMC" --dump-ir litmus-tests/programs/printing.c > "$tmp/out" 2> /dev/null
check "printing: P0's printf argument READ_ONCE(y) is a load of y" \
	grep -q "load\[once\](&y) .*; READ_ONCE(y)" "$tmp/out"

# 3h. GenMC's __VERIFIER_assume(), pthread mutexes, READ_ONCE() of a
#     thread's local, unions and typedef'd anonymous structs, memset()
#     and memcpy() in main (genmc-assume.c, pthread-mutex.c,
#     local-once.c, union-mutex.c, union-typedef.c, memset-init.c: No
#     errors above): each answer depends on what the program tests.
#     variant SED-ARGS...: $p changed by sed into $v, run, its answer in
#     $tmp/out.
v=$tmp/v.c
variant() { sed "$@" "$p" > "$v"; "$LKMMC" "$v" > "$tmp/out" 2> /dev/null; }
p=litmus-tests/programs/genmc-assume.c
variant '/__VERIFIER_assume(f == 1)/d'
check "genmc-assume: without the reader's assume, its assert can fail" \
	grep -q "^Assertion failed: assert(d == 1) at $v:[0-9:]* in P1$" "$tmp/out"
check "genmc-assume: ... and main's" \
	grep -q "^Assertion violated at $v:[0-9]*: assert(seen == 1)$" "$tmp/out"
variant -e '/__VERIFIER_assume(f == 1)/d' \
	-e 's/__VERIFIER_assume(flag == 1)/__VERIFIER_assume(seen == 1)/'
check "genmc-assume: main's assume on the final state discards the threads' failures too" \
	grep -q "^No errors" "$tmp/out"
p=litmus-tests/programs/pthread-mutex.c
variant -e 's/^\tif (pthread_mutex_lock(&m))$/\tif (0)/' \
	-e '/^\tpthread_mutex_unlock(&m);$/d'
check "pthread-mutex: a thread without the mutex races on the counter" \
	grep -q "^Data race between $v:[0-9]* and $v:[0-9]* on count$" "$tmp/out"
variant '/^\tpthread_mutex_unlock(&m);$/d'
check "pthread-mutex: a mutex never unlocked blocks the other threads" \
	grep -q "^Deadlock: " "$tmp/out"
p=litmus-tests/programs/local-once.c
variant 's/smp_store_release(&p, &y)/WRITE_ONCE(p, \&y)/'
check "local-once: without the release, the reader through its locals can see y's 0" \
	grep -q "^Assertion failed: assert(!(q == &y && v == 0)) at $v:[0-9:]* in P1$" "$tmp/out"
p=litmus-tests/programs/union-mutex.c
variant 's/atomic_cmpxchg_acquire/atomic_cmpxchg_relaxed/'
check "union-mutex: a lock word in a union taken without acquire lets the counter race" \
	grep -q "^Data race between $v:[0-9]* and $v:[0-9]* on count$" "$tmp/out"
p=litmus-tests/programs/union-typedef.c
variant 's/table\[1\].slot.word == 15/table[1].slot.word == 16/'
check "union-typedef: the union in an element of a typedef'd struct array holds the helper's 15" \
	grep -q "^Assertion violated at $v:[0-9]*: assert(atomic_read(&table\[1\].state) == 5" "$tmp/out"
p=litmus-tests/programs/memset-init.c
variant '/memset(&cfg/d'
check "memset-init: without main's memset, the fields keep main's values" \
	grep -q "^Assertion failed: assert(READ_ONCE(cfg.mode) == 0 .* at $v:[0-9:]* in P1$" "$tmp/out"
variant '/memcpy(work/d'
check "memset-init: without the array's memcpy, the thread adds 0, not 6" \
	grep -q "^Assertion violated at $v:[0-9]*: assert(data == 8 " "$tmp/out"

# 4. one checker, two inputs: litmus tests and their --to-c programs give
#    the same answers (the kernel's 34 and ours; the whole corpus is make
#    conformance-programs)
LKMM_DIR=${LKMM_DIR:-build/linux/tools/memory-model}
conv=$(ls litmus-tests/*.litmus litmus-tests/kernel-fragments/*.litmus)
[ -d "$LKMM_DIR/litmus-tests" ] && conv="$conv $(ls "$LKMM_DIR"/litmus-tests/*.litmus)"
if LKMMC=$LKMMC bash bench/conformance-programs.sh --out "$tmp/conv" $conv > "$tmp/conv.log" 2>&1
then ok
else bad "litmus and --to-c answers differ: $(cat "$tmp/conv.log"; head -n 5 "$tmp/conv/differences.txt")"
fi
[ -d "$LKMM_DIR/litmus-tests" ] || bad "no $LKMM_DIR/litmus-tests (run make kernel-tree)"

report "e2e-programs" "($nprog programs, $nerr bad programs)"
