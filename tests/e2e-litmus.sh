#!/usr/bin/env bash
# tests/e2e-litmus.sh - run lkmmc on our litmus tests and on the kernel's.
#
# 1. litmus-tests/*.litmus: the Observation verdict must match the test's
#    "Result:" line (DEADLOCK: "Never 0 0"; DATARACE: Flag data-race), the
#    printed flags must be exactly those expected (data-race for DATARACE,
#    plus the names of an optional "Flags:" line), and when NAME.states
#    exists the printed States must be exactly its lines, in its order.
# 2. build/linux/tools/memory-model/litmus-tests/*.litmus (make kernel-tree):
#    the verdict must match their "Result:" line, and when ../shared is
#    there, their States must be those of shared/oracle/kernel-6.1/NAME.out.
# 3. --lazy gives the default's output on both sets (below).
# One line per failure, then "N passed, N failed"; exit 1 on any failure.
#
# Environment: LKMMC     the binary (default ./lkmmc; e.g. ./lkmmc-asan)
#              E2E_TIMEOUT  seconds per test (default 300)
#              E2E_FILTER   only tests whose file name contains this string
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
tmo=${E2E_TIMEOUT:-300}
filter=${E2E_FILTER:-}
ktests=build/linux/tools/memory-model/litmus-tests
oracle=../shared/oracle/kernel-6.1
parse() { bash bench/conformance.sh --parse "$1"; }
scratch

# expect FILE: prints "WORD DATARACE(0|1) FLAGS" from the Result:/Flags: lines
expect() {
	local race=0
	case $(field "$1" Result) in *DATARACE*) race=1 ;; esac
	echo "$(result "$1") $race $(field "$1" Flags | sed 's/[[:space:],]\{1,\}/ /g')"
}

# states_check NAME GOT-STATES("a | b") WANT-FILE: reports set and order mismatches
states_check() {
	local name=$1 got=$2 want=$3
	printf '%s\n' "$got" | awk '$0 != "-"' | sed 's/ | /\n/g' >"$tmp/got"
	grep -v '^[ \t]*$' "$want" | sed 's/[ \t]*$//' >"$tmp/want"
	if ! cmp -s "$tmp/got" "$tmp/want"; then
		if [ "$(sort "$tmp/got")" = "$(sort "$tmp/want")" ]; then
			case_fail "$name: states in a different order than herd7's: got $(paste -sd'|' "$tmp/got")"
		else
			case_fail "$name: states differ: missing {$(sort "$tmp/want" | comm -13 <(sort "$tmp/got") - | paste -sd'|')} extra {$(sort "$tmp/got" | comm -13 <(sort "$tmp/want") - | paste -sd'|')}"
		fi
		return 1
	fi
}

# check_test FILE KIND(ours|kernel)
check_test() {
	local file=$1 kind=$2 name rc word race fl rec v p n flags nst sts
	name=$(basename "$file" .litmus)
	case_begin
	timeout "$tmo" "$LKMMC" "$file" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		[ $rc -eq 124 ] && case_fail "$name: timed out after ${tmo}s" ||
			case_fail "$name: exit status $rc: $(head -c 300 "$tmp/err" | head -3 | paste -sd' ')"
		case_end; return
	fi
	rec=$(parse "$tmp/out")
	IFS=$'\t' read -r v p n _ flags nst sts _ <<<"$rec"
	if [ "$v" = "-" ]; then
		case_fail "$name: no Observation line in the output"
		case_end; return
	fi
	read -r word race fl <<<"$(expect "$file")"
	case $word in
	DEADLOCK) [ "$v $p $n" = "Never 0 0" ] || case_fail "$name: Result: DEADLOCK wants Observation Never 0 0, got $v $p $n" ;;
	Maybe) ;;
	-) [ "$kind" = kernel ] || case_fail "$name: no Result: line in the test" ;;
	*) [ "$v" = "$word" ] || case_fail "$name: Result: $word, got Observation $v $p $n" ;;
	esac
	local has_race=0
	case ",$flags," in *,data-race,*) has_race=1 ;; esac
	if [ "$has_race" != "$race" ]; then
		[ "$race" = 1 ] && case_fail "$name: Result: has DATARACE but no Flag data-race was printed" ||
			case_fail "$name: Flag data-race printed but Result: has no DATARACE"
	fi
	if [ "$kind" = ours ]; then
		local want
		want=$( { [ "$race" = 1 ] && echo data-race; for f in $fl; do echo "$f"; done; } | sort -u | paste -sd, -)
		[ -n "$want" ] || want=-
		[ "$flags" = "$want" ] || case_fail "$name: flags {$flags}, expected {$want}"
		if [ -f "${file%.litmus}.states" ]; then
			states_check "$name" "$sts" "${file%.litmus}.states"
			local nwant
			nwant=$(grep -c . "${file%.litmus}.states")
			[ "$nst" = "$nwant" ] || case_fail "$name: States $nst, expected $nwant"
		fi
	elif [ -f "$oracle/$name.litmus.out" ]; then
		local orec osts
		orec=$(parse "$oracle/$name.litmus.out")
		osts=$(printf '%s\n' "$orec" | cut -f7)
		printf '%s\n' "$osts" | awk '$0 != "-"' | sed 's/ | /\n/g' >"$tmp/ostates"
		states_check "$name" "$sts" "$tmp/ostates"
	fi
	case_end
}

