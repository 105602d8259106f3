#!/usr/bin/env bash
# bench/conformance-programs.sh - one checker, two inputs: each litmus test
# checked as litmus (--exists-only) and as the C program lkmmc --to-c makes
# of it must give the same answer: whether the condition's outcome can
# happen (the program's final assert can be violated), the same flags
# (data-race, ...), and the same numbers of failing assertions and of
# hangs in the thread code.  Three batch runs of lkmmc (convert, check the
# tests, check the programs), each with -j.
#
# usage: bench/conformance-programs.sh [options] [TEST...]
#   TEST            litmus files (default: every test of ../shared/corpus)
#   --list FILE     read more tests from FILE, one path a line
#   --sample N      N tests spread evenly over the (sorted) selection
#   -j N            tests at a time (default 2)
#   --timeout S     per test in seconds (default 60)
#   --out DIR       where results go (default build/conformance-programs)
# Environment: LKMMC, the binary to test (default ./lkmmc).
#
# Writes DIR/results.tsv (test, litmus answer, program answer, agree /
# differ / skip; a test lkmmc rejects, and so cannot convert, agrees) and
# DIR/differences.txt (the rows that do not agree);
# prints "N agree, N differ, N not converted".  An answer is
# "V=violated F=flags A=failing-assertions H=hangs" (V=deadlock: no
# consistent execution, herd7's "Never 0 0"), or "error (...)".
# Known difference: a litmus test's filter clause has no C form; the
# program checks every execution, so a flag (a data race) raised only
# outside the filter shows in the program alone.
# Exit status: 0 when all agree, 1 otherwise, 2 on usage errors.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-./lkmmc}
jobs=2 timeout=60 sample=0 out=$root/build/conformance-programs
tests=()
usage() {
	echo "usage: $0 [--list FILE] [--sample N] [-j N] [--timeout S] [--out DIR] [TEST...]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--list) [ $# -ge 2 ] || usage; mapfile -t -O "${#tests[@]}" tests < "$2"; shift 2 ;;
	--sample) [ $# -ge 2 ] || usage; sample=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-*) usage ;;
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
rm -rf "$out"
mkdir -p "$out/c"
printf '%s\n' "${tests[@]}" > "$out/tests.txt"

# 1. convert: one output, split at each program's first line
nice "$LKMMC" -j "$jobs" --to-c --files-from "$out/tests.txt" > "$out/all.c" 2> "$out/convert.err"
awk -v dir="$out/c" '
	NR == FNR { idx[$0] = FNR; next }
	/^\/\* lkmmc --to-c of / {
		if (f) close(f)
		f = sprintf("%s/%05d.c", dir, idx[substr($0, 20)])
	}
	f { print > f }' "$out/tests.txt" "$out/all.c"
: > "$out/programs.txt"
for ((i = 1; i <= ${#tests[@]}; i++)); do
	c=$(printf '%s/c/%05d.c' "$out" "$i")
	[ -f "$c" ] && echo "$c" >> "$out/programs.txt"
done

# 2. check both
nice "$LKMMC" -j "$jobs" --exists-only --timeout "$timeout" --times "$out/litmus.tsv" \
	--files-from "$out/tests.txt" > "$out/litmus.out" 2> "$out/litmus.err"
nice "$LKMMC" -j "$jobs" --timeout "$timeout" --times "$out/programs.tsv" \
	--files-from "$out/programs.txt" > "$out/programs.out" 2> "$out/programs.err"

# 3. compare: litmus blocks start at "Test NAME WORD" (one for each row of
# litmus.tsv with a verdict), program blocks at "Program PATH"
awk -F'\t' -v dir="$out/c" '
	function answer(k,   f) {
		f = flags[k]
		return "V=" viol[k] " F=" (f == "" ? "none" : f) " A=" (asrt[k] + 0) " H=" (hang[k] + 0)
	}
	function addflag(k, f) { flags[k] = flags[k] f "," }
	FILENAME ~ /tests.txt$/ { test[FNR] = $0; ntests = FNR; next }
	FILENAME ~ /litmus.tsv$/ {
		if (FNR > 1) { nrow++; lstatus[nrow] = $2; lverdict[nrow] = $5 }
		next
	}
	FILENAME ~ /litmus.out$/ {
		if ($0 ~ /^Test /) {
			do blk++; while (blk <= nrow && lverdict[blk] == "-")
			split($0, w, " ")
			forall[blk] = w[3] == "Required"
			k = "L" blk
		}
		if ($0 ~ /^Observation /) {
			split($0, w, " ")
			viol[k] = forall[blk] ? (w[3] != "Always") : (w[3] != "Never")
			if (w[3] == "Never" && w[4] == 0 && w[5] == 0)
				viol[k] = "deadlock"
		}
		if ($0 ~ /^Flag /) addflag(k, substr($0, 6))
		if ($0 ~ /^Assertion failed: /) asrt[k]++
		if ($0 ~ /^Spins forever/) hang[k]++
		next
	}
	FILENAME ~ /programs.tsv$/ {
		if (FNR > 1) pstatus[$1] = $2
		next
	}
	FILENAME ~ /programs.out$/ {
		if ($0 ~ /^Program /) { k = "P" substr($0, 9); viol[k] = 0; seen[k] = 1 }
		if ($0 ~ /^Assertion violated at /) viol[k] = 1
		if ($0 ~ /^Deadlock: /) viol[k] = "deadlock"
		if ($0 ~ /^Data race between /) addflag(k, "data-race")
		if ($0 ~ /^Flag /) addflag(k, substr($0, 6))
		if ($0 ~ /^Assertion failed: /) asrt[k]++
		if ($0 ~ /^Spins forever/) hang[k]++
		next
	}
	END {
		for (i = 1; i <= ntests; i++) {
			la = lverdict[i] == "-" || lverdict[i] == "" ? "error (" lstatus[i] ")" : answer("L" i)
			c = sprintf("%s/%05d.c", dir, i)
			if (!(c in pstatus)) {
				# a test lkmmc rejects has no program either
				printf "%s\t%s\tnot converted\t%s\n", test[i], la,
					la ~ /^error/ ? "agree" : "skip"
				continue
			}
			pa = ("P" c in seen) ? answer("P" c) : "error (" pstatus[c] ")"
			printf "%s\t%s\t%s\t%s\n", test[i], la, pa, la == pa ? "agree" : "differ"
		}
	}' "$out/tests.txt" "$out/litmus.tsv" "$out/litmus.out" "$out/programs.tsv" "$out/programs.out" \
	> "$out/results.tsv"
agree=$(grep -c '	agree$' "$out/results.tsv")
differ=$(grep -c '	differ$' "$out/results.tsv")
skip=$(grep -c '	skip$' "$out/results.tsv")
grep -v '	agree$' "$out/results.tsv" > "$out/differences.txt"
echo "$agree agree, $differ differ, $skip not converted (of ${#tests[@]}; $out/results.tsv)"
# Time: the checks of the tests that agree, litmus against program.
awk -F'\t' 'FILENAME ~ /results.tsv$/ { if ($4 == "agree") { keep[$1] = 1; idx[FNR] = 1 } next }
	FILENAME ~ /litmus.tsv$/ { if (FNR > 1 && ($1 in keep)) { l += $3; n++ } next }
	FILENAME ~ /programs.tsv$/ {
		if (FNR == 1) next
		i = $1; sub(/.*\//, "", i); sub(/\.c$/, "", i)
		if ((i + 0) in idx) p += $3
		next
	}
	END { printf "time: litmus %.1f s, programs %.1f s over %d tests (programs/litmus %.2f)\n",
		l, p, n, (l > 0 ? p / l : 0) }' "$out/results.tsv" "$out/litmus.tsv" "$out/programs.tsv"

[ "$differ" -eq 0 ] && [ "$skip" -eq 0 ]
