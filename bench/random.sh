#!/usr/bin/env bash
# bench/random.sh - lkmmc's full mode against --exists-only on random
# many-thread tests (bench/gen-random.py: 5 to 8 threads with locks, RCU,
# RMWs and fences).  Each test is checked once in each mode, one test at a
# time; the verdicts of the two modes must agree.  It measures and reports;
# it asserts no speed.
#
# usage: bench/random.sh [--seed S] [--count N] [--first I] [--timeout SECS]
#                        [--out DIR]
#   --seed S        generator seed (default 1)
#   --count N       number of tests (default 200)
#   --first I       index of the first test (default 0)
#   --timeout SECS  limit per test and mode, timeout(1) (default 60)
#   --out DIR       tests, results.tsv and table.txt (default build/bench/random;
#                   its old random-s*.litmus files are removed first)
# Environment: LKMMC, the binary (default ./lkmmc of this checkout).
#
# The table: test, events (lkmmc --stats), wall and CPU seconds and peak RSS
# (/usr/bin/time -f %M) of each mode, both verdicts (Never, Sometimes,
# Always; DEADLOCK for Never 0 0; timeout, error, crash), the number of
# final states full mode listed (results.tsv only), and a check:
# ok, DISAGREE (both answered, different words), REJECTED (lkmmc could not
# parse or check the test), CRASH.  Then the summary: median and max of
# each mode's seconds (a time-out counted at the limit) and RSS, and how
# many tests --exists-only took longer on than full mode, and full mode's
# seconds per listed state (it asks the solver about once a state).
# Exit status: 0 every test was accepted, never crashed and both modes
# agree wherever both answered; 1 otherwise (said loudly); 2 usage error.
set -u

