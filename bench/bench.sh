#!/usr/bin/env bash
# bench/bench.sh - time lkmmc and herd7 side by side on the same litmus tests
# and check lkmmc's verdicts. It measures and reports; it asserts no speed.
#
# usage: bench/bench.sh [options] [FILE.litmus...]
# Test sets (combine freely; with none given: --families all):
#   --families LIST   generated scaling families (bench/gen-families.sh),
#                     comma-separated or "all"
#   --n SPEC          their process counts (default 2-8,10-24/2: 2..8, then
#                     every second N up to 24; also e.g. 2-24, 3,5,7);
#                     --n without --families means all families
#   FILE..., --list F litmus files (F: one path a line)
#   --herd-timeouts   the corpus tests herd7 gave up on (summary.tsv timeout)
#   --corpus          the whole corpus of --shared
#   --sample N        keep N corpus tests spread over those two selections
# Measuring:
#   --mode M          full | exists (lkmmc --exists-only, herd7 -speedcheck
#                     fast) | both (default)
#   --reps N          runs per test and tool, median wall time (default 3)
#   --timeout S       limit per run, timeout(1), for both tools (default 10)
#   -j N              tests run at once (default 1; >1 makes times noisier)
#   --no-skip         a family whose N timed out still runs its larger N
#   --batch J         lkmmc checks all the tests in one process per mode and
#                     rep, "lkmmc -j J --times", its --timeout per test; the
#                     per-test times are its rows, and the batch's wall time
#                     is reported (herd7, if run, still runs per test)
# herd7:
#   --herd7 CMD       the herd7 to run (default: herd7 on PATH, if any)
#   --no-herd7        compare with the recorded times even if herd7 is there
#   --shared DIR      corpus and recorded herd7 answers (default ../shared)
#   --lkmm DIR        tools/memory-model holding linux-kernel.cfg (default
#                     build/linux/tools/memory-model, from make kernel-tree)
# GenMC (an enumerating checker of C programs; not in Debian):
#   --genmc CMD       also run CMD on each test written as a C program by
#                     lkmmc --to-c (CMD's words, then the .c file), e.g.
#                     --genmc "genmc -lkmm" (default: "genmc -lkmm" when
#                     genmc is on PATH); in the rows of the exists mode
#                     (full when --mode full): GenMC stops at the first
#                     error, as --exists-only does. Its answer (no-errors,
#                     violated, race) is set against lkmmc's verdict in
#                     genmc_check (agree, DIFFERS); GenMC is not the
#                     reference, so a difference is listed, not a failure;
#                     one GenMC at a time (bench/genmc-private.sh)
#   --no-genmc        do not run GenMC even if it is on PATH
# Output:
#   --out DIR         results.csv, table.txt, scaling.png (the families),
#                     compare.png (other tests) (default build/bench)
#   --no-plot         no PNG (gnuplot)
# Environment: LKMMC, the binary (default ./lkmmc of this checkout).
#
# Expected answers: a generated test's Result: comment; a corpus test's
# recorded herd7 verdict (herd7 wins), or its Result: comment where herd7
# timed out; another file's Result: comment. Maybe or none: unchecked.
# Exit status: 0 no lkmmc verdict contradicts an expected answer or a live
# herd7 answer and lkmmc never crashed, 1 otherwise, 2 on usage errors.
set -u

# Run from a copy, so that editing or rebasing the checkout during a long
# run changes nothing (bash reads a script as it goes); lkmmc is copied too.
if [ -z "${BENCH_SELF:-}" ]; then
	BENCH_ROOT=$(cd "$(dirname "$0")/.." && pwd)
	BENCH_SELF=$(mktemp /tmp/bench.XXXXXX.sh) || exit 2
	cp "$0" "$BENCH_SELF" || exit 2
	export BENCH_ROOT BENCH_SELF
	exec bash "$BENCH_SELF" "$@"
fi

# One herd7-format output -> "VERDICT P N" (Never 0 0 is DEADLOCK), or "-".
OBS_PARSE='/^Observation / { v = $(NF - 2); p = $(NF - 1); n = $NF }
END { if (v == "") print "-"; else print ((v == "Never" && p == 0 && n == 0) ? "DEADLOCK" : v) }'

# A litmus file's Result: comment -> its first word, or "-".
result_of() {
	local w
	w=$(grep -m1 -oE 'Result: *[A-Za-z]+' "$1" 2>/dev/null | sed 's/Result: *//')
	echo "${w:--}"
}

# median and max of numbers on stdin, "-" when there are none.
MEDIAN='{ a[++n] = $1 + 0; if ($1 + 0 > m) m = $1 + 0 }
END {
	if (n == 0) { print "-\t-"; exit }
	for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
	med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	printf "%.3f\t%d\n", med, m
}'

