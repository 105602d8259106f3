#!/usr/bin/env bash
# bench/conformance.sh - compare lkmmc with herd7's answers on the litmus corpus.
#
# usage: bench/conformance.sh [options] [TEST...]
#   TEST              corpus tests to run: paths relative to the corpus
#                     (auto/C-foo.litmus) or to the current folder
#                     (../shared/corpus/auto/C-foo.litmus); default: all
#   --list FILE       read more TEST paths from FILE, one a line
#   --sample N        run N tests spread evenly over the (sorted) selection
#   -j N              run N tests at a time (default 2)
#   --timeout S       per-test limit in seconds (default 60)
#   --per-process     one lkmmc process per test under timeout(1), instead
#                     of one batch run (lkmmc -j N --times); slower, for
#                     when a test might hang the encoder itself
#   --shared DIR      the reference data (default ../shared from the repo root)
#   --out DIR         where results go (default build/conformance)
#   --oracle NAME     the answers to compare with: shared/NAME/summary.tsv
#                     (default oracle, herd7 under Linux 6.1's model; e.g.
#                     oracle-6.12 with --lkmmc-args "--model .../6.12/...")
#   --lkmmc-args A    more lkmmc options, split on blanks (folders in them
#                     are made absolute: lkmmc runs from the corpus)
#   --parse FILE...   only print each FILE (herd7-format output) as one TSV
#                     line: verdict pos neg ok_no flags nstates states name
#                     kind loop
#
# Environment: LKMMC, the binary to test (default ./lkmmc).
#
# Judgement, per row of shared/oracle/summary.tsv:
#   ok       same States set (and order), verdict word, Ok/No and Flag set;
#            "wrong Never" = lkmmc says Never where herd7 says Sometimes/Always
#   timeout  herd7 gave no answer: the verdict must match the test's Result:
#            comment (Maybe: anything; DEADLOCK: Never 0 0; DATARACE: the
#            data-race flag must be raised)
#   error    herd7 rejected the test: lkmmc may reject it too with a located
#            error (exit 1, "file:line:col: error:") or answer; we report which
# Writes build/conformance/results.tsv (one row a test) and
# build/conformance/disagreements.txt, and prints an agreement table.
# Exit status: 0 when everything agrees, 1 otherwise, 2 on usage errors.
set -u

# The herd7 output parser, shared with tests/e2e-litmus.sh via --parse.
# POSIX awk only (mawk): no gensub, no asort, no arrays of arrays.
HERD_PARSE='
function flush() {
	nf = 0
	for (f in flag) fl[++nf] = f
	for (i = 2; i <= nf; i++) {            # insertion sort of flag names
		v = fl[i]
		for (j = i - 1; j >= 1 && fl[j] > v; j--) fl[j + 1] = fl[j]
		fl[j + 1] = v
	}
	flags = ""
	for (i = 1; i <= nf; i++) flags = flags (i > 1 ? "," : "") fl[i]
	if (flags == "") flags = "-"
	# Joined in pairs (n log n): appending one by one is quadratic in mawk.
	# herd7 never listed more than a few thousand states (its longer lists
	# are time-outs, judged by Result:), so longer lists are not kept.
	if (nst > 20000) nst = 0
	while (nst > 1) {
		m = 0
		for (i = 1; i <= nst; i += 2) st[++m] = (i < nst) ? st[i] " | " st[i + 1] : st[i]
		nst = m
	}
	states = nst ? st[1] : "-"
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", verdict, pos, neg, okno, flags, nstates, states, name, kind, loop
}
BEGIN { verdict = "-"; pos = "-"; neg = "-"; okno = "-"; nstates = "-"; nst = 0; name = "-"; kind = "-"; loop = 0 }
/^Test / && name == "-" { name = $2; kind = $3; next }
/^States [0-9]+$/ { nstates = $2 + 0; ins = 1; next }
ins && /^(Loop )?(Ok|No|Undef)$/ { ins = 0; okno = $NF; if ($1 == "Loop") loop = 1; next }
ins { sub(/[ \t]+$/, ""); st[++nst] = $0; next }
/^Flag / { flag[$2] = 1; next }
/^Observation / { verdict = $(NF - 2); pos = $(NF - 1); neg = $NF; next }
END { flush() }
'

