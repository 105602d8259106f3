#!/usr/bin/env bash
# tests/e2e-symmetry.sh - symmetry.h's fixing of the lock's rf before the
# model (symmetry_fix_locks) on tests/symmetry/: each test's verdict, in
# full mode and --exists-only, is its Result: comment and the one --explain
# gives (which never fixes anything: the cross-check of the fixing's
# soundness); --stats says which tests were fixed (the simple shape) and
# which not (another writer of the lock, an observed register, writes
# that order the class before the lock); and lock-counter N = 12 needs
# few definitions once fixed (86,000 before).  Then scalarset.h's classes
# on the per-thread-index lock programs of bench/ (N = 4) and on
# tests/symmetry/*.c: --stats says threads are ordered, and every failing assertion, race, hang and final verdict is the
# same, thread by thread, as for a twin program that also computes
# "me * 3", which no class admits (the cross-check of the renaming's
# soundness; idx-initial.c fails it if P0, whose index is the initial
# value, joins the others, idx-slot.c if P2, whose array slot is named
# outright, does; the MCS lock's renaming exchanges array slots too).  It checks no speed.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch

# fixed NAME: how many threads' lock rf the test's --stats says were fixed.
fixed() {
	case $1 in
	locks-fixed|locks-fixed-final) echo 4 ;;
	locks-is-locked|locks-one-unlocked) echo 3 ;;
	*) echo 0 ;;
	esac
}
for f in tests/symmetry/*.litmus; do
	name=$(basename "$f" .litmus)
	want=$(result "$f")
	case_begin
	for mode in "" --exists-only --explain; do
		"$LKMMC" --stats $mode "$f" >"$tmp/out" 2>"$tmp/err"
		case_status "$name $mode" $? 0
		case_grep "$name $mode" "$tmp/out" "^Observation $name $want "
	done
	case_grep "$name --explain" "$tmp/err" "their lock rf fixed 0;"
	"$LKMMC" --stats "$f" >/dev/null 2>"$tmp/err"
	case_grep "$name" "$tmp/err" "their lock rf fixed $(fixed "$name");"
	case_end
done

bash bench/gen-families.sh --families lock-counter --n 12 --out "$tmp/fam" >/dev/null 2>&1
f=$tmp/fam/lock-counter-12.litmus
"$LKMMC" --stats --exists-only "$f" >"$tmp/out" 2>"$tmp/err"
check "lock-counter-12: Never" grep -q '^Observation lock-counter-12 Never 0 1' "$tmp/out"
check "lock-counter-12: 12 threads fixed" grep -q 'their lock rf fixed 12;' "$tmp/err"
defs=$(sed -n 's/^stats: events [0-9]*, defs \([0-9]*\),.*/\1/p' "$tmp/err")
check "lock-counter-12: fewer than 20000 definitions, got '$defs'" [ "${defs:-999999}" -lt 20000 ]
# what a program's answer says, line numbers left out; of a race, only
# that there is one (the one shown is an example: its pair may differ)
answer() {
	grep -E 'warning|error|^Assertion|hang' "$1" |
		sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //; s/(at|line) [^ ]*[0-9]+/\1 L/g; s/[^ ]*\.c//g' |
		sed -E 's/data race on .*/data race/' | sort
}
bash bench/gen-families.sh --families ticket-idx,ticket-idx-noacq,ttas-idx,ttas-idx-norel,mutex-idx-flag,mcs-idx-norel \
	--n 4 --form c --out "$tmp/idx" >/dev/null 2>&1
for f in "$tmp"/idx/*.c tests/symmetry/*.c; do
	name=$(basename "$f" .c)
	twin=$tmp/idx/$name-twin.c
	sed 's/^\(\t*\)int me = (int)(intptr_t)arg;/&\n\1int twin = me * 3;/' "$f" >"$twin"
	case_begin
	"$LKMMC" --stats "$f" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/out" >>"$tmp/err"
	answer "$tmp/err" >"$tmp/a1"
	case_grep "$name" "$tmp/err" "symmetric threads ordered [1-9]"
	"$LKMMC" --stats "$twin" >"$tmp/out" 2>"$tmp/err"
	cat "$tmp/out" >>"$tmp/err"
	answer "$tmp/err" >"$tmp/a2"
	case_grep "$name twin" "$tmp/err" "symmetric threads ordered 0,"
	[ -s "$tmp/a1" ] || case_fail "$name: no answer"
	cmp -s "$tmp/a1" "$tmp/a2" || case_fail "$name: answers differ from the twin's: $(diff "$tmp/a1" "$tmp/a2" | head -5)"
	case_end
done
report "symmetry"
