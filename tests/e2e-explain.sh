#!/usr/bin/env bash
# End-to-end tests of --explain and --witness.
#  - Never tests: --explain names the forbidding axioms.  For the tests
#    listed below the names were derived by hand from linux-kernel.cat;
#    for every Never test of the kernel's 34 an explanation with a cycle
#    must be printed and pass its own check.
#  - Sometimes tests: --witness prints an execution whose final state
#    satisfies the condition, and which lkmmc re-checked against the model,
#    the same with --dot (read with the least model) as without.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
K=build/linux/tools/memory-model/litmus-tests

# test file -> the axioms that forbid its condition (hand-derived)
expected_axioms() {
	case "$(basename "$1" .litmus)" in
	CoRR+poonceonce+Once|CoRW+poonceonce+Once|CoWR+poonceonce+Once|CoWW+poonceonce)
		echo coherence;;      # po-loc | com has a cycle
	SB+fencembonceonces|R+fencembonceonces|IRIW+fencembonceonces+OnceOnce)
		echo propagation;;    # only strong fences order W->R: pb cycle
	MP+fencewmbonceonce+fencermbonceonce|MP+pooncerelease+poacquireonce|\
	LB+poacquireonce+pooncerelease|LB+fencembonceonce+ctrlonceonce|\
	MP+onceassign+derefonce|MP+polocks|WRC+pooncerelease+fencermbonceonce+Once)
		echo happens-before;; # ppo and rfe links close an hb cycle
	RCU-gp|RCU-LB+gp+cs|SRCU-gp)
		echo rcu;;            # grace period vs critical section: rb
	MP+plain+relacq)
		echo plain-coherence;; # the plain read is not in hb; rw-incoh
	atomic-add-return)
		echo atomic;;         # two increments: rmw & (fre ; coe)
	*) echo "";;
	esac
}

[ -d "$K" ] || make -s kernel-tree >/dev/null 2>&1
scratch
# The picture of an execution must render with graphviz without a warning.
check_dot() {
	[ -s "$tmp/x.dot" ] || { bad "$1: no picture written"; return 1; }
	if ! dot -Tsvg "$tmp/x.dot" -o "$tmp/x.svg" 2> "$tmp/dot.err" || [ -s "$tmp/dot.err" ]; then
		bad "$1: dot could not render the picture: $(head -c 200 "$tmp/dot.err")"; return 1
	fi
	rm -f "$tmp/x.dot"
}
for f in "$K"/*.litmus litmus-tests/*.litmus; do
	[ -f "$f" ] || continue
	r=$(result "$f")
	want=$(expected_axioms "$f")
	case "$r" in
	Never)
		case "$f" in litmus-tests/*) [ -n "$want" ] || continue;; esac
		out=$(timeout 120 "$LKMMC" --explain --dot "$tmp/x.dot" "$f" 2>&1)
		check_dot "$f" || continue
		got=$(echo "$out" | grep -m1 '^Explanation:' | sed 's/.*because of //')
		if echo "$out" | grep -q 'internal error\|no execution found'; then
			bad "$f: explanation failed its self-check"; continue
		fi
		if ! echo "$out" | grep -q -- '--\['; then
			bad "$f: no cycle printed"; continue
		fi
		if [ -n "$want" ] && [ "$got" != "$want" ]; then
			bad "$f: axioms '$got', expected '$want'"; continue
		fi
		[ -n "$got" ] && ok || bad "$f: no axiom named";;
	Sometimes|Always)
		case "$f" in litmus-tests/*) continue;; esac
		out=$(timeout 120 "$LKMMC" --witness --dot "$tmp/x.dot" "$f" 2>&1)
		check_dot "$f" || continue
		# undrawn, the witness is read without the closures' least
		# model (execution_choices): the same execution, printed alike
		plain=$(timeout 120 "$LKMMC" --witness "$f" 2>&1)
		[ "$(echo "$plain" | grep -v '^Time ')" = "$(echo "$out" | grep -v '^Time ')" ] ||
			{ bad "$f: the witness differs with and without --dot"; continue; }
		echo "$out" | grep -q 're-checked against the model: consistent' ||
			{ bad "$f: witness not re-checked"; continue; }
		final=$(echo "$out" | grep -m1 '^  final:')
		cond=$(grep -A3 '^exists' "$f" | tr '\n' ' ' | sed 's/.*exists[^(]*(//; s/).*//')
		good=1
		for atom in $(echo "$cond" | sed 's#/\\#\n#g' | tr -d ' '); do
			case "$atom" in
			*:*) echo "$final" | grep -q " $atom;" || good=0;;
			*) echo "$final" | grep -q " \[${atom%%=*}\]=${atom#*=};" || good=0;;
			esac
		done
		[ $good = 1 ] && ok || bad "$f: witness final state '$final' does not satisfy ($cond)";;
	esac
done
# Data races: --explain names the two racing accesses (both plain or one
# plain, on one location).
for f in litmus-tests/*.litmus; do
	case $(field "$f" Result) in *DATARACE*) ;; *) continue ;; esac
	out=$(timeout 120 "$LKMMC" --explain "$f" 2>&1)
	a=$(echo "$out" | grep -m1 '^Data race: ' | awk '{print $5}')
	b=$(echo "$out" | grep -m1 '^      and: ' | awk '{print $4}')
	if [ -n "$a" ] && [ "${a%%=*}" = "${b%%=*}" ]; then ok; else bad "$f: no racing pair shown"; fi
done
# herd7's -speedcheck (the kernel scripts' fast mode) is --exists-only in
# herd7's output format: no witness block, which herd7 never prints.
f=litmus-tests/SB+lock+mb.litmus
out=$("$LKMMC" -speedcheck fast "$f" 2>&1)
if grep -q '^Observation SB+lock+mb Sometimes' <<<"$out" && ! grep -q '^Witness:' <<<"$out"; then ok; else bad "-speedcheck fast prints a witness or no answer"; fi
out=$("$LKMMC" --exists-only "$f" 2>&1)
if grep -q '^Witness: an execution reaching the condition' <<<"$out"; then ok; else bad "--exists-only lost its witness"; fi
report
