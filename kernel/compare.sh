#!/usr/bin/env bash
# kernel/compare.sh - compare what the (virtual) machine showed with what
# the model allows.
#
#   kernel/compare.sh [--lkmmc PATH] [--report FILE] OUTDIR
#
# For every module under OUTDIR (test.info) with a result from
# kernel/run-qemu.sh (OUTDIR/results/MOD.out, the /proc file in klitmus7's
# format), runs lkmmc on the same litmus file and checks that every state
# of the histogram is among lkmmc's States ("observed <= allowed").
# Per test it prints one line:
#   ok      NAME  observed 3 of 4 allowed states in N runs; weak: STATE (COUNT), ...
#   FAIL    NAME  the machine showed a state the model forbids: STATE (COUNT)
#   NORUN   NAME  the reason it did not run (OUTDIR/results/MOD.fail)
# "weak" lists the observed states that satisfy the test's exists or
# ~exists condition (the outcome the test is about).  Writes the lines
# also to --report FILE
# (default OUTDIR/compare.txt).  Exit status: 0 every test ran and
# observed <= allowed; 1 a forbidden state was observed or a test did not
# run or could not be checked; 2 usage error.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
lkmmc=$root/lkmmc report=""
while [ $# -gt 1 ]; do
	case $1 in
	--lkmmc) lkmmc=$2; shift ;;
	--report) report=$2; shift ;;
	*) echo "compare: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "usage: $0 [--lkmmc PATH] [--report FILE] OUTDIR" >&2; exit 2; }
out=$(cd "$1" && pwd) || exit 2
report=${report:-$out/compare.txt}
[ -x "$lkmmc" ] || { echo "compare: no lkmmc at $lkmmc (run make)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/lkmmc-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The model's answer for every test, in one lkmmc run.
: > "$tmp/mods"
for info in "$out"/*/test.info; do
	[ -f "$info" ] || continue
	mod=$(sed -n 's/^module=//p' "$info")
	file=$(sed -n 's/^file=//p' "$info")
	echo "$mod $file" >> "$tmp/mods"
done
[ -s "$tmp/mods" ] || { echo "compare: no test modules under $out" >&2; exit 2; }
cut -d' ' -f2- "$tmp/mods" | sort -u | tr '\n' '\0' |
	xargs -0 "$lkmmc" > "$tmp/model" 2> "$tmp/model.err"

# Model: "Test NAME ..." then "States N" then N lines.  Machine: "Test NAME"
# then "Histogram (N states)" then N lines "COUNT :>STATE" / "COUNT *>STATE".
# A state is compared as the set of its "key=value" items.
status=0
: > "$report"
while read -r mod file; do
	name=$(sed -n 's/^name=//p' "$out/$mod/test.info")
	res=$out/results/$mod.out
	if [ ! -f "$res" ]; then
		why="no result"
		[ -f "$out/results/$mod.fail" ] && why=$(head -1 "$out/results/$mod.fail")
		printf 'NORUN   %s  %s\n' "$name" "$why" | tee -a "$report"
		status=1
		continue
	fi
	line=$(awk -v name="$name" -v modelf="$tmp/model" '
		function norm(s,   n, a, i, j, t) {
			gsub(/;[ ]*$/, "", s)
			n = split(s, a, /; */)
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			s = ""
			for (i = 1; i <= n; i++) s = s a[i] "; "
			return s
		}
		BEGIN {
			while ((getline l < modelf) > 0) {
				if (l ~ /^Test /) { split(l, w, " "); cur = w[2]; instates = 0; continue }
				if (cur != name) continue
				if (l ~ /^States /) { found = 1; instates = l; sub(/^States /, "", instates); instates += 0; continue }
				if (instates > 0) { allowed[norm(l)] = 1; nallowed++; instates--; }
			}
		}
		/^Histogram/ { inh = 1; next }
		/^Condition forall/ { forall = 1 }
		inh && /^[0-9]+ *[*:]>/ {
			cnt = $1
			st = $0; sub(/^[0-9]+ *[*:]>/, "", st)
			weak = ($0 ~ /^[0-9]+ *\*>/)
			nobs++
			runs += cnt
			if (!(norm(st) in allowed)) bad = bad sprintf(" %s (%d)", st, cnt)
			else if (weak) wk = wk sprintf(" %s (%d),", st, cnt)
			next
		}
		inh { inh = 0 }
		END {
			if (!found) { print "NOMODEL"; exit }
			if (nobs == 0) { print "EMPTY"; exit }
			sub(/,$/, "", wk)
			if (forall) wk = ""   # there the condition is the expected outcome
			if (bad != "") printf "FAIL %s|%s|%s\n", nobs, nallowed, bad
			else printf "ok %s|%s|%d|%s\n", nobs, nallowed, runs, wk
		}' "$res")
	case $line in
	NOMODEL)
		printf 'NORUN   %s  lkmmc gave no States for it: %s\n' "$name" \
			"$(grep -m1 "$file" "$tmp/model.err" || echo '(no message)')" | tee -a "$report"
		status=1 ;;
	EMPTY)
		printf 'NORUN   %s  empty histogram (every outcome excluded: %s)\n' "$name" \
			"$(grep '^Excluded' "$res")" | tee -a "$report"
		status=1 ;;
	FAIL*)
		IFS='|' read -r nobs nallowed bad <<< "${line#FAIL }"
		printf 'FAIL    %s  !!! the machine showed a state the model forbids:%s (allowed: %s states)\n' \
			"$name" "$bad" "$nallowed" | tee -a "$report"
		status=1 ;;
	ok*)
		IFS='|' read -r nobs nallowed runs wk <<< "${line#ok }"
		excl=$(sed -n 's/^Excluded [^ ]* //p' "$res" | sed 's/ cpus=.*//')
		printf 'ok      %s  observed %s of %s allowed states in %s runs%s%s\n' "$name" "$nobs" \
			"$nallowed" "$runs" "${wk:+; weak:$wk}" \
			"$(case $excl in *=[1-9]*) echo "; excluded: $excl" ;; esac)" | tee -a "$report" ;;
	esac
done < "$tmp/mods"
exit $status