# run_timed TAG DIR TIMEOUT CMD...: one run in DIR under timeout(1) and
# /usr/bin/time; appends "status verdict secs rss" to $work/TAG.runs.
run_timed() {
	local tag=$1 dir=$2 tmo=$3 t0 t1 rc rss verdict status
	shift 3
	t0=$EPOCHREALTIME
	(cd "$dir" && /usr/bin/time -f '%M' -o "$work/$tag.time" \
		timeout -k 5 "$tmo" "$@" >"$work/$tag.out" 2>"$work/$tag.err" </dev/null)
	rc=$?
	t1=$EPOCHREALTIME
	rss=$(tail -n 1 "$work/$tag.time" 2>/dev/null)
	case $rss in ''|*[!0-9]*) rss=0 ;; esac
	if [ "$tag" = gm ]; then
		verdict=$(genmc_answer "$work/$tag.out" "$work/$tag.err")
	else
		verdict=$(awk "$OBS_PARSE" "$work/$tag.out")
	fi
	# lkmmc exits 3 when an assertion can fail or a thread spins forever,
	# 4 when --unroll auto hit its limit: answered all the same; GenMC
	# exits non-zero when it found an error
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=timeout
	elif [ "$verdict" != - ] && { [ $tag = gm ] || [ $rc -eq 0 ] || [ $rc -eq 3 ] || [ $rc -eq 4 ]; }; then status=ok
	elif [ "$tag" = gm ]; then status=error
	elif [ $rc -eq 1 ] && grep -qE '^[^:]+:[0-9]+:[0-9]+: error:' "$work/$tag.err"; then status=error
	else status=crash
	fi
	awk -v a="$t0" -v b="$t1" -v s="$status" -v v="$verdict" -v m="$rss" \
		'BEGIN { printf "%s\t%s\t%.3f\t%s\n", s, v, b - a, m }' >>"$work/$tag.runs"
}

# genmc_answer OUT ERR: GenMC's answer on a program: no-errors, race (a
# data race it reports as an error), violated (an assertion or other
# safety error), or "-" (it did not answer: a compile error, say).
genmc_answer() {
	if grep -q 'No errors were detected' "$1" "$2" 2>/dev/null; then echo no-errors
	elif grep -qiE 'Error detected.*race' "$1" "$2" 2>/dev/null; then echo race
	elif grep -qE 'Error detected|Safety violation|Assertion violation' "$1" "$2" 2>/dev/null; then echo violated
	else echo -
	fi
}

# summarize TAG: "status verdict median_secs max_rss" over TAG's runs (the
# first run that is not ok decides the status).
summarize() {
	awk -F'\t' '$1 != "ok" && st == "" { st = $1 } $1 == "ok" { v = $2 }
		END { printf "%s\t%s\t", (st == "" ? "ok" : st), (v == "" ? "-" : v) }' "$work/$1.runs"
	awk -F'\t' '{ print $3 }' "$work/$1.runs" | awk "$MEDIAN" | cut -f1 | tr '\n' '\t'
	awk -F'\t' '{ print $4 }' "$work/$1.runs" | awk "$MEDIAN" | cut -f2
}

