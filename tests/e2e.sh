#!/usr/bin/env bash
# End-to-end tests of the real binary: the front end's error and parse
# tests, then the checker on our litmus tests and the kernel's 34.
set -u
cd "$(dirname "$0")/.."
status=0
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
; do
	if [ -f "$t" ]; then
		echo "== $t"
		bash "$t" || status=1
	else
		echo "missing $t"; status=1
	fi
done
exit $status
