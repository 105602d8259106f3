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
# Environment: LKMMC (default ./lkmmc), LINUX_SOURCE (the tarball),
# KS_KEEP=1 keeps the temporary folder.  Exit status 0 pass, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=$(realpath "${LKMMC:-$root/lkmmc}")
tarball=${LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
shared=$root/../shared
mode=scripts sample=0
while [ $# -gt 0 ]; do
	case $1 in
	--corpus) mode=corpus ;;
	--sample) sample=${2:?--sample needs a number}; shift ;;
	*) echo "usage: $0 [--corpus [--sample N]]" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$LKMMC" ] || { echo "no checker at $LKMMC (run make)" >&2; exit 1; }
[ -f "$tarball" ] || { echo "$tarball missing: apt-get install linux-source-6.1" >&2; exit 1; }

tmp=$(mktemp -d /tmp/lkmmc-kernel-scripts.XXXXXX)
if [ "${KS_KEEP:-0}" = 1 ]; then echo "keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
. "$root/tests/lib.sh"
pass() { echo "ok   $*"; ok; }

# A fresh tree with the series applied.
mkdir -p "$tmp/linux" "$tmp/bin"
cp "$LKMMC" "$tmp/bin/lkmmc" && LKMMC=$tmp/bin/lkmmc # immune to rebuilds meanwhile
tar -xJf "$tarball" -C "$tmp/linux" --strip-components=1 --wildcards '*/tools/memory-model/*' ||
	{ echo "cannot extract tools/memory-model from $tarball" >&2; exit 1; }
git_id=(-c user.name=kernel-scripts -c user.email=kernel-scripts@lkmmc.invalid)
(cd "$tmp/linux" && git init -q && git add tools && git "${git_id[@]}" commit -q -m base &&
	git "${git_id[@]}" am -q "$root"/kernel/patches/*.patch) >"$tmp/am.log" 2>&1
if [ $? -eq 0 ]; then
	pass "git am: $(ls "$root"/kernel/patches/*.patch | wc -l) patches applied to a fresh tools/memory-model"
else
	bad "git am of kernel/patches/*.patch:"; cat "$tmp/am.log"; exit 1
fi
cd "$tmp/linux/tools/memory-model" || exit 1
export LKMM_JOBS=2

# Checkers: a herd7 that must not run, a herd7 that is lkmmc and logs,
# lkmmc with one wrong verdict, herd7 replaying its recorded answers.
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
chmod +x "$tmp"/bin/*
mkdir -p "$tmp/path"

# checkall NAME [ENV=VALUE...] -- [ARGS...]: run checkalllitmus.sh, leave
# its status in rc and the number of tests, of .out files with an
# Observation line and of tests judged wrong in ntests, nobs, nbad.
checkall() {
	local name=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rm -f litmus-tests/*.litmus.out
	env "${envs[@]}" scripts/checkalllitmus.sh "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
	rc=$?
	ntests=$(ls litmus-tests/*.litmus | wc -l)
	nobs=$(grep -l '^Observation' litmus-tests/*.litmus.out 2>/dev/null | wc -l)
	nbad=$(grep -l '!!!' litmus-tests/*.litmus.out 2>/dev/null | wc -l)
}
judged_ok() {
	[ $rc -eq 0 ] && [ "$ntests" -eq 34 ] && [ "$nobs" -eq 34 ] && [ "$nbad" -eq 0 ] &&
		grep -q 'All litmus tests verified as was expected' "$tmp/$1.stderr"
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
	want=' !!! Unexpected non-Never verification litmus-tests/SB+fencembonceonces.litmus'
	if [ $rc -ne 0 ] && [ "$nbad" -eq 1 ] && grep -qxF -- "$want" "$tmp/wrong.stdout" &&
		grep -q 'VERIFICATION MISMATCHES' "$tmp/wrong.stderr"; then
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
		rm -rf "$tmp/gh-$c"; mkdir -p "$tmp/gh-$c"
		scripts/checkghlitmus.sh --herd "$herd" --procs 20 --destdir "$tmp/gh-$c" \
			>"$tmp/gh-$c.stdout" 2>"$tmp/gh-$c.stderr"
		nobs=$(find "$tmp/gh-$c" -name '*.litmus.out' -exec grep -l '^Observation' {} + | wc -l)
		nbad=$(grep -c '!!!' "$tmp/gh-$c.stdout")
		if [ $c = lkmmc ] && [ "$nobs" -eq 34 ] && [ "$nbad" -eq 0 ]; then
			pass "checkghlitmus.sh --herd lkmmc: 34 tests run by runlitmushist.sh, no mismatch"
		elif [ $c = wrong ] && [ "$nobs" -eq 34 ] && [ "$nbad" -eq 1 ] &&
			grep -q 'Unexpected non-Never verification litmus/kernel/SB+fencembonceonces.litmus' "$tmp/gh-$c.stdout"; then
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
		mkdir -p "$tmp/out-$c"
		local t0=$SECONDS
		scripts/checkghlitmus.sh --herd "$herd" --procs 20 --timeout "${KS_TIMEOUT:-1m}" \
			--herdopts "$herdopts" --destdir "$tmp/out-$c" >"$tmp/$c.stdout" 2>"$tmp/$c.stderr"
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

if [ $mode = corpus ]; then corpus_mode; else scripts_mode; fi
report kernel-scripts
