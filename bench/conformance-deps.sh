#!/usr/bin/env bash
# bench/conformance-deps.sh - lkmmc against herd7 on ../shared/deps: 1,000
# generated tests of register data flow through branches (registers
# assigned in if/else, conditions such as r0 * 0, identical stores in both
# branches, in LB/MP/S shapes), where dependencies are easiest to get wrong.
#
# usage: bench/conformance-deps.sh [conformance.sh options]
#   e.g. --sample 100, -j 2, --timeout 20, --out DIR (default
#   build/conformance-deps); --shared DIR names the reference data (default
#   ../shared from the repo root).
#
# ../shared/deps has herd7's raw outputs (out/NAME.out, out/runs.tsv), not
# the summary.tsv of ../shared/oracle.  This script writes one in that
# layout (each output read by conformance.sh --parse), with the tests as its
# corpus, and hands over to bench/conformance.sh, which judges every test
# the same way: same States, verdict, Ok/No and flags; wrong Never counted.
# Exit status: conformance.sh's (0 when everything agrees).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$root/../shared out=$root/build/conformance-deps
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--shared) shared=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
deps=$shared/deps
[ -f "$deps/out/runs.tsv" ] || { echo "conformance-deps: no $deps/out/runs.tsv (is ../shared there?)" >&2; exit 2; }
deps=$(cd "$deps" && pwd)

# A reference folder in the layout conformance.sh reads: corpus/ and
# oracle/summary.tsv.
ref=$out/reference
rm -rf "$ref"; mkdir -p "$ref/oracle"
ln -s "$deps/tests" "$ref/corpus"
summary=$ref/oracle/summary.tsv
printf 'path\tstatus\tverdict\tpositive\tnegative\tok_no\tflags\tnstates\therd7_seconds\tresult_comment\tstates\n' >"$summary"
# runs.tsv: tests/NAME.litmus, status, seconds
while IFS=$'\t' read -r path status secs; do
	name=$(basename "$path" .litmus)
	if [ "$status" != ok ] || [ ! -f "$deps/out/$name.out" ]; then
		printf '%s.litmus\ttimeout\t-\t-\t-\t-\t-\t-\t%s\t-\t-\n' "$name" "$secs"
		continue
	fi
	# verdict pos neg ok_no flags nstates states name kind loop
	IFS=$'\t' read -r v p n ok fl ns st _ < <(bash "$root/bench/conformance.sh" --parse "$deps/out/$name.out")
	printf '%s.litmus\tok\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t%s\n' "$name" "$v" "$p" "$n" "$ok" "$fl" "$ns" "$secs" "$st"
done <"$deps/out/runs.tsv" >>"$summary"

exec bash "$root/bench/conformance.sh" --shared "$ref" --out "$out" "${args[@]}"
