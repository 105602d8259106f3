#!/usr/bin/env bash
# tests/e2e-json.sh - lkmmc --json (docs/json.md) on real litmus files,
# read with python3's json module (tests/json_check.py): the same answers
# as the text output on every test of litmus-tests/ (serial and -j 2), the
# states of the .states files and the verdicts of the Result: fields,
# witnesses and explanations consistent, tests/errors' errors as objects
# with the .expect locations, a time-out as an error object, --times
# filled from the objects, usage errors; when ../shared/corpus exists, a
# sample of it (the rest runs without it).  A wrong answer slipped into the
# JSON is caught (the checker can fail).
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
scratch
jc() { python3 tests/json_check.py "$@"; }
# count WHAT FILE: the number json_check printed before WHAT
count() { grep -o "[0-9]* $1" "$2" | head -n 1 | cut -d' ' -f1; }

tests=(litmus-tests/*.litmus)
"$LKMMC" -j 2 "${tests[@]}" >"$tmp/text" 2>/dev/null
"$LKMMC" --json "${tests[@]}" >"$tmp/serial.jsonl" 2>"$tmp/serial.err"
st=$?
[ $st = 0 ] && ok || bad "--json on litmus-tests/: exit $st"
"$LKMMC" -j 2 --json "${tests[@]}" >"$tmp/j2.jsonl" 2>/dev/null

# One object a line, one per test, in the order of the files.
[ "$(wc -l <"$tmp/serial.jsonl")" -eq ${#tests[@]} ] && ok ||
	bad "--json: $(wc -l <"$tmp/serial.jsonl") lines for ${#tests[@]} tests"
python3 -c 'import json,sys; print("\n".join(json.loads(l)["file"] for l in open(sys.argv[1])))' \
	"$tmp/serial.jsonl" >"$tmp/files"
printf '%s\n' "${tests[@]}" | cmp -s - "$tmp/files" && ok || bad "--json: objects not in the order of the files"

jc compare "$tmp/text" "$tmp/serial.jsonl" >"$tmp/cmp" && ok || { cat "$tmp/cmp"; bad "--json differs from the text output"; }
[ "$(count tests "$tmp/cmp")" = ${#tests[@]} ] && ok || bad "compare: $(cat "$tmp/cmp")"
jc merge-equal "$tmp/serial.jsonl" "$tmp/j2.jsonl" >"$tmp/me" && ok || { cat "$tmp/me"; bad "--json -j 2 differs from the serial run"; }
jc expected "$tmp/serial.jsonl" >"$tmp/exp" && ok || { cat "$tmp/exp"; bad "--json: states or verdicts not as expected"; }
[ "$(count '.states' "$tmp/exp")" -ge 100 ] && ok || bad "expected: too few .states compared: $(cat "$tmp/exp")"

# The checker can fail: one verdict changed, one state dropped.
sed '0,/"verdict":"Sometimes"/s//"verdict":"Never"/' "$tmp/serial.jsonl" >"$tmp/wrong1"
jc compare "$tmp/text" "$tmp/wrong1" >/dev/null && bad "compare missed a changed verdict" || ok
sed '0,/"states":\[{[^}]*},/s//"states":[/' "$tmp/serial.jsonl" >"$tmp/wrong2"
jc compare "$tmp/text" "$tmp/wrong2" >/dev/null && bad "compare missed a dropped state" || ok

# Witnesses and explanations (and races), on the kernel fragments too.
"$LKMMC" -j 2 --json --witness --explain "${tests[@]}" litmus-tests/kernel-fragments/*.litmus \
	>"$tmp/we.jsonl" 2>/dev/null
jc executions "$tmp/we.jsonl" >"$tmp/ex" && ok || { cat "$tmp/ex"; bad "--json --witness --explain"; }
[ "$(count witnesses "$tmp/ex")" -ge 50 ] && [ "$(count explanations "$tmp/ex")" -ge 50 ] &&
	[ "$(count races "$tmp/ex")" -ge 1 ] && ok || bad "executions: too few checked: $(cat "$tmp/ex")"
# A known explanation, field by field.
python3 - "$tmp/we.jsonl" <<'EOF' && ok || bad "MP+wmb+rmb's explanation"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if '"MP+wmb+rmb"' in l][0]
ex = o["explanation"]
assert ex["axioms"] == ["happens-before"], ex["axioms"]
steps = ex["violations"][0]["steps"]
assert [s["relation"] for s in steps] == ["rmb", "fre", "wmb", "rfe"], steps
assert steps[0]["fence"] == {"text": "smp_rmb()", "line": 28}
assert steps[0]["from"]["text"] == "r0 = READ_ONCE(*y)" and steps[0]["from"]["value"] == 1
EOF

# --exists-only: no states, reachability counts.
"$LKMMC" --json --exists-only litmus-tests/SB+pos.litmus litmus-tests/SB+mbs.litmus >"$tmp/eo.jsonl"
python3 - "$tmp/eo.jsonl" <<'EOF' && ok || bad "--json --exists-only"
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
assert a["states"] is None and a["nstates"] is None
assert (a["verdict"], a["positive"], a["negative"]) == ("Sometimes", 1, 1), a
assert (b["verdict"], b["positive"]) == ("Never", 0) and "witness" in a and "witness" not in b
EOF

# Errors: every test of tests/errors, as an object with its .expect location.
"$LKMMC" --json tests/errors/*.litmus >"$tmp/err.jsonl" 2>"$tmp/err.err"
[ $? = 1 ] && ok || bad "--json on tests/errors: exit status not 1"
jc errors "$tmp/err.jsonl" >"$tmp/errs" && ok || { cat "$tmp/errs"; bad "--json error objects"; }
n=$(ls tests/errors/*.litmus | wc -l)
[ "$(count 'error objects' "$tmp/errs")" = "$n" ] && ok || bad "errors: $(cat "$tmp/errs") for $n tests"
[ "$(wc -l <"$tmp/err.err")" -ge "$n" ] && ok || bad "--json: errors no longer on stderr"

# A time-out is an error object; the next test still answers; --times
# takes its verdicts from the objects.
bash bench/gen-families.sh --out "$tmp/locks" --families mcs --n 6 >/dev/null
"$LKMMC" --json --timeout 1 --times "$tmp/to.tsv" "$tmp/locks/mcs-06.litmus" litmus-tests/SB+pos.litmus \
	>"$tmp/to.jsonl" 2>/dev/null
[ $? = 1 ] && ok || bad "--json --timeout 1 on mcs-06: exit status not 1"
python3 - "$tmp/to.jsonl" <<'EOF' && ok || bad "--json time-out object"
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
assert a["status"] == 1 and a["error"]["kind"] == "timeout" and "verdict" not in a, a
assert b["verdict"] == "Sometimes" and "error" not in b, b
EOF
awk -F'\t' 'NR==2 && $2=="timeout" {a=1} NR==3 && $5=="Sometimes" && $6==4 {b=1} END {exit !(a&&b)}' \
	"$tmp/to.tsv" && ok || bad "--json --times: $(cat "$tmp/to.tsv")"

# A whole C program, warnings as messages.
"$LKMMC" --json litmus-tests/programs/lock-twice.c >"$tmp/p.jsonl" 2>/dev/null
python3 - "$tmp/p.jsonl" <<'EOF' && ok || bad "--json on a C program"
import json, sys
o = json.loads(open(sys.argv[1]).read())
assert o["kind"] == "program" and o["status"] == 3, o
assert any(l.startswith("Deadlock") for l in o["output"]) and o["messages"], o
EOF

# Usage errors.
for o in --dump-ir --to-c "--kmod $tmp/k"; do
	# shellcheck disable=SC2086
	"$LKMMC" --json $o litmus-tests/SB+pos.litmus >/dev/null 2>&1
	[ $? = 2 ] && ok || bad "--json $o is not a usage error"
done

# A sample of the corpus: every 100th test, text and JSON.
if [ -d ../shared/corpus ]; then
	find ../shared/corpus -name '*.litmus' | sort | awk 'NR % 100 == 1' >"$tmp/sample"
	ns=$(wc -l <"$tmp/sample")
	nice "$LKMMC" -j 2 --timeout 60 --files-from "$tmp/sample" >"$tmp/ctext" 2>/dev/null
	nice "$LKMMC" -j 2 --timeout 60 --json --files-from "$tmp/sample" >"$tmp/c.jsonl" 2>/dev/null
	[ "$(wc -l <"$tmp/c.jsonl")" = "$ns" ] && ok || bad "corpus sample: $(wc -l <"$tmp/c.jsonl") objects for $ns tests"
	# a test may time out in one run only on a loaded machine: up to a
	# tenth of the sample; every test answered in both must agree
	jc compare "$tmp/ctext" "$tmp/c.jsonl" $((ns / 10)) >"$tmp/ccmp" && ok ||
		{ cat "$tmp/ccmp"; bad "corpus sample: --json differs from the text"; }
	[ "$(count tests "$tmp/ccmp")" -ge $((ns * 8 / 10)) ] && ok || bad "corpus sample: too few compared: $(cat "$tmp/ccmp")"
	echo "corpus sample: $(cat "$tmp/ccmp") of $ns"
fi

report e2e-json
