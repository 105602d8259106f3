#!/usr/bin/env bash
# tests/fake-herd7.sh - a stand-in for herd7 on the PATH (install it as a
# file named herd7), to exercise bench/bench.sh's side-by-side path where
# herd7 is not installed. It is not a checker: it insists on being called
# as the bench calls herd7, from the kernel's tools/memory-model folder
# (linux-kernel.cfg and the .cat files it names in the current folder,
# "-conf linux-kernel.cfg", optionally "-speedcheck fast"), then answers
#   - a corpus test (SHARED/corpus/PATH with SHARED/oracle/out/PATH.out):
#     herd7's recorded output, replayed;
#   - any other test: what lkmmc says (FAKE_HERD7_LKMMC, default the
#     checkout's ./lkmmc), given the same herd7 options.
# FAKE_HERD7_FLIP=NAME turns the Observation of the test named NAME from
# Never to Sometimes (or back), so that a test can check that the bench
# reports a disagreement.
set -u
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
lkmmc=${FAKE_HERD7_LKMMC:-$root/lkmmc}
die() { echo "fake-herd7: $*" >&2; exit 3; }
conf="" speed="" file=""
while [ $# -gt 0 ]; do
	case $1 in
	-conf) conf=$2; shift 2 ;;
	-speedcheck) speed=$2; shift 2 ;;
	-*) die "unexpected option $1" ;;
	*) [ -z "$file" ] || die "more than one test"; file=$1; shift ;;
	esac
done
[ "$conf" = linux-kernel.cfg ] || die "not called with -conf linux-kernel.cfg"
[ -f linux-kernel.cfg ] || die "no linux-kernel.cfg in $(pwd): not run from tools/memory-model"
for cat in $(awk '$1 == "model" || $1 == "bell" || $1 == "macros" { print $2 }' linux-kernel.cfg); do
	[ -f "$cat" ] || die "linux-kernel.cfg names $cat, which is not in $(pwd)"
done
case $speed in ''|fast) ;; *) die "unexpected -speedcheck $speed" ;; esac
[ -n "$file" ] && [ -f "$file" ] || die "no test file"

flip() {
	if [ -z "${FAKE_HERD7_FLIP:-}" ]; then cat; return; fi
	awk -v n="$FAKE_HERD7_FLIP" '$1 == "Observation" && $2 == n {
		if ($3 == "Never") $3 = "Sometimes"; else if ($3 == "Sometimes") $3 = "Never" } { print }'
}
shared=${SHARED:-$root/../shared}
case $file in
"$shared"/corpus/*)
	out=$shared/oracle/out/${file#"$shared"/corpus/}.out
	if [ -f "$out" ]; then flip <"$out"; exit 0; fi ;;
esac
args=(-conf linux-kernel.cfg)
[ -n "$speed" ] && args+=(-speedcheck "$speed")
"$lkmmc" "${args[@]}" "$file" | flip
exit "${PIPESTATUS[0]}"
