#!/usr/bin/env python3
"""tests/json_check.py - check lkmmc --json output (docs/json.md) with
python3's json module: against lkmmc's text output of the same tests, read
here by a parser of its own; against the expected .states files and
Result: fields of the tests; witnesses and explanations for their inner
consistency; error objects against tests/errors' .expect lines.

Each command prints what it compared ("N tests") and exits 1 on any
mismatch, each said on stdout.  It runs no checker itself.

  json_check.py compare TEXT JSONL [N]  the same tests, verdicts, states,
                                     flags (N: answers allowed in one only)
  json_check.py expected JSONL       .states files and Result: fields
  json_check.py executions JSONL     witnesses, explanations, races
  json_check.py errors JSONL         error objects against .expect files
  json_check.py merge-equal A B      two JSON Lines outputs hold the same
                                     answers (by file; times ignored)
"""
import json
import os
import re
import sys

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL: " + msg)


def load_jsonl(path):
    """Every line a JSON object with json_version 1."""
    objs = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                o = json.loads(line)
            except json.JSONDecodeError as e:
                fail("%s:%d: not JSON: %s" % (path, n, e))
                continue
            if not isinstance(o, dict) or o.get("json_version") != 1:
                fail("%s:%d: not a version-1 object" % (path, n))
                continue
            objs.append(o)
    return objs


def value(s):
    """A value as docs/json.md says: an integer when it is one."""
    return int(s) if re.fullmatch(r"-?(0|[1-9][0-9]*)", s) else s


def state(line):
    """'0:r0=1; [x]=y;' as a dict."""
    d = {}
    for item in line.strip().split(";"):
        item = item.strip()
        if item:
            k, v = item.rsplit("=", 1)
            d[k] = value(v)
    return d


def text_blocks(path):
    """The herd7 blocks of a text output, in order, read independently of
    lkmmc's JSON code."""
    blocks = []
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"Test (\S+) (Allowed|Forbidden|Required)$", lines[i])
        if not m:
            i += 1
            continue
        b = {"test": m.group(1), "flags": [], "states": None, "loop": False}
        i += 1
        while i < len(lines) and lines[i] != "":
            l = lines[i]
            if l.startswith("States "):
                n = int(l.split()[1])
                b["states"] = [state(s) for s in lines[i + 1:i + 1 + n]]
                i += n
            elif l in ("Ok", "No", "Loop Ok", "Loop No"):
                b["ok"] = l.endswith("Ok")
                b["loop"] = l.startswith("Loop")
            elif l.startswith("Positive: "):
                p = l.split()
                b["positive"], b["negative"] = int(p[1]), int(p[3])
            elif l.startswith("Flag "):
                b["flags"].append(l[5:])
            elif l.startswith("Condition "):
                q, _, c = l[10:].partition(" ")
                b["quantifier"], b["condition"] = q, c
            elif l.startswith("Observation "):
                b["verdict"] = l.split()[2]
            i += 1
        blocks.append(b)
    return blocks


def canon(states):
    return None if states is None else sorted(json.dumps(s, sort_keys=True) for s in states)


def cmd_compare(text, jsonl, max_unpaired="0"):
    """Pairs the answers by test name, in order; a test answered in one
    output only (a time-out in one run) is unpaired: at most max_unpaired."""
    blocks = text_blocks(text)
    objs = [o for o in load_jsonl(jsonl) if o.get("kind") == "litmus" and "verdict" in o]
    pending = {}
    for b in blocks:
        pending.setdefault(b["test"], []).append(b)
    pairs, unpaired = [], 0
    for o in objs:
        if pending.get(o["test"]):
            pairs.append((pending[o["test"]].pop(0), o))
        else:
            unpaired += 1
    unpaired += sum(len(v) for v in pending.values())
    if unpaired > int(max_unpaired):
        fail("%d answers in the text, %d in the JSON, %d unpaired" % (len(blocks), len(objs), unpaired))
    for b, o in pairs:
        for k in ("test", "verdict", "ok", "loop", "positive", "negative", "flags",
                  "quantifier", "condition"):
            if b.get(k) != o.get(k):
                fail("%s: %s is %r in the text, %r in the JSON" % (b["test"], k, b.get(k), o.get(k)))
        if canon(b["states"]) != canon(o.get("states")):
            fail("%s: the states differ" % b["test"])
        if b["states"] is not None and o.get("nstates") != len(b["states"]):
            fail("%s: nstates %r, %d states" % (b["test"], o.get("nstates"), len(b["states"])))
        if not isinstance(o.get("time"), (int, float)):
            fail("%s: no time" % b["test"])
    print("compare: %d tests (%d unpaired)" % (len(pairs), unpaired))


def result_field(path):
    """The first word of the test's Result: comment field, or None."""
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"[\s(]*\*?\s*Result:\s*(\S+)", line)
        if m:
            return m.group(1)
    return None


def cmd_expected(jsonl):
    nstates = nresult = 0
    for o in load_jsonl(jsonl):
        f = o["file"]
        if "verdict" not in o:
            continue
        sf = re.sub(r"\.litmus$", ".states", f)
        if sf != f and os.path.exists(sf):
            want = [state(l) for l in open(sf) if l.strip()]
            nstates += 1
            if canon(want) != canon(o["states"]):
                fail("%s: states differ from %s" % (f, sf))
        r = result_field(f)
        if r in ("Never", "Sometimes", "Always"):
            nresult += 1
            if o["verdict"] != r:
                fail("%s: verdict %s, Result: %s" % (f, o["verdict"], r))
    print("expected: %d .states files, %d Result: fields" % (nstates, nresult))