if [ "${1:-}" = "--parse" ]; then
	[ $# -ge 2 ] || { echo "usage: $0 --parse FILE..." >&2; exit 2; }
	shift
	for f; do awk "$HERD_PARSE" "$f" || exit 1; done
	exit 0
fi

# Worker mode (run by xargs): run lkmmc on one corpus test, leave a record.
# record: path status rc secs <parsed fields...> first-stderr-line
if [ "${1:-}" = "--run-one" ]; then
	path=$2 corpus=$3 raw=$4 tmo=$5
	flat=$(printf '%s' "$path" | tr '/' '@')
	out=$raw/$flat.out err=$raw/$flat.err
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086 # LKMMC_ARGS: words, absolute folders
	timeout "$tmo" "$LKMMC" ${LKMMC_ARGS:-} "$corpus/$path" >"$out" 2>"$err" </dev/null
	rc=$?
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	parsed=$(awk "$HERD_PARSE" "$out")
	verdict=${parsed%%	*}
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=timeout
	elif [ $rc -eq 0 ] && [ "$verdict" != "-" ]; then status=answered
	elif [ $rc -eq 1 ] && grep -qE '^[^:]+:[0-9]+:[0-9]+: error:' "$err"; then status=rejected
	else status=crash
	fi
	msg=$(grep -m1 . "$err" | tr '\t' ' ' | cut -c1-200)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$status" "$rc" "$secs" "$parsed" "${msg:--}" >"$raw/$flat.rec"
	exit 0
fi

root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-./lkmmc}
jobs=2 tmo=60 sample=0 shared=$root/../shared outdir=$root/build/conformance per_process=0
oracle=oracle lkmmc_args=()
tests=()
usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--timeout) tmo=$2; shift 2 ;;
	--sample) sample=$2; shift 2 ;;
	--per-process) per_process=1; shift ;;
	--shared) shared=$2; shift 2 ;;
	--out) outdir=$2; shift 2 ;;
	--oracle) oracle=$2; shift 2 ;;
	--lkmmc-args)
		for w in $2; do
			if [ -d "$w" ]; then w=$(cd "$w" && pwd); fi
			lkmmc_args+=("$w")
		done
		shift 2 ;;
	--list) while IFS= read -r l; do [ -n "$l" ] && tests+=("$l"); done <"$2"; shift 2 ;;
	-h|--help) usage ;;
	--) shift; tests+=("$@"); break ;;
	-*) echo "conformance: unknown option $1" >&2; usage ;;
	*) tests+=("$1"); shift ;;
	esac
done
case $jobs in ''|*[!0-9]*) echo "conformance: -j needs a number" >&2; exit 2 ;; esac
case $sample in ''|*[!0-9]*) echo "conformance: --sample needs a number" >&2; exit 2 ;; esac
corpus=$shared/corpus summary=$shared/$oracle/summary.tsv
export LKMMC_ARGS="${lkmmc_args[*]:-}"
[ -f "$summary" ] || { echo "conformance: no $summary (is ../shared there?)" >&2; exit 2; }
# the binary: a relative LKMMC is taken from the repo root, like ./lkmmc
case $LKMMC in /*) ;; */*) LKMMC=$root/$LKMMC ;; *) LKMMC=$(command -v "$LKMMC" || echo "$LKMMC") ;; esac
[ -x "$LKMMC" ] || { echo "conformance: $LKMMC is not executable (make?)" >&2; exit 2; }
export LKMMC

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
raw=$outdir/raw
rm -rf "$raw"; mkdir -p "$raw"
sel=$outdir/selected.txt

