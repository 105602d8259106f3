#!/usr/bin/env bash
# bench/conformance-genmc.sh - GenMC v0.9's own LKMM test programs, run
# unmodified: each program of tests/correct/lkmm must answer "No errors"
# (exit status 0), each of tests/wrong/lkmm an error (exit status 3: an
# assertion can fail, a data race).  The programs are GenMC's (GPL), read
# from ../shared/peers/genmc-0.9.tar.gz at run time into a scratch folder;
# none is copied into this repository.  Not part of make check.
#
# usage: bench/conformance-genmc.sh [--timeout S] [--out DIR]
#   --timeout S   per program in seconds (default 120)
#   --out DIR     where results go (default build/conformance-genmc)
# Environment: LKMMC, the binary to test (default ./lkmmc).
#
# Writes DIR/results.tsv (program, expected status, status, ok/BAD, the
# first error line) and prints "N of M as expected" and the others.
# Exit status: 0 when all are as expected, 1 otherwise, 0 with a message
# when ../shared is absent (nothing to run), 2 on usage errors.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
LKMMC=${LKMMC:-./lkmmc}
case $LKMMC in /*) ;; *) LKMMC=$(pwd)/$LKMMC ;; esac
timeout=120 out=$root/build/conformance-genmc
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) [ $# -ge 2 ] || exit 2; timeout=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || exit 2; out=$2; shift 2 ;;
	*) echo "usage: $0 [--timeout S] [--out DIR]" >&2; exit 2 ;;
	esac
done
tarball=$root/../shared/peers/genmc-0.9.tar.gz
if [ ! -f "$tarball" ]; then
	echo "skipped: no $tarball (GenMC's tests are read from ../shared)"
	exit 0
fi
[ -x "$LKMMC" ] || { echo "no $LKMMC (run make)" >&2; exit 2; }
src=$(mktemp -d /tmp/conformance-genmc.XXXXXX) || exit 2
trap 'rm -rf "$src"' EXIT
tar -xzf "$tarball" -C "$src" --wildcards '*/tests/correct/lkmm/*' '*/tests/wrong/lkmm/*' || exit 2
rm -rf "$out"
mkdir -p "$out"
cd "$src"/*/tests || exit 2
n=0 good=0
while IFS= read -r f; do
	case $f in correct/*) want=0 ;; *) want=3 ;; esac
	timeout "$timeout" "$LKMMC" "$f" > "$out/stdout" 2> "$out/stderr"
	rc=$?
	verdict=BAD
	[ "$rc" -eq "$want" ] && verdict=ok && good=$((good + 1))
	n=$((n + 1))
	printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$want" "$rc" "$verdict" \
		"$(grep -m1 'error' "$out/stderr")" >> "$out/results.tsv"
done < <(find correct/lkmm wrong/lkmm -name '*.c' | sort)
rm -f "$out/stdout" "$out/stderr"
echo "GenMC v0.9's LKMM programs: $good of $n as expected"
awk -F'\t' '$4 == "BAD" { printf "  %s: status %s, want %s  %s\n", $1, $3, $2, substr($5, 1, 160) }' "$out/results.tsv"
[ "$good" -eq "$n" ]
