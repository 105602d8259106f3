# tests/lib.sh - what every end-to-end script shares: the binary under test,
# one counter of passed and failed checks with one reporter, and one reader
# of the fields of a litmus test's comment ("Result:", "Flags:", ...).
#
# Source it from a script at the top of the tree:  . tests/lib.sh
# (it sets $root, that top, as an absolute path; "scratch" makes the
# script's temporary folder $tmp).
# A script counts either checks (ok, bad, check) or whole test cases
# (case_begin, case_fail, case_end: a case with any failure counts once),
# and ends with "report", whose status is the script's.  It runs nothing.

LKMMC=${LKMMC:-./lkmmc}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lib_passed=0 lib_failed=0 lib_case_ok=1

# ok: one check passed.  bad MESSAGE: one check failed, said on stdout.
ok() { lib_passed=$((lib_passed + 1)); }
bad() { lib_failed=$((lib_failed + 1)); echo "FAIL: $*"; }
# check MESSAGE COMMAND...: ok when COMMAND succeeds, else bad MESSAGE.
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# scratch [NAME]: a new folder in $tmp (/tmp/NAME.XXXXXX when named),
# removed when the script exits.
scratch() {
	tmp=$(mktemp -d ${1:+"/tmp/$1.XXXXXX"}) || { echo "FAIL: mktemp"; exit 2; }
	trap 'rm -rf "$tmp"' EXIT
}

# case_begin; case_fail MESSAGE (any number of times); case_end.
case_begin() { lib_case_ok=1; }
case_fail() { echo "FAIL: $*"; lib_case_ok=0; }
case_end() { if [ "$lib_case_ok" = 1 ]; then ok; else lib_failed=$((lib_failed + 1)); fi; }
# case_status NAME GOT WANT: case_fail unless exit status GOT is WANT.
case_status() { [ "$2" -eq "$3" ] || case_fail "$1: exit status $2, expected $3"; }
# case_grep NAME FILE PATTERN...: case_fail for each PATTERN (grep's) that
# no line of FILE matches.
case_grep() {
	local name=$1 file=$2 p
	shift 2
	for p; do grep -q -- "$p" "$file" || case_fail "$name: no line matches '$p'"; done
}

# field FILE KEY: the text after the first " * KEY:" of the test's comment
# (a line starting with '*', '(*' or the key itself), without a closing
# "*)"; empty when there is none.
field() {
	sed -n "s/^[[:space:](]*\*\{0,1\}[[:space:]]*$2:[[:space:]]*//p" "$1" |
		head -n 1 | sed 's/[[:space:]]*\*).*//; s/[[:space:]]*$//'
}
# result FILE: the first word of the test's Result: field, "-" when none
# (Never, Sometimes, Always, DEADLOCK, Maybe, ...).
result() { local r; r=$(field "$1" Result); r=${r%%[[:space:]]*}; echo "${r:--}"; }

# report [PREFIX [NOTE]]: "PREFIX: N passed, N failed NOTE"; fails when
# any check or case failed.
report() {
	echo "${1:+$1: }$lib_passed passed, $lib_failed failed${2:+ $2}"
	[ "$lib_failed" -eq 0 ]
}

# The scripts' former private counters: a script still calling them fails
# loudly instead of passing silently.
fail() { bad "tests/lib.sh: 'fail' is gone, use bad or case_fail: $*"; }
done_test() { bad "tests/lib.sh: 'done_test' is gone, use case_end"; }
