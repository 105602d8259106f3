#!/usr/bin/env bash
# tests/e2e-memory.sh - --max-memory: a test too big for the limit ends
# with the located error and exit status 1, within the limit (peak
# resident set from /usr/bin/time), never killed by the system; in a
# batch it loses only itself, and --json says "memory". The tests are
# bench/gen-families.sh's long-shared family (two threads storing in turn
# to the same two locations: memory grows with the square of N).
#
# 1. Refused before building: N = 1000 (2,800 events) under 1,000 MB.
# 2. Stopped while it runs: N = 60 under 160 MB (it needs about 230 MB).
# 3. The same test with room enough answers Never.
# 4. In a batch with a small test (-j 2, --json): the big one errs, the
#    small one answers, exit status 1.
# 5. Usage: --max-memory needs a number.
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch
bash bench/gen-families.sh --families long-shared --n 60,1000 --out "$tmp" >/dev/null ||
	{ echo "FAIL: gen-families"; exit 1; }
big=$tmp/long-shared-1000.litmus mid=$tmp/long-shared-60.litmus
# peak FILE: the peak resident set in MB that /usr/bin/time -f %M wrote
peak() { awk 'END { printf "%d", $1 / 1024 }' "$1"; }

# 1. The estimate refuses it at once.
/usr/bin/time -f %M -o "$tmp/t1" "$LKMMC" --max-memory 1000 "$big" >"$tmp/o1" 2>"$tmp/e1"
rc=$?
check "refused: exit status 1, got $rc" [ $rc -eq 1 ]
check "refused: says why, with the sizes" \
	grep -q "^$big: error: too large for the memory limit: [0-9]* events, about [0-9]* MB needed at least, 1000 MB allowed; try --exists-only, a smaller --unroll, or --max-memory MB\$" "$tmp/e1"
check "refused: no answer printed" [ ! -s "$tmp/o1" ]
check "refused: before building (peak $(peak "$tmp/t1") MB)" [ "$(peak "$tmp/t1")" -lt 400 ]

# 2. Stopped at the limit, whichever phase it is in: the limit counts what
#    Z3 and the encoder allocate (common/memlimit.h), so where it stops
#    does not depend on timing.
/usr/bin/time -f %M -o "$tmp/t2" "$LKMMC" --exists-only --max-memory 160 "$mid" >"$tmp/o2" 2>"$tmp/e2"
rc=$?
check "stopped: exit status 1, got $rc" [ $rc -eq 1 ]
check "stopped: the error" grep -q "^$mid: error: too large for the memory limit: .*try --exists-only, a smaller --unroll, or --max-memory MB\$" "$tmp/e2"
check "stopped: no verdict printed" [ "$(grep -c '^Observation' "$tmp/o2")" -eq 0 ]
check "stopped: within the limit (peak $(peak "$tmp/t2") MB, limit 160 MB)" [ "$(peak "$tmp/t2")" -le 160 ]

# 3. Room enough: the answer.
"$LKMMC" --exists-only --max-memory 1000 "$mid" >"$tmp/o3" 2>"$tmp/e3"
rc=$?
check "room: exit status 0, got $rc ($(head -c 300 "$tmp/e3"))" [ $rc -eq 0 ]
check "room: Never" grep -q '^Observation long-shared-60 Never 0 1$' "$tmp/o3"

# 4. A batch: the big test loses only itself.
/usr/bin/time -f %M -o "$tmp/t4" "$LKMMC" -j 2 --json --exists-only --max-memory 160 \
	--times "$tmp/times4" "$mid" litmus-tests/SB+mbs.litmus >"$tmp/o4" 2>"$tmp/e4"
rc=$?
check "batch: exit status 1, got $rc" [ $rc -eq 1 ]
check "batch: the big test's error" grep -q "^$mid: error: too large for the memory limit" "$tmp/e4"
check "batch: two JSON lines" [ "$(wc -l <"$tmp/o4")" -eq 2 ]
check "batch: the big test's kind is memory" \
	python3 -c 'import json, sys; t = json.loads(open(sys.argv[1]).readline()); sys.exit(t["status"] != 1 or t["error"]["kind"] != "memory")' "$tmp/o4"
# --times: the peak resident set of each test's worker, in kB (column 4)
w4=$(awk -F'\t' -v f="$mid" '$1 == f { print int($4 / 1024) }' "$tmp/times4")
check "batch: the big test's worker within the limit (peak ${w4:-?} MB, limit 160 MB)" \
	[ "${w4:-99999}" -le 160 ]
check "batch: the small test answered Never" \
	python3 -c 'import json, sys; t = json.loads(open(sys.argv[1]).readlines()[1]); sys.exit(t["status"] != 0 or t["verdict"] != "Never")' "$tmp/o4"

# 5. Usage.
"$LKMMC" --max-memory lots litmus-tests/SB+mbs.litmus >/dev/null 2>"$tmp/e5"
rc=$?
check "usage: exit status 2, got $rc" [ $rc -eq 2 ]
check "usage: says what it needs" grep -q -- '--max-memory needs a number of MB' "$tmp/e5"
"$LKMMC" --max-memory 0 litmus-tests/SB+mbs.litmus >"$tmp/o5" 2>&1
check "no limit: --max-memory 0 answers" grep -q '^Observation SB+mbs Never' "$tmp/o5"

report e2e-memory
