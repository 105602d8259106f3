#!/usr/bin/env bash
# End-to-end tests of --repair, --prune, --strip and --repair-cost.
#  - The classic shapes with nothing but ONCE accesses (MP, SB, LB, WRC,
#    IRIW, ISA2, R, S; Z6.0 as --strip leaves Z6.0+mbs) and a kernel
#    fragment whose spin loop lost its smp_rmb(): the minimum cost and
#    every repair of that cost, derived by hand from linux-kernel.cat with
#    the default costs (acquire/release 1, smp_rmb/smp_wmb 2, smp_mb 4).
#    Every diff printed must apply with patch(1), and the patched file must
#    be Never when lkmmc checks it on its own.
#  - The cut from failed sets finds the plain enumeration's repairs with
#    fewer checks (a four-thread LB chain).
#  - Candidates asked of one encoding (every change under a choice) are
#    judged as the from-scratch checks judge them (--repair-scratch): the
#    same repairs after the same checks, on the shapes above, a forall
#    test, a loop-free assertion and --prune; a test with a loop falls
#    back to checks from scratch.
#  - Several files in one run (serially and with -j 2), a test with nothing
#    to repair, a test no change of the menu repairs (exit status 3), --prune
#    on a test with a redundant fence, cost files (one that changes the
#    answer, bad ones rejected with file:line:col).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
scratch

# repair_case FILE COST "REPAIR" ...: --repair finds exactly these repairs
# of cost COST (each "what (cost); what (cost)" as printed), each diff
# applies and the patched test is Never.
repair_case() {
	local f=$1 cost=$2
	shift 2
	case_begin
	local out n=$#
	out=$("$LKMMC" --repair --repair-max 20 "$f" 2>&1)
	local head
	head=$(grep -m1 '^Repair ' <<<"$out")
	local want="repair"
	[ "$n" -gt 1 ] && want="repairs"
	[[ $head == *": $n $want of cost $cost "* ]] || case_fail "$f: expected $n $want of cost $cost, got: $head"
	local k=0
	for r in "$@"; do
		k=$((k + 1))
		grep -qxF "Repair $k, cost $cost: $r" <<<"$out" || case_fail "$f: repair $k is not '$r'"
	done
	[ "$(grep -c 're-checked from scratch: never reached' <<<"$out")" = "$n" ] ||
		case_fail "$f: not every repair says it was re-checked"
	grep -q "Explanation: the condition is never reached because of" <<<"$out" ||
		case_fail "$f: no axiom named"
	# each diff, applied by patch(1), gives a Never test
	local d=0
	while read -r start; do
		d=$((d + 1))
		awk -v s="$start" 'NR >= s && /^  re-checked/ { exit } NR >= s' <<<"$out" > "$tmp/d$d.diff"
		mkdir -p "$tmp/p$d"
		cp "$f" "$tmp/p$d/t.litmus"
		if ! patch -s -p1 -d "$tmp/p$d" -o t.out t.litmus < <(sed 's/^\(---\|+++\) .*/\1 x\/t.litmus/' "$tmp/d$d.diff") >/dev/null 2>&1; then
			case_fail "$f: diff $d does not apply"
			continue
		fi
		"$LKMMC" --exists-only "$tmp/p$d/t.out" 2>/dev/null | grep -q "^Observation .* Never " ||
			case_fail "$f: the test patched by diff $d is not Never"
	done < <(grep -n '^--- a/' <<<"$out" | cut -d: -f1)
	[ "$d" = "$n" ] || case_fail "$f: $d diffs for $n repairs"
	case_end
}

L=litmus-tests
"$LKMMC" --strip $L/Z6.0+mbs.litmus > "$tmp/Z6.0.litmus" 2>/dev/null
check "--strip removes Z6.0+mbs's three smp_mb" \
	test "$(grep -c 'smp_mb();' "$tmp/Z6.0.litmus")" = 0

# The repair cases: a line "FILE COST" starts one, its repairs follow, one
# an indented line, in the order printed (read on fd 3: the cases run
# lkmmc, which must not read the table).
row=()
run_row() { [ ${#row[@]} -eq 0 ] || repair_case "${row[@]}"; row=(); }
while IFS= read -r -u 3 line; do
	case $line in
	'#'* | '') ;;
	[[:space:]]*) row+=("${line#"${line%%[![:space:]]*}"}") ;;
	*) run_row; read -r -a row <<<"$line" ;;
	esac