# The selection, as corpus-relative paths known to summary.tsv.
if [ ${#tests[@]} -eq 0 ]; then
	awk -F'\t' 'NR > 1 { print $1 }' "$summary"
else
	for t in "${tests[@]}"; do
		case $t in
		*corpus/*) printf '%s\n' "${t##*corpus/}" ;;
		*) printf '%s\n' "${t#./}" ;;
		esac
	done
fi | sort -u >"$sel.all"
awk -F'\t' 'NR == FNR { if (FNR > 1) known[$1] = 1; next }
	($0 in known) { print; next }
	{ print "conformance: not in summary.tsv, skipped: " $0 > "/dev/stderr" }' "$summary" "$sel.all" >"$sel"
rm -f "$sel.all"
if [ "$sample" -gt 0 ]; then
	awk -v n="$sample" '{ a[++c] = $0 } END { if (n > c) n = c; for (i = 0; i < n; i++) print a[int(i * c / n) + 1] }' "$sel" >"$sel.s"
	mv "$sel.s" "$sel"
fi
total=$(wc -l <"$sel")
[ "$total" -gt 0 ] || { echo "conformance: no test selected" >&2; exit 2; }
echo "conformance: $total tests, -j $jobs, timeout ${tmo}s, lkmmc=$LKMMC"

start=$(date +%s)
if [ "$per_process" = 1 ]; then
	tr '\n' '\0' <"$sel" | xargs -0 -P "$jobs" -I{} bash "$0" --run-one {} "$corpus" "$raw" "$tmo"
else
	# One batch: lkmmc prints the answers in file order and one --times row
	# per test, which says which tests have an answer block on stdout.
	# (--files-from, not xargs: xargs would split the list into several
	# runs, each rewriting the --times table.)
	(cd "$corpus" && "$LKMMC" ${lkmmc_args[@]+"${lkmmc_args[@]}"} -j "$jobs" --timeout "$tmo" --times "$raw/times.tsv" \
		--files-from "$sel" >"$raw/batch.out" 2>"$raw/batch.err")
	printf '%s\n' "$HERD_PARSE" >"$raw/parse.awk"
	awk -F'\t' -v raw="$raw" -v errs="$raw/batch.err" -v parse="$raw/parse.awk" '
	BEGIN { while ((getline l < errs) > 0) { split(l, a, ":"); if (!(a[1] in msg)) msg[a[1]] = l } }
	NR == FNR { if (FNR > 1) { n++; path[n] = $1; st[n] = $2; secs[n] = $3; v[n] = $5 } next }
	/^Test / { k++; while (k <= n && v[k] == "-") k++ }
	{ if (k >= 1 && k <= n) { f = path[k]; gsub("/", "@", f); print > (raw "/" f ".out"); open[raw "/" f ".out"] = 1 } }
	END {
		for (i = 1; i <= n; i++) {
			f = path[i]; gsub("/", "@", f); out = raw "/" f ".out"
			if (!(out in open)) printf "" > out
			close(out)
			m = (path[i] in msg) ? msg[path[i]] : "-"; gsub("\t", " ", m); m = substr(m, 1, 200)
			if (st[i] == "ok" && v[i] != "-") { status = "answered"; rc = 0 }
			else if (m ~ /^[^:]+:[0-9]+:[0-9]+: error:/) { status = "rejected"; rc = 1 }
			else if (m ~ /solver gave up/) { status = "timeout"; rc = 1 }
			else { status = "crash"; rc = 1 }
			cmd = "awk -f " parse " " out
			cmd | getline parsed; close(cmd)
			printf "%s\t%s\t%s\t%s\t%s\t%s\n", path[i], status, rc, secs[i], parsed, m > (raw "/" f ".rec")
			close(raw "/" f ".rec")
		}
	}' "$raw/times.tsv" "$raw/batch.out"
fi
echo "conformance: ran in $(( $(date +%s) - start ))s wall"

# Judge every record against summary.tsv; write results, disagreements, table.
results=$outdir/results.tsv dis=$outdir/disagreements.txt
: >"$dis"; : >"$results"
find "$raw" -name '*.rec' -exec cat {} + | sort >"$outdir/records.tsv"
awk -F'\t' -v results="$results" -v dis="$dis" '
function setof(s, arr,    n, i, p) {          # " | "-joined states -> set; returns count
	for (i in arr) delete arr[i]
	if (s == "-" || s == "") return 0
	n = split(s, p, / \| /)
	for (i = 1; i <= n; i++) arr[p[i]] = 1
	return n
}
function same_set(a, b,    x, y, k, na, nb) {
	na = setof(a, x); nb = setof(b, y)
	for (k in x) if (!(k in y)) return 0
	for (k in y) if (!(k in x)) return 0
	return 1
}
function first_diff(a, b,    x, y, k, s) {      # a few states in one set and not the other
	setof(a, x); setof(b, y); s = ""
	for (k in x) if (!(k in y)) { s = s " lkmmc-only{" k "}"; if (length(s) > 300) return s }
	for (k in y) if (!(k in x)) { s = s " herd-only{" k "}"; if (length(s) > 300) return s }
	return s
}
BEGIN {
	printf "path\tcategory\tfolder\tresult\tkinds\twrong_never\tlkmmc_status\tlkmmc_secs\therd7_secs\tlkmmc_observation\therd7_expected\tflags_lkmmc/herd7\tnote\n" > results
}
function addkind(k) { kinds = kinds (kinds == "" ? "" : ",") k; cnt[cat, folder, k]++ }
NR == FNR {                                    # summary.tsv
	if (FNR == 1) next
	H[$1] = 1; hs[$1] = $2; hv[$1] = $3; hpos[$1] = $4; hneg[$1] = $5; hok[$1] = $6
	hfl[$1] = $7; hn[$1] = $8; hsec[$1] = $9; hres[$1] = $10; hst[$1] = ($11 == "" ? "-" : $11)
	next
}
{
	path = $1; st = $2; rc = $3; secs = $4
	v = $5; p = $6; n = $7; ok = $8; fl = $9; ns = $10; sts = $11; msg = $15
	cat = hs[path]; folder = path; sub(/\/.*/, "", folder)
	if (folder !~ /^(auto|luc|manual)$/) folder = "other"   # another corpus
	cats[cat] = 1; folders[folder] = 1
	kinds = ""; wn = 0; note = ""
	tot[cat, folder]++; lsec[cat, folder] += secs; hsecs[cat, folder] += hsec[path]
	if (cat == "ok") {
		if (st == "answered") {
			if (!same_set(sts, hst[path])) addkind("states")
			else if (sts != hst[path]) addkind("order")
			if (v != hv[path]) addkind("verdict")
			if (ok != hok[path]) addkind("ok/no")
			if (fl != hfl[path]) addkind("flags")
			if (v == "Never" && (hv[path] == "Sometimes" || hv[path] == "Always")) wn = 1
		} else if (st == "rejected") addkind("lkmmc-error")
		else addkind("lkmmc-timeout/crash")
	} else if (cat == "timeout") {
		split(hres[path], rw, " "); want = rw[1]; race = (hres[path] ~ /DATARACE/)
		if (st == "answered") {
			if (want == "-" || want == "") note = "no Result: comment"
			else if (want == "Maybe") ;
			else if (want == "DEADLOCK") { if (!(v == "Never" && p == 0 && n == 0)) addkind("verdict") }
			else if (v != want) addkind("verdict")
			if (race && fl !~ /(^|,)data-race(,|$)/) addkind("flags")
			if (v == "Never" && (want == "Sometimes" || want == "Always")) wn = 1
		} else if (st == "rejected") addkind("lkmmc-error")
		else if (st == "timeout") { cnt[cat, folder, "still-timeout"]++; note = "lkmmc timed out too" }
		else addkind("lkmmc-timeout/crash")
	} else {                                   # error: herd7 rejected the test
		if (st == "rejected") { note = "rejected (located error)"; cnt[cat, folder, "rejected"]++ }
		else if (st == "answered") { note = "answered: Observation " v " " p " " n; cnt[cat, folder, "answered"]++ }
		else addkind("lkmmc-timeout/crash")
	}
	if (wn) { cnt[cat, folder, "wrong-never"]++; addkind("WRONG-NEVER") }
	res = (kinds == "" ? "agree" : "disagree")
	if (cat == "timeout" && st == "timeout") res = "unjudged"
	if (cat == "timeout" && note == "no Result: comment") res = "unjudged"
	if (res == "agree") cnt[cat, folder, "agree"]++
	else if (res == "disagree") cnt[cat, folder, "disagree"]++
	else cnt[cat, folder, "unjudged"]++
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", path, cat, folder, res, (kinds == "" ? "-" : kinds), wn, st, secs, hsec[path], v " " p " " n, (cat == "ok" ? hv[path] " " hpos[path] " " hneg[path] : hres[path]), fl "/" hfl[path], (note == "" ? msg : note) > results
	if (res == "disagree") {
		printf "%s [%s] %s: lkmmc %s", path, cat, kinds, st > dis
		if (st == "answered") printf " Observation %s %s %s Ok/No %s flags %s", v, p, n, ok, fl > dis
		else printf " (exit %s: %s)", rc, msg > dis
		if (cat == "ok") printf " | herd7 %s %s %s Ok/No %s flags %s", hv[path], hpos[path], hneg[path], hok[path], hfl[path] > dis
		else printf " | Result: %s", hres[path] > dis
		if (kinds ~ /states/) printf " |%s", first_diff(sts, hst[path]) > dis
		if (kinds ~ /order/) printf " | lkmmc order: %s | herd7 order: %s", substr(sts, 1, 200), substr(hst[path], 1, 200) > dis
		printf "\n" > dis
	}
}
END {
	nk = split("agree disagree unjudged states order verdict ok/no flags lkmmc-error lkmmc-timeout/crash wrong-never rejected answered still-timeout", K, " ")
	nc = split("ok timeout error", C, " "); nf = split("auto luc manual other", F, " ")
	printf "%-16s %6s", "category/folder", "tests"
	for (k = 1; k <= nk; k++) printf " %s", K[k]
	printf " %12s %12s\n", "lkmmc-secs", "herd7-secs"
	for (c = 1; c <= nc + 1; c++) for (f = 1; f <= nf + 1; f++) {
		cc = (c <= nc ? C[c] : "ALL"); ff = (f <= nf ? F[f] : "all")
		if (cc == "ALL" && ff != "all") continue
		t = 0; ls = 0; hsum = 0
		for (k = 1; k <= nk; k++) row[k] = 0
		for (c2 = 1; c2 <= nc; c2++) for (f2 = 1; f2 <= nf; f2++) {
			if (cc != "ALL" && C[c2] != cc) continue
			if (ff != "all" && F[f2] != ff) continue
			t += tot[C[c2], F[f2]]; ls += lsec[C[c2], F[f2]]; hsum += hsecs[C[c2], F[f2]]
			for (k = 1; k <= nk; k++) row[k] += cnt[C[c2], F[f2], K[k]]
		}
		if (t == 0) continue
		printf "%-16s %6d", cc "/" ff, t
		for (k = 1; k <= nk; k++) printf(" %" length(K[k]) "d", row[k])
		printf " %12.1f %12.1f\n", ls, hsum
	}
}' "$summary" "$outdir/records.tsv"

ndis=$(wc -l <"$dis")
nwn=$(awk -F'\t' '$6 == 1' "$results" | wc -l)
echo "conformance: results in $results, $ndis disagreements in $dis, wrong Never: $nwn"
[ "$ndis" -eq 0 ]
