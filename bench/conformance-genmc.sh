#!/usr/bin/env bash
# bench/conformance-genmc.sh - GenMC v0.9's own LKMM test programs, run
# unmodified: each program of tests/correct/lkmm must answer "No errors"
# (exit status 0), each of tests/wrong/lkmm an error (exit status 3: an
# assertion can fail, a data race).  The programs are GenMC's (GPL), read
# from ../shared/peers/genmc-0.9.tar.gz at run time into a scratch folder;
# none is copied into this repository.  Not part of make check.
#
# Known exceptions are listed below by name, each with the answer herd7
# gives its litmus form under each kernel's model: lkmmc must answer so
# under each (its built-in 6.1 model, and the 6.12 and 7.2 models of
# ../shared/lkmm with --model), whatever the program's folder says.
#
# usage: bench/conformance-genmc.sh [--timeout S] [--out DIR]
#   --timeout S   per program in seconds (default 120)
#   --out DIR     where results go (default build/conformance-genmc)
# Environment: LKMMC, the binary to test (default ./lkmmc).
#
# Writes DIR/results.tsv (program, model, expected status, status, ok,
# exception or BAD, the first error line; one row a program, and one more
# a model for an exception) and prints "N of M as expected", the
# exceptions by name and the BAD rows.
# Exit status: 0 when there is no BAD row, 1 otherwise, 0 with a message
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

# The exceptions: program, then MODEL=STATUS for each model.  Both store
# a value read with READ_ONCE() into a global with a plain store and read
# it back, for an address (rcu+ar-link-short) or a branch's condition
# (LB+fencembonceonce+ctrlonceonce).  The 6.1 model carries no dependency
# through a plain store and load (6.12's linux-kernel.bell adds carry-dep),
# so under 6.1 the final assert can fail, as herd7 answers these shapes
# (the corpus's manual/plain/C-non-race4: Sometimes under 6.1, Never
# under 6.12); under 6.12 and 7.2 it cannot.
exceptions='
correct/lkmm/rcu+ar-link-short/variants/rcu+ar-link-short0.c 6.1=3 6.12=0 7.2=0
correct/lkmm/LB+fencembonceonce+ctrlonceonce/variants/LB+fencembonceonce+ctrlonceonce.c 6.1=3 6.12=0 7.2=0
'
models=$root/../shared/lkmm

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

# run FILE MODEL WANT KIND: one run of lkmmc on FILE under MODEL (6.1: the
# built-in one), a row of results.tsv; KIND is what a match counts as
# (ok or exception).  Sets rc.
run() {
	local opt=()
	[ "$2" = 6.1 ] || opt=(--model "$models/$2/memory-model")
	timeout "$timeout" "$LKMMC" "${opt[@]}" "$1" > "$out/stdout" 2> "$out/stderr"
	rc=$?
	local verdict=BAD
	[ "$rc" -eq "$3" ] && verdict=$4
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$rc" "$verdict" \
		"$(grep -m1 'error' "$out/stderr")" >> "$out/results.tsv"
}

n=0 good=0 nexc=0 excnames=
while IFS= read -r f; do
	n=$((n + 1))
	exc=$(printf '%s\n' "$exceptions" | awk -v f="$f" '$1 == f')
	if [ -z "$exc" ]; then
		case $f in correct/*) want=0 ;; *) want=3 ;; esac
		run "$f" 6.1 "$want" ok
		[ "$rc" -eq "$want" ] && good=$((good + 1))
		continue
	fi
	all=1
	for mv in ${exc#* }; do
		m=${mv%=*}
		if [ "$m" != 6.1 ] && [ ! -d "$models/$m/memory-model" ]; then
			echo "note: no $models/$m/memory-model: $f not run under $m"
			continue
		fi
		run "$f" "$m" "${mv#*=}" exception
		[ "$rc" -eq "${mv#*=}" ] || all=0
	done
	[ "$all" -eq 1 ] && nexc=$((nexc + 1))
	excnames="$excnames $(basename "$f" .c)"
done < <(find correct/lkmm wrong/lkmm -name '*.c' | sort)
rm -f "$out/stdout" "$out/stderr"
nbad=$(awk -F'\t' '$5 == "BAD"' "$out/results.tsv" | wc -l)
echo "GenMC v0.9's LKMM programs: $good of $((n - $(printf '%s\n' "$exceptions" | grep -c .))) as their folder states;" \
	"$nexc known exceptions answered as herd7 answers their litmus form under each model:$excnames; $nbad BAD"
awk -F'\t' '$5 == "exception" { printf "  exception %s: under %s status %s\n", $1, $2, $4 }' "$out/results.tsv"
awk -F'\t' '$5 == "BAD" { printf "  BAD %s (model %s): status %s, want %s  %s\n", $1, $2, $4, $3, substr($6, 1, 160) }' "$out/results.tsv"
[ "$nbad" -eq 0 ]
