#!/usr/bin/env bash
# tests/kernel-scripts.sh - the kernel's own LKMM scripts drive lkmmc.
#
# Extracts a fresh tools/memory-model from Debian's linux-source 6.1 into a
# temporary folder, applies kernel/patches/*.patch with git am, and then:
#
# default (make check-kernel-scripts, part of make check):
#   1. scripts/checkalllitmus.sh --herd LKMMC must exit 0, with all 34
#      tests judged as expected ("!!!"-free .litmus.out files holding an
#      Observation line), while a "herd7" that fails is first on the PATH;
#   2. the same through the LKMM_HERD7 environment variable;
#   3. with neither, the scripts still run "herd7" from the PATH (here a
#      wrapper around lkmmc that logs its calls);
#   4. the judging can fail: a checker that turns one Never into Sometimes
#      must make checkalllitmus.sh fail on exactly that test, and an
#      option lkmmc rejects (--herdopts "... -o dir") must give 34
#      verification errors with lkmmc's reason in the .litmus.out files;
#   5. checkghlitmus.sh (and so runlitmushist.sh) over the 34 tests copied
#      into litmus/: no mismatch with lkmmc, exactly one with the wrong
#      checker.
#
# --corpus [--sample N] (make check-kernel-corpus): checkghlitmus.sh over
#   a copy of ../shared/corpus (every test with a Never, Sometimes, Always
#   or DEADLOCK Result: line; --sample N: N tests spread over the sorted
#   list), once with lkmmc and once with a "herd7" replaying herd7's
#   recorded answers (tests/fake-herd-replay.sh; where herd7 ran out of
#   time it fails).  Reports how many tests each judged as expected, and
#   fails when lkmmc has a mismatch that herd7 has not.  KS_TIMEOUT
#   (default 1m) is the per-test limit, KS_HERDOPTS the options (default
#   "-conf linux-kernel.cfg"; add "-speedcheck fast" for verdicts only).
#
# --trees (make check-kernel-trees): the same scripts of Linux 6.12's and
#   7.2's tools/memory-model (../shared/lkmm/V; with ../shared there, a
#   missing tree fails; without it, this mode is reported as not run), and
#   --tree DIR [--tree DIR...]: those of any tools/memory-model DIR.  Each
#   tree is copied; the series is applied with git am if it applies (then
#   --herd names the checker), else lkmmc runs as the "herd7" of the PATH;
#   an "mselect7 -arch C" stand-in is on the PATH when herdtools7's is not.
#   lkmmc, run with -conf linux-kernel.cfg in the copy, reads that tree's
#   model.  checkalllitmus.sh must judge every test of litmus-tests/ as
#   expected (with no lkmmc warning, lkmmc run once a test), and
#   checkghlitmus.sh every test of litmus-tests/ and of the tree's
#   Documentation/litmus-tests (DIR/../Documentation-litmus-tests or
#   DIR/../../Documentation/litmus-tests) copied into litmus/; a checker
#   turning SB+fencembonceonces's Never into Sometimes must make each
#   script report exactly that test.
#
# Environment: LKMMC (default ./lkmmc), LINUX_SOURCE (the tarball),
# KS_KEEP=1 keeps the temporary folder.  Exit status 0 pass, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=$(realpath "${LKMMC:-$root/lkmmc}")
tarball=${LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
shared=$root/../shared
mode=scripts sample=0 trees=()
usage() { echo "usage: $0 [--corpus [--sample N] | --trees | --tree DIR...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--corpus) mode=corpus ;;
	--sample) sample=${2:?--sample needs a number}; shift ;;
	--trees) mode=trees ;;
	--tree) [ $# -ge 2 ] || usage; mode=trees; trees+=("$(realpath "$2")"); shift ;;
	*) usage ;;
	esac
	shift
done
[ -x "$LKMMC" ] || { echo "no checker at $LKMMC (run make)" >&2; exit 1; }
[ $mode = trees ] || [ -f "$tarball" ] ||
	{ echo "$tarball missing: apt-get install linux-source-6.1" >&2; exit 1; }