# Worker mode (run by xargs): one job file = a mode line, then one test a
# line ("seq<TAB>path<TAB>family<TAB>procs<TAB>expected<TAB>recorded herd7
# status<TAB>verdict<TAB>secs"); tests of a family come in increasing N so
# that a time-out can skip the larger ones. Leaves one record per test.
if [ "${1:-}" = "--run-job" ]; then
	job=$2 raw=$3
	# BENCH_* come from the environment (the main part exports them)
	work=$(mktemp -d "$raw/work.XXXXXX")
	mode=$(head -n 1 "$job")
	lk_skip="" herd_skip="" gm_skip=""   # set once a family's smaller N timed out
	read -r -a genmc <<<"$BENCH_GENMC"    # the GenMC command's words
	margs=()
	hargs=()
	if [ "$mode" = exists ]; then margs=(--exists-only); hargs=(-speedcheck fast); fi
	tail -n +2 "$job" | while IFS=$'\t' read -r seq path family procs expected rstat rverd rsecs; do
		rm -f "$work"/*
		# lk_end / herd_end: why that tool runs no more reps of this test
		lk_end="" herd_end=""
		[ -n "$lk_skip" ] && lk_end=skipped
		[ -n "$BENCH_BATCH" ] && lk_end=batch
		{ [ -z "$BENCH_HERD7" ] || [ -n "$herd_skip" ]; } && herd_end=skipped
		for ((i = 0; i < BENCH_REPS; i++)); do
			if [ -z "$lk_end" ]; then
				run_timed lk "$BENCH_ROOT" "$BENCH_TIMEOUT" "$BENCH_LKMMC" "${margs[@]}" "$path"
				[ "$(tail -n 1 "$work/lk.runs" | cut -f1)" = ok ] || lk_end=failed
			fi
			if [ -z "$herd_end" ]; then
				run_timed herd "$BENCH_LKMM" "$BENCH_TIMEOUT" "$BENCH_HERD7" -conf linux-kernel.cfg "${hargs[@]}" "$path"
				[ "$(tail -n 1 "$work/herd.runs" | cut -f1)" = ok ] || herd_end=failed
			fi
			[ -n "$lk_end" ] && [ -n "$herd_end" ] && break
		done
		# a family's time-out skips that tool on the family's larger N
		if [ "$lk_end" = skipped ]; then lk="skipped	-	-	-"
		elif [ "$lk_end" = batch ]; then lk="batch	-	-	-"
		else
			lk=$(summarize lk)
			[ "${lk%%	*}" = timeout ] && [ "$family" != - ] && [ "$BENCH_SKIP" = 1 ] && lk_skip=1
		fi
		if [ -z "$BENCH_HERD7" ]; then
			herd="recorded	$rstat	$rverd	$rsecs	-"
			[ "$rstat" = - ] && herd="none	-	-	-	-"
		elif [ "$herd_end" = skipped ]; then herd="run	skipped	-	-	-"
		else
			herd="run	$(summarize herd)"
			[ "$(printf '%s' "$herd" | cut -f2)" = timeout ] && [ "$family" != - ] && [ "$BENCH_SKIP" = 1 ] && herd_skip=1
		fi
		# GenMC, on the test as a C program, in the rows of one mode
		gm="none	-	-	-"
		if [ ${#genmc[@]} -gt 0 ] && [ "$mode" = "$BENCH_GENMC_MODE" ]; then
			if [ -n "$gm_skip" ]; then gm="skipped	-	-	-"
			elif prog=$work/$(basename "$path" .litmus).c
				! "$BENCH_LKMMC" --to-c "$path" >"$prog" 2>"$work/toc.err"; then gm="no-c	-	-	-"
			else
				for ((i = 0; i < BENCH_REPS; i++)); do
					# one GenMC at a time: it compiles to a fixed /tmp path
					run_timed gm "$work" "$BENCH_TIMEOUT" bash "$BENCH_ROOT/bench/genmc-private.sh" "${genmc[@]}" "$prog"
					[ "$(tail -n 1 "$work/gm.runs" | cut -f1)" = ok ] || break
				done
				gm=$(summarize gm)
				[ "${gm%%	*}" = timeout ] && [ "$family" != - ] && [ "$BENCH_SKIP" = 1 ] && gm_skip=1
			fi
		fi
		# the final condition's quantifier, to read GenMC's answer by
		quant=$(grep -m1 -oE '^[[:space:]]*(~[[:space:]]*exists|exists|forall)' "$path" | tr -d ' \t')
		msg=$(grep -m1 . "$work/lk.err" 2>/dev/null | tr '\t' ' ' | cut -c1-160)
		[ "$lk_end" = skipped ] && msg="a smaller N of this family did not finish"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seq" "$mode" "$path" "$family" "$procs" \
			"$expected" "$lk" "$herd" "${msg:--}" "$gm" "${quant:--}" >"$raw/$seq.$mode.rec"
	done
	rm -rf "$work"
	exit 0
fi

trap 'rm -f "$BENCH_SELF"' EXIT
root=$BENCH_ROOT
LKMMC=${LKMMC:-./lkmmc}
families="" nspec=2-8,10-24/2 n_given=0 files=() herd_timeouts=0 corpus_all=0 sample=0
mode=both reps=3 tmo=10 jobs=1 batch="" skip=1 herd7_cmd="" no_herd7=0 genmc_cmd="" no_genmc=0
shared=$root/../shared lkmm=$root/build/linux/tools/memory-model outdir=$root/build/bench plot=1
usage() { sed -n '2,/^set -u/p' "$BENCH_SELF" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 2; }
need_num() { case $2 in ''|*[!0-9]*) die "$1 needs a number, not '$2'" ;; esac; }
while [ $# -gt 0 ]; do
	case $1 in
	--families) families=$2; shift 2 ;;
	--n) nspec=$2; n_given=1; shift 2 ;;
	--list) [ -r "$2" ] || die "cannot read --list $2"
		while IFS= read -r l; do [ -n "$l" ] && files+=("$l"); done <"$2"; shift 2 ;;
	--herd-timeouts) herd_timeouts=1; shift ;;
	--corpus) corpus_all=1; shift ;;
	--sample) need_num "$1" "$2"; sample=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--reps) need_num "$1" "$2"; reps=$2; shift 2 ;;
	--timeout) need_num "$1" "$2"; tmo=$2; shift 2 ;;
	-j) need_num "$1" "$2"; jobs=$2; shift 2 ;;
	--batch) need_num "$1" "$2"; batch=$2; shift 2 ;;
	--no-skip) skip=0; shift ;;
	--herd7) herd7_cmd=$2; shift 2 ;;
	--no-herd7) no_herd7=1; shift ;;
	--genmc) genmc_cmd=$2; shift 2 ;;
	--no-genmc) no_genmc=1; shift ;;
	--shared) shared=$2; shift 2 ;;
	--lkmm) lkmm=$2; shift 2 ;;
	--out) outdir=$2; shift 2 ;;
	--no-plot) plot=0; shift ;;
	-h|--help) usage ;;
	--) shift; files+=("$@"); break ;;
	-*) echo "bench: unknown option $1" >&2; usage ;;
	*) files+=("$1"); shift ;;
	esac
done
case $mode in full) modes=full ;; exists) modes=exists ;; both) modes="full exists" ;;
	*) die "--mode must be full, exists or both" ;; esac
[ "$reps" -ge 1 ] || die "--reps must be >= 1"
[ "$tmo" -ge 1 ] || die "--timeout must be >= 1"
[ "$jobs" -ge 1 ] || die "-j must be >= 1"
if [ -z "$families" ] && { [ $n_given = 1 ] || { [ ${#files[@]} -eq 0 ] && [ $herd_timeouts = 0 ] && [ $corpus_all = 0 ]; }; }; then
	families=all
fi
[ "$families" = all ] && families=$(bash "$root/bench/gen-families.sh" --list | paste -sd, -)
[ -x /usr/bin/time ] || die "no /usr/bin/time (Debian package time)"

# The binaries. lkmmc is copied so that a rebuild during a long run does
# not change what is measured.
case $LKMMC in /*) ;; */*) LKMMC=$root/$LKMMC ;; *) LKMMC=$(command -v "$LKMMC" || echo "$LKMMC") ;; esac
[ -x "$LKMMC" ] || die "$LKMMC is not executable (make?)"
herd7=""
if [ $no_herd7 = 0 ]; then
	if [ -n "$herd7_cmd" ]; then
		herd7=$(command -v "$herd7_cmd") || die "--herd7 $herd7_cmd: not found"
	else
		herd7=$(command -v herd7 || true)
	fi
