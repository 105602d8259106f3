#!/usr/bin/env bash
# fuzz/seeds.sh OUTDIR [CORPUS]: the fuzzers' seed corpus.  Every litmus
# test of litmus-tests/ and, when CORPUS (../shared/corpus by default) is
# there, every 10th of its tests, each with its comments, blank lines and
# herd7's generator metadata removed so that it fits the fuzzers' -max_len.
# Only writes OUTDIR; run from the top of the tree.
set -eu
out=$1 corpus=${2:-../shared/corpus}
mkdir -p "$out"
{
	ls litmus-tests/*.litmus
	if [ -d "$corpus" ]; then find "$corpus" -name '*.litmus' | sort | awk 'NR % 10 == 1'; fi
} | while read -r f; do
	perl -0777 -pe 's/\(\*.*?\*\)//gs; s/^(?:"[^\n]*|[A-Z][A-Za-z]*=[^\n]*)\n//mg; s/\n\s*\n/\n/g' "$f" \
		> "$out/$(basename "$f" .litmus)"
done
echo "fuzz seeds: $(ls "$out" | wc -l) files in $out"