done 3<<EOF
# MP: the flag store must be a release and the flag load an acquire
# (po-rel ; rfe ; acq-po closes hb); smp_wmb + smp_rmb would cost 4.
litmus-tests/MP+pos.litmus 2
	release on line 18 in P0 (1); acquire on line 26 in P1 (1)
# SB: W->R order needs a strong fence in both threads (pb); acquire and
# release never order a store before a later load.
litmus-tests/SB+pos.litmus 8
	smp_mb() before line 19 in P0 (4); smp_mb() before line 27 in P1 (4)
# LB: R->W in each thread: an acquire load or a release store, either
# side (four combinations, all in hb).
litmus-tests/LB+pos.litmus 2
	acquire on line 18 in P0 (1); acquire on line 26 in P1 (1)
	acquire on line 18 in P0 (1); release on line 27 in P1 (1)
	release on line 19 in P0 (1); acquire on line 26 in P1 (1)
	release on line 19 in P0 (1); release on line 27 in P1 (1)
# WRC: P1's store a release (cumulative: P0's x is propagated first),
# P2's flag read an acquire.
litmus-tests/WRC+pos.litmus 2
	release on line 23 in P1 (1); acquire on line 31 in P2 (1)
# IRIW: the readers need strong fences (pb); nothing in the writers helps.
litmus-tests/IRIW+pos.litmus 8
	smp_mb() before line 30 in P2 (4); smp_mb() before line 39 in P3 (4)
# ISA2: a release chain x -> y -> z read by an acquire.
litmus-tests/ISA2+pos.litmus 3
	release on line 16 in P0 (1); release on line 24 in P1 (1); acquire on line 32 in P2 (1)
# R: the W->R order in P1 needs smp_mb, and then P0's W->W must be a strong
# fence too (pb), not a release or smp_wmb.
litmus-tests/R+pos.litmus 8
	smp_mb() before line 16 in P0 (4); smp_mb() before line 24 in P1 (4)
# S: P0's y store a release; in P1 R->W by an acquire load or a release
# store.
litmus-tests/S+pos.litmus 2
	release on line 16 in P0 (1); acquire on line 23 in P1 (1)
	release on line 16 in P0 (1); release on line 24 in P1 (1)
# Z6.0 (Z6.0+mbs stripped): P2's W->R needs smp_mb, and the x write must
# reach P2 before z=2 is coherence-last: a strong fence in P0 with P1's
# R->W ordered, or P0's release with a strong fence in P1.
$tmp/Z6.0.litmus 9
	smp_mb() before line 19 in P0 (4); acquire on line 26 in P1 (1); smp_mb() before line 35 in P2 (4)
	smp_mb() before line 19 in P0 (4); release on line 27 in P1 (1); smp_mb() before line 35 in P2 (4)
	release on line 19 in P0 (1); smp_mb() before line 27 in P1 (4); smp_mb() before line 35 in P2 (4)
# A fragment with a loop: the spin loop's flag load made an acquire (1)
# is cheaper than the smp_rmb() after the loop the kernel uses (2).
litmus-tests/kernel-fragments/spinwait-no-rmb.litmus 1
	acquire on line 30 in P1 (1)
# An assertion: the seqlock reader's BUG_ON, with smp_rmb() before the
# re-read of the sequence count (the kernel's) or both data loads acquires.
litmus-tests/kernel-fragments/seqlock-no-rmb.litmus 2
	acquire on line 45 in P1 (1); acquire on line 46 in P1 (1)
	smp_rmb() before line 47 in P1 (2)
EOF
run_row

# The growth of failed sets: a four-thread LB chain whose P1 has a data
# dependency needs an acquire or a release in each other thread (8
# repairs of cost 3).  The cut finds the same repairs as the plain
# enumeration, with fewer checks: a failed set grows by every thread but
# one at once (one check) and then inside that thread, where one change
# at a time took 37 checks and the plain search 54.
cat > "$tmp/lb4.litmus" <<'T'
C lb4

{}

P0(int *x, int *y)
{
	int r0;

	r0 = READ_ONCE(*x);
	WRITE_ONCE(*y, 1);
}

P1(int *y, int *z)
{
	int r0;

	r0 = READ_ONCE(*y);
	WRITE_ONCE(*z, r0);
}

P2(int *z, int *w)
{
	int r0;

	r0 = READ_ONCE(*z);
	WRITE_ONCE(*w, 1);
}

P3(int *w, int *x)
{
	int r0;

	r0 = READ_ONCE(*w);
	WRITE_ONCE(*x, 1);
}