main() {
	local root seed=1 count=200 first=0 tmo=60 out
	root=$(cd "$(dirname "$0")/.." && pwd)
	out=$root/build/bench/random
	while [ $# -gt 0 ]; do
		case $1 in
		--seed|--count|--first|--timeout)
			[[ ${2:-} =~ ^[0-9]+$ ]] || { echo "random.sh: $1 wants a number" >&2; return 2; }
			case $1 in --seed) seed=$2 ;; --count) count=$2 ;; --first) first=$2 ;; --timeout) tmo=$2 ;; esac
			shift 2 ;;
		--out) [ -n "${2:-}" ] || { echo "random.sh: --out wants a folder" >&2; return 2; }
			out=$2; shift 2 ;;
		-h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; return 0 ;;
		*) echo "random.sh: unknown argument '$1' (see --help)" >&2; return 2 ;;
		esac
	done
	[ "$tmo" -ge 1 ] || { echo "random.sh: --timeout must be >= 1" >&2; return 2; }
	local lkmmc=${LKMMC:-$root/lkmmc}
	case $lkmmc in /*) ;; *) lkmmc=$PWD/$lkmmc ;; esac
	[ -x "$lkmmc" ] || { echo "random.sh: no lkmmc at $lkmmc (make lkmmc)" >&2; return 2; }
	mkdir -p "$out" || return 2
	rm -f "$out"/random-s*.litmus
	local work
	work=$(mktemp -d) || return 2
	trap 'rm -rf "$work"' RETURN
	python3 "$root/bench/gen-random.py" --seed "$seed" --count "$count" --first "$first" \
		--out "$out" >"$work/tests" || { echo "random.sh: gen-random.py failed" >&2; return 1; }
	echo "random: $count tests of seed $seed in $out, lkmmc $lkmmc, ${tmo}s per test and mode"

	local tsv=$out/results.tsv
	printf 'test\tevents\tfull_s\texists_s\tfull_rss_kb\texists_rss_kb\tfull\texists_only\tcheck\tfull_cpu_s\texists_cpu_s\tstates\n' >"$tsv"
	local t name events states fs fr fc fv es er ec ev chk
	while read -r t; do
		name=$(basename "$t" .litmus)
		run_one "$work" "$tmo" "$lkmmc" "$t" --stats
		read -r fv fs fr fc <"$work/res"
		events=$(sed -n 's/^stats: events \([0-9]*\),.*/\1/p' "$work/err" | head -n 1)
		states=$(sed -n 's/^States \([0-9]*\)$/\1/p' "$work/out" | head -n 1)
		run_one "$work" "$tmo" "$lkmmc" "$t" --exists-only
		read -r ev es er ec <"$work/res"
		if [ "$fv" = error ] || [ "$ev" = error ]; then chk=REJECTED
		elif [ "$fv" = crash ] || [ "$ev" = crash ]; then chk=CRASH
		elif [ "$fv" = timeout ] || [ "$ev" = timeout ]; then chk=timeout
		elif [ "$fv" != "$ev" ]; then chk=DISAGREE
		else chk=ok
		fi
		if [ "$chk" = REJECTED ]; then
			echo "random: lkmmc rejected $t:" >&2
			sed -n '/error:/p' "$work/err" | head -n 3 >&2
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${events:--}" "$fs" "$es" \
			"$fr" "$er" "$fv" "$ev" "$chk" "$fc" "$ec" "${states:--}" >>"$tsv"
		awk -F'\t' 'END { printf "%-18s %6s %8s %8s %-9s %-11s %s\n", $1, $2, $3, $4, $7, $8, $9 }' "$tsv"
	done <"$work/tests"

	awk -F'\t' 'NR == 1 { printf "%-18s %6s %8s %8s %8s %8s %8s %8s %-9s %-11s %s\n", "test", "events", "full s", "exists s", "full cpu", "ex. cpu", "full MB", "ex. MB", "full", "exists-only", "check"; next }
	{ printf "%-18s %6s %8s %8s %8s %8s %8.0f %8.0f %-9s %-11s %s\n", $1, $2, $3, $4, $10, $11, $5 / 1024, $6 / 1024, $7, $8, ($9 == "ok" || $9 == "timeout") ? $9 : "<<< " $9 }' \
		"$tsv" >"$out/table.txt"
	summarize "$tsv" "$tmo" | tee -a "$out/table.txt"
	echo "random: $tsv, $out/table.txt"
	if awk -F'\t' 'NR > 1 && $9 ~ /^[A-Z]/ { bad = 1 } END { exit !bad }' "$tsv"; then
		echo "random: FAILED: some test was rejected, crashed or got different verdicts:" >&2
		awk -F'\t' 'NR > 1 && $9 ~ /^[A-Z]/ { printf "  %s %s: full %s, --exists-only %s\n", $9, $1, $7, $8 }' "$tsv" >&2
		return 1
	fi
	return 0
}

