#!/usr/bin/env bash
# tests/e2e-symmetry.sh - symmetry.h's fixing of the lock's rf before the
# model (symmetry_fix_locks) on tests/symmetry/: each test's verdict, in
# full mode and --exists-only, is its Result: comment and the one --explain
# gives (which never fixes anything: the cross-check of the fixing's
# soundness); --stats says which tests were fixed (the simple shape) and
# which not (another writer of the lock, an observed register, writes
# that order the class before the lock); and lock-counter N = 12 needs
# few definitions once fixed (86,000 before).  It checks no speed.
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
report "symmetry"