fi
genmc=""
if [ $no_genmc = 0 ]; then
	if [ -n "$genmc_cmd" ]; then
		read -r g0 _ <<<"$genmc_cmd"
		command -v "$g0" >/dev/null || die "--genmc $genmc_cmd: $g0 not found"
		genmc=$genmc_cmd
	elif command -v genmc >/dev/null; then
		genmc="genmc -lkmm"
	fi
fi
genmc_mode=exists
[ "$mode" = full ] && genmc_mode=full
if [ -n "$herd7" ]; then
	[ -f "$lkmm/linux-kernel.cfg" ] || die "no $lkmm/linux-kernel.cfg for herd7: run 'make kernel-tree' (or --lkmm DIR)"
	lkmm=$(cd "$lkmm" && pwd)
fi
[ -d "$shared" ] && shared=$(cd "$shared" && pwd -P)
summary=$shared/oracle/summary.tsv
if { [ $herd_timeouts = 1 ] || [ $corpus_all = 1 ]; } && [ ! -f "$summary" ]; then
	die "no $summary: the corpus sets need ../shared (or --shared DIR)"
fi

mkdir -p "$outdir" || die "cannot create $outdir"
outdir=$(cd "$outdir" && pwd)
raw=$outdir/raw
rm -rf "$raw"; mkdir -p "$raw/jobs"
cp "$LKMMC" "$raw/lkmmc" || die "cannot copy $LKMMC"

# The selection: "path family" lines, families first (by family, then N).
sel=$raw/selection
: >"$sel"
if [ -n "$families" ]; then
	bash "$root/bench/gen-families.sh" --out "$outdir/families" --n "$nspec" \
		--families "$families" >"$raw/generated" || exit 2
	while IFS= read -r f; do
		fam=$(basename "$f" .litmus); printf '%s\t%s\n' "$f" "${fam%-*}"
	done <"$raw/generated" >>"$sel"
fi
{
	[ $corpus_all = 1 ] && awk -F'\t' 'NR > 1 { print $1 }' "$summary"
	[ $herd_timeouts = 1 ] && awk -F'\t' 'NR > 1 && $2 == "timeout" { print $1 }' "$summary"
} | sort -u | awk -v n="$sample" '{ a[++c] = $0 }
	END { if (n == 0 || n > c) n = c; for (i = 0; i < n; i++) print a[int(i * c / n) + 1] }' |
	sed "s|^|$shared/corpus/|; s|\$|\t-|" >>"$sel"
for f in "${files[@]}"; do
	[ -r "$f" ] || die "cannot read $f"
	printf '%s\t-\n' "$(cd "$(dirname "$f")" && pwd -P)/$(basename "$f")" >>"$sel"
done
total=$(wc -l <"$sel")
[ "$total" -gt 0 ] || die "no test selected"