# run_one WORK TIMEOUT LKMMC FILE ARGS...: one run; WORK/res gets
# "verdict wall_seconds rss_kb cpu_seconds", WORK/err lkmmc's stderr.
run_one() {
	local work=$1 tmo=$2 lkmmc=$3 file=$4 t0 t1 rc rss cpu v
	shift 4
	t0=$EPOCHREALTIME
	/usr/bin/time -f '%M %U %S' -o "$work/time" timeout -k 5 "$tmo" "$lkmmc" "$@" "$file" \
		>"$work/out" 2>"$work/err" </dev/null
	rc=$?
	t1=$EPOCHREALTIME
	read -r rss cpu < <(tail -n 1 "$work/time" 2>/dev/null | awk 'NF == 3 && $1 ~ /^[0-9]+$/ { printf "%d %.2f\n", $1, $2 + $3; next } { print "0 0" }')
	# the verdict word; Never 0 0 is a deadlock (no execution at all)
	v=$(awk '/^Observation / { v = $(NF - 2); p = $(NF - 1); n = $NF }
		END { if (v == "") print "-"; else print ((v == "Never" && p == 0 && n == 0) ? "DEADLOCK" : v) }' "$work/out")
	# exit 3: an assertion can fail or a thread spins; answered all the same
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then v=timeout
	elif [ "$v" != - ] && { [ $rc -eq 0 ] || [ $rc -eq 3 ]; }; then :
	elif [ $rc -eq 1 ] && grep -q 'error:' "$work/err"; then v=error
	else v=crash
	fi
	awk -v v="$v" -v a="$t0" -v b="$t1" -v m="$rss" -v c="$cpu" 'BEGIN { printf "%s %.2f %d %.2f\n", v, b - a, m, c }' >"$work/res"
}

# summarize TSV TIMEOUT: the summary lines.
summarize() {
	awk -F'\t' -v tmo="$2" '
	function sort(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
	function med(a, n) { sort(a, n); return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	function mx(a, n,   i, m) { m = 0; for (i = 1; i <= n; i++) if (a[i] > m) m = a[i]; return m }
	NR == 1 { next }
	{
		n++
		# times of the runs that answered or timed out (at the limit)
		if ($7 != "error" && $7 != "crash") { f[++nf] = ($7 == "timeout") ? tmo : $3; fr[nf] = $5; fc[nf] = ($7 == "timeout") ? tmo : $10 }
		if ($8 != "error" && $8 != "crash") { e[++ne] = ($8 == "timeout") ? tmo : $4; er[ne] = $6; ec[ne] = ($8 == "timeout") ? tmo : $11 }
		if ($7 == "timeout") fto++
		if ($8 == "timeout") eto++
		if ($9 == "ok") {
			both++; verdict[$7]++
			if ($4 > $3) slower++
			if ($4 > 1.2 * $3 + 0.1) slower20++
			if ($11 > $10) cslower++
			if ($11 > 1.2 * $10 + 0.1) cslower20++
			fs += $3; es += $4
		}
		if ($2 ~ /^[0-9]+$/) { ev[++nev] = $2 }
		if ($12 ~ /^[0-9]+$/ && $12 > 0 && $7 != "timeout") { st[++nst] = $12; ps[nst] = 1000 * $10 / $12 }
		chk[$9]++
	}
	END {
		printf "\nrandom: %d tests:", n; split("ok timeout DISAGREE REJECTED CRASH", cs, " "); for (i = 1; i <= 5; i++) if (chk[cs[i]]) printf " %s %d;", cs[i], chk[cs[i]]; printf "\n"
		if (nev) printf "random: events median %d, max %d\n", med(ev, nev), mx(ev, nev)
		if (nf) printf "random: full mode      wall median %.2fs, max %.2fs; cpu median %.2fs, max %.2fs; peak RSS median %.0f MB, max %.0f MB (%d timed out, counted at %ss)\n", med(f, nf), mx(f, nf), med(fc, nf), mx(fc, nf), med(fr, nf) / 1024, mx(fr, nf) / 1024, fto, tmo
		if (nst) printf "random: full mode      states median %d, max %d; cpu per state median %.1f ms, max %.1f ms\n", med(st, nst), mx(st, nst), med(ps, nst), mx(ps, nst)
		if (ne) printf "random: --exists-only  wall median %.2fs, max %.2fs; cpu median %.2fs, max %.2fs; peak RSS median %.0f MB, max %.0f MB (%d timed out, counted at %ss)\n", med(e, ne), mx(e, ne), med(ec, ne), mx(ec, ne), med(er, ne) / 1024, mx(er, ne) / 1024, eto, tmo
		if (both) {
			printf "random: both modes answered %d tests (full %.1fs, --exists-only %.1fs in all); --exists-only slower on %d of them by wall time (by more than 20%% + 0.1s on %d), on %d by cpu time (on %d)\n", both, fs, es, slower, slower20, cslower, cslower20
			printf "random: verdicts where both answered:"; split("Never Sometimes Always DEADLOCK", vs, " "); for (i = 1; i <= 4; i++) printf " %s %d;", vs[i], verdict[vs[i]]; printf "\n"
		}
	}' "$1"
}

# on one line: bash has read all of it before it runs main, so editing this
# file during a long run changes nothing
main "$@"; exit