case $LKMMC in */*) ;; *) LKMMC=$(command -v "$LKMMC" || echo "$LKMMC") ;; esac
if [ ! -x "$LKMMC" ]; then
	bad "$LKMMC is not executable (run make)"
	report; exit
fi

n=0
for f in litmus-tests/*.litmus; do
	case $f in *"$filter"*) ;; *) continue ;; esac
	check_test "$f" ours; n=$((n + 1))
done
[ $n -gt 0 ] || [ -n "$filter" ] || bad "no litmus-tests/*.litmus"

if ls "$ktests"/*.litmus >/dev/null 2>&1; then
	[ -d "$oracle" ] || echo "note: $oracle absent, kernel tests judged by their Result: lines only"
	for f in "$ktests"/*.litmus; do
		case $f in *"$filter"*) ;; *) continue ;; esac
		check_test "$f" kernel
	done
else
	bad "no kernel litmus tests in $ktests (run make kernel-tree)"
fi

# 3. --lazy (the model checked outside Z3, solver/lazy.c) prints exactly the
#    default encoding's answers (verdicts, states, flags) on litmus-tests/
#    and on the kernel's tests, built-in model and read from their cat
#    files and on a long-thread test (only the Time lines may differ), and
#    the same errors and warnings on the C programs (their counterexamples
#    may be other executions).
lazy_same() { # WHAT ARGS...
	local what=$1; shift
	"$LKMMC" "$@" 2>&1 | grep -v '^Time ' > "$tmp/eager"
	"$LKMMC" --lazy "$@" 2>&1 | grep -v '^Time ' > "$tmp/lazy"
	if cmp -s "$tmp/eager" "$tmp/lazy" && [ -s "$tmp/eager" ]; then
		ok
	else
		bad "--lazy differs from the default on $what:"
		diff "$tmp/eager" "$tmp/lazy" | head -10
	fi
}
if [ -z "$filter" ]; then
	lazy_same "litmus-tests/" litmus-tests/*.litmus
	if ls "$ktests"/*.litmus >/dev/null 2>&1; then
		lazy_same "the kernel's tests" "$ktests"/*.litmus
		lazy_same "the kernel's tests under their cat files" \
			--model "${ktests%/litmus-tests}" "$ktests"/*.litmus
	fi
	# a large test (over 200 events: its solver has a scope open when
	# the lazy core takes it) and the C programs
	bash bench/gen-families.sh --out "$tmp/long" --n 100 --families long-xy --form litmus > /dev/null
	lazy_same "a long-thread test" --exists-only "$tmp"/long/*.litmus
	# a program's counterexample is the execution each search found
	# first: the findings and the exit status must be the same, their
	# traces may differ.
	# The lock programs of bench/ with two threads (those whose bug shows
	# in an execution the model rules out after the search: a clause is
	# asserted, and the search's bounds must be back by then).
	bash bench/gen-families.sh --out "$tmp/idx" --n 2 --families idx --form c > /dev/null
	for prog in litmus-tests/programs/*.c "$tmp"/idx/*.c; do
		"$LKMMC" "$prog" > "$tmp/eager.out" 2>&1
		eager_rc=$?
		"$LKMMC" --lazy "$prog" > "$tmp/lazy.out" 2>&1
		lazy_rc=$?
		# (which racing pair is named depends on the execution found)
		for side in eager lazy; do
			grep -E ': (error|warning): ' "$tmp/$side.out" |
				sed -E 's/^.*: error: data race on .*/a data race/' | sort > "$tmp/$side"
		done
		if [ $lazy_rc -eq $eager_rc ] && cmp -s "$tmp/eager" "$tmp/lazy"; then
			ok
		else
			bad "--lazy (exit $lazy_rc, default $eager_rc) finds other errors than the default in $prog:"
			diff "$tmp/eager" "$tmp/lazy" | head -10
		fi
	done
fi

report
