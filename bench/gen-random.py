#!/usr/bin/env python3
"""bench/gen-random.py - random many-thread litmus tests for bench/random.sh.

usage: bench/gen-random.py [--seed S] [--count N] [--first I] [--out DIR]
  --seed S    the seed (default 1); the same seed gives byte-identical files
  --count N   how many tests (default 200)
  --first I   the index of the first test (default 0)
  --out DIR   where the .litmus files go (default build/bench/random)
Prints the paths of the written files, one a line.

Test I of seed S is random-sS-III.litmus, drawn from its own generator
seeded with "S:I", so it does not depend on --count or --first.  Each test
has 5 to 8 threads P0..Pk of 3 to 6 statements each (every statement
counts: an access, a fence, spin_lock and spin_unlock, rcu_read_lock and
rcu_read_unlock, synchronize_rcu) over 3 to 5 shared locations: int
locations x0.. (READ_ONCE, WRITE_ONCE, smp_load_acquire,
smp_store_release) and 1 or 2 atomic_t locations a0.. (atomic_read,
atomic_set, atomic_inc, atomic_add_return, atomic_fetch_add_relaxed,
atomic_xchg, atomic_cmpxchg), declared with ATOMIC_INIT(0); fences
smp_mb, smp_rmb, smp_wmb; 0 to 2 spinlocks s0, s1 (spinlock_t).

Well-formedness: spin_lock/spin_unlock and rcu_read_lock/rcu_read_unlock
come in balanced pairs around at least one access; two regions of one
thread are disjoint or nested, the same lock is never nested, and s1 is
nested only inside s0 (no ABBA deadlock); synchronize_rcu is never
inside a read-side critical section or a spinlock.  Every location is
accessed by at least two threads and written by at least one; stores write
values unique to their location (int locations 1, 2, ...; atomic ones 10,
20, ... so that increments do not collide with them).  Each read gets its
own register r0, r1, ... of its thread.

The exists clause names 2 to 4 read registers and/or final values of
locations.  Its values come from sequentially consistent runs of the test
(random interleavings that respect the locks and let a grace period happen
only while no other thread is inside a read-side critical section; every
such run is allowed by the LKMM): either all from one run, or mixed from
several runs (often an outcome no SC run reaches, a weak-memory question).
The condition is kept only if some sampled SC run falsifies it and no
conjunct is always true, so it is never trivially Always; whether it is
Never, Sometimes or Always under the LKMM is for the checker to say: no
Result: line.
"""
import argparse
import os
import random
import sys

SC_RUNS = 300


