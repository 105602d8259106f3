#!/usr/bin/env bash
# bench/conformance-programs.sh - one checker, two inputs: each litmus test
# checked as litmus (--exists-only) and as the C program lkmmc --to-c makes
# of it must give the same answer: whether the condition's outcome can
# happen (the program's assert can be violated), the same flags
# (data-race, ...), and the same number of failing assertions and hangs in
# the thread code.
#
# usage: bench/conformance-programs.sh [options] [TEST...]
#   TEST            litmus files (default: every test of ../shared/corpus)
#   --list FILE     read more tests from FILE, one path a line
#   --sample N      N tests spread evenly over the (sorted) selection
#   -j N            tests at a time (default 2)
#   --timeout S     per check in seconds (default 60)
#   --out DIR       where results go (default build/conformance-programs)
# Environment: LKMMC, the binary to test (default ./lkmmc).
#
# Writes DIR/results.tsv (test, litmus answer, program answer, agree) and
# DIR/differences.txt; prints "N agree, N differ, N not converted".
# Exit status: 0 when all agree, 1 otherwise, 2 on usage errors.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-./lkmmc}
case $LKMMC in /*) ;; *) LKMMC=$PWD/$LKMMC ;; esac
jobs=2 timeout=60 sample=0 out=$root/build/conformance-programs
tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) mapfile -t -O "${#tests[@]}" tests < "$2"; shift 2 ;;
	--sample) sample=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-*) echo "usage: $0 [--list FILE] [--sample N] [-j N] [--timeout S] [--out DIR] [TEST...]" >&2; exit 2 ;;
	*) tests+=("$1"); shift ;;
	esac
done
if [ ${#tests[@]} -eq 0 ]; then
	corpus=$root/../shared/corpus
	[ -d "$corpus" ] || { echo "no tests given and no $corpus" >&2; exit 2; }
	mapfile -t tests < <(find "$corpus" -name '*.litmus' | sort)
fi
if [ "$sample" -gt 0 ] && [ "$sample" -lt ${#tests[@]} ]; then
	n=${#tests[@]} picked=()
	for ((i = 0; i < sample; i++)); do picked+=("${tests[$((i * n / sample))]}"); done
	tests=("${picked[@]}")
fi
mkdir -p "$out/c"
export LKMMC timeout out

# answer KIND OUT ERR STATUS: one line "V=.. F=.. A=.. H=.." (or "error").
answer() {
	local kind=$1 o=$2 e=$3 rc=$4 v flags
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$rc" -ne 4 ]; then
		echo "error($rc): $(head -n 1 "$e")"
		return
	fi
	if [ "$kind" = litmus ]; then
		local q w
		q=$(sed -n 's/^Test [^ ]* //p' "$o" | head -n 1)
		w=$(sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p' "$o" | head -n 1)
		if [ "$q" = Required ]; then v=$([ "$w" != Always ] && echo 1 || echo 0)
		else v=$([ "$w" != Never ] && echo 1 || echo 0); fi
		flags=$(sed -n 's/^Flag //p' "$o" | sort | tr '\n' ,)
	else
		v=$(grep -q '^Assertion violated at ' "$o" && echo 1 || echo 0)
		flags=$( { grep -q '^Data race: ' "$o" && echo data-race; sed -n 's/^Flag //p' "$o"; } | sort | tr '\n' ,)
	fi
	echo "V=$v F=${flags:-none} A=$(grep -c '^Assertion failed: ' "$o") H=$(grep -c '^Spins forever' "$o")"
}
export -f answer

one() {
	local t=$1 base c
	base=$(basename "$t" .litmus)
	c=$out/c/$(printf '%s' "$t" | md5sum | cut -c1-8)-$base.c
	local la pa rc
	timeout "$((timeout + 30))" "$LKMMC" --timeout "$timeout" --exists-only "$t" > "$c.lout" 2> "$c.lerr"
	rc=$?
	la=$(answer litmus "$c.lout" "$c.lerr" $rc)
	if ! "$LKMMC" --to-c "$t" > "$c" 2> "$c.cerr"; then
		printf '%s\t%s\t%s\t%s\n' "$t" "$la" "not converted: $(head -n 1 "$c.cerr")" skip
		return
	fi
	timeout "$((timeout + 30))" "$LKMMC" --timeout "$timeout" "$c" > "$c.pout" 2> "$c.perr"
	rc=$?
	pa=$(answer program "$c.pout" "$c.perr" $rc)
	printf '%s\t%s\t%s\t%s\n' "$t" "$la" "$pa" "$([ "$la" = "$pa" ] && echo agree || echo differ)"
}
export -f one

printf '%s\n' "${tests[@]}" | nice xargs -d '\n' -P "$jobs" -I{} bash -c 'one "$1"' _ {} > "$out/results.tsv"
agree=$(grep -c '	agree$' "$out/results.tsv")
differ=$(grep -c '	differ$' "$out/results.tsv")
skip=$(grep -c '	skip$' "$out/results.tsv")
grep -v '	agree$' "$out/results.tsv" > "$out/differences.txt"
echo "$agree agree, $differ differ, $skip not converted (of ${#tests[@]}; $out/results.tsv)"
[ "$differ" -eq 0 ] && [ "$skip" -eq 0 ]
