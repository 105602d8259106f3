#!/usr/bin/env bash
# tests/e2e-families.sh - bench/gen-families.sh's per-thread-index lock
# families and long-xy, in both forms, on small N: lkmmc's answer on each
# litmus test, on each C program and on the C program --to-c writes of the
# litmus test is the one its Result: comment states (Never: no error, exit
# status 0; Sometimes: an error, exit status 3), the two forms state the
# same answer, the C programs have the shape users write (one worker
# function given its index, <lkmm.h>, no cpu_relax()), long-xy has its N
# stores and N/5 reads per thread; then bench/programs.sh with a stand-in
# GenMC (tests/fake-genmc.sh) writes its table, reports agreement, and a
# flipped GenMC answer as a difference that is not a failure.  It checks no
# speed.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch
real=$LKMMC
case $real in /*) ;; *) real=$root/$real ;; esac
gen() { bash bench/gen-families.sh --out "$tmp/f" "$@"; }

# 1. The generator: both forms, the families, the groups.
gen --n 2 --families idx,long-xy --form both > "$tmp/list" || bad "gen-families --form both failed"
idx=$(bash bench/gen-families.sh --list-idx | wc -l)
check "idx: $idx families" [ "$idx" -ge 9 ]
check "--form both: a litmus test per family" [ "$(grep -c '\.litmus$' "$tmp/list")" -eq $((idx + 1)) ]
check "--form both: a program per family" [ "$(grep -c '\.c$' "$tmp/list")" -eq $((idx + 1)) ]
# qrwlock-idx's answer changes at 3 threads (gen-families.sh's header)
gen --n 3 --families qrwlock-idx --form both >> "$tmp/list"
check "--form c of a family without a C form writes nothing" \
	[ -z "$(gen --n 2 --families ticket --form c)" ]
check "--form other is refused" eval '! gen --n 2 --families ticket-idx --form pdf 2>/dev/null'
for f in $(grep '\.c$' "$tmp/list"); do
	case_begin
	grep -q '^#include <lkmm.h>$' "$f" || case_fail "$f: no <lkmm.h>"
	grep -q 'cpu_relax' "$f" && case_fail "$f: cpu_relax() (GenMC's lkmm.h has none)"
	case $f in
	*/long-xy-*) ;;
	*/qrwlock-idx*) grep -q 'pthread_create(&t\[i\], NULL, writer, (void \*)(intptr_t)i)' "$f" || case_fail "$f: writers not created in a loop" ;;
	*) grep -q 'pthread_create(&t\[i\], NULL, worker, (void \*)(intptr_t)i)' "$f" || case_fail "$f: threads not created in a loop with their index"
	   grep -q 'assert(who == me);' "$f" || case_fail "$f: no assertion on the index" ;;
	esac
	[ "$(result "$f")" = "$(result "${f%.c}.litmus")" ] || case_fail "$f: Result: differs from the litmus test's"
	case_end
done
gen --n 12 --families long-xy --form both > /dev/null
for f in "$tmp/f/long-xy-12.litmus" "$tmp/f/long-xy-12.c"; do
	check "$f: 24 stores" [ "$(grep -c '^	WRITE_ONCE(' "$f")" -eq 24 ]
	check "$f: 4 reads" [ "$(grep -c '= READ_ONCE(' "$f")" -eq 4 ]
done
check "long-xy: exists (0:r0=0 /\\ 1:r0=0)" grep -q '^(0:r0=0 /\\ 1:r0=0)$' "$tmp/f/long-xy-12.litmus"

# 2. lkmmc's answers: litmus (--exists-only), program, --to-c's program.
# answer FILE: "ok" (no error), "bug", or what went wrong.
answer() {
	local rc
	"$real" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	case $1 in --exists-only)
		case $(sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' "$tmp/out") in
		Never) echo ok ;; Sometimes) echo bug ;; *) echo "no verdict (status $rc)" ;;
		esac
		return ;;
	esac
	if [ $rc = 0 ] && grep -q '^No errors (bound' "$tmp/out"; then echo ok
	elif [ $rc = 3 ] && grep -qE '^(Assertion violated|Assertion failed|Data race)' "$tmp/out"; then echo bug
	else echo "status $rc: $(head -n 2 "$tmp/out" "$tmp/err" | tr '\n' ' ')"
	fi
}
for t in $(grep '\.litmus$' "$tmp/list"); do
	case_begin
	case $(result "$t") in Never) want=ok ;; Sometimes) want=bug ;; *) want="no Result:" ;; esac
	got=$(answer --exists-only "$t")
	[ "$got" = "$want" ] || case_fail "$t: litmus answer $got, Result: $want"
	got=$(answer "${t%.litmus}.c")
	[ "$got" = "$want" ] || case_fail "${t%.litmus}.c: program answer $got, Result: $want"
	if "$real" --to-c "$t" > "$tmp/toc.c" 2> "$tmp/toc.err"; then
		got=$(answer "$tmp/toc.c")
		[ "$got" = "$want" ] || case_fail "$t: --to-c program answer $got, Result: $want"
	else
		case_fail "$t: --to-c failed: $(head -n 1 "$tmp/toc.err")"
	fi
	case_end