class Op:
    """One statement.  kind: read, write, fence, sync, lock, unlock,
    rcu_lock, rcu_unlock, rmw.  For accesses: loc, the C text is built
    when the registers are numbered."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.loc = kw.get("loc")
        self.prim = kw.get("prim")
        self.val = kw.get("val")      # the stored value / the operand
        self.old = kw.get("old")      # cmpxchg's expected value
        self.reg = None               # "rN" for an op that returns a value

    def reads(self):
        return self.kind == "read" or (self.kind == "rmw" and self.prim != "atomic_inc")

    def writes(self):
        return self.kind in ("write", "rmw")

    def is_access(self):
        return self.kind in ("read", "write", "rmw")


def gen_access(rng, locs, atomics, counters, fence_ok):
    """A random access (or, if fence_ok, sometimes a fence or a
    synchronize_rcu)."""
    roll = rng.random()
    if fence_ok and roll < 0.18:
        return Op("fence", prim=rng.choice(["smp_mb", "smp_mb", "smp_rmb", "smp_wmb"]))
    if fence_ok and roll < 0.25:
        return Op("sync", prim="synchronize_rcu")
    loc = rng.choice(locs)
    if loc in atomics:
        prim = rng.choice(["atomic_read", "atomic_set", "atomic_inc", "atomic_add_return",
                           "atomic_fetch_add_relaxed", "atomic_xchg", "atomic_cmpxchg"])
        if prim == "atomic_read":
            return Op("read", loc=loc, prim=prim)
        if prim in ("atomic_set", "atomic_xchg"):
            counters[loc] += 10
            return Op("write" if prim == "atomic_set" else "rmw", loc=loc, prim=prim,
                      val=counters[loc])
        if prim == "atomic_inc":
            return Op("rmw", loc=loc, prim=prim, val=1)
        if prim == "atomic_cmpxchg":
            counters[loc] += 10
            # expect the initial value, a constant stored so far, or a count
            old = rng.choice([0, 0, 1] + list(range(10, counters[loc], 10)))
            return Op("rmw", loc=loc, prim=prim, old=old, val=counters[loc])
        return Op("rmw", loc=loc, prim=prim, val=rng.choice([1, 1, 2]))
    prim = rng.choice(["READ_ONCE", "READ_ONCE", "WRITE_ONCE", "WRITE_ONCE",
                       "smp_load_acquire", "smp_store_release"])
    if prim in ("READ_ONCE", "smp_load_acquire"):
        return Op("read", loc=loc, prim=prim)
    counters[loc] += 1
    return Op("write", loc=loc, prim=prim, val=counters[loc])


def place_regions(rng, body, regions):
    """regions: list of (open, close) Op pairs (1 or 2); returns the
    statement list with each pair around a non-empty run of body, two runs
    disjoint or nested (the first region outside), or None."""
    m = len(body)
    if len(regions) == 1:
        i = rng.randrange(m)
        j = rng.randrange(i, m)
        spans = [(i, j)]
    else:
        if rng.random() < 0.5 and m >= 2:      # disjoint
            cut = rng.randrange(1, m)
            i1 = rng.randrange(cut)
            j1 = rng.randrange(i1, cut)
            i2 = rng.randrange(cut, m)
            j2 = rng.randrange(i2, m)
            spans = [(i1, j1), (i2, j2)]
        else:                                   # nested: second inside the first
            i1 = rng.randrange(m)
            j1 = rng.randrange(i1, m)
            i2 = rng.randrange(i1, j1 + 1)
            j2 = rng.randrange(i2, j1 + 1)
            spans = [(i1, j1), (i2, j2)]
    opens = {}
    closes = {}
    for (i, j), (o, c) in zip(spans, regions):
        opens.setdefault(i, []).append(o)
        closes.setdefault(j, []).insert(0, c)
    out = []
    for k, op in enumerate(body):
        out.extend(opens.get(k, []))
        out.append(op)
        out.extend(closes.get(k, []))
    # no region around fences and grace periods only; no synchronize_rcu
    # inside a region (a read-side section or a spinlock)
    depth = 0
    seen_access = []
    for op in out:
        if op.kind in ("lock", "rcu_lock"):
            depth += 1
            seen_access.append(False)
        elif op.kind in ("unlock", "rcu_unlock"):
            depth -= 1
            if not seen_access.pop():
                return None
        elif op.kind == "sync" and depth > 0:
            return None
        elif op.is_access():
            seen_access = [True] * len(seen_access)
    return out


def gen_thread(rng, locs, atomics, locks, counters):
    n = rng.randint(3, 6)
    # the regions: lock s, rcu, both, two locks, or none
    choices = [("none", 5), ("rcu", 2)]
    if locks:
        choices += [("lock", 3), ("lock+rcu", 1)]
        if len(locks) == 2:
            choices += [("s0>s1", 1)]
    shape = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
    if shape != "none" and n - 2 < 1:
        shape = "none"
    if shape in ("lock+rcu", "s0>s1") and n - 4 < 1:
        shape = rng.choice(["rcu", "lock"] if locks else ["rcu"])
    for _ in range(100):
        regions = []
        if shape == "lock":
            s = rng.choice(locks)
            regions = [(Op("lock", loc=s), Op("unlock", loc=s))]
        elif shape == "rcu":
            regions = [(Op("rcu_lock"), Op("rcu_unlock"))]
        elif shape == "lock+rcu":
            s = rng.choice(locks)
            pair = [(Op("lock", loc=s), Op("unlock", loc=s)), (Op("rcu_lock"), Op("rcu_unlock"))]
            rng.shuffle(pair)
            regions = pair
        elif shape == "s0>s1":
            regions = [(Op("lock", loc="s0"), Op("unlock", loc="s0")),
                       (Op("lock", loc="s1"), Op("unlock", loc="s1"))]
        m = n - 2 * len(regions)
        saved = dict(counters)
        body = []
        for k in range(m):
            # fences and grace periods between accesses only
            fence_ok = 0 < k < m - 1 and body[-1].kind not in ("fence", "sync")
            body.append(gen_access(rng, locs, atomics, counters, fence_ok))
        if not any(op.is_access() for op in body):
            counters.update(saved)
            continue
        if not regions:
            return body
        out = place_regions(rng, body, regions)
        if out is not None:
            return out
        counters.update(saved)
    return None


def sc_run(rng, threads, locs):
    """One random sequentially consistent run: (registers, finals), or None
    if it got stuck (it cannot: locks are ordered, grace periods are never
    inside a region)."""
    mem = {l: 0 for l in locs}
    pc = [0] * len(threads)
    holder = {}
    in_rcu = [0] * len(threads)
    regs = {}
    while True:
        runnable = []
        for t, ops in enumerate(threads):
            if pc[t] >= len(ops):
                continue
            op = ops[pc[t]]
            if op.kind == "lock" and op.loc in holder:
                continue
            if op.kind == "sync" and any(in_rcu[u] for u in range(len(threads)) if u != t):
                continue
            runnable.append(t)
        if not runnable:
            if all(pc[t] >= len(ops) for t, ops in enumerate(threads)):
                return regs, mem
            return None
        t = rng.choice(runnable)
        op = threads[t][pc[t]]
        pc[t] += 1
        k = op.kind
        if k == "lock":
            holder[op.loc] = t
        elif k == "unlock":
            del holder[op.loc]
        elif k == "rcu_lock":
            in_rcu[t] += 1
        elif k == "rcu_unlock":
            in_rcu[t] -= 1
        elif k == "read":
            regs[(t, op.reg)] = mem[op.loc]
        elif k == "write":
            mem[op.loc] = op.val
        elif k == "rmw":
            old = mem[op.loc]
            p = op.prim
            if p in ("atomic_inc", "atomic_add_return", "atomic_fetch_add_relaxed"):
                mem[op.loc] = old + op.val
            elif p == "atomic_xchg":
                mem[op.loc] = op.val
            elif p == "atomic_cmpxchg":
                if old == op.old:
                    mem[op.loc] = op.val
            if op.reg is not None:
                regs[(t, op.reg)] = mem[op.loc] if p == "atomic_add_return" else old


def c_text(op):
    p = op.prim
    if op.kind == "fence":
        return "%s();" % p
    if op.kind == "sync":
        return "synchronize_rcu();"
    if op.kind == "lock":
        return "spin_lock(%s);" % op.loc
    if op.kind == "unlock":
        return "spin_unlock(%s);" % op.loc
    if op.kind == "rcu_lock":
        return "rcu_read_lock();"
    if op.kind == "rcu_unlock":
        return "rcu_read_unlock();"
    if p == "READ_ONCE":
        e = "READ_ONCE(*%s)" % op.loc
    elif p == "smp_load_acquire":
        e = "smp_load_acquire(%s)" % op.loc
    elif p == "WRITE_ONCE":
        return "WRITE_ONCE(*%s, %d);" % (op.loc, op.val)
    elif p == "smp_store_release":
        return "smp_store_release(%s, %d);" % (op.loc, op.val)
    elif p == "atomic_read":
        e = "atomic_read(%s)" % op.loc
    elif p == "atomic_set":
        return "atomic_set(%s, %d);" % (op.loc, op.val)
    elif p == "atomic_inc":
        return "atomic_inc(%s);" % op.loc
    elif p in ("atomic_add_return", "atomic_fetch_add_relaxed"):
        e = "%s(%d, %s)" % (p, op.val, op.loc)
    elif p == "atomic_xchg":
        e = "atomic_xchg(%s, %d)" % (op.loc, op.val)
    elif p == "atomic_cmpxchg":
        e = "atomic_cmpxchg(%s, %d, %d)" % (op.loc, op.old, op.val)
    else:
        raise ValueError(p)
    return "%s = %s;" % (op.reg, e)


def gen_test(seed, index):
    rng = random.Random("%d:%d" % (seed, index))
    for attempt in range(1000):
        test = try_test(rng)
        if test is not None:
            return test
    raise RuntimeError("seed %d test %d: no test after 1000 attempts" % (seed, index))


def try_test(rng):
    nthreads = rng.randint(5, 8)
    nloc = rng.randint(3, 5)
    natomic = rng.randint(1, 2)
    nplain = nloc - natomic
    plain = ["x%d" % i for i in range(nplain)]
    atomics = ["a%d" % i for i in range(natomic)]
    locs = plain + atomics
    locks = ["s%d" % i for i in range(rng.choice([0, 1, 1, 2]))]
    counters = {l: 0 for l in locs}
    threads = []
    for _ in range(nthreads):
        ops = gen_thread(rng, locs, atomics, locks, counters)
        if ops is None:
            return None
        threads.append(ops)
    # every location shared by two threads and written by one
    for l in locs:
        users = [t for t, ops in enumerate(threads) if any(op.loc == l for op in ops)]
        if len(users) < 2 or not any(op.loc == l and op.writes() for ops in threads for op in ops):
            return None
    # registers
    for ops in threads:
        k = 0
        for op in ops:
            if op.reads():
                op.reg = "r%d" % k
                k += 1
    cands = [("reg", t, op.reg) for t, ops in enumerate(threads) for op in ops if op.reg]
    cands += [("loc", None, l) for l in locs]
    runs = []
    for _ in range(SC_RUNS):
        r = sc_run(rng, threads, locs)
        if r is None:
            return None
        runs.append(r)

    def value(run, c):
        regs, mem = run
        return regs[(c[1], c[2])] if c[0] == "reg" else mem[c[2]]

    # a candidate worth naming takes at least two values over the runs
    varying = [c for c in cands if len({value(run, c) for run in runs}) > 1]
    if len(varying) < 2:
        return None
    cond = None
    for _ in range(50):
        k = rng.randint(2, min(4, len(varying)))
        # at least one register when there is one, mostly registers
        regs_v = [c for c in varying if c[0] == "reg"]
        picked = []
        if regs_v:
            picked.append(rng.choice(regs_v))
        while len(picked) < k:
            c = rng.choice(varying if rng.random() < 0.35 else (regs_v or varying))
            if c not in picked:
                picked.append(c)
        picked.sort(key=lambda c: (c[0] != "reg", c[1] if c[1] is not None else 0, c[2]))
        if rng.random() < 0.5:
            base = rng.choice(runs)
            vals = [value(base, c) for c in picked]
        else:
            vals = [value(rng.choice(runs), c) for c in picked]
        holds = sum(1 for run in runs if all(value(run, c) == v for c, v in zip(picked, vals)))
        if holds < len(runs):
            cond = list(zip(picked, vals))
            break
    if cond is None:
        return None
    return threads, plain, atomics, locks, cond


def render(seed, index, test):
    threads, plain, atomics, locks, cond = test
    name = "random-s%d-%03d" % (seed, index)
    nops = sum(len(ops) for ops in threads)
    lines = ["C %s" % name, "", "(*",
             " * Generated by bench/gen-random.py --seed %d: test %d of that seed." % (seed, index),
             " * %d threads, %d statements, locations %s%s." % (
                 len(threads), nops, ", ".join(plain + atomics),
                 (", locks " + ", ".join(locks)) if locks else ""),
             " * Its answer is not known in advance: bench/random.sh compares lkmmc's",
             " * full mode with --exists-only on it.",
             " *)", "", "{"]
    for a in atomics:
        lines.append("\tatomic_t %s = ATOMIC_INIT(0);" % a)
    lines.append("}")
    for t, ops in enumerate(threads):
        used = [l for l in plain + atomics + locks if any(op.loc == l for op in ops)]
        params = []
        for l in used:
            ty = "atomic_t" if l in atomics else ("spinlock_t" if l in locks else "int")
            params.append("%s *%s" % (ty, l))
        lines += ["", "P%d(%s)" % (t, ", ".join(params)), "{"]
        regs = [op.reg for op in ops if op.reg]
        for r in regs:
            lines.append("\tint %s;" % r)
        if regs:
            lines.append("")
        depth = 1
        for op in ops:
            if op.kind in ("unlock", "rcu_unlock"):
                depth -= 1
            lines.append("\t" * depth + c_text(op))
            if op.kind in ("lock", "rcu_lock"):
                depth += 1
        lines.append("}")
    terms = []
    for c, v in cond:
        terms.append("%d:%s=%d" % (c[1], c[2], v) if c[0] == "reg" else "%s=%d" % (c[2], v))
    lines += ["", "exists (%s)" % " /\\ ".join(terms), ""]
    return name, "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="random many-thread LKMM litmus tests")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--out", default="build/bench/random")
    a = ap.parse_args()
    if a.count < 0 or a.first < 0:
        ap.error("--count and --first must be >= 0")
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.first, a.first + a.count):
        name, text = render(a.seed, i, gen_test(a.seed, i))
        path = os.path.join(a.out, name + ".litmus")
        with open(path, "w") as f:
            f.write(text)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