tmp=$(mktemp -d /tmp/lkmmc-kernel-scripts.XXXXXX)
if [ "${KS_KEEP:-0}" = 1 ]; then echo "keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
. "$root/tests/lib.sh"
pass() { echo "ok   $*"; ok; }

mkdir -p "$tmp/bin"
cp "$LKMMC" "$tmp/bin/lkmmc" && LKMMC=$tmp/bin/lkmmc # immune to rebuilds meanwhile
export LKMM_JOBS=2

# apply_series TOP LOG: git am kernel/patches/*.patch onto TOP/tools, made
# a git repository first; on failure the am is aborted (LOG says why).
apply_series() {
	local git_id=(-c user.name=kernel-scripts -c user.email=kernel-scripts@lkmmc.invalid)
	(cd "$1" && git init -q && git add tools && git "${git_id[@]}" commit -q -m base &&
		git "${git_id[@]}" am -q "$root"/kernel/patches/*.patch) >"$2" 2>&1 && return 0
	(cd "$1" && git am --abort) >/dev/null 2>&1
	return 1
}

# A fresh 6.1 tree with the series applied; the scripts run in it.
linux61() {
	mkdir -p "$tmp/linux"
	tar -xJf "$tarball" -C "$tmp/linux" --strip-components=1 --wildcards '*/tools/memory-model/*' ||
		{ echo "cannot extract tools/memory-model from $tarball" >&2; exit 1; }
	if apply_series "$tmp/linux" "$tmp/am.log"; then
		pass "git am: $(ls "$root"/kernel/patches/*.patch | wc -l) patches applied to a fresh tools/memory-model"
	else
		bad "git am of kernel/patches/*.patch:"; cat "$tmp/am.log"; exit 1
	fi
	cd "$tmp/linux/tools/memory-model" || exit 1
}

# Checkers: a herd7 that must not run, a herd7 that is lkmmc and logs,
# lkmmc with one wrong verdict, herd7 replaying its recorded answers,
# a stand-in for mselect7.
cat >"$tmp/bin/failing-herd7" <<'EOF'
#!/bin/sh
echo "herd7 was run although another checker was chosen" >&2
exit 3
EOF
cat >"$tmp/bin/logging-herd7" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/herd7.log"
exec "$LKMMC" "\$@"
EOF
cat >"$tmp/bin/wrong-checker" <<EOF
#!/bin/sh
# lkmmc, but its answer for SB+fencembonceonces is Sometimes, not Never
"$LKMMC" "\$@" | sed '/^Observation SB+fencembonceonces /s/ Never / Sometimes /'
EOF
cat >"$tmp/bin/replay-herd7" <<EOF
#!/bin/sh
# herd7's recorded answer for litmus/PATH: shared/oracle/out/PATH.out; where
# herd7 ran out of time (10 s, or 60 s), it fails as timeout(1) would.
for a; do last=\$a; done
p=\${last#litmus/}
if awk -F'\t' -v p="\$p" '\$1 == p && \$2 == "timeout" { f = 1 } END { exit !f }' \\
	"$shared/oracle/summary.tsv"; then
	echo "herd7 ran out of time on this test (recorded)" >&2
	exit 124
fi
exec bash "$root/tests/fake-herd-replay.sh" "$shared/corpus/\$p"
EOF
cat >"$tmp/bin/mselect7" <<'EOF'
#!/bin/sh
# herdtools7's "mselect7 -arch C" as a filter: of the litmus files named on
# stdin, those whose first line names the architecture C
while read -r f; do head -n 1 "$f" | grep -q '^C[[:space:]]' && echo "$f"; done
exit 0
EOF
chmod +x "$tmp"/bin/*
mkdir -p "$tmp/path"

# runscript NAME SCRIPT [ENV=VALUE...] -- [ARGS...]: run scripts/SCRIPT
# with ENV and ARGS, its output in $tmp/NAME.stdout and .stderr, its
# status in rc.
runscript() {
	local name=$1 script=$2; shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "scripts/$script" "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
	rc=$?
}
# checkall NAME [ENV=VALUE...] -- [ARGS...]: run checkalllitmus.sh, leave
# its status in rc and the number of tests, of .out files with an
# Observation line and of tests judged wrong in ntests, nobs, nbad.
checkall() {
	local name=$1; shift
	rm -f litmus-tests/*.litmus.out
	runscript "$name" checkalllitmus.sh "$@"
	ntests=$(ls litmus-tests/*.litmus | wc -l)
	nobs=$(grep -l '^Observation' litmus-tests/*.litmus.out 2>/dev/null | wc -l)
	nbad=$(grep -l '!!!' litmus-tests/*.litmus.out 2>/dev/null | wc -l)
}
# judged_ok NAME [N]: checkall NAME judged all its N (34) tests as expected
judged_ok() {
	local n=${2:-34}
	[ $rc -eq 0 ] && [ "$ntests" -eq "$n" ] && [ "$nobs" -eq "$n" ] && [ "$nbad" -eq 0 ] &&
		grep -q 'All litmus tests verified as was expected' "$tmp/$1.stderr"
}
# wrong_ok NAME: checkall NAME with wrong-checker failed on exactly its test
wrong_ok() {
	local want=' !!! Unexpected non-Never verification litmus-tests/SB+fencembonceonces.litmus'
	[ $rc -ne 0 ] && [ "$nbad" -eq 1 ] && grep -qxF -- "$want" "$tmp/$1.stdout" &&
		grep -q 'VERIFICATION MISMATCHES' "$tmp/$1.stderr"
}
# checkgh NAME DESTDIR [ENV=VALUE...] -- [ARGS...]: run checkghlitmus.sh
# --procs 20 --destdir DESTDIR ARGS over litmus/; leave the number of
# .litmus.out files with an Observation line in nobs, of mismatches in nbad.
checkgh() {
	local name=$1 dest=$2; shift 2
	mkdir -p "$dest"
	runscript "$name" checkghlitmus.sh "$@" --procs 20 --destdir "$dest"
	nobs=$(find "$dest" -name '*.litmus.out' -exec grep -l '^Observation' {} + | wc -l)
	nbad=$(grep -c '!!!' "$tmp/$name.stdout")
}
# gh_wrong_ok NAME: checkgh NAME with wrong-checker reported exactly its test
gh_wrong_ok() {
	[ "$nbad" -eq 1 ] &&
		grep -q 'Unexpected non-Never verification litmus/kernel/SB+fencembonceonces.litmus' "$tmp/$1.stdout"
}

scripts_mode() {
	ln -sf "$tmp/bin/failing-herd7" "$tmp/path/herd7"
	checkall herd-arg PATH="$tmp/path:$PATH" -- --herd "$LKMMC"
	if judged_ok herd-arg; then
		pass "checkalllitmus.sh --herd lkmmc: $nobs/$ntests judged as expected"
	else
		bad "checkalllitmus.sh --herd lkmmc: status $rc, $nobs/$ntests with an Observation line, $nbad judged wrong"
		cat "$tmp/herd-arg.stdout" "$tmp/herd-arg.stderr"
	fi

	checkall herd-env PATH="$tmp/path:$PATH" LKMM_HERD7="$LKMMC" --
	if judged_ok herd-env; then
		pass "LKMM_HERD7=lkmmc checkalllitmus.sh: $nobs/$ntests judged as expected"
	else
		bad "LKMM_HERD7=lkmmc checkalllitmus.sh: status $rc, $nobs/$ntests with an Observation line, $nbad judged wrong"
	fi

	ln -sf "$tmp/bin/logging-herd7" "$tmp/path/herd7"
	rm -f "$tmp/herd7.log"
	checkall default -u LKMM_HERD7 PATH="$tmp/path:$PATH" --
	ncalls=$(cat "$tmp/herd7.log" 2>/dev/null | wc -l)
	if judged_ok default && [ "$ncalls" -eq 34 ] &&
		[ "$(sort -u "$tmp/herd7.log" | cut -d' ' -f1-2 | sort -u)" = "-conf linux-kernel.cfg" ]; then
		pass "no --herd: herd7 from the PATH still runs ($ncalls calls, -conf linux-kernel.cfg)"
	else
		bad "no --herd: status $rc, $nobs/$ntests judged, herd7 called $ncalls times"
	fi

	checkall wrong -- --herd "$tmp/bin/wrong-checker"
	if wrong_ok wrong; then
		pass "a checker with one wrong verdict: checkalllitmus.sh fails on exactly that test"
	else
		bad "a checker with one wrong verdict: status $rc, $nbad judged wrong (want 1: SB+fencembonceonces)"
	fi

	checkall rejected -- --herd "$LKMMC" --herdopts "-conf linux-kernel.cfg -o $tmp/dot"
	nwhy=$(grep -l "herd7 option '-o' is not supported" litmus-tests/*.litmus.out 2>/dev/null | wc -l)
	nerr=$(grep -c '^ !!! Verification error' "$tmp/rejected.stdout")
	if [ $rc -ne 0 ] && [ "$nerr" -eq 34 ] && [ "$nwhy" -eq 34 ]; then
		pass "an option lkmmc rejects (-o): 34 verification errors, the reason in each .litmus.out"
	else
		bad "an option lkmmc rejects (-o): status $rc, $nerr verification errors, $nwhy reasons (want 34)"
	fi

	# checkghlitmus.sh -> runlitmushist.sh -> judgelitmus.sh, on the 34
	# tests copied into litmus/ (so nothing is cloned from GitHub).
	mkdir -p litmus/kernel
	cp litmus-tests/*.litmus litmus/kernel/
	for c in lkmmc wrong; do
		local herd=$LKMMC
		[ $c = wrong ] && herd=$tmp/bin/wrong-checker
		checkgh "gh-$c" "$tmp/gh-$c" -- --herd "$herd"
		if [ $c = lkmmc ] && [ "$nobs" -eq 34 ] && [ "$nbad" -eq 0 ]; then
			pass "checkghlitmus.sh --herd lkmmc: 34 tests run by runlitmushist.sh, no mismatch"
		elif [ $c = wrong ] && [ "$nobs" -eq 34 ] && gh_wrong_ok "gh-$c"; then
			pass "checkghlitmus.sh with one wrong verdict: exactly that mismatch reported"
		else
			bad "checkghlitmus.sh --herd $c: $nobs outputs with an Observation line, $nbad mismatches"
			cat "$tmp/gh-$c.stdout" "$tmp/gh-$c.stderr"
		fi
	done
	rm -rf litmus
}

# mismatches FILE: the litmus files a checkghlitmus.sh stdout calls wrong
mismatches() { grep '!!!' "$1" | awk '{ print $NF }' | sort -u; }

corpus_mode() {
	[ -d "$shared/corpus" ] || { echo "no $shared/corpus: nothing to judge"; return 0; }
	(cd "$shared/corpus" && find . -name '*.litmus' | sed 's,^\./,,' | sort) >"$tmp/all"
	if [ "$sample" -gt 0 ]; then
		awk -v n="$sample" -v t="$(wc -l <"$tmp/all")" \
			'BEGIN { step = t / n } NR > k * step && k < n { print; k++ }' "$tmp/all" >"$tmp/selected"
	else
		cp "$tmp/all" "$tmp/selected"
	fi
	while read -r p; do
		mkdir -p "litmus/$(dirname "$p")"
		cp "$shared/corpus/$p" "litmus/$p"
	done <"$tmp/selected"
	# What checkghlitmus.sh judges: C tests with a definite Result:, < 20 processes.
	find litmus -name '*.litmus' -exec grep -l -m 1 '^C ' {} + |
		xargs -r grep -E -l '^ \* Result: (Never|Sometimes|Always|DEADLOCK)' |
		xargs -r grep -L '^P20' | sort >"$tmp/judged"
	njudged=$(wc -l <"$tmp/judged")
	local herdopts=${KS_HERDOPTS:--conf linux-kernel.cfg}
	echo "corpus: $(wc -l <"$tmp/selected") tests copied, $njudged with a Never/Sometimes/Always/DEADLOCK Result: line"
	for c in lkmmc herd7; do
		local herd=$LKMMC
		[ $c = herd7 ] && herd=$tmp/bin/replay-herd7
		local t0=$SECONDS
		checkgh "$c" "$tmp/out-$c" -- --herd "$herd" --timeout "${KS_TIMEOUT:-1m}" --herdopts "$herdopts"
		mismatches "$tmp/$c.stdout" >"$tmp/$c.bad"
		local nbad nerr
		nbad=$(wc -l <"$tmp/$c.bad")
		nerr=$(grep -c 'Verification error' "$tmp/$c.stdout")
		echo "$c: $((njudged - nbad))/$njudged judged as expected; $nbad mismatches" \
			"($nerr without an Observation line: rejected or timed out); $((SECONDS - t0)) s"
	done
	comm -23 "$tmp/lkmmc.bad" "$tmp/herd7.bad" >"$tmp/lkmmc-only"
	comm -13 "$tmp/lkmmc.bad" "$tmp/herd7.bad" >"$tmp/herd7-only"
	echo "judged as expected by lkmmc but not by herd7: $(wc -l <"$tmp/herd7-only")" \
		"(the first 5; KS_KEEP=1 keeps the lists in $tmp)"
	head -5 "$tmp/herd7-only" | sed 's/^/  /'
	if [ -s "$tmp/lkmmc-only" ]; then
		bad "$(wc -l <"$tmp/lkmmc-only") tests judged wrong with lkmmc but right with herd7:"
		while read -r p; do
			echo "  $p: $(grep -h '^Observation\|error\|^Command exited' \
				"$tmp/out-lkmmc/$p.out" | head -2 | tr '\n' ' ')"
		done < <(head -20 "$tmp/lkmmc-only")
	else
		pass "every test herd7 is judged right on is judged right with lkmmc"
	fi
}

# use_checker CMD: CMD is the checker of the next run in tree_mode: by
# --herd (in herdarg, with a failing herd7 on the PATH) when the series is
# applied, else as the herd7 of the PATH (tpath).
use_checker() {
	if [ "$series" = 1 ]; then
		ln -sf "$tmp/bin/failing-herd7" "$tpath/herd7"
		herdarg=(--herd "$1")
	else
		ln -sf "$1" "$tpath/herd7"
		herdarg=()
	fi
}

# tree_mode SRC LABEL [MIN]: checkalllitmus.sh and checkghlitmus.sh of a
# copy of the tools/memory-model SRC judge its tests (at least MIN with
# its Documentation/litmus-tests) as expected, and catch wrong-checker.
tree_mode() {
	local src=$1 label=$2 min=${3:-0} docs=
	local top=$tmp/tree-$label t0=$SECONDS how
	tpath=$tmp/path-$label
	for d in "$src/../Documentation-litmus-tests" "$src/../../Documentation/litmus-tests"; do
		[ -d "$d" ] && { docs=$(realpath "$d"); break; }
	done
	mkdir -p "$top/tools" "$tpath"
	if ! cp -R "$src" "$top/tools/memory-model" || ! chmod -R u+w "$top" ||
		! chmod +x "$top"/tools/memory-model/scripts/*.sh; then
		bad "$label: cannot copy $src"; return
	fi
	command -v mselect7 >/dev/null || ln -sf "$tmp/bin/mselect7" "$tpath/mselect7"
	if apply_series "$top" "$tmp/am-$label.log"; then
		series=1 how="--herd (kernel/patches applied)"
	else
		series=0 how="a herd7 on the PATH (kernel/patches: $(grep -m 1 '^Patch failed' "$tmp/am-$label.log"))"
	fi
	echo "$label ($src): lkmmc runs as $how"
	cd "$top/tools/memory-model" || { bad "$label: no copy"; return; }

	use_checker "$tmp/bin/logging-herd7"
	rm -f "$tmp/herd7.log"
	checkall "$label-all" PATH="$tpath:$PATH" -- "${herdarg[@]}"
	local ncalls nwarn n=$ntests
	ncalls=$(cat "$tmp/herd7.log" 2>/dev/null | wc -l)
	nwarn=$(grep -l 'lkmmc: warning' litmus-tests/*.litmus.out 2>/dev/null | wc -l)
	if judged_ok "$label-all" "$n" && [ "$ncalls" -eq "$n" ] && [ "$nwarn" -eq 0 ]; then
		pass "$label checkalllitmus.sh: $nobs/$ntests judged as expected"
	else
		bad "$label checkalllitmus.sh: status $rc, $nobs/$ntests with an Observation line," \
			"$nbad judged wrong, lkmmc run $ncalls times, $nwarn with a warning"
		grep -h '!!!\|warning' litmus-tests/*.litmus.out | head -20
	fi
	use_checker "$tmp/bin/wrong-checker"
	checkall "$label-wrong" PATH="$tpath:$PATH" -- "${herdarg[@]}"
	if wrong_ok "$label-wrong"; then
		pass "$label checkalllitmus.sh, one wrong verdict: fails on exactly that test"
	else
		bad "$label checkalllitmus.sh, one wrong verdict: status $rc, $nbad judged wrong (want 1: SB+fencembonceonces)"
	fi

	# checkghlitmus.sh over litmus-tests/ and Documentation/litmus-tests;
	# the wrong checker reruns only SB+fencembonceonces (the script runs
	# the tests that have no .out file) and the judging reads all.
	mkdir -p litmus/kernel
	cp litmus-tests/*.litmus litmus/kernel/
	[ -z "$docs" ] || { cp -R "$docs" litmus/Documentation && chmod -R u+w litmus; }
	local ngh
	ngh=$(find litmus -name '*.litmus' | wc -l)
	use_checker "$LKMMC"
	checkgh "$label-gh" "$tmp/gh-$label" PATH="$tpath:$PATH" -- "${herdarg[@]}"
	if [ "$nobs" -eq "$ngh" ] && [ "$nbad" -eq 0 ] && [ "$ngh" -ge "$min" ]; then
		pass "$label checkghlitmus.sh: $nobs/$ngh judged as expected" \
			"($n of litmus-tests/, $((ngh - n)) of ${docs:-no Documentation/litmus-tests})"
	else
		bad "$label checkghlitmus.sh: $nobs/$ngh with an Observation line, $nbad mismatches (want at least $min tests)"
		cat "$tmp/$label-gh.stdout"
	fi
	cp -R "$tmp/gh-$label" "$tmp/ghw-$label"
	rm -f "$tmp/ghw-$label/litmus/kernel/SB+fencembonceonces.litmus.out"
	use_checker "$tmp/bin/wrong-checker"
	checkgh "$label-ghw" "$tmp/ghw-$label" PATH="$tpath:$PATH" -- "${herdarg[@]}"
	if [ "$nobs" -eq "$ngh" ] && gh_wrong_ok "$label-ghw"; then
		pass "$label checkghlitmus.sh, one wrong verdict: exactly that mismatch reported"
	else
		bad "$label checkghlitmus.sh, one wrong verdict: $nobs/$ngh with an Observation line, $nbad mismatches"
		cat "$tmp/$label-ghw.stdout"
	fi
	echo "$label: $((SECONDS - t0)) s"
}

# Linux 6.12's and 7.2's trees from ../shared (the --tree folders instead).
trees_mode() {
	if [ ${#trees[@]} -gt 0 ]; then
		local k=0
		for d in "${trees[@]}"; do k=$((k + 1)); tree_mode "$d" "tree$k"; done
		return
	fi
	if [ ! -d "$shared" ]; then
		echo "note: no $shared: Linux 6.12's and 7.2's scripts not run"
		return
	fi
	for v in 6.12 7.2; do
		if [ -d "$shared/lkmm/$v/memory-model" ]; then
			tree_mode "$(realpath "$shared/lkmm/$v/memory-model")" "$v" 40
		else
			bad "no $shared/lkmm/$v/memory-model"
		fi
	done
}

case $mode in
corpus) linux61; corpus_mode ;;
trees) trees_mode ;;
*) linux61; scripts_mode ;;
esac
report kernel-scripts