done

# 2b. Large tests (over 200 events): the execution of the threads in turn
# is asked first (solver/check.c), co ; rf folds and coherence compares
# timestamps (encoder/rel.c).  The answers stay the Result: ones, in
# both modes, and a witness shown is the condition's.
gen --n 100 --families long-xy,long-plain,long-shared --form litmus > "$tmp/long"
for f in $(cat "$tmp/long"); do
	want=$(result "$f")
	for mode in --exists-only ""; do
		out=$($LKMMC $mode "$f" 2>&1)
		check "$(basename "$f") $mode: $want" eval 'grep -q "^Observation [^ ]* $want " <<< "$out"'
	done
done
f=$(grep long-plain "$tmp/long")
out=$($LKMMC --exists-only --witness "$f" 2>&1)
check "long-plain-100: a witness of the condition" eval 'grep -q "^Witness" <<< "$out"'

# 3. bench/programs.sh with the stand-in GenMC.
mkdir -p "$tmp/bin"
ln -s "$root/tests/fake-genmc.sh" "$tmp/bin/genmc"
prog() { PATH="$tmp/bin:$PATH" FAKE_GENMC_LKMMC=$real LKMMC=$real bash bench/programs.sh --reps 1 --timeout 60 "$@"; }
prog --n 2 --families ticket-idx,ttas-idx-norel,qrwlock-idx-norel --out "$tmp/p" > "$tmp/p.log" 2>&1
rc=$?
check "programs.sh: exit status $rc ($(tail -n 1 "$tmp/p.log"))" [ $rc -eq 0 ]
tsv=$tmp/p/programs.tsv
check "programs.sh: header" grep -q '^test	family	n	expected	litmus_s	litmus_wall	litmus	program_s	program_wall	program	genmc_s	genmc_wall	genmc	agree	check$' "$tsv"
check "programs.sh: 3 rows" [ "$(wc -l < "$tsv")" -eq 4 ]
check "programs.sh: GenMC agrees on all 3" [ "$(awk -F'\t' '$14 == "agree" && $15 == "ok"' "$tsv" | wc -l)" -eq 3 ]
check "programs.sh: the program is the family's own" [ -f "$tmp/p/c/ticket-idx-02.c" ]
check "programs.sh: no --to-c program for it" [ ! -f "$tmp/p/c/ticket-idx-02.toc.c" ]
check "programs.sh: answers read" grep -q '^ticket-idx-02	ticket-idx	2	Never	[0-9.]*	[0-9.]*	Never	[0-9.]*	[0-9.]*	no-errors	[0-9.]*	[0-9.]*	no-errors	agree	ok$' "$tsv"
check "programs.sh: errors of other kinds agree (a race, an assertion)" \
	grep -qE '^qrwlock-idx-norel-02	.*	(race|violated|failed)	[0-9.]*	[0-9.]*	(race|violated)	agree	ok$' "$tsv"
check "programs.sh: the table printed" grep -q '^ttas-idx-norel  *2 Sometimes .* agree *ok$' "$tmp/p.log"
FAKE_GENMC_FLIP=ticket-idx-02.toc prog --n 2 --families ticket-idx --program toc --litmus none --out "$tmp/q" > "$tmp/q.log" 2>&1
rc=$?
check "a GenMC difference is listed, not a failure (status $rc)" [ $rc -eq 0 ]
check "--program toc: GenMC checks --to-c's program" [ -f "$tmp/q/c/ticket-idx-02.toc.c" ]
check "the difference in the row and the summary" grep -q 'differs on 1 (ticket-idx-02)' "$tmp/q.log"
check "--litmus none: no litmus run" grep -q '^ticket-idx-02	ticket-idx	2	Never	-	-	-	' "$tmp/q/programs.tsv"

report "e2e-families"
