#!/usr/bin/env bash
# dump-ir-corpus.sh - run "lkmmc --dump-ir" on every test of the shared corpus
# and report how many of the tests herd7 accepts (status ok or timeout in
# the oracle's summary.tsv) lkmmc parses, listing the failures.  Tests herd7
# rejected (status error) are listed separately: rejecting them is fine.
# It also checks that the condition text lkmmc keeps (cond_text) is what
# herd7 prints on its "Condition" line.
#
# usage: bench/dump-ir-corpus.sh [LKMMC] [SHARED_DIR]
#   LKMMC       the binary (default ./lkmmc)
#   SHARED_DIR  the reference data (default ../shared)
# Exit status: 0 when every herd7-accepted test parses, 1 otherwise.
set -u
cd "$(dirname "$0")/.."
LKMMC=${1:-./lkmmc}
SHARED=${2:-../shared}
SUMMARY=$SHARED/oracle/summary.tsv
CORPUS=$SHARED/corpus
[ -x "$LKMMC" ] || { echo "no $LKMMC: run make" >&2; exit 2; }
[ -f "$SUMMARY" ] || { echo "no $SUMMARY" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# path -> herd7 status
awk -F'\t' 'NR > 1 { print $1 "\t" $2 }' "$SUMMARY" | sort > "$tmp/status"
(cd "$CORPUS" && find . -name '*.litmus' | sed 's|^\./||' | sort) > "$tmp/files"

# Batches of files per lkmmc run keep the libclang index warm, as a batch
# check would.  Errors start with the file's path, which attributes them; a
# batch that crashes is rerun one file at a time to find the culprit.
run_one() {
	local f=$1 rc msg
	if "$LKMMC" --dump-ir "$CORPUS/$f" > "$tmp/out" 2> "$tmp/err"; then
		printf '%s\tok\t\n' "$f" >> "$tmp/results"
		printf '%s\t%s\n' "$f" "$(tail -n 1 "$tmp/out")" >> "$tmp/conds"
	else
		rc=$?
		msg=$(head -n 1 "$tmp/err")
		[ $rc -gt 1 ] && msg="CRASH (exit $rc) $msg"
		printf '%s\tfail\t%s\n' "$f" "$msg" >> "$tmp/results"
	fi
}
start=$(date +%s.%N)
lk_secs=0
: > "$tmp/results"
: > "$tmp/conds"
split -l 200 "$tmp/files" "$tmp/batch."
for b in "$tmp"/batch.*; do
	mapfile -t fs < "$b"
	paths=("${fs[@]/#/$CORPUS/}")
	t0=$(date +%s.%N)
	"$LKMMC" --dump-ir "${paths[@]}" > "$tmp/bout" 2> "$tmp/berr"
	rc=$?
	t1=$(date +%s.%N)
	lk_secs=$(echo "$lk_secs + $t1 - $t0" | bc)
	if [ $rc -gt 1 ]; then
		for f in "${fs[@]}"; do run_one "$f"; done
		continue
	fi
	# Each dump ends with its quantified condition, in file order.
	grep -E '^(exists|~exists|forall) ' "$tmp/bout" > "$tmp/bcond"
	k=0
	for f in "${fs[@]}"; do
		msg=$(grep -F -m 1 "$CORPUS/$f:" "$tmp/berr")
		if [ -n "$msg" ]; then
			printf '%s\tfail\t%s\n' "$f" "${msg#"$CORPUS/"}" >> "$tmp/results"
		else
			k=$((k + 1))
			printf '%s\tok\t\n' "$f" >> "$tmp/results"
			printf '%s\t%s\n' "$f" "$(sed -n "${k}p" "$tmp/bcond")" >> "$tmp/conds"
		fi
	done
done
end=$(date +%s.%N)

sort "$tmp/results" > "$tmp/results.s"
join -t "$(printf '\t')" "$tmp/results.s" "$tmp/status" > "$tmp/joined"

accepted=$(awk -F'\t' '$4 != "error"' "$tmp/joined" | wc -l)
parsed=$(awk -F'\t' '$4 != "error" && $2 == "ok"' "$tmp/joined" | wc -l)
rejected_ok=$(awk -F'\t' '$4 == "error" && $2 == "fail"' "$tmp/joined" | wc -l)
herd_err=$(awk -F'\t' '$4 == "error"' "$tmp/joined" | wc -l)
total=$(wc -l < "$tmp/files")

echo "== herd7-accepted tests that lkmmc fails to parse:"
awk -F'\t' '$4 != "error" && $2 == "fail" { print "  " $1 ": " $3 }' "$tmp/joined"
# The condition as herd7 prints it ("Condition exists (...)" in its output)
# must be what lkmmc keeps in cond_text.
cond_ok=0 cond_n=0
: > "$tmp/condbad"
while IFS=$'\t' read -r f got; do
	out=$SHARED/oracle/out/$f.out
	want=$(grep -m 1 '^Condition ' "$out" 2> /dev/null)
	[ -n "$want" ] || continue
	cond_n=$((cond_n + 1))
	if [ "Condition $got" = "$want" ]; then
		cond_ok=$((cond_ok + 1))
	else
		printf '  %s: herd7 [%s] lkmmc [%s]\n' "$f" "$want" "$got" >> "$tmp/condbad"
	fi
done < "$tmp/conds"
echo "== conditions printed differently from herd7:"
cat "$tmp/condbad"
echo "== herd7-rejected tests (status error) and what lkmmc says:"
awk -F'\t' '$4 == "error" { print "  " $1 ": " ($2 == "ok" ? "parsed" : $3) }' "$tmp/joined"
crashes=$(grep -c 'CRASH' "$tmp/results" || true)
secs=$(echo "$end - $start" | bc)
echo "== condition text: $cond_ok of $cond_n match herd7's 'Condition' line"
echo "== $parsed of $accepted herd7-accepted tests parse ($total files;" \
     "$rejected_ok of $herd_err herd7-rejected tests rejected too;" \
     "$crashes crashes; ${secs}s in all, lkmmc itself $(echo "scale=1; 1000 * $lk_secs / $total" | bc) ms/test)"
[ "$parsed" -eq "$accepted" ] && [ "$crashes" -eq 0 ] && [ "$cond_ok" -eq "$cond_n" ]
