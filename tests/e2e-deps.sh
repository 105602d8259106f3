#!/usr/bin/env bash
# tests/e2e-deps.sh - dependencies through registers and branches against
# herd7's recorded answers: 150 of the 1,000 tests of ../shared/deps, spread
# evenly (bench/conformance-deps.sh --sample 150).  Every one must have the
# same States, verdict, Ok/No and flags as herd7's output.
# Without ../shared (a fresh machine) there is nothing to compare with: the
# script says so and passes; litmus-tests/LB+mb+ctrl-* keep the rule's
# cases in every run.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
if [ ! -f ../shared/deps/out/runs.tsv ]; then
	echo "e2e-deps: no ../shared/deps here; the deps conformance sample is not run"
	report e2e-deps; exit
fi
scratch
out=$tmp
if bash bench/conformance-deps.sh --sample 150 -j 2 --timeout 60 --out "$out" >"$out/log" 2>&1; then
	ok
else
	cat "$out/log"
	head -20 "$out/disagreements.txt" 2>/dev/null
	bad "150 tests of ../shared/deps do not all agree with herd7 (run make conformance-deps for all 1,000)"
fi
report e2e-deps
