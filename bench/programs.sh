#!/usr/bin/env bash
# bench/programs.sh - a program and its litmus form take the same time: the
# lock-algorithm families of bench/gen-families.sh (ticket, ticket-noacq,
# ttas, mcs, qrwlock, mutex-flag) and the lock counter, each test written as
# a C program with lkmmc --to-c, checked both ways (--exists-only for the
# litmus test; a program's check is that) and timed.  It also leaves the C
# programs in OUT/c for reading.
#
# usage: bench/programs.sh [--n LIST] [--families LIST] [--out DIR] [--reps R]
#   --n LIST   process counts (gen-families.sh syntax; default 2-4)
#   --families LIST  the families (comma-separated; default all seven)
#   --out DIR  where tests, programs and programs.tsv go
#              (default build/bench/programs)
#   --reps R   runs of each check, the fastest counts (default 3)
# Environment: LKMMC, the binary (default ./lkmmc).
# Prints one row per test: litmus seconds, program seconds (CPU time,
# see fastest), ratio, and
# the answers (Never/Sometimes/Always against No errors/Assertion violated).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-$root/lkmmc}
n=2-4 out=$root/build/bench/programs reps=3
families=ticket,ticket-noacq,ttas,mcs,qrwlock,mutex-flag,lock-counter
while [ $# -gt 0 ]; do
	case $1 in
	--n) n=$2; shift 2 ;;
	--families) families=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--n LIST] [--families LIST] [--out DIR] [--reps R]" >&2
	   exit 2 ;;
	esac
done
mkdir -p "$out/c"
# fastest N: the least time of $reps runs of the command: CPU seconds
# (user + system), which other jobs on a shared machine change far less
# than wall time (lkmmc is one thread); BENCH_CLOCK=wall for wall time
fastest() {
	local best=999999 t tf=$out/time.$$ fmt='%U %S'
	[ "${BENCH_CLOCK:-cpu}" = wall ] && fmt='%e 0'
	for ((r = 0; r < reps; r++)); do
		# -o: the command's own stderr goes to /dev/null, time's to tf
		# (its last line; a non-zero exit status adds one before it)
		/usr/bin/time -f "$fmt" -o "$tf" "$@" > /dev/null 2> /dev/null
		t=$(tail -n 1 "$tf" | awk '{ printf "%.2f", $1 + $2 }')
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
	done
	rm -f "$tf"
	echo "$best"
}
printf 'test\tlitmus_s\tprogram_s\tratio\tlitmus\tprogram\n' | tee "$out/programs.tsv"
bash "$root/bench/gen-families.sh" --out "$out/litmus" --n "$n" \
	--families "$families" |
while read -r t; do
	c=$out/c/$(basename "$t" .litmus).c
	"$LKMMC" --to-c "$t" > "$c" || continue
	lt=$(fastest nice "$LKMMC" --exists-only "$t")
	pt=$(fastest nice "$LKMMC" "$c")
	la=$("$LKMMC" --exists-only "$t" 2> /dev/null | sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p')
	pa=$("$LKMMC" "$c" 2> /dev/null | grep -m1 -o '^No errors\|^Assertion violated')
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$t" .litmus)" "$lt" "$pt" \
		"$(awk -v a="$lt" -v b="$pt" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')" \
		"$la" "$pa"
done | tee -a "$out/programs.tsv"
