#!/usr/bin/env bash
# tests/fake-herd-replay.sh - a stand-in for lkmmc that replays herd7's
# recorded answers, to test bench/conformance.sh's parsing and judging:
#
#   LKMMC=tests/fake-herd-replay.sh bench/conformance.sh --sample 300
#       must report no disagreement at all;
#   FAKE_CORRUPT=manual/foo/C-bar.litmus LKMMC=tests/fake-herd-replay.sh ...
#       changes one state of that test (first value of its first state
#       becomes 99) and must be reported as a "states" disagreement.
#
# usage: tests/fake-herd-replay.sh .../corpus/PATH.litmus
# For each summary.tsv status it behaves like a well-behaved checker:
#   ok       prints shared/oracle/out/PATH.out as it is;
#   error    rejects the test with a located error on stderr, exit 1;
#   timeout  answers what the test's Result: comment says (DEADLOCK: Never 0 0,
#            DATARACE: Flag data-race); with no Result: comment it gives up
#            with exit status 124, as timeout(1) would.
# SHARED (default: ../shared beside the repo) says where the oracle is.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
[ $# -eq 1 ] || { echo "usage: $0 FILE.litmus" >&2; exit 2; }
file=$1
path=${file##*corpus/}
row=$(awk -F'\t' -v p="$path" '$1 == p { print; exit }' "$shared/oracle/summary.tsv")
[ -n "$row" ] || { echo "$file:1:1: error: not a corpus test known to the oracle" >&2; exit 1; }
status=$(printf '%s\n' "$row" | cut -f2)
result=$(printf '%s\n' "$row" | cut -f10)
name=$(awk '/^C[ \t]/ { print $2; exit }' "$file")

case $status in
ok)
	if [ "${FAKE_NEVER:-}" = "$path" ]; then
		sed "s/^Observation \(.*\) [A-Za-z]* \([0-9]*\) \([0-9]*\)$/Observation \1 Never \2 \3/" "$shared/oracle/out/$path.out"
	elif [ "${FAKE_CORRUPT:-}" = "$path" ]; then
		awk 'done != 1 && prev ~ /^States / { sub(/=[^;]*;/, "=99;"); done = 1 } { print; prev = $0 }' \
			"$shared/oracle/out/$path.out"
	else
		cat "$shared/oracle/out/$path.out"
	fi
	;;
error)
	echo "$file:1:1: error: herd7 rejected this test (replayed)" >&2
	exit 1
	;;
timeout)
	word=${result%% *}
	case $word in
	Never) obs="Never 0 1" ;;
	Sometimes|Maybe) obs="Sometimes 1 1" ;;
	Always) obs="Always 1 0" ;;
	DEADLOCK) obs="Never 0 0" ;;
	*) exit 124 ;;
	esac
	printf 'Test %s Allowed\nStates 0\nNo\nWitnesses\nPositive: %s Negative: %s\n' \
		"$name" "$(echo "$obs" | cut -d' ' -f2)" "$(echo "$obs" | cut -d' ' -f3)"
	case $result in *DATARACE*) echo "Flag data-race" ;; esac
	printf 'Condition exists (replayed)\nObservation %s %s\nTime %s 0.00\n\n' "$name" "$obs" "$name"
	;;
*)
	echo "$file:1:1: error: unknown oracle status '$status'" >&2
	exit 1
	;;
esac