def ev_key(e):
    return (e.get("thread"), e.get("line"))


def check_execution(name, x, states=None):
    """An execution's inner consistency; returns 1 when checked."""
    events = x.get("events", [])
    if not events:
        fail("%s: an execution without events" % name)
        return 0
    for e in events:
        for k in ("thread", "line", "kind"):
            if k not in e:
                fail("%s: event without %s: %r" % (name, k, e))
        rf = e.get("reads_from")
        if rf is None:
            continue
        if rf["value"] != e.get("value"):
            fail("%s: a read of %r reads %r" % (name, e.get("value"), rf["value"]))
        if not rf.get("init") and not any(
                ev_key(w) == ev_key(rf) and w.get("location") == e.get("location")
                and w.get("value") == e.get("value") for w in events):
            fail("%s: reads from %r, no such write" % (name, rf))
    for co in x.get("co", []):
        locs = [w for w in co["writes"] if not w.get("init")]
        for w in locs:
            if not any(ev_key(e) == ev_key(w) and e.get("location") == co["location"]
                       for e in events):
                fail("%s: co of %s names a write not among the events" % (name, co["location"]))
    for fr in x.get("fr", []):
        if fr["read"].get("location") != fr["write"].get("location"):
            fail("%s: fr between two locations" % name)
    if states is not None:
        final = x.get("final", {})
        # the witness's final state is one of the listed states
        if not any(all(final.get(k, final.get("[%s]" % k)) == v for k, v in s.items())
                   for s in states):
            fail("%s: the witness's final state %r is not among the states" % (name, final))
    return 1


def cmd_executions(jsonl):
    nw = ne = nr = 0
    for o in load_jsonl(jsonl):
        name = o.get("test") or o["file"]
        if "witness" in o:
            if o["verdict"] == "Never":
                fail("%s: a witness for a condition never reached" % name)
            if o["witness"].get("rechecked") is not True:
                fail("%s: the witness was not re-checked" % name)
            nw += check_execution(name, o["witness"], o.get("states"))
        elif o.get("verdict") in ("Sometimes", "Always") and "error" not in o:
            fail("%s: condition reachable, no witness" % name)
        if "explanation" in o:
            ex = o["explanation"]
            if o["verdict"] != "Never":
                fail("%s: an explanation for a reachable condition" % name)
            for v in ex.get("violations", []):
                if v["axiom"] not in ex["axioms"]:
                    fail("%s: violation of %s, not among the axioms" % (name, v["axiom"]))
                steps = v.get("steps", [])
                for a, b in zip(steps, steps[1:]):
                    if a["to"] != b["from"]:
                        fail("%s: the steps of %s do not chain" % (name, v["axiom"]))
                if "cycle" in v.get("what", "") and steps and steps[-1]["to"] != steps[0]["from"]:
                    fail("%s: the %s cycle does not close" % (name, v["axiom"]))
                for s in steps:
                    if not s.get("relation"):
                        fail("%s: a step without a relation" % name)
            if ex["axioms"]:
                ne += 1
                if "execution" in ex:
                    check_execution(name, ex["execution"])
        if "race" in o:
            if "data-race" not in o["flags"]:
                fail("%s: a race without the data-race flag" % name)
            if len(o["race"]["accesses"]) != 2:
                fail("%s: a race of %d accesses" % (name, len(o["race"]["accesses"])))
            nr += check_execution(name, o["race"]["execution"])
    print("executions: %d witnesses, %d explanations, %d races" % (nw, ne, nr))


def cmd_errors(jsonl):
    n = 0
    for o in load_jsonl(jsonl):
        exp = re.sub(r"\.litmus$", ".expect", o["file"])
        if not os.path.exists(exp):
            continue
        want = open(exp).readline().rstrip("\n")
        e = o.get("error")
        if not e or o["status"] != 1:
            fail("%s: no error object" % o["file"])
            continue
        loc = "%s:%d:%d" % (e["file"], e["line"], e["col"]) if e["col"] else \
            "%s:%d" % (e["file"], e["line"]) if e["line"] else e["file"]
        got = "%s: error: %s" % (loc, e["message"])
        n += 1
        if got != want:
            fail("%s: error object says %r, .expect %r" % (o["file"], got, want))
    print("errors: %d error objects" % n)


def answers(path):
    """file -> the object without its times (what a rerun must repeat)."""
    d = {}
    for o in load_jsonl(path):
        o = dict(o)
        o.pop("time", None)
        if o["file"] in d:
            fail("%s: %s appears twice" % (path, o["file"]))
        d[o["file"]] = o
    return d


def cmd_merge_equal(a, b):
    da, db = answers(a), answers(b)
    if set(da) != set(db):
        fail("files differ: %d only in %s, %d only in %s" %
             (len(set(da) - set(db)), a, len(set(db) - set(da)), b))
    for f in sorted(set(da) & set(db)):
        if da[f] != db[f]:
            fail("%s: answers differ" % f)
    print("merge-equal: %d files" % len(set(da) & set(db)))


def main(argv):
    cmds = {"compare": cmd_compare, "expected": cmd_expected, "executions": cmd_executions,
            "errors": cmd_errors, "merge-equal": cmd_merge_equal}
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__)
        return 2
    cmds[argv[1]](*argv[2:])
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
