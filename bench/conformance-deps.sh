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
# runs.tsv (tests/NAME.litmus, status, seconds), joined with each output
# parsed (verdict pos neg ok_no flags nstates states name kind loop); a
# test herd7 did not answer is a timeout row, judged by its Result: line.
ok_names=$(awk -F'\t' '$2 == "ok" { n = $1; sub(/.*\//, "", n); sub(/\.litmus$/, "", n); print n }' "$deps/out/runs.tsv")
(cd "$deps/out" && for n in $ok_names; do [ -f "$n.out" ] && printf '%s\n' "$n.out"; done |
	xargs bash "$root/bench/conformance.sh" --parse) >"$out/parsed.tsv" || exit 2
awk -F'\t' -v OFS='\t' 'NR == FNR { v[$8] = $1 OFS $2 OFS $3 OFS $4 OFS $5 OFS $6; st[$8] = $7; next }
	{ n = $1; sub(/.*\//, "", n); sub(/\.litmus$/, "", n)
	  if ($2 == "ok" && (n in v)) print n ".litmus", "ok", v[n], $3, "-", st[n]
	  else print n ".litmus", "timeout", "-", "-", "-", "-", "-", "-", $3, "-", "-" }' \
	"$out/parsed.tsv" "$deps/out/runs.tsv" >>"$summary"

exec bash "$root/bench/conformance.sh" --shared "$ref" --out "$out" "${args[@]}"
