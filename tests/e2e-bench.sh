#!/usr/bin/env bash
# tests/e2e-bench.sh - bench/bench.sh on a tiny configuration: its CSV has
# the right columns and one row per test and mode, lkmmc's verdicts match
# the expected answers, and a wrong verdict is reported (exit 1), never
# hidden. It checks structure and correctness, never speed.
#
# 1. herd7 path: tests/fake-herd7.sh installed as "herd7" on the PATH, every
#    family at N = 2..3, both modes, 1 rep.
# 2. recorded path (--no-herd7) on a made-up corpus and summary.tsv (not
#    ../shared): the recorded time and verdict are used, the ratio is theirs,
#    DEADLOCK is judged from a timeout row's Result: comment, and a recorded
#    verdict lkmmc contradicts is a MISMATCH with exit status 1.
#    The same in --batch mode (lkmmc -j 2 --times over all the tests).
# 3. a live herd7 that disagrees (FAKE_HERD7_FLIP) is reported, exit 1.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
export LKMMC
scratch
HEADER="test,family,procs,mode,expected,lkmmc_verdict,lkmmc_status,lkmmc_s,lkmmc_rss_kb,herd7_source,herd7_verdict,herd7_status,herd7_s,herd7_rss_kb,ratio,check,genmc_verdict,genmc_status,genmc_s,genmc_rss_kb,genmc_check,note"
# col CSV NAME: the column number of NAME in CSV's header
col() { head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# cell CSV TEST MODE NAME: one cell
cell() {
	awk -F',' -v t="$2" -v m="$3" -v c="$(col "$1" "$4")" '$1 == t && $4 == m { print $c }' "$1"
}

mkdir -p "$tmp/bin"
ln -s "$root/tests/fake-herd7.sh" "$tmp/bin/herd7"

# 1. Families side by side with the (fake) herd7.
out=$tmp/fam
PATH=$tmp/bin:$PATH bash bench/bench.sh --no-genmc --n 2-3 --reps 1 --mode both --timeout 120 \
	--out "$out" >"$tmp/fam.log" 2>&1
rc=$?
csv=$out/results.csv
check "families: exit status 0, got $rc (log: $(tail -n 3 "$tmp/fam.log"))" [ $rc -eq 0 ]
check "families: the header says herd7 runs side by side" grep -q '^bench: herd7 on PATH: .*/herd7, run side by side from .*memory-model' "$tmp/fam.log"
check "families: CSV header" [ "$(head -n 1 "$csv")" = "$HEADER" ]
check "families: every row has 22 fields" [ "$(awk -F',' 'NF != 22' "$csv" | wc -l)" -eq 0 ]
fams=$(bash bench/gen-families.sh --list)
check "families: 6 families" [ "$(echo "$fams" | wc -l)" -eq 6 ]
check "families: 6 x 2 N x 2 modes rows" [ "$(tail -n +2 "$csv" | wc -l)" -eq 24 ]
for fam in $fams; do
	case $fam in rcu-sometimes|sb-plain) want=Sometimes ;; *) want=Never ;; esac
	for n in 2 3; do
		t=families/$fam-0$n.litmus
		check "$t: its Result: comment says $want" grep -q "Result: $want\$" "$out/$t"
		for m in full exists; do
			rows=$(awk -F',' -v t="$t" -v m="$m" '$1 == t && $4 == m' "$csv" | wc -l)
			check "$t $m: one row, got $rows" [ "$rows" -eq 1 ]
			check "$t $m: family" [ "$(cell "$csv" "$t" $m family)" = "$fam" ]
			check "$t $m: procs $n" [ "$(cell "$csv" "$t" $m procs)" = "$n" ]
			check "$t $m: expected $want" [ "$(cell "$csv" "$t" $m expected)" = "$want" ]
			check "$t $m: lkmmc says $want" [ "$(cell "$csv" "$t" $m lkmmc_verdict)" = "$want" ]
			check "$t $m: check ok" [ "$(cell "$csv" "$t" $m check)" = ok ]
			check "$t $m: herd7 was run" [ "$(cell "$csv" "$t" $m herd7_source)" = run ]
			check "$t $m: herd7 says $want" [ "$(cell "$csv" "$t" $m herd7_verdict)" = "$want" ]
			for c in lkmmc_s herd7_s ratio; do
				v=$(cell "$csv" "$t" $m $c)
				check "$t $m: $c is a positive number, got '$v'" \
					awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+\.[0-9]+$/ && v + 0 > 0) }'
			done
			v=$(cell "$csv" "$t" $m lkmmc_rss_kb)
			check "$t $m: RSS in kB, got '$v'" awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+$/ && v > 1000) }'
		done
	done
