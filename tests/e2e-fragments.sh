#!/usr/bin/env bash
# tests/e2e-fragments.sh - kernel code fragments, assertions and the loop
# unwinding check, on the real binary.
#
# 1. litmus-tests/kernel-fragments/*.litmus (not *-unrolled; slow/*.litmus
#    too with FRAGMENTS_SLOW=1), each run with
#    --unroll auto: the Observation verdict must match "Result:"; "Assert:
#    never" wants "Assertions: none of", "Assert: fails" wants an
#    "Assertion failed:" line and a warning on stderr; "Hang: Pn" wants
#    "Spins forever: Pn" (and a warning), otherwise no hang may be
#    reported; the exit status is 3 for a failing assertion or a hang,
#    else 0; a test with a loop must say which bound auto chose and never
#    print "Loop"; NAME.states, when present, must be the States exactly.
# 2. NAME-unrolled.litmus ("Unrolled from: NAME.litmus at --unroll N"):
#    herd7's dialect, loops unrolled by hand; its States and Observation
#    must be those of NAME.litmus at --unroll N.
# 3. tests/bounds/unwind-counter.litmus: at --unroll 3 an execution needing
#    a 4th iteration is dropped and reported (warning naming the loop's
#    line, "Loop No", Never); at --unroll 4 it is found (Sometimes, no
#    warning); --unroll auto chooses 4; --unroll auto:3 stops at its limit
#    with exit 4.
# 4. Assertions without a final condition, WARN_ON's value, exit statuses
#    over several files, and output the kernel's scripts still judge.
# 5. Spin loops (tests/bounds/spin-*.litmus, bench's ticket lock of 4
#    threads): an iteration without effect is left out, so no unwinding
#    warning at the default bound (also a loop of failed cmpxchg()s); a
#    thread that spins forever is still reported as a hang, also one
#    waiting for a counter's final value.
# 6. --timeout 2 ends a lock program that runs far longer, with the error.
# One line per failure, then "N passed, N failed"; exit 1 on any failure.
#
# Environment: LKMMC  the binary (default ./lkmmc)
#              FRAGMENTS_SLOW=1  also the fragments of slow/ (minutes each)
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
dir=litmus-tests/kernel-fragments
scratch

observation() { grep '^Observation' "$1" | awk '{ print $(NF-2), $(NF-1), $NF }'; }
states() { sed -n '/^States/,/^\(Loop \)\?\(Ok\|No\)$/p' "$1"; }

run() { # OUT ERR ARGS...: run lkmmc, return its exit status
	local out=$1 err=$2
	shift 2
	timeout 300 "$LKMMC" "$@" >"$out" 2>"$err" </dev/null
}

