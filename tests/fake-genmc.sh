#!/usr/bin/env bash
# tests/fake-genmc.sh - a stand-in for GenMC on the PATH (install it as a
# file named genmc), to exercise the GenMC columns of bench/bench.sh and
# bench/programs.sh where GenMC is not installed (it is not in Debian). It
# is not a checker: it insists on being called as the benches call GenMC
# ("-lkmm", then one C program with a main that includes <lkmm.h>), asks
# lkmmc (FAKE_GENMC_LKMMC, default the checkout's ./lkmmc) about the
# program and prints what GenMC prints: "No errors were detected." (exit
# 0), "Error detected: Safety violation!" for a failing assertion or
# "Error detected: Non-Atomic race!" for a data race alone (exit 42).
# FAKE_GENMC_FLIP=NAME turns the answer on the program whose file is
# NAME.c around, so that a test can check that the bench reports a
# difference.
set -u
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
lkmmc=${FAKE_GENMC_LKMMC:-$root/lkmmc}
die() { echo "fake-genmc: $*" >&2; exit 2; }
lkmm=0 file=""
for a in "$@"; do
	case $a in
	-lkmm) lkmm=1 ;;
	-*) die "unexpected option $a" ;;
	*) [ -z "$file" ] || die "more than one program"; file=$a ;;
	esac
done
[ $lkmm = 1 ] || die "not called with -lkmm"
[ -r "$file" ] || die "cannot read '$file'"
grep -q '#include <lkmm.h>' "$file" || die "$file does not include <lkmm.h>"
grep -q '^int main(' "$file" || die "$file has no main"
out=$("$lkmmc" "$file" 2>/dev/null)
case $out in
*"No errors"*) bad=0 ;;
*"Assertion violated"*|*"Assertion failed"*) bad=1 ;;
*"Data race"*) bad=2 ;;
*) die "lkmmc gave no answer on $file" ;;
esac
[ "${FAKE_GENMC_FLIP:-}" = "$(basename "$file" .c)" ] && bad=$((bad ? 0 : 1))
if [ $bad = 0 ]; then
	echo "No errors were detected."
	echo "Number of complete executions explored: 1"
	exit 0
fi
[ $bad = 2 ] && echo "Error detected: Non-Atomic race!" || echo "Error detected: Safety violation!"
exit 42
