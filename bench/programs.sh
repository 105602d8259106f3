#!/usr/bin/env bash
# bench/programs.sh - lock programs as users write them, timed three ways
# side by side: lkmmc on the litmus form, lkmmc on the C program, and GenMC
# (v0.9, -lkmm) on the same C program.  The tests are bench/gen-families.sh's
# lock families; a family with a C form of its own (the per-thread-index
# ones, long-xy: --form c) is checked as that program, the others as the
# program lkmmc --to-c writes of the litmus test (--program toc: every
# family so, which is also how GenMC checks --to-c's output).  It leaves
# the tests and programs in OUT/litmus and OUT/c for reading.
#
# usage: bench/programs.sh [options]
#   --n LIST         process counts (gen-families.sh syntax; default 2-4)
#   --families LIST  the families (comma-separated, gen-families.sh's names
#                    and groups: "idx", "long"; default ticket, ticket-noacq,
#                    ttas, mcs, qrwlock, mutex-flag, lock-counter)
#   --program P      own (default: the family's C form where it has one)
#                    or toc (lkmmc --to-c of the litmus test, always)
#   --litmus M       how lkmmc checks the litmus form: exists (default,
#                    --exists-only, which is a program's check), full (its
#                    default mode: every final state) or none
#   --first-error    check the C programs with lkmmc --first-error (stop
#                    at the first error, as GenMC does)
#   --genmc CMD      GenMC's command (its words; "-lkmm" and the program
#                    follow), default genmc when it is on the PATH
#   --no-genmc       no GenMC column
#   --timeout S      limit of each run, wall seconds (default 120)
#   --reps R         runs of each check, the fastest counts (default 3)
#   --no-skip        a tool that timed out on a family still runs its larger N
#   --out DIR        where tests, programs and programs.tsv go
#                    (default build/bench/programs)
# Environment: LKMMC, the binary (default ./lkmmc of this checkout);
# BENCH_CLOCK=wall for wall time instead of CPU time.
#
# Times are CPU seconds (user + system of the process and its children:
# the machine is shared, and wall time moves by 2x under other jobs' load;
# each run's wall time is in the TSV too), the fastest of R runs.  GenMC
# runs one at a time with a /tmp of its own (bench/genmc-private.sh).
# Answers: lkmmc's litmus verdict (Never, Sometimes, ...); a program's
# first finding (no-errors, violated: main's assert, failed: a thread's,
# race, hang, deadlock), GenMC's (no-errors, violated, race, error:
# another error it reports); "timeout", "rejected" (a located error, or
# GenMC could not compile the program), "skipped" (a smaller N timed out).
# Each answer is read as no error or an error found; "agree" sets GenMC's
# against lkmmc's program, "check" both of lkmmc's against the test's
# Result: (Never: no error).  GenMC is not the reference (it checks the
# LKMM of its day): a difference is listed, not a failure.
#
# Writes OUT/programs.tsv (test family n expected litmus_s litmus_wall
# litmus program_s program_wall program genmc_s genmc_wall genmc agree
# check) and prints the table.  Exit status: 1 when an lkmmc answer
# contradicts a Result: comment, 0 otherwise (2 on usage errors).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-$root/lkmmc}
n=2-4 out=$root/build/bench/programs reps=3 tmo=120 skip=1
program=own litmus=exists genmc="" no_genmc=0 popts=()
families=ticket,ticket-noacq,ttas,mcs,qrwlock,mutex-flag,lock-counter
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--n) n=$2; shift 2 ;;
	--families) families=$2; shift 2 ;;
	--program) program=$2; shift 2 ;;
	--litmus) litmus=$2; shift 2 ;;
	--genmc) genmc=$2; shift 2 ;;
	--no-genmc) no_genmc=1; shift ;;
	--first-error) popts=(--first-error); shift ;;
	--timeout) tmo=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--no-skip) skip=0; shift ;;
	--out) out=$2; shift 2 ;;
	-h|--help) usage ;;
	*) echo "programs: unknown argument '$1'" >&2; usage ;;
	esac