done
check "families: the table lists every test" [ "$(grep -c '^families/' "$out/table.txt")" -eq 24 ]
check "families: the scaling pivot" grep -q '^rcu-never exists  *[0-9.]*  *[0-9.]*$' "$out/table.txt"
check "families: a PNG plot" [ "$(head -c 4 "$out/scaling.png" 2>/dev/null | tail -c 3)" = PNG ]

# 2. Recorded herd7 answers, from a made-up ../shared.
sh=$tmp/shared
mkdir -p "$sh/corpus/auto" "$sh/oracle"
cp litmus-tests/SB+mbs.litmus litmus-tests/SB+pos.litmus litmus-tests/deadlock-unreleased.litmus "$sh/corpus/auto/"
{
	printf 'path\tstatus\tverdict\tpositive\tnegative\tok_no\tflags\tnstates\therd7_seconds\tresult_comment\tstates\n'
	printf 'auto/SB+mbs.litmus\tok\tNever\t0\t3\tNo\t-\t3\t2.500\tNever\t-\n'
	printf 'auto/deadlock-unreleased.litmus\ttimeout\t-\t-\t-\t-\t-\t-\t10.010\tDEADLOCK\t-\n'
	# a recorded verdict that lkmmc contradicts: must be reported
	printf 'auto/SB+pos.litmus\tok\tNever\t0\t3\tNo\t-\t3\t0.500\tSometimes\t-\n'
} >"$sh/oracle/summary.tsv"
out=$tmp/rec
PATH=$tmp/bin:$PATH bash bench/bench.sh --no-genmc --no-herd7 --shared "$sh" --corpus --mode exists --reps 2 \
	--out "$out" >"$tmp/rec.log" 2>&1
rc=$?
csv=$out/results.csv
check "recorded: exit status 1 (a mismatch), got $rc" [ $rc -eq 1 ]
check "recorded: the header says the times are recorded" grep -q 'herd7 is not on PATH (--no-herd7): herd7 times are the ones RECORDED in' "$tmp/rec.log"
check "recorded: CSV header" [ "$(head -n 1 "$csv")" = "$HEADER" ]
check "recorded: 3 rows" [ "$(tail -n +2 "$csv" | wc -l)" -eq 3 ]
check "recorded: SB+mbs herd7 time" [ "$(cell "$csv" auto/SB+mbs.litmus exists herd7_s)" = 2.500 ]
check "recorded: SB+mbs source" [ "$(cell "$csv" auto/SB+mbs.litmus exists herd7_source)" = recorded ]
check "recorded: SB+mbs check ok" [ "$(cell "$csv" auto/SB+mbs.litmus exists check)" = ok ]
l=$(cell "$csv" auto/SB+mbs.litmus exists lkmmc_s) r=$(cell "$csv" auto/SB+mbs.litmus exists ratio)
check "recorded: ratio $r is 2.5 / $l" awk -v l="$l" -v r="$r" 'BEGIN { x = 2.5 / l; exit !(r - x < 0.01 * x + 0.01 && x - r < 0.01 * x + 0.01) }'
check "recorded: deadlock expected from Result:" [ "$(cell "$csv" auto/deadlock-unreleased.litmus exists expected)" = DEADLOCK ]
check "recorded: deadlock judged" [ "$(cell "$csv" auto/deadlock-unreleased.litmus exists lkmmc_verdict)" = DEADLOCK ]
check "recorded: deadlock herd7 timeout" [ "$(cell "$csv" auto/deadlock-unreleased.litmus exists herd7_status)" = timeout ]
check "recorded: SB+pos expected is herd7's Never" [ "$(cell "$csv" auto/SB+pos.litmus exists expected)" = Never ]
check "recorded: SB+pos is a MISMATCH" [ "$(cell "$csv" auto/SB+pos.litmus exists check)" = MISMATCH ]
check "recorded: a PNG of lkmmc against herd7" [ "$(head -c 4 "$out/compare.png" 2>/dev/null | tail -c 3)" = PNG ]
check "recorded: no family plot without families" [ ! -e "$out/scaling.png" ]
check "recorded: the mismatch is printed" grep -q 'LKMMC VERDICT PROBLEMS' "$tmp/rec.log"
check "recorded: ... naming the test" grep -q 'MISMATCH: auto/SB+pos.litmus (exists): lkmmc Sometimes, expected Never' "$tmp/rec.log"