# Each test: procs, expected answer and what summary.tsv recorded for it.
[ -f "$summary" ] || summary=/dev/null
seq=0
while IFS=$'\t' read -r path family; do
	seq=$((seq + 1))
	procs=$(grep -cE '^[[:space:]]*P[0-9]+[[:space:]]*\(' "$path")
	rel=- rec="-	-	-" want=$(result_of "$path")
	case $path in "$shared/corpus/"*) rel=${path#"$shared/corpus/"} ;; esac
	if [ "$rel" != - ]; then
		rec=$(awk -F'\t' -v p="$rel" '$1 == p {
			v = $3; if ($2 == "ok" && $4 == 0 && $5 == 0) v = "DEADLOCK"
			print $2 "\t" ($2 == "ok" ? v : "-") "\t" ($9 == "" ? "-" : $9); f = 1; exit }
			END { if (!f) print "-\t-\t-" }' "$summary")
		rv=$(printf '%s' "$rec" | cut -f2)
		[ "$(printf '%s' "$rec" | cut -f1)" = ok ] && want=$rv
	fi
	[ "$want" = Maybe ] && want=-
	printf '%06d\t%s\t%s\t%s\t%s\t%s\n' "$seq" "$path" "$family" "$procs" "$want" "$rec"
done <"$sel" >"$raw/tests"

# Jobs: one per family and mode (in N order), one per other test and mode.
for m in $modes; do
	awk -F'\t' -v m="$m" -v dir="$raw/jobs" '
	$3 == "-" { f = sprintf("%s/%s.t%s", dir, m, $1); print m > f; print > f; close(f); next }
	{ if (!($3 in job)) { job[$3] = sprintf("%s/%s.f%s", dir, m, $3); print m > job[$3] }
	  print > job[$3] }' "$raw/tests"
done

# The header: what is compared with what.
{
	echo "bench: $total tests, mode $mode, $reps reps (median wall time, max peak RSS), limit ${tmo}s per run, -j $jobs"
	echo "bench: lkmmc $("$raw/lkmmc" --version 2>/dev/null | head -n 1) ($LKMMC)"
	if [ -n "$herd7" ]; then
		echo "bench: herd7 on PATH: $herd7, run side by side from $lkmm with -conf linux-kernel.cfg$([ "$mode" != full ] && echo ' (exists mode: -speedcheck fast)')"
	else
		echo "bench: herd7 is not on PATH$([ $no_herd7 = 1 ] && echo ' (--no-herd7)'): herd7 times are the ones RECORDED in $summary"
		echo "bench:   (herd7 7.57, full mode, another run on a shared 2-core machine; status timeout = herd7 gave up at its 10 s limit;"
		echo "bench:   nothing is recorded for generated tests or files outside the corpus)"
	fi
	if [ -n "$genmc" ]; then
		echo "bench: GenMC: '$genmc' on each test as a C program (lkmmc --to-c), in the $genmc_mode rows"
	fi
	echo "bench: machine load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
} | tee "$outdir/table.txt"

export BENCH_LKMMC=$raw/lkmmc BENCH_HERD7=$herd7 BENCH_LKMM=$lkmm
export BENCH_GENMC=$genmc BENCH_GENMC_MODE=$genmc_mode
export BENCH_REPS=$reps BENCH_TIMEOUT=$tmo BENCH_SKIP=$skip BENCH_BATCH=$batch
start=$EPOCHREALTIME
find "$raw/jobs" -type f | sort | tr '\n' '\0' |
	xargs -0 -P "$jobs" -I{} bash "$BENCH_SELF" --run-job {} "$raw"

# --batch: lkmmc over all the tests at once, per mode and rep. Rows of
# --times come in file order; the Observation lines of the answered tests
# too, in the same order (Never 0 0 is DEADLOCK). Leaves batch.tsv: seq
# mode status verdict median_secs max_rss note, and batch-walls.tsv.
if [ -n "$batch" ]; then
	cut -f2 "$raw/tests" >"$raw/batch.files"
	: >"$raw/batch.runs"; : >"$raw/batch-walls.tsv"
	for m in $modes; do
		bargs=(-j "$batch" --timeout "$tmo")
		[ "$m" = exists ] && bargs+=(--exists-only)
		for ((r = 1; r <= reps; r++)); do
			t0=$EPOCHREALTIME
			xargs -d '\n' timeout -k 5 $((tmo * total + 60)) "$raw/lkmmc" "${bargs[@]}" --times "$raw/batch.$m.$r.tsv" \
				<"$raw/batch.files" >"$raw/batch.$m.$r.out" 2>"$raw/batch.$m.$r.err"
			awk -v a="$t0" -v b="$EPOCHREALTIME" -v m="$m" -v r="$r" 'BEGIN { printf "%s\t%s\t%.3f\n", m, r, b - a }' >>"$raw/batch-walls.tsv"
			grep '^Observation ' "$raw/batch.$m.$r.out" >"$raw/batch.$m.$r.obs"
			awk -F'\t' -v m="$m" -v obs="$raw/batch.$m.$r.obs" -v err="$raw/batch.$m.$r.err" '
			BEGIN { while ((getline l < err) > 0) if (l ~ /: error: solver gave up/) { sub(/: error: .*/, "", l); gaveup[l] = 1 } }
			NR == 1 { next }
			{
				st = $2; v = "-"
				if (st == "ok") {
					if ((getline l < obs) > 0) { n = split(l, w, " "); v = (w[n - 2] == "Never" && w[n - 1] == 0 && w[n] == 0) ? "DEADLOCK" : w[n - 2] }
				} else if (st == "error" && ($1 in gaveup)) st = "timeout"
				printf "%06d\t%s\t%s\t%s\t%s\t%s\n", NR - 1, m, st, v, $3, $4
			}' "$raw/batch.$m.$r.tsv" >>"$raw/batch.runs"
		done
	done
	# per test and mode: the first run not ok decides, median time, max RSS
	sort -k1,1 -k2,2 -s "$raw/batch.runs" | awk -F'\t' '
	function flush(   i, j, x) {
		if (key == "") return
		for (i = 2; i <= n; i++) { x = t[i]; for (j = i - 1; j >= 1 && t[j] > x; j--) t[j + 1] = t[j]; t[j + 1] = x }
		printf "%s\t%s\t%s\t%.3f\t%d\n", key, (st == "" ? "ok" : st), (v == "" ? "-" : v), (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2, rss
	}
	$1 "\t" $2 != key { flush(); key = $1 "\t" $2; n = 0; st = ""; v = ""; rss = 0 }
	{ t[++n] = $5 + 0; if ($3 != "ok" && st == "") st = $3; if ($3 == "ok") v = $4; if ($6 + 0 > rss) rss = $6 + 0 }
	END { flush() }' >"$raw/batch.tsv"
	# into the records, in place of the "batch" placeholders
	for rec in "$raw"/*.rec; do
		awk -F'\t' -v OFS='\t' -v b="$raw/batch.tsv" '
		BEGIN { while ((getline l < b) > 0) { split(l, f, "\t"); k = f[1] "\t" f[2]; st[k] = f[3]; v[k] = f[4]; s[k] = f[5]; r[k] = f[6] } }
		{ k = $1 "\t" $2; if ($7 == "batch" && (k in st)) { $7 = st[k]; $8 = v[k]; $9 = s[k]; $10 = r[k] } else if ($7 == "batch") $7 = "missing"; print }' "$rec" >"$rec.new" && mv "$rec.new" "$rec"
	done
fi
wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

# Records -> CSV, table, scaling pivot, plot data.
find "$raw" -maxdepth 1 -name '*.rec' -exec cat {} + | sort -t "$(printf '\t')" -k1,1 -k2,2r >"$raw/records.tsv"
csv=$outdir/results.csv
awk -F'\t' -v csv="$csv" -v root="$root/" -v corpus="$shared/corpus/" -v outdir="$outdir/" '
function q(s) { if (s ~ /[",]/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" } return s }
function shortname(p) {
	if (index(p, corpus) == 1) return substr(p, length(corpus) + 1)
	if (index(p, outdir) == 1) return substr(p, length(outdir) + 1)
	if (index(p, root) == 1) return substr(p, length(root) + 1)
	return p
}
BEGIN {
	print "test,family,procs,mode,expected,lkmmc_verdict,lkmmc_status,lkmmc_s,lkmmc_rss_kb,herd7_source,herd7_verdict,herd7_status,herd7_s,herd7_rss_kb,ratio,check,genmc_verdict,genmc_status,genmc_s,genmc_rss_kb,genmc_check,note" > csv
}
{
	# seq mode path family procs expected | lk: status verdict secs rss |
	# herd: source status verdict secs rss | note | genmc: status verdict
	# secs rss | quantifier of the final condition
	mode = $2; path = $3; fam = $4; procs = $5; want = $6
	ls = $7; lv = $8; lsec = $9; lrss = $10
	hsrc = $11; hs = $12; hv = $13; hsec = $14; hrss = $15; note = $16
	gs = $17; gv = $18; gsec = $19; grss = $20; quant = $21
	# GenMC checks the program --to-c wrote: exists (c) and ~exists (c)
	# assert !(c), forall (c) asserts c; so "no errors" is Never, resp.
	# Always. A race or a deadlock is not judged.
	gcheck = "-"; gwant = ""
	if (gs == "ok" && ls == "ok" && lv != "DEADLOCK" && (gv == "no-errors" || gv == "violated")) {
		if (quant == "forall") gwant = (lv == "Always") ? "no-errors" : "violated"
		else if (quant == "exists" || quant == "~exists") gwant = (lv == "Never") ? "no-errors" : "violated"
		if (gwant != "") gcheck = (gv == gwant) ? "agree" : "DIFFERS"
	}
	ratio = "-"
	if (ls == "ok" && (hs == "ok" || hs == "timeout") && hsec != "-" && lsec > 0) ratio = sprintf("%.2f", hsec / lsec)
	if (ls == "ok") {
		if (want != "-" && lv != want) check = "MISMATCH"
		else if (hsrc == "run" && hs == "ok" && hv != lv) check = "HERD7-DISAGREES"
		else if (want == "-") check = "unchecked"
		else check = "ok"
	} else if (ls == "crash") check = "CRASH"
	else check = "lkmmc-" ls
	name = shortname(path)
	printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", q(name), fam, procs, mode, want, lv, ls, lsec, lrss, hsrc, hv, hs, hsec, hrss, ratio, check, gv, gs, gsec, grss, gcheck, q(note) > csv
}' "$raw/records.tsv"

# The table, from the CSV (GenMC's columns when it ran).
awk -F',' -v g="$genmc" '
function gcols(a, b, c) { return (g == "") ? "" : sprintf(" %9s %-10s %-8s", a, b, c) }
NR == 1 { printf "\n%-40s %5s %-6s %9s %9s %8s %8s %-10s %-10s %-10s%s %s\n", "test", "procs", "mode", "herd7 s", "lkmmc s", "ratio", "RSS MB", "herd7", "lkmmc", "expected", gcols("genmc s", "genmc", "vs genmc"), "check"; next }
{
	name = $1; if (length(name) > 40) name = "..." substr(name, length(name) - 36)
	h = $13; if ($12 == "timeout") h = ">" h; else if ($12 != "ok" && $12 != "-") h = $12
	r = $15; if ($12 == "timeout" && r != "-") r = ">" r
	l = $8; if ($7 != "ok") l = $7
	hv = $11; if ($10 == "none") hv = "-"
	mb = ($9 ~ /^[0-9]+$/) ? sprintf("%.0f", $9 / 1024) : "-"
	gt = $19; if ($18 == "timeout") gt = ">" gt; else if ($18 != "ok") gt = ($18 == "none" ? "-" : $18)
	printf "%-40s %5s %-6s %9s %9s %8s %8s %-10s %-10s %-10s%s %s\n", name, $3, $4, h, l, r, mb, hv, $6, $5, gcols(gt, $17, $21), ($16 ~ /^[A-Z]/ ? "<<< " $16 : $16)
}' "$csv" | tee -a "$outdir/table.txt"

# The families' scaling: median lkmmc seconds by N (T timed out, - skipped).
# N is the generated test's number (family-N.litmus): its process count,
# but the stores per thread of the long families (gen-families.sh).
n_of_test='function n_of(t) { gsub(/"/, "", t); sub(/\.litmus$/, "", t); sub(/.*-/, "", t); return t + 0 }
'
awk -F',' -v tmo="$tmo" "$n_of_test"'
NR > 1 && $2 != "-" {
	n = n_of($1)
	k = $2 " " $4; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	if (!(n in ns)) { ns[n] = 1; nl[++nn] = n }
	v[k, n] = ($7 == "ok") ? $8 : ($7 == "timeout" ? "T" : ($7 == "skipped" ? "-" : "E"))
	r[k, n] = ($7 == "ok") ? sprintf("%.0f", $9 / 1024) : "-"
	if ($18 != "none") {
		k = $2 " genmc"; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
		v[k, n] = ($18 == "ok") ? $19 : ($18 == "timeout" ? "T" : ($18 == "skipped" ? "-" : "E"))
		r[k, n] = ($18 == "ok") ? sprintf("%.0f", $20 / 1024) : "-"
	}
}
END {
	if (nk == 0) exit
	for (i = 2; i <= nn; i++) { x = nl[i]; for (j = i - 1; j >= 1 && nl[j] > x; j--) nl[j + 1] = nl[j]; nl[j + 1] = x }
	printf "\nscaling: lkmmc median seconds by N, the number of processes (of stores per thread in the long families) (rows \"genmc\": GenMC; T: over %ss, -: skipped after a smaller N timed out, E: error)\n", tmo
	printf "%-22s", "family mode"; for (i = 1; i <= nn; i++) printf " %6s", "N=" nl[i]; printf "\n"
	for (k = 1; k <= nk; k++) {
		printf "%-22s", keys[k]; for (i = 1; i <= nn; i++) printf " %6s", ((keys[k], nl[i]) in v) ? v[keys[k], nl[i]] : ""; printf "\n"
	}
	printf "peak RSS MB:\n"
	for (k = 1; k <= nk; k++) {
		printf "%-22s", keys[k]; for (i = 1; i <= nn; i++) printf " %6s", ((keys[k], nl[i]) in r) ? r[keys[k], nl[i]] : ""; printf "\n"
	}
}' "$csv" | tee -a "$outdir/table.txt"

# Totals and the verdict check.
awk -F',' -v wall="$wall" -v batch="$batch" -v walls="$raw/batch-walls.tsv" '
NR == 1 { next }
{ n++; st[$16]++; nm[$4]++
  if ($12 == "ok" || $12 == "timeout") { hm[$4] += $13; hn[$4]++; if ($12 == "timeout") hto[$4]++ }
  if ($15 != "-" && $12 == "ok") { both++; hs += $13; ls += $8; lg += log($15) }
  if ($18 != "none") { gn++; gst[$21]++; if ($21 == "DIFFERS") gbad = gbad "\n  " $1 " (" $4 "): lkmmc " $6 ", GenMC " $17 }
  if ($16 ~ /^[A-Z]/) bad = bad "\n  " $16 ": " $1 " (" $4 "): lkmmc " ($7 == "ok" ? $6 : $7) ", expected " $5 ", herd7 " ($11 == "" ? "-" : $11) ($22 != "-" ? " (" $22 ")" : "") }
END {
	printf "\nbench: %d rows in %ss wall:", n, wall
	for (c in st) printf " %s %d;", c, st[c]
	printf "\n"
	if (both > 0) printf "bench: where both answered (%d rows): herd7 %.2fs, lkmmc %.2fs in all (medians); geometric mean of herd7/lkmmc %.2f\n", both, hs, ls, exp(lg / both)
	if (batch != "") {
		while ((getline l < walls) > 0) { split(l, f, "\t"); w[f[1], ++wn[f[1]]] = f[3] + 0 }
		for (m in wn) {
			k = wn[m]
			for (i = 2; i <= k; i++) { x = w[m, i]; for (j = i - 1; j >= 1 && w[m, j] > x; j--) w[m, j + 1] = w[m, j]; w[m, j + 1] = x }
			med = (k % 2) ? w[m, (k + 1) / 2] : (w[m, k / 2] + w[m, k / 2 + 1]) / 2
			printf "bench: lkmmc batch -j %s, mode %s: %.2fs wall (median of %d) for %d tests, %.1f ms per test", batch, m, med, k, nm[m], 1000 * med / nm[m]
			if (hn[m] > 0) printf "; herd7 on %d of them: %.2fs in all (%d timed out, counted at their limit)", hn[m], hm[m], hto[m]
			printf "\n"
		}
	}
	if (gn > 0) {
		printf "bench: GenMC on %d rows:", gn
		for (c in gst) printf " %s %d;", (c == "-" ? "not judged" : c), gst[c]
		printf "\n"
		if (gbad != "") printf "bench: GenMC differs from lkmmc (GenMC is not the reference; look at the program):%s\n", gbad
	}
	if (bad != "") printf "bench: LKMMC VERDICT PROBLEMS:%s\n", bad
}' "$csv" | tee -a "$outdir/table.txt"

# The plot: one curve per family and mode, herd7 dashed where it has times.
png=$outdir/scaling.png
rm -f "$png"
if [ $plot = 1 ] && [ -n "$families" ]; then
	if ! command -v gnuplot >/dev/null; then
		echo "bench: no gnuplot, no plot: run 'make deps'" >&2
	else
		dat=$raw/plot
		mkdir -p "$dat"
		# x: N of the test's name, as in the scaling table above
		awk -F',' -v dat="$dat" "$n_of_test"'NR > 1 && $2 != "-" {
			n = n_of($1)
			if ($7 == "ok") print n, $8 > (dat "/lkmmc." $4 "." $2)
			if ($7 == "timeout") print n, $8 > (dat "/lkmmc-timeout." $4)
			if ($12 == "ok") print n, $13 > (dat "/herd7." $4 "." $2)
			if ($12 == "timeout") print n, $13 > (dat "/herd7-timeout." $4)
			if ($18 == "ok") print n, $19 > (dat "/genmc." $4 "." $2)
			if (n > m) m = n
		} END { print m + 1 > (dat "/xmax") }' "$csv"
		xmax=$(cat "$dat/xmax")
		xlabel=processes
		case ",$families," in *,long*) xlabel="N: processes, or stores per thread (long-*)" ;; esac
		{
			echo "set terminal pngcairo size $((640 * $(echo "$modes" | wc -w))),600 noenhanced"
			echo "set output '$png'"
			[ "$mode" = both ] && echo "set multiplot layout 1,2"
			for m in $modes; do
				title="lkmmc full mode (all final states)"
				[ $m = exists ] && title="lkmmc --exists-only (verdict only)"
				echo "set title '$title'; set xlabel '$xlabel'; set ylabel 'median wall seconds'"
				echo "set logscale y; set grid; set key below maxrows 4 font ',9'; set yrange [0.01:$((tmo * 2))]"
				echo "set xrange [1:$xmax]"
				plots="" lc=0
				for fam in $(printf '%s' "$families" | tr ',' ' '); do
					lc=$((lc + 1))
					[ -s "$dat/lkmmc.$m.$fam" ] && plots="$plots, '$dat/lkmmc.$m.$fam' using 1:2 with linespoints lc $lc pt 7 title '$fam'"
					[ -s "$dat/herd7.$m.$fam" ] && plots="$plots, '$dat/herd7.$m.$fam' using 1:2 with linespoints lc $lc pt 6 dashtype 2 title 'herd7 $fam'"
					[ -s "$dat/genmc.$m.$fam" ] && plots="$plots, '$dat/genmc.$m.$fam' using 1:2 with linespoints lc $lc pt 4 dashtype 3 title 'GenMC $fam'"
				done
				[ -s "$dat/lkmmc-timeout.$m" ] && plots="$plots, '$dat/lkmmc-timeout.$m' using 1:2 with points pointtype 2 pointsize 2 lc rgb 'red' title 'lkmmc timed out'"
				[ -s "$dat/herd7-timeout.$m" ] && plots="$plots, '$dat/herd7-timeout.$m' using 1:(\$2*1.3) with points pointtype 1 pointsize 2 lc rgb 'black' title 'herd7 timed out'"
				plots="$plots, $tmo with lines dashtype 3 lc rgb 'gray' title 'limit ${tmo}s'"
				echo "plot ${plots#, }"
			done
			[ "$mode" = both ] && echo "unset multiplot"
		} >"$dat/scaling.gp"
		gnuplot "$dat/scaling.gp" 2>"$dat/gnuplot.err" || { echo "bench: gnuplot failed:" >&2; cat "$dat/gnuplot.err" >&2; }
	fi
fi
# The other tests: lkmmc's time against herd7's, one point per test and
# mode where both have a time (herd7 time-outs at their limit, marked).
cpng=$outdir/compare.png
rm -f "$cpng"
if [ $plot = 1 ] && command -v gnuplot >/dev/null &&
	awk -F',' 'NR > 1 && $2 == "-" && $7 == "ok" && ($12 == "ok" || $12 == "timeout") { f = 1 } END { exit !f }' "$csv"; then
	dat=$raw/plot
	mkdir -p "$dat"
	awk -F',' -v dat="$dat" 'NR > 1 && $2 == "-" && $7 == "ok" {
		if ($12 == "ok") print $13, $8 > (dat "/cmp." $4)
		if ($12 == "timeout") print $13, $8 > (dat "/cmp-timeout." $4)
	}' "$csv"
	{
		echo "set terminal pngcairo size 640,600 noenhanced; set output '$cpng'"
		echo "set title 'lkmmc against herd7, per test (below the diagonal: lkmmc faster)'"
		echo "set xlabel 'herd7 seconds ($([ -n "$herd7" ] && echo "run here" || echo "recorded"))'; set ylabel 'lkmmc median seconds'"
		echo "set logscale xy; set grid; set key top left; set size square"
		plots="x with lines dashtype 2 lc rgb 'gray' title 'same time'"
		for m in $modes; do
			[ -s "$dat/cmp.$m" ] && plots="$plots, '$dat/cmp.$m' using 1:2 with points pt 7 ps 0.6 title 'lkmmc $m'"
			[ -s "$dat/cmp-timeout.$m" ] && plots="$plots, '$dat/cmp-timeout.$m' using 1:2 with points pt 2 ps 1 title 'lkmmc $m, herd7 timed out'"
		done
		echo "plot $plots"
	} >"$dat/compare.gp"
	gnuplot "$dat/compare.gp" 2>"$dat/gnuplot-compare.err" || { echo "bench: gnuplot failed:" >&2; cat "$dat/gnuplot-compare.err" >&2; }
fi
echo "bench: CSV $csv, table $outdir/table.txt$([ -f "$png" ] && echo ", plot $png")$([ -f "$cpng" ] && echo ", $cpng")"
awk -F',' 'NR > 1 && $16 ~ /^[A-Z]/ { bad = 1 } END { exit bad }' "$csv"
