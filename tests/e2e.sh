#!/usr/bin/env bash
# End-to-end tests of the real binary: the front end's error and parse
# tests, then the checker on our litmus tests and the kernel's 34.  Each
# script prints its own "N passed, N failed"; here one check per script,
# counted by tests/lib.sh, and a failing script fails the whole.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
# One script a line, so that adding one touches one line.
for t in \
	tests/e2e-frontend.sh \
	tests/e2e-litmus.sh \
	tests/e2e-explain.sh \
	tests/e2e-kmod.sh \
	tests/e2e-fragments.sh \
	tests/e2e-bench.sh \
	tests/e2e-random.sh \
	tests/e2e-batch.sh \
	tests/e2e-cubes.sh \
	tests/e2e-cat.sh \
	tests/e2e-deps.sh \
	tests/e2e-install.sh \
	tests/e2e-programs.sh \
	tests/e2e-json.sh \
	tests/e2e-shard.sh \
	tests/e2e-memory.sh \
	tests/e2e-repair.sh \
	tests/e2e-hostile.sh \
	tests/e2e-symmetry.sh \
	tests/e2e-families.sh \
; do
	if [ -f "$t" ]; then
		echo "== $t"
		check "$t" bash "$t"
	else
		bad "missing $t"
	fi
done
report "e2e scripts"