# 2b. The same with lkmmc in one batch (lkmmc -j 2 --times), both modes.
out=$tmp/batch
PATH=$tmp/bin:$PATH bash bench/bench.sh --no-genmc --no-herd7 --shared "$sh" --corpus --mode both --reps 2 --batch 2 \
	--no-plot --out "$out" >"$tmp/batch.log" 2>&1
rc=$?
csv=$out/results.csv
check "batch: exit status 1 (the mismatch), got $rc" [ $rc -eq 1 ]
check "batch: CSV header" [ "$(head -n 1 "$csv")" = "$HEADER" ]
check "batch: 3 tests x 2 modes" [ "$(tail -n +2 "$csv" | wc -l)" -eq 6 ]
for m in full exists; do
	check "batch $m: SB+mbs Never, ok" [ "$(cell "$csv" auto/SB+mbs.litmus $m lkmmc_verdict),$(cell "$csv" auto/SB+mbs.litmus $m check)" = Never,ok ]
	check "batch $m: deadlock judged" [ "$(cell "$csv" auto/deadlock-unreleased.litmus $m lkmmc_verdict)" = DEADLOCK ]
	check "batch $m: SB+pos Sometimes, a MISMATCH" [ "$(cell "$csv" auto/SB+pos.litmus $m lkmmc_verdict),$(cell "$csv" auto/SB+pos.litmus $m check)" = Sometimes,MISMATCH ]
	v=$(cell "$csv" auto/SB+mbs.litmus $m lkmmc_s)
	check "batch $m: a time per test, got '$v'" awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+\.[0-9]+$/) }'
	check "batch $m: the batch's wall time" grep -q "^bench: lkmmc batch -j 2, mode $m: [0-9.]*s wall (median of 2) for 3 tests" "$tmp/batch.log"
done

# 3. A live herd7 that disagrees with lkmmc.
out=$tmp/flip
PATH=$tmp/bin:$PATH FAKE_HERD7_FLIP=sb-mb-02 bash bench/bench.sh --no-genmc --families sb-mb --n 2 --mode exists \
	--reps 1 --no-plot --out "$out" >"$tmp/flip.log" 2>&1
rc=$?
check "flip: exit status 1, got $rc" [ $rc -eq 1 ]
check "flip: HERD7-DISAGREES" [ "$(cell "$out/results.csv" families/sb-mb-02.litmus exists check)" = HERD7-DISAGREES ]
check "flip: herd7's verdict kept" [ "$(cell "$out/results.csv" families/sb-mb-02.litmus exists herd7_verdict)" = Sometimes ]

# 4. GenMC beside lkmmc (tests/fake-genmc.sh as "genmc" on the PATH): the
#    test as a C program (--to-c), in the exists rows only; its answer set
#    against lkmmc's; a difference (FAKE_GENMC_FLIP) is listed, and is no
#    failure (GenMC is not the reference).
ln -s "$root/tests/fake-genmc.sh" "$tmp/bin/genmc"
out=$tmp/genmc
PATH=$tmp/bin:$PATH bash bench/bench.sh --no-herd7 --families sb-mb,rcu-sometimes --n 2-3 --mode both \
	--reps 1 --timeout 120 --out "$out" >"$tmp/genmc.log" 2>&1