done
case $program in own|toc) ;; *) echo "programs: --program is own or toc" >&2; exit 2 ;; esac
case $litmus in exists|full|none) ;; *) echo "programs: --litmus is exists, full or none" >&2; exit 2 ;; esac
case $tmo$reps in *[!0-9]*) echo "programs: --timeout and --reps take numbers" >&2; exit 2 ;; esac
[ -x "$LKMMC" ] || { echo "programs: $LKMMC is not executable (make?)" >&2; exit 2; }
if [ $no_genmc = 1 ]; then genmc=""
elif [ -z "$genmc" ] && command -v genmc > /dev/null; then genmc=genmc
fi
read -r -a gcmd <<< "$genmc"
if [ ${#gcmd[@]} -gt 0 ] && ! command -v "${gcmd[0]}" > /dev/null; then
	echo "programs: --genmc $genmc: ${gcmd[0]} not found" >&2; exit 2
fi
mkdir -p "$out/c" "$out/litmus" || exit 2
out=$(cd "$out" && pwd)
work=$(mktemp -d "$out/work.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

# run TAG CMD...: the fastest of $reps runs under timeout(1), as
# "cpu wall status" (status: the exit status, 124 a time-out); the last
# run's output stays in $work/TAG.out and .err.  A time-out or a run that
# fails to start ends the reps.
run() {
	local tag=$1 r cpu wall st best="" t0
	shift
	for ((r = 0; r < reps; r++)); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S' -o "$work/time" \
			timeout -k 5 "$tmo" "$@" > "$work/$tag.out" 2> "$work/$tag.err" < /dev/null
		st=$?
		wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
		# time(1) adds a "Command exited with non-zero status" line before
		cpu=$(tail -n 1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }')
		[ "${BENCH_CLOCK:-cpu}" = wall ] && cpu=$wall
		if [ -z "$best" ] || awk -v a="$cpu" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best="$cpu $wall $st"
		fi
		[ "$st" = 124 ] || [ "$st" = 137 ] && { best="$cpu $wall 124"; break; }
	done
	echo "$best"
}

# The answers, from the last run's output ($1 its exit status).
litmus_answer() {
	case $1 in 124|137) echo timeout; return ;; esac
	local v
	v=$(sed -n 's/^Observation [^ ]* \([A-Za-z]*\).*/\1/p' "$work/lit.out" | head -n 1)
	[ -n "$v" ] && { echo "$v"; return; }
	if grep -q ': error:' "$work/lit.err"; then echo rejected; else echo crash; fi
}
program_answer() {
	case $1 in 124|137) echo timeout; return ;; esac
	case $(grep -m1 -oE '^(No errors|Assertion violated|Assertion failed|Data race|Spins forever|Deadlock)' "$work/prog.out") in
	"No errors") echo no-errors ;;
	"Assertion violated") echo violated ;;
	"Assertion failed") echo failed ;;
	"Data race") echo race ;;
	"Spins forever") echo hang ;;
	Deadlock) echo deadlock ;;
	*) if grep -q ': error:' "$work/prog.err"; then echo rejected; else echo crash; fi ;;
	esac
}
genmc_answer() {
	case $1 in 124|137) echo timeout; return ;; esac
	if grep -q 'No errors were detected' "$work/gm.out" "$work/gm.err"; then echo no-errors
	elif grep -qiE 'Error detected.*race' "$work/gm.out" "$work/gm.err"; then echo race
	elif grep -qE 'Error detected: Safety violation|Assertion violation' "$work/gm.out" "$work/gm.err"; then echo violated
	elif grep -q 'Error detected' "$work/gm.out" "$work/gm.err"; then echo error
	elif [ "$1" = 5 ] || grep -q 'error:' "$work/gm.err"; then echo rejected
	else echo crash
	fi
}
# ok (no error), bug (one found), or - (no answer) of any answer.
class() {
	case $1 in
	Never|no-errors) echo ok ;;
	Sometimes|Always|violated|failed|race|hang|deadlock|error) echo bug ;;
	*) echo - ;;
	esac
}

gen=(bash "$root/bench/gen-families.sh" --n "$n" --families "$families")
"${gen[@]}" --out "$out/litmus" > "$work/litmus.list" || exit 2
[ "$program" = own ] && { "${gen[@]}" --out "$out/c" --form c > /dev/null || exit 2; }
tsv=$out/programs.tsv
printf 'test\tfamily\tn\texpected\tlitmus_s\tlitmus_wall\tlitmus\tprogram_s\tprogram_wall\tprogram\tgenmc_s\tgenmc_wall\tgenmc\tagree\tcheck\n' > "$tsv"
printf 'programs: lkmmc %s; litmus: %s; programs: %s%s; GenMC: %s; limit %s s, fastest of %s (%s time)\n' \
	"$LKMMC" "$litmus" "$program" "${popts[*]:+ ${popts[*]}}" "${genmc:-none}" "$tmo" "$reps" "${BENCH_CLOCK:-cpu}"
