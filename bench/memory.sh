#!/usr/bin/env bash
# bench/memory.sh - time and peak memory of lkmmc on the long-shared family
# of bench/gen-families.sh (2 threads of N stores each, to the same two
# locations, a load after every 5th), the shape that grows with the
# square of N: each N answers, or stops with the memory-limit or time-out
# error, and the table says which, how fast and at what peak resident set.
# It measures; it asserts nothing (tests/e2e-memory.sh does).
#
# usage: bench/memory.sh [--n LIST] [--max-memory MB] [--timeout S] [--out DIR] [-- LKMMC-OPTIONS...]
#   --n LIST         stores per thread (default 25,50,100,200,400,800,3000)
#   --max-memory MB  lkmmc's limit (default: lkmmc's own default)
#   --timeout S      lkmmc's --timeout (default 120)
#   --out DIR        where the tests and memory.tsv go (default build/bench/memory)
# Environment: LKMMC, the binary (default ./lkmmc).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-$root/lkmmc}
ns=25,50,100,200,400,800,3000 mem="" tmo=120 out=$root/build/bench/memory
while [ $# -gt 0 ]; do
	case $1 in
	--n) ns=$2; shift 2 ;;
	--max-memory) mem=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--) shift; break ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
mkdir -p "$out" || exit 2
args=(--timeout "$tmo" ${mem:+--max-memory "$mem"} "$@")
printf 'N\tevents\tstatus\tseconds\tpeak_MB\tanswer\n' | tee "$out/memory.tsv"
bash "$root/bench/gen-families.sh" --families long-shared --n "$ns" --out "$out" |
while read -r t; do
	n=$(basename "$t" .litmus); n=$((10#${n##*-}))
	t0=$EPOCHREALTIME
	# with --timeout the test runs in a worker process: its peak is in
	# the --times row (/usr/bin/time would see only the parent's)
	"$LKMMC" --stats --times "$out/times" "${args[@]}" "$t" >"$out/out" 2>"$out/err"
	rc=$?
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	events=$(grep -o -m1 -E '(stats: events |error: too large for the memory limit: )[0-9]+' "$out/err" | grep -o '[0-9]*$')
	answer=$(sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' "$out/out")
	if [ $rc -eq 0 ]; then status=ok
	elif grep -q 'too large for the memory limit' "$out/err"; then status=memory
	elif grep -q 'time-out\|solver gave up' "$out/err"; then status=timeout
	else status="exit-$rc"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "${events:--}" "$status" "$secs" \
		"$(awk -F'\t' 'NR == 2 { printf "%d", $4 / 1024 }' "$out/times")" "${answer:--}"
done | tee -a "$out/memory.tsv"