rc=$?
csv=$out/results.csv
check "genmc: exit status 0, got $rc (log: $(tail -n 3 "$tmp/genmc.log"))" [ $rc -eq 0 ]
check "genmc: the header names GenMC" grep -q "^bench: GenMC: 'genmc -lkmm' on each test as a C program (lkmmc --to-c), in the exists rows" "$tmp/genmc.log"
check "genmc: every row has 22 fields" [ "$(awk -F',' 'NF != 22' "$csv" | wc -l)" -eq 0 ]
for t in families/sb-mb-02.litmus families/sb-mb-03.litmus families/rcu-sometimes-02.litmus families/rcu-sometimes-03.litmus; do
	case $t in *sb-mb*) want=no-errors ;; *) want=violated ;; esac
	check "$t exists: GenMC ran" [ "$(cell "$csv" $t exists genmc_status)" = ok ]
	check "$t exists: GenMC says $want" [ "$(cell "$csv" $t exists genmc_verdict)" = $want ]
	check "$t exists: agrees with lkmmc" [ "$(cell "$csv" $t exists genmc_check)" = agree ]
	v=$(cell "$csv" $t exists genmc_s)
	check "$t exists: a GenMC time, got '$v'" awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9]+\.[0-9]+$/ && v + 0 > 0) }'
	check "$t full: GenMC not run again" [ "$(cell "$csv" $t full genmc_status)" = none ]
done
check "genmc: the table has GenMC's column" grep -q '^test .* genmc s  *genmc  *vs genmc  *check$' "$out/table.txt"
check "genmc: the scaling pivot has a GenMC row" grep -q '^sb-mb genmc  *[0-9.]*  *[0-9.]*$' "$out/table.txt"
check "genmc: the summary counts agreement" grep -q '^bench: GenMC on 4 rows: agree 4;' "$tmp/genmc.log"
out=$tmp/genmc-flip
PATH=$tmp/bin:$PATH FAKE_GENMC_FLIP=sb-mb-02 bash bench/bench.sh --no-herd7 --families sb-mb --n 2 --mode exists \
	--reps 1 --no-plot --out "$out" >"$tmp/genmc-flip.log" 2>&1
rc=$?
check "genmc flip: exit status 0 (GenMC is not the reference), got $rc" [ $rc -eq 0 ]
check "genmc flip: DIFFERS" [ "$(cell "$out/results.csv" families/sb-mb-02.litmus exists genmc_check)" = DIFFERS ]
check "genmc flip: listed" grep -q '^  families/sb-mb-02.litmus (exists): lkmmc Never, GenMC violated$' "$tmp/genmc-flip.log"
PATH=$tmp/bin:$PATH bash bench/bench.sh --no-herd7 --no-genmc --families sb-mb --n 2 --mode exists \
	--reps 1 --no-plot --out "$out" >"$tmp/genmc-off.log" 2>&1
check "genmc off: --no-genmc leaves it out" [ "$(cell "$out/results.csv" families/sb-mb-02.litmus exists genmc_status)" = none ]
check "genmc off: no GenMC column" [ "$(grep -c 'vs genmc' "$out/table.txt")" -eq 0 ]
bash bench/bench.sh --genmc "no-such-genmc -lkmm" --out "$tmp/u" >"$tmp/u.log" 2>&1
check "usage: a --genmc that is not there, exit 2" [ $? -eq 2 ]
check "usage: ... says so" grep -q 'no-such-genmc not found' "$tmp/u.log"

# Usage errors are exit 2 with a message.
bash bench/bench.sh --mode fast >"$tmp/u.log" 2>&1
check "usage: bad --mode exit 2" [ $? -eq 2 ]
check "usage: says why" grep -q -- '--mode must be full, exists or both' "$tmp/u.log"
bash bench/bench.sh --families nosuch --out "$tmp/u" >"$tmp/u.log" 2>&1
check "usage: unknown family exit 2" [ $? -eq 2 ]
check "usage: names the family" grep -q "unknown family 'nosuch'" "$tmp/u.log"

report