exists (0:r0=1 /\ 1:r0=1 /\ 2:r0=1 /\ 3:r0=1)
T
cut=$("$LKMMC" --repair --repair-max 20 "$tmp/lb4.litmus" 2>&1)
plain=$("$LKMMC" --repair --repair-max 20 --repair-plain "$tmp/lb4.litmus" 2>&1)
check "lb4: 8 repairs of cost 3" grep -q "^Repair lb4: 8 repairs of cost 3 " <<<"$cut"
check "lb4: the same repairs as the plain enumeration" \
	test "$(grep '^Repair [0-9]' <<<"$cut")" = "$(grep '^Repair [0-9]' <<<"$plain")"
n=$("$LKMMC" --repair --repair-max 1 "$tmp/lb4.litmus" 2>&1 | sed -n 's/.*; \([0-9]*\) candidates checked.*/\1/p')
check "lb4: the first repair after at most 22 checks (got ${n:-none})" test "${n:-999}" -le 22

# One encoding: a candidate is a query of the test written once with every
# change under a choice; --repair-scratch checks each candidate's patched
# text from scratch instead.  Both must judge every candidate alike: the
# same repairs after the same number of checks (the search asks the same
# sets in the same order when the answers agree), on the classic shapes,
# the LB chain, a forall test, a loop-free assertion and --prune.
cat > "$tmp/mpall.litmus" <<'T'
C mpall

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
}

forall (1:r0=0 \/ 1:r1=1)
T
sed -e 's/^C mpall/C mpbug/' -e 's/^forall .*/exists (x=2)/' \
	-e 's/^\tr1 = READ_ONCE(\*x);/\tif (r0) {\n\t\tr1 = READ_ONCE(*x);\n\t\tBUG_ON(r1 == 0);\n\t}/' \
	"$tmp/mpall.litmus" > "$tmp/mpbug.litmus"
check "mpbug: a loop-free BUG_ON that can fire" grep -q "BUG_ON(r1 == 0)" "$tmp/mpbug.litmus"
no_time() { sed 's/ candidates checked, [0-9.]* s)$/ candidates checked)/'; }
for f in $L/MP+pos.litmus $L/SB+pos.litmus $L/WRC+pos.litmus $L/IRIW+pos.litmus \
	$L/R+pos.litmus $tmp/Z6.0.litmus $tmp/lb4.litmus $tmp/mpall.litmus $tmp/mpbug.litmus; do
	one=$("$LKMMC" --repair --repair-max 20 --stats "$f" 2>&1)
	scr=$("$LKMMC" --repair --repair-max 20 --repair-scratch "$f" 2>&1)
	check "$(basename "$f"): candidates asked of one encoding" \
		grep -q "^stats: repair: candidates asked of one encoding" <<<"$one"
	check "$(basename "$f"): one encoding and from scratch: the same repairs and checks" \
		test "$(grep -v '^stats:' <<<"$one" | no_time)" = "$(no_time <<<"$scr")"
done
check "mpall (forall): repaired" grep -q "^Repair mpall: 1 repair of cost 2 " <<<"$("$LKMMC" --repair "$tmp/mpall.litmus" 2>&1)"
check "mpbug (assertion): repaired" grep -q "^Repair mpbug: 1 repair of cost 2 " <<<"$("$LKMMC" --repair "$tmp/mpbug.litmus" 2>&1)"
for f in $L/ISA2+rel+acqrel+acq.litmus $L/IRIW+mbs.litmus; do
	check "$(basename "$f"): --prune alike both ways" \
		test "$("$LKMMC" --prune "$f" 2>&1)" = "$("$LKMMC" --prune --repair-scratch "$f" 2>&1)"
done
out=$("$LKMMC" --repair --stats $L/kernel-fragments/spinwait-no-rmb.litmus 2>&1)
check "a loop: candidates checked from scratch, said under --stats" \
	grep -q "^stats: repair: candidates checked from scratch: a loop" <<<"$out"

# Several files in one run, in order, serially and in workers.
for j in 1 2; do
	out=$("$LKMMC" -j $j --repair $L/MP+pos.litmus $L/SB+pos.litmus $L/MP+wmb+rmb.litmus 2>&1)
	check "-j $j: three answers in the order of the files" \
		test "$(grep -E '^Repair [^0-9]' <<<"$out" | cut -d: -f1 | tr '\n' ' ')" = "Repair MP+pos Repair SB+pos Repair MP+wmb+rmb "
