#!/usr/bin/env bash
# bench/repair.sh - does --repair find again what was taken out?  For each
# litmus test given (a Never test, normally), lkmmc --strip removes every
# fence and acquire/release annotation (acquire/release and fully ordered
# RMWs become _relaxed); a test that stays Never is left out; on the others
# lkmmc --repair must find a repair (re-checked by lkmmc itself) no more
# expensive than what was stripped.  It measures and reports; it asserts
# nothing but the exit status below.
#
# usage: bench/repair.sh [--timeout SECS] [--out DIR] [--plain] [--scratch] FILE... | --files-from LIST
#   --timeout SECS  limit per --repair run, timeout(1) (default 60)
#   --out DIR       stripped tests, results.tsv, summary.txt
#                   (default build/bench/repair)
#   --plain         search by plain enumeration (lkmmc --repair-plain), to
#                   measure the cut from failed sets against it
#   --scratch       check every candidate from its patched text (lkmmc
#                   --repair-scratch), to measure the one encoding against it
# Environment: LKMMC, the binary (default ./lkmmc of this checkout).
#
# results.tsv, one line per test: path, stripped changes, stripped cost,
# outcome (stays-never: left out; repaired; no-repair; gave-up; timeout;
# error), repair cost, ok (repaired at no more than the stripped cost),
# seconds of the --repair run, candidates checked, the first repair's
# changes, user CPU seconds and peak resident kB of the --repair run
# (/usr/bin/time; the wall seconds grow with the machine's load, the CPU
# seconds do not).  summary.txt: counts, success rate, median and max of
# both.
# Exit status: 0 measured; 1 a --repair run crashed or printed a repair
# it could not re-check; 2 usage error.
set -u

main() {
	local root tmo=60 out list="" files=() search=()
	root=$(cd "$(dirname "$0")/.." && pwd)
	out=$root/build/bench/repair
	while [ $# -gt 0 ]; do
		case $1 in
		--timeout) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "repair.sh: --timeout wants a number" >&2; return 2; }
			tmo=$2; shift 2 ;;
		--out) [ -n "${2:-}" ] || { echo "repair.sh: --out wants a folder" >&2; return 2; }
			out=$2; shift 2 ;;
		--files-from) [ -r "${2:-}" ] || { echo "repair.sh: --files-from wants a readable list" >&2; return 2; }
			list=$2; shift 2 ;;
		--plain) search+=(--repair-plain); shift ;;
		--scratch) search+=(--repair-scratch); shift ;;
		-*) echo "repair.sh: unknown option $1" >&2; return 2 ;;
		*) files+=("$1"); shift ;;
		esac
	done
	[ -n "$list" ] && mapfile -t -O "${#files[@]}" files < "$list"
	[ ${#files[@]} -gt 0 ] || { echo "usage: bench/repair.sh [--timeout SECS] [--out DIR] FILE... | --files-from LIST" >&2; return 2; }
	local lkmmc=${LKMMC:-$root/lkmmc}
	mkdir -p "$out/stripped"
	local tsv=$out/results.tsv bad=0 i=0
	printf 'path\tstripped\tstripped_cost\toutcome\trepair_cost\tok\tseconds\tchecked\trepair\tuser_seconds\tpeak_kb\n' > "$tsv"
	for f in "${files[@]}"; do
		i=$((i + 1))
		local s=$out/stripped/$i-$(basename "$f") info n cost
		if ! info=$("$lkmmc" --strip "$f" 2>&1 >"$s"); then
			printf '%s\t-\t-\terror\t-\t-\t-\t-\t%s\t-\t-\n' "$f" "strip: ${info//$'\n'/ }" >> "$tsv"
			continue
		fi
		n=$(sed -n 's/.*stripped \([0-9]*\) fences.*/\1/p' <<<"$info")
		cost=$(sed -n 's/.*, cost \([0-9]*\)$/\1/p' <<<"$info")
		if [ "${n:-0}" = 0 ]; then
			printf '%s\t0\t0\tnothing-to-strip\t-\t-\t-\t-\t-\t-\t-\n' "$f" >> "$tsv"
			continue
		fi
		local t0 t1 rep rc user kb
		t0=$(date +%s.%N)
		rep=$(/usr/bin/time -f '%U %M' -o "$out/time.txt" timeout "$tmo" "$lkmmc" --repair --repair-max 1 "${search[@]}" "$s" 2>&1)
		rc=$?
		t1=$(date +%s.%N)
		local secs outcome rcost="-" ok="-" checked="-" what="-"
		secs=$(echo "$t1 - $t0" | bc)
		# the last line: "Command exited with non-zero status N" comes first
		read -r user kb < <(tail -n 1 "$out/time.txt")
		local head
		head=$(grep -m1 '^Repair ' <<<"$rep")
		if [ $rc = 124 ]; then outcome=timeout
		elif [[ $head == *"nothing to repair"* ]]; then outcome=stays-never
		elif [[ $head == *"no repair:"* ]]; then outcome=no-repair
		elif [[ $head == *"gave up"* ]]; then outcome=gave-up
		elif [[ $head =~ repairs?\ of\ cost\ ([0-9]+).*\;\ ([0-9]+)\ candidates ]]; then
			outcome=repaired
			rcost=${BASH_REMATCH[1]}
			checked=${BASH_REMATCH[2]}
			what=$(grep -m1 '^Repair 1, cost' <<<"$rep" | sed 's/^Repair 1, cost [0-9]*: //')
			if [ "$rcost" -le "$cost" ]; then ok=yes; else ok=no; fi
			grep -q "internal error" <<<"$rep" && { outcome=unverified; bad=1; }
		else
			outcome=error
			what=$(head -c 300 <<<"$rep" | tr '\n\t' '  ')
			[ $rc -gt 128 ] && bad=1
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$n" "$cost" "$outcome" "$rcost" "$ok" \
			"$secs" "$checked" "$what" "$user" "$kb" >> "$tsv"
	done
	summary "$tsv" | tee "$out/summary.txt"
	return $bad
}

# Counts and times of results.tsv (the tests that became reachable).
summary() {
	awk -F'\t' 'NR > 1 {
		total++; o[$4]++
		if ($4 == "stays-never" || $4 == "nothing-to-strip" || ($4 == "error" && $2 == "-")) next
		set++
		if ($6 == "yes") good++
	} END {
		printf "tests: %d", total
		for (k in o) printf ", %s %d", k, o[k]
		printf "\nbecame reachable when stripped: %d; repaired at no more than the stripped cost: %d (%.1f%%)\n",
			set, good, set ? 100 * good / set : 0
	}' "$1"
	local col
	for col in 7:wall 10:user-CPU; do
		awk -F'\t' -v c="${col%%:*}" 'NR > 1 && $c != "-" && $4 != "stays-never" { print $c + 0 }' "$1" | sort -g |
			awk -v what="${col#*:}" '{ t[++n] = $1 } END {
				if (!n) exit
				med = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
				printf "--repair %s seconds over those: median %.2f, max %.2f (%d runs)\n", what, med, t[n], n
			}'
	done
}

# exit on the line that runs main: bash reads a script as it goes, and an
# edit of this file during a long run must not run what follows
main "$@"; exit $?