# --- 1. fragments ----------------------------------------------------------
# slow/ holds fragments that take minutes (see its README; none today):
# only with FRAGMENTS_SLOW=1.
slow=
[ "${FRAGMENTS_SLOW:-0}" = 1 ] && slow=$(ls "$dir"/slow/*.litmus 2>/dev/null)
n=0
for f in "$dir"/*.litmus $slow; do
	case $f in *-unrolled.litmus) continue ;; esac
	n=$((n + 1))
	name=$(basename "$f" .litmus)
	fdir=$(dirname "$f")
	case_begin
	run "$tmp/out" "$tmp/err" --unroll auto "$f"
	rc=$?
	want=$(field "$f" Result)
	got=$(observation "$tmp/out" | cut -d' ' -f1)
	[ "$got" = "$want" ] || case_fail "$name: Result: $want, got Observation '$got'"
	assert=$(field "$f" Assert)
	hang=$(field "$f" Hang)
	case $assert in
	never)
		grep -q '^Assertions: none of' "$tmp/out" || case_fail "$name: no 'Assertions: none of' line" ;;
	fails)
		grep -q '^Assertion failed: ' "$tmp/out" || case_fail "$name: no 'Assertion failed:' line"
		grep -q 'warning: assertion can fail' "$tmp/err" || case_fail "$name: no assertion warning on stderr" ;;
	"")
		! grep -q '^Assertion' "$tmp/out" || case_fail "$name: assertion report without assertions" ;;
	*) case_fail "$name: bad Assert: line" ;;
	esac
	wantrc=0
	case "$assert $hang" in "fails "* | *" P"[0-9]*) wantrc=3 ;; esac
	[ $rc -eq $wantrc ] || case_fail "$name: exit status $rc, expected $wantrc"
	case $hang in
	P[0-9]*)
		grep -q "^Spins forever: $hang " "$tmp/out" || case_fail "$name: no 'Spins forever: $hang' line"
		grep -q "warning: $hang spins forever" "$tmp/err" || case_fail "$name: no hang warning on stderr" ;;
	*)
		! grep -q '^Spins forever' "$tmp/out" || case_fail "$name: unexpected hang: $(grep '^Spins' "$tmp/out")" ;;
	esac
	if grep -qE '^[[:space:]]*(while|for|do)\b' "$f"; then
		grep -q '^Unwinding: --unroll auto chose [0-9]' "$tmp/out" || case_fail "$name: --unroll auto did not say which bound it chose"
	fi
	! grep -q '^Loop ' "$tmp/out" || case_fail "$name: 'Loop' under --unroll auto"
	if [ -f "$fdir/$name.states" ]; then
		states "$tmp/out" | sed '1d;$d' >"$tmp/got"
		cmp -s "$tmp/got" "$fdir/$name.states" || case_fail "$name: States differ from $name.states: $(paste -sd'|' "$tmp/got")"
	fi
	case_end
done
[ $n -ge 10 ] || { case_begin; case_fail "only $n fragments in $dir (want at least 10)"; case_end; }

# --- 2. hand-unrolled twins ------------------------------------------------
for u in "$dir"/*-unrolled.litmus; do
	[ -f "$u" ] || continue
	case_begin
	name=$(basename "$u" .litmus)
	from=$(field "$u" 'Unrolled from')
	src=$dir/${from%% *}
	bound=${from##* }
	if [ ! -f "$src" ] || [ -z "$bound" ]; then
		case_fail "$name: bad 'Unrolled from:' line '$from'"
		case_end; continue
	fi
	run "$tmp/a" "$tmp/ea" --unroll "$bound" "$src"
	run "$tmp/b" "$tmp/eb" "$u" || case_fail "$name: exit status $?: $(head -1 "$tmp/eb")"
	[ "$(observation "$tmp/a")" = "$(observation "$tmp/b")" ] ||
		case_fail "$name: Observation $(observation "$tmp/b"), but $(basename "$src") at --unroll $bound gives $(observation "$tmp/a")"
	[ "$(states "$tmp/a")" = "$(states "$tmp/b")" ] ||
		case_fail "$name: States differ from $(basename "$src") at --unroll $bound"
	[ "$(observation "$tmp/b" | cut -d' ' -f1)" = "$(field "$u" Result)" ] ||
		case_fail "$name: Result: $(field "$u" Result), got $(observation "$tmp/b")"
	case_end
done

# --- 3. unwinding: dropped at N and reported, found at N+1 -----------------
t=tests/bounds/unwind-counter.litmus
case_begin
run "$tmp/out" "$tmp/err" --unroll 3 "$t" || case_fail "unwind-counter: exit status $? at --unroll 3"
grep -q "^$t:19:2: warning: unwinding bound reached at line 19 (loop needs more than 3 iterations in some execution; try --unroll 4 or --unroll auto)" "$tmp/err" ||
	case_fail "unwind-counter: no located unwinding warning at --unroll 3: $(head -1 "$tmp/err")"
grep -qx 'Loop No' "$tmp/out" || case_fail "unwind-counter: no 'Loop No' at --unroll 3"
[ "$(observation "$tmp/out")" = "Never 0 0" ] || case_fail "unwind-counter: --unroll 3 should drop the execution: $(observation "$tmp/out")"
grep -q '^Unwinding bound 3 reached: P0 line 19 ' "$tmp/out" || case_fail "unwind-counter: no unwinding report on stdout"
run "$tmp/out" "$tmp/err" --unroll 4 "$t" || case_fail "unwind-counter: exit status $? at --unroll 4"
[ "$(observation "$tmp/out")" = "Sometimes 1 3" ] || case_fail "unwind-counter: --unroll 4 should find it: $(observation "$tmp/out")"
[ ! -s "$tmp/err" ] || case_fail "unwind-counter: warning at --unroll 4: $(head -1 "$tmp/err")"
grep -q '^Unwinding: bound 4: no consistent execution needs more iterations' "$tmp/out" || case_fail "unwind-counter: no 'bound 4' line"
run "$tmp/out" "$tmp/err" --unroll auto "$t" || case_fail "unwind-counter: exit status $? with --unroll auto"
grep -q '^Unwinding: --unroll auto chose 4:' "$tmp/out" || case_fail "unwind-counter: --unroll auto did not choose 4"
run "$tmp/out" "$tmp/err" --unroll auto:3 "$t"
rc=$?
[ $rc -eq 4 ] || case_fail "unwind-counter: --unroll auto:3 exit status $rc, expected 4"
grep -q 'warning: --unroll auto reached its limit 3' "$tmp/err" || case_fail "unwind-counter: no limit warning"
run "$tmp/out" "$tmp/err" --unroll auto:1 "$t"
[ $? -eq 2 ] || case_fail "unwind-counter: --unroll auto:1 is not a usage error"
case_end

# --- 4. assertions without a condition; statuses; kernel-script output -----
t=tests/bounds/assert-only.litmus
case_begin
run "$tmp/out" "$tmp/err" "$t"
case_status assert-only $? 3
# WARN_ON reported, the assert under WARN_ON's value too, a witness
# execution reading y=1, x=0; a located warning
case_grep assert-only "$tmp/out" "^Assertion failed: WARN_ON(r0 == 1 && r1 == 0) at $t:26:6 in P1" \
	"^Assertion failed: assert(r1 == 1) at $t:27:3 in P1" '^  in this execution:' '1:r0=1; 1:r1=0;'
case_grep assert-only "$tmp/err" "^$t:26:6: warning: assertion can fail in P1"
# several files: an error (1) beats a failing assertion (3) beats 0
run "$tmp/out" "$tmp/err" "$dir/spinwait-wmb-rmb.litmus" "$t"
[ $? -eq 3 ] || case_fail "statuses: 0 then 3 should exit 3"
printf 'C bad\n{}\nP0(int *x) { BUG_ON(); }\nexists (x=0)\n' >"$tmp/bad.litmus"
run "$tmp/out" "$tmp/err" "$t" "$tmp/bad.litmus"
[ $? -eq 1 ] || case_fail "statuses: 3 then an error should exit 1"
grep -q "bad.litmus:3:14: error: 'BUG_ON' takes 1 argument but 0 are given" "$tmp/err" ||
	case_fail "BUG_ON(): no located arity error: $(head -1 "$tmp/err")"
# what the kernel's judgelitmus.sh reads: one Observation line, no "!!!"
run "$tmp/out" "$tmp/err" --unroll 3 tests/bounds/unwind-counter.litmus
[ "$(grep -c '^Observation' "$tmp/out")" = 1 ] || case_fail "kernel scripts: not exactly one Observation line"
! grep -q '!!!' "$tmp/out" "$tmp/err" || case_fail "kernel scripts: '!!!' in the output"
case_end

# --- 5. spin loops: iterations without effect are left out -----------------
t=tests/bounds/spin-stale.litmus
case_begin
run "$tmp/out" "$tmp/err" "$t" || case_fail "spin-stale: exit status $?"
[ ! -s "$tmp/err" ] || case_fail "spin-stale: warning at the default bound: $(head -1 "$tmp/err")"
[ "$(observation "$tmp/out")" = "Never 0 1" ] || case_fail "spin-stale: $(observation "$tmp/out"), expected Never 0 1"
grep -qx '1:r0=1;' "$tmp/out" || case_fail "spin-stale: the state 1:r0=1 is missing"
! grep -q '^Loop ' "$tmp/out" || case_fail "spin-stale: 'Loop' at the default bound"
grep -q '^Unwinding: bound 2: no consistent execution needs more iterations' "$tmp/out" ||
	case_fail "spin-stale: no 'Unwinding: bound 2' line"
run "$tmp/out" "$tmp/err" --unroll auto "$t" || case_fail "spin-stale: exit status $? with --unroll auto"
grep -q '^Unwinding: --unroll auto chose 2:' "$tmp/out" || case_fail "spin-stale: --unroll auto did not stay at 2"
case_end
# a failed cmpxchg() is only a read: its loop reads 1, 2, 3 and never
# reaches the bound (it did when the RMW read counted as an effect)
t=tests/bounds/spin-cmpxchg.litmus
case_begin
run "$tmp/out" "$tmp/err" "$t" || case_fail "spin-cmpxchg: exit status $?"
[ ! -s "$tmp/err" ] || case_fail "spin-cmpxchg: warning at the default bound: $(head -1 "$tmp/err")"
[ "$(observation "$tmp/out")" = "Always 1 0" ] || case_fail "spin-cmpxchg: $(observation "$tmp/out"), expected Always 1 0"
! grep -q '^Loop ' "$tmp/out" || case_fail "spin-cmpxchg: 'Loop' at the default bound"
grep -q '^Unwinding: bound 2: no consistent execution needs more iterations' "$tmp/out" ||
	case_fail "spin-cmpxchg: no 'Unwinding: bound 2' line"
case_end
t=tests/bounds/spin-hang.litmus
case_begin
run "$tmp/out" "$tmp/err" "$t"
case_status spin-hang $? 3
[ "$(observation "$tmp/out")" = "Never 0 0" ] || case_fail "spin-hang: $(observation "$tmp/out"), expected Never 0 0"
# the hang reported, the execution says P1 spins; a located warning
case_grep spin-hang "$tmp/out" '^Spins forever: P1 line 28 ' '^  P1 spins in its loop at line 28'
case_grep spin-hang "$tmp/err" "^$t:28:2: warning: P1 spins forever at line 28"
! grep -q 'unwinding bound reached' "$tmp/err" || case_fail "spin-hang: unwinding warning for a loop without effect"
case_end
# a hang on a counter's final value, counted from its RMWs: found with
# each kind of change counted right, and no hang where the count rules
# it out (P3 waiting while c is 0: c passes 0, but never ends there)
t=tests/bounds/spin-counter.litmus
for wait in 'r0 != 9@9' 'r0 != 2@2' 'r0 == 0@'; do
	case_begin
	sed "s/r0 != 9/${wait%@*}/" "$t" >"$tmp/spin-counter.litmus"
	run "$tmp/out" "$tmp/err" "$tmp/spin-counter.litmus"
	rc=$?
	if [ -n "${wait#*@}" ]; then
		[ $rc -eq 3 ] || case_fail "spin-counter (${wait%@*}): exit status $rc, expected 3"
		case_grep "spin-counter (${wait%@*})" "$tmp/out" '^Spins forever: P3 line [0-9]* ' \
			"^  final: \[c\]=$([ "${wait#*@}" = 9 ] && echo 2 || echo 9);"
	else
		[ $rc -eq 0 ] || case_fail "spin-counter (${wait%@*}): exit status $rc, expected 0"
		! grep -q '^Spins forever' "$tmp/out" || case_fail "spin-counter (${wait%@*}): a hang reported"
	fi
	case_end
done
# the issue's ticket lock of 4 threads needed --unroll auto (3) before
case_begin
bash bench/gen-families.sh --out "$tmp/locks" --families ticket --n 4 >/dev/null || case_fail "gen-families: ticket"
run "$tmp/out" "$tmp/err" "$tmp/locks/ticket-04.litmus" || case_fail "ticket-04: exit status $?"
[ "$(observation "$tmp/out")" = "Never 0 1" ] || case_fail "ticket-04: $(observation "$tmp/out"), expected Never 0 1"
[ ! -s "$tmp/err" ] || case_fail "ticket-04: warning at the default bound: $(head -1 "$tmp/err")"
case_end

# --- 6. --timeout ends a slow test --------------------------------------------
# mcs-06 runs far longer than 2 s without a limit.  Where Z3 cannot be
# interrupted (its first query takes in the whole encoding), the worker
# process is killed at 1.05 x the limit (README, --timeout): the run ends
# with the error within a few seconds, process start-up included (the
# bound leaves room for a loaded machine; it is a promise, not a speed).
case_begin
bash bench/gen-families.sh --out "$tmp/locks" --families mcs --n 6 >/dev/null || case_fail "gen-families: mcs"
start=$SECONDS
run "$tmp/out" "$tmp/err" --timeout 2 "$tmp/locks/mcs-06.litmus"
rc=$?
[ $rc -eq 1 ] || case_fail "timeout: exit status $rc, expected 1"
grep -q 'mcs-06.litmus: error: solver gave up while' "$tmp/err" || case_fail "timeout: no time-out error: $(head -1 "$tmp/err")"
[ $((SECONDS - start)) -le 10 ] || case_fail "timeout: --timeout 2 took $((SECONDS - start)) s"
case_end

report