done
check "a Never test has nothing to repair" \
	grep -q "^Repair MP+wmb+rmb: nothing to repair" <<<"$out"

# No repair: the RCU updater lost its synchronize_rcu(); no fence or
# annotation makes a reader's critical section end before the free.
out=$("$LKMMC" --repair $L/kernel-fragments/rcu-replace-no-sync.litmus 2>&1)
st=$?
check "no repair: exit status 3" test $st = 3
check "no repair: said, with why" grep -q "^Repair rcu-replace-no-sync: no repair: the outcome is still reached with smp_mb() in every gap" <<<"$out"
# Nor when coherence alone allows the outcome.
cat > "$tmp/coh.litmus" <<'T'
C coh

{}

P0(int *x)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*x);
	r1 = READ_ONCE(*x);
}

P1(int *x)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*x, 2);
}

exists (0:r0=1 /\ 0:r1=2)
T
out=$("$LKMMC" --repair "$tmp/coh.litmus" 2>&1)
check "no repair for an outcome coherence allows" grep -q "^Repair coh: no repair" <<<"$out"

# --prune: smp_wmb() is redundant next to the release; the release and the
# acquire are each needed once the other fences are gone.
cat > "$tmp/mp3.litmus" <<'T'
C mp3

{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	smp_wmb();
	smp_store_release(y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = smp_load_acquire(y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\ 1:r1=0)
T
out=$("$LKMMC" --prune "$tmp/mp3.litmus" 2>&1)
check "prune: smp_wmb not needed on its own" grep -qxF "  smp_wmb() on line 8 in P0: not needed on its own" <<<"$out"
check "prune: the release not needed on its own (the wmb does its work)" grep -qxF "  smp_store_release on line 9 in P0: not needed on its own" <<<"$out"
check "prune: the acquire needed" grep -qxF "  smp_load_acquire on line 17 in P1: needed" <<<"$out"
check "prune: one removal together, the wmb, re-checked" \
	grep -q "^Prune: 1 removal together (greedy, in program order), cost 2: smp_wmb() on line 8 in P0 (2)" <<<"$out"
check "prune: the diff removes the line" grep -qxF -- "-	smp_wmb();" <<<"$out"
out=$("$LKMMC" --prune $L/MP+pos.litmus 2>&1)
check "prune on a Sometimes test: nothing to prune" grep -q "^Prune MP+pos: nothing to prune" <<<"$out"

# Cost files: one that makes smp_mb cheaper than acquire/release.
printf '# full fences are cheap here\nsmp_mb 1\nload-acquire   5  # comment\nstore-release 5\n' > "$tmp/c1"
out=$("$LKMMC" --repair --repair-cost "$tmp/c1" $L/MP+pos.litmus 2>&1)
check "--repair-cost: two smp_mb at cost 2" grep -qxF \
	"Repair 1, cost 2: smp_mb() before line 18 in P0 (1); smp_mb() before line 27 in P1 (1)" <<<"$out"
# bad ones: located errors, usage status 2
bad_cost() { # CONTENT EXPECTED-MESSAGE-START
	printf '%b' "$1" > "$tmp/bad"
	local err st
	err=$("$LKMMC" --repair --repair-cost "$tmp/bad" $L/MP+pos.litmus 2>&1 >/dev/null)
	st=$?
	check "bad cost file ($1): status 2" test $st = 2
	check "bad cost file ($1): '$2'" grep -qF "$tmp/bad:$2" <<<"$err"
}
bad_cost 'smp_mb 4\nsmp_fence 2\n' "2:1: error: unknown change 'smp_fence'"
bad_cost 'smp_mb x\n' "1:8: error: the cost of 'smp_mb' must be a whole number from 1 to 1000"
bad_cost 'smp_mb 0\n' "1:8: error: the cost of 'smp_mb' must be a whole number"
bad_cost '\n  smp_rmb\n' "2:10: error: 'smp_rmb' needs a cost"
bad_cost 'smp_wmb 2\nsmp_wmb 3\n' "2:1: error: 'smp_wmb' is priced twice (first on line 1)"
bad_cost 'smp_wmb 2 3\n' "1:11: error: unexpected '3' after the cost"
err=$("$LKMMC" --repair --repair-cost "$tmp/none" $L/MP+pos.litmus 2>&1 >/dev/null)
check "missing cost file: said" grep -qF "$tmp/none: error: cannot read the cost file" <<<"$err"

report "e2e-repair"
