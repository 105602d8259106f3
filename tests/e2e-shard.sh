#!/usr/bin/env bash
# tests/e2e-shard.sh - lkmmc --shard K/N run through GNU parallel on this
# machine: 3 shards of litmus-tests/ (and its kernel fragments) cover each
# file exactly once, and their --json and --times outputs, merged by
# bench/merge-shards.py, equal the unsharded run's (times aside); the
# partition does not change when the list is reordered or the files are
# reached through another folder; an empty shard is no error; bad K/N is a
# usage error; the merge refuses a file in two shards or in none.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch
LKMMC=$(cd "$(dirname "$LKMMC")" && pwd)/$(basename "$LKMMC")
merge() { python3 bench/merge-shards.py "$@"; }

if ! command -v parallel >/dev/null; then
	bad "GNU parallel is not installed (make deps installs the Debian package parallel)"
	report e2e-shard
	exit
fi
printf '%s\n' litmus-tests/*.litmus litmus-tests/kernel-fragments/*.litmus >"$tmp/list"
n=$(wc -l <"$tmp/list")

# The unsharded run.
"$LKMMC" -j 2 --json --times "$tmp/all.tsv" --files-from "$tmp/list" >"$tmp/all.jsonl" 2>/dev/null
st_all=$?
[ "$(wc -l <"$tmp/all.jsonl")" = "$n" ] && ok || bad "unsharded: $(wc -l <"$tmp/all.jsonl") objects for $n files"

# Three shards through GNU parallel, one job each.
# The exit status of the whole is the shards' combined (the lowest
# non-zero one, as lkmmc combines its tests'): some fragments' code can fail.
parallel --will-cite -j 3 --joblog "$tmp/joblog" "$LKMMC" --shard {}/3 --json --times "$tmp/s{}.tsv" \
	--files-from "$tmp/list" ">" "$tmp/s{}.jsonl" "2>/dev/null" ::: 1 2 3
st=$(awk -F'\t' 'NR > 1 && $7 != 0 && (s == 0 || $7 < s) {s = $7} END {print s + 0}' "$tmp/joblog")
[ "$(wc -l <"$tmp/joblog")" = 4 ] && ok || bad "parallel ran $(($(wc -l <"$tmp/joblog") - 1)) jobs, not 3"
[ "$st" = "$st_all" ] && ok || bad "the shards' exit status $st, the unsharded run's $st_all"
total=0
for k in 1 2 3; do
	c=$(wc -l <"$tmp/s$k.jsonl")
	total=$((total + c))
	[ "$c" -ge $((n / 6)) ] && ok || bad "shard $k/3 has $c of $n files (lopsided)"
done
[ $total = "$n" ] && ok || bad "the shards hold $total files, the list $n"

# Their union is the unsharded run.
merge --json "$tmp/m.jsonl" --order "$tmp/list" "$tmp"/s[123].jsonl 2>"$tmp/merr" && ok ||
	{ cat "$tmp/merr"; bad "merge-shards --json"; }
python3 tests/json_check.py merge-equal "$tmp/all.jsonl" "$tmp/m.jsonl" >"$tmp/me" && ok ||
	{ cat "$tmp/me"; bad "merged shards differ from the unsharded run"; }
grep -q "merge-equal: $n files" "$tmp/me" && ok || bad "merge-equal: $(cat "$tmp/me")"
python3 -c 'import json,sys; print("\n".join(json.loads(l)["file"] for l in open(sys.argv[1])))' \
	"$tmp/m.jsonl" | cmp -s - "$tmp/list" && ok || bad "merged --json not in the order of the list"
merge --times "$tmp/m.tsv" --order "$tmp/list" "$tmp"/s[123].tsv 2>/dev/null && ok || bad "merge-shards --times"
cut -f 1,2,5,6 "$tmp/all.tsv" >"$tmp/all.cols"
cut -f 1,2,5,6 "$tmp/m.tsv" >"$tmp/m.cols"
cmp -s "$tmp/all.cols" "$tmp/m.cols" && ok || bad "merged --times differ from the unsharded run: $(diff "$tmp/all.cols" "$tmp/m.cols" | head -3)"
[ "$(wc -l <"$tmp/m.tsv")" = $((n + 1)) ] && ok || bad "merged --times: $(wc -l <"$tmp/m.tsv") lines"

# The partition is the same for a reordered list and another folder.
shard_files() { # K LIST: the files of shard K/3, sorted by base name
	"$LKMMC" --shard "$1"/3 --json --exists-only --files-from "$2" 2>/dev/null |
		python3 -c 'import json,sys,os; print("\n".join(sorted(os.path.basename(json.loads(l)["file"]) for l in sys.stdin)))'
}
tac "$tmp/list" >"$tmp/rev"
ln -s "$PWD/litmus-tests" "$tmp/elsewhere"
sed "s|^litmus-tests/|$tmp/elsewhere/|" "$tmp/list" | sort -r >"$tmp/moved"
for k in 1 2; do
	python3 -c 'import json,sys,os; print("\n".join(sorted(os.path.basename(json.loads(l)["file"]) for l in open(sys.argv[1]))))' \
		"$tmp/s$k.jsonl" >"$tmp/want$k"
	shard_files $k "$tmp/rev" | cmp -s - "$tmp/want$k" && ok || bad "shard $k/3 changes when the list is reversed"
	shard_files $k "$tmp/moved" | cmp -s - "$tmp/want$k" && ok || bad "shard $k/3 changes with the folder"
done

# An empty shard checks nothing and succeeds; bad K/N is a usage error.
out=$(for k in 1 2 3 4 5 6 7 8; do "$LKMMC" --shard $k/8 litmus-tests/SB+pos.litmus; echo "rc=$?"; done)
[ "$(grep -c '^Test SB+pos' <<<"$out")" = 1 ] && [ "$(grep -c '^rc=0' <<<"$out")" = 8 ] && ok ||
	bad "--shard K/8 of one file: it must be checked once, every shard exit 0"
for s in 0/3 4/3 3 a/b 1/0 -1/2; do
	"$LKMMC" --shard "$s" litmus-tests/SB+pos.litmus >/dev/null 2>&1
	[ $? = 2 ] && ok || bad "--shard $s is not a usage error"
done

# The merge refuses a file in two shards, and a listed file in none.
merge --json "$tmp/x.jsonl" "$tmp/s1.jsonl" "$tmp/s1.jsonl" 2>/dev/null && bad "merge accepted a shard twice" || ok
merge --json "$tmp/x.jsonl" --order "$tmp/list" "$tmp/s1.jsonl" "$tmp/s2.jsonl" 2>/dev/null &&
	bad "merge accepted a missing shard" || ok

report e2e-shard