printf 'programs: machine load %s, %s CPUs, %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)" "$(date '+%Y-%m-%d %H:%M')"
lmode=(--exists-only)
[ "$litmus" = full ] && lmode=()
# skip_TOOL: the family whose smaller N timed out for that tool
skip_lit="" skip_prog="" skip_gm="" bad=0
while read -r t; do
	name=$(basename "$t" .litmus) fam=${name%-*}
	nn=$((10#${name##*-}))
	want=$(grep -m1 -oE 'Result: *[A-Za-z]+' "$t" | sed 's/Result: *//')
	c=$out/c/$name.c
	if [ "$program" = toc ] || [ ! -f "$c" ]; then
		c=$out/c/$name.toc.c
		"$LKMMC" --to-c "$t" > "$c" 2> /dev/null || c=""
	fi
	lit="- - -" prog="- - -" gm="- - -" la=- pa=- ga=-
	if [ "$litmus" != none ]; then
		if [ "$skip_lit" = "$fam" ]; then la=skipped
		else lit=$(run lit nice "$LKMMC" "${lmode[@]}" "$t"); la=$(litmus_answer "${lit##* }"); fi
		[ "$la" = timeout ] && [ $skip = 1 ] && skip_lit=$fam
	fi
	if [ -z "$c" ]; then pa=rejected
	elif [ "$skip_prog" = "$fam" ]; then pa=skipped
	else prog=$(run prog nice "$LKMMC" "${popts[@]}" "$c"); pa=$(program_answer "${prog##* }"); fi
	[ "$pa" = timeout ] && [ $skip = 1 ] && skip_prog=$fam
	if [ ${#gcmd[@]} -gt 0 ] && [ -n "$c" ]; then
		if [ "$skip_gm" = "$fam" ]; then ga=skipped
		else
			gm=$(cd "$work" && run gm nice bash "$root/bench/genmc-private.sh" "${gcmd[@]}" -lkmm "$c")
			ga=$(genmc_answer "${gm##* }")
		fi
		[ "$ga" = timeout ] && [ $skip = 1 ] && skip_gm=$fam
	fi
	agree=-
	pc=$(class "$pa") gc=$(class "$ga")
	if [ "$pc" != - ] && [ "$gc" != - ]; then
		if [ "$pc" = "$gc" ]; then agree=agree; else agree=DIFFERS; fi
	fi
	check=-
	if [ -n "$want" ]; then
		check=ok
		wc_=$(class "$want")
		{ [ "$(class "$la")" != - ] && [ "$(class "$la")" != "$wc_" ]; } && check=MISMATCH
		{ [ "$pc" != - ] && [ "$pc" != "$wc_" ]; } && check=MISMATCH
		[ "$check" = MISMATCH ] && bad=1
	fi
	read -r ls lw _ <<< "$lit"
	read -r ps pw _ <<< "$prog"
	read -r gs gw _ <<< "$gm"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$fam" "$nn" "${want:--}" \
		"$ls" "$lw" "$la" "$ps" "$pw" "$pa" "$gs" "$gw" "$ga" "$agree" "$check" >> "$tsv"
	# a row as soon as it is known (a long run shows progress)
	awk -F'\t' -v h="$([ "$(wc -l < "$tsv")" = 2 ] && echo 1)" '
	function s(t, a) { return (a == "timeout" ? ">" t : (t == "-" ? "-" : t)) }
	h { printf "%-18s %3s %-9s | %8s %-9s | %8s %-9s | %8s %-9s | %-7s %s\n", "family", "N", "expected", "litmus s", "answer", "prog s", "answer", "genmc s", "answer", "agree", "check" }
	{ printf "%-18s %3s %-9s | %8s %-9s | %8s %-9s | %8s %-9s | %-7s %s\n", $2, $3, $4, s($5, $7), $7, s($8, $10), $10, s($11, $13), $13, $14, $15 }' <(tail -n 1 "$tsv")
done < "$work/litmus.list"
awk -F'\t' 'NR > 1 { n++; if ($14 == "agree") a++; if ($14 == "DIFFERS") { d++; dl = dl " " $1 } if ($15 == "MISMATCH") { m++; ml = ml " " $1 } }
END { printf "programs: %d tests; GenMC agrees on %d, differs on %d%s; lkmmc contradicts Result: on %d%s (%s)\n",
	n, a, d, (d ? " (" substr(dl, 2) ")" : ""), m, (m ? " (" substr(ml, 2) ")" : ""), FILENAME }' "$tsv"
exit $bad
