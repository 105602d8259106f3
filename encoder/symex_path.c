/*
 * symex_path.c - the paths of symbolic execution: naming a path condition,
 * copying a state and merging states where paths join, and loops, run to
 * the unroll bound with the paths still looping there recorded
 * (enc->bounds, enc->drop).  The instructions are in symex.c.
 *
 * Spin loops (GenMC's "spin-assume", Dartagnan's spin-loop detection): a
 * path that goes on looping after an iteration without effect is not run
 * further.  "Without effect" (removable()) means: on that path the
 * iteration created only marked reads (READ_ONCE, acquire loads, a failed
 * cmpxchg's read) and fences other than RCU's, no assertion of it failed,
 * and every register the next iteration or the code after the loop can
 * read (spin.c) holds what it held when the iteration began.  Why that
 * keeps exactly the reachable final states and failing assertions:
 *  - every execution kept is an execution of the program (the loop left
 *    on an iteration that was run), so nothing is added;
 *  - take a consistent execution in which such an iteration I is followed
 *    by another one.  Remove I's events: the rest of the thread runs
 *    from the same registers, so it makes the same events with the same
 *    values, addresses and dependencies (minus those on I's reads: its
 *    registers are dead, only the control dependencies herd7 puts after
 *    a loop test are lost).  Nothing reads from a read, and no write,
 *    lock, SRCU or RCU event went, so co is unchanged and rf, fr, po,
 *    the fences' relations and the dependencies lose edges only.  Every
 *    LKMM axiom (acyclic hb, pb, rcu-order with its counting over the
 *    grace periods and critical sections, all kept; empty rmw & (fre;
 *    coe); sc-per-location) forbids a cycle or a pair built from those
 *    relations by union, sequence, closure, intersection with static
 *    relations and "minus id", all monotone, so the smaller execution is
 *    consistent too.  It has the same final state, passes the filter the
 *    same way, and fails the same assertions except I's, and I has none
 *    that fails.  Repeating this leaves an execution whose loop is left
 *    at the first iteration that does not go on without effect, which is
 *    encoded.  Plain reads, and reads of a location a plain store may
 *    write, are not left out: a data race only that read has would lose
 *    its flag (the flags are the same too).  Nor are reads at an
 *    address computed at run time.
 * Such a path is recorded as an enc_bound with spin set: in enc->drop for
 * the verdict, never a cut-off, and the spin check (bounds.c) asks
 * whether it can repeat the iteration forever.  Iterations with effects
 * are unrolled as before, and --unroll counts only those; the older,
 * weaker "stuttering" test (wrote nothing, every register unchanged) still
 * tells a cut-off path from a stuttering one where an iteration has events
 * this rule does not leave out (RCU fences, lock reads, plain reads).
 */
#include <string.h>

#include "encoder/symex.h"
#include "common/arena.h"
#include "encoder/spin.h"

/*
 * A path condition as a Boolean of its own, defined once in the facts.
 * Every relation entry of an event carries its guard, and Z3 preprocesses
 * each definition on its own, walking whatever terms it holds: with the
 * guards written out, a lock program's 50,000 definitions held 10 million
 * nodes between them (Z3 took seconds to take them in); named, about as
 * many as they have entries.  true, false and atoms are kept as they are
 * (the encoder tests for them).
 */
Z3_ast sx_path_guard(struct symex *sx, Z3_ast g)
{
	Z3_context z = sx->z;
	if (!g || is_false(sx, g) || rel_is_true(sx->rc, g) ||
	    (Z3_is_app(z, g) && Z3_get_app_num_args(z, Z3_to_app(z, g)) == 0))
		return g;
	if (sx->named_from && Z3_is_eq_ast(z, g, sx->named_from))
		return sx->named; /* events in a row on one path */
	Z3_ast v = rel_fresh_bool(sx->rc, "path");
	enc_fact(sx->enc, Z3_mk_eq(z, v, g));
	sx->named_from = g;
	sx->named = v;
	return v;
}

struct state sx_copy_state(struct symex *sx, const struct state *st)
{
	struct state c;
	c.guard = st->guard;
	c.regs = arena_alloc(sx->enc->arena, sizeof(struct regval) * (size_t)sx->th->nregs);
	memcpy(c.regs, st->regs, sizeof(struct regval) * (size_t)sx->th->nregs);
	return c;
}

/* Merge states (by their guards) into one. */
struct state sx_merge(struct symex *sx, struct state *s, int k)
{
	struct state m;
	int live = 0;
	for (int i = 0; i < k; i++)
		if (!is_false(sx, s[i].guard))
			s[live++] = s[i];
	if (live == 0) {
		m.guard = sx->f;
		m.regs = k ? s[0].regs : NULL;
		return m;
	}
	m = sx_copy_state(sx, &s[live - 1]);
	Z3_ast g = s[live - 1].guard;
	for (int i = live - 2; i >= 0; i--) {
		for (int r = 0; r < sx->th->nregs; r++) {
			struct regval a = s[i].regs[r], b = m.regs[r];
			if (a.v != b.v && !Z3_is_eq_ast(sx->z, a.v, b.v))
				m.regs[r].v = Z3_mk_ite(sx->z, s[i].guard, a.v, b.v);
			/* Path-sensitive: each side's reads count on its own path,
			 * also when both sides computed the same value. */
			m.regs[r].d = sx_deps_merge(sx, a.d, b.d, s[i].guard);
			m.regs[r].t = sx_deps_merge(sx, a.t, b.t, s[i].guard);
		}
		g = rel_or2(sx->rc, s[i].guard, g);
	}
	m.guard = sx_path_guard(sx, g);
	return m;
}

void sx_push_state(struct symex *sx, struct state **arr, int *n, int *cap,
		   struct state s)
{
	if (*n == *cap) {
		int nc = *cap ? 2 * *cap : 4;
		*arr = arena_grow(sx->enc->arena, *arr, sizeof **arr, (size_t)*n, (size_t)nc);
		*cap = nc;
	}
	(*arr)[(*n)++] = s;
}

/* Whether one iteration made no progress on a path that goes on looping:
 * it wrote nothing and left the registers as it found them, so the next
 * iteration can do exactly the same again. */
static Z3_ast stutter(struct symex *sx, const struct state *start,
		      const struct state *end, int first_ev)
{
	const unsigned long writes = EVC_BIT(EVC_W) | EVC_BIT(EVC_LKW) |
		EVC_BIT(EVC_UL) | EVC_BIT(EVC_SRCU);
	Z3_ast same = sx->t;
	for (int r = 0; r < sx->th->nregs; r++) {
		Z3_ast a = start->regs[r].v, b = end->regs[r].v;
		if (a != b && !Z3_is_eq_ast(sx->z, a, b))
			same = rel_and2(sx->rc, same, Z3_mk_eq(sx->z, a, b));
	}
	for (int e = first_ev; e < sx->enc->n; e++)
		if (sx->enc->ev[e].cls & writes)
			same = rel_and2(sx->rc, same, Z3_mk_not(sx->z, sx->enc->ev[e].guard));
	return same ? same : sx->f;
}

/*
 * Whether one iteration can be left out of any execution that goes on
 * looping after it (see "Spin loops" at the top of this file): on that path
 * it created only marked reads and fences other than RCU's, no assertion
 * of it failed, and the registers the next iteration or the code after
 * the loop can read (live) are as it found them.
 */
static Z3_ast removable(struct symex *sx, const unsigned char *live,
			const struct state *start, const struct state *end,
			int first_ev, int first_assert)
{
	/* with EVC_RMW: a failed cmpxchg's read, an RMW event (herd7's
	 * R*) paired with no write; a successful RMW's write is not a
	 * read, so its iteration still has an effect */
	const unsigned long reads = EVC_BIT(EVC_R) | EVC_BIT(EVC_ONCE) |
		EVC_BIT(EVC_ACQUIRE) | EVC_BIT(EVC_RMW);
	const unsigned long fences = EVC_BIT(EVC_F) | EVC_BIT(EVC_MB) |
		EVC_BIT(EVC_RMB) | EVC_BIT(EVC_WMB) | EVC_BIT(EVC_BARRIER) |
		EVC_BIT(EVC_BEFORE_ATOMIC) | EVC_BIT(EVC_AFTER_ATOMIC) |
		EVC_BIT(EVC_AFTER_SPINLOCK) | EVC_BIT(EVC_AFTER_UNLOCK_LOCK);
	const unsigned long marked = EVC_BIT(EVC_ONCE) | EVC_BIT(EVC_ACQUIRE);
	struct encoding *enc = sx->enc;
	Z3_ast same = sx->t;
	for (int r = 0; r < sx->th->nregs && same; r++) {
		Z3_ast a = start->regs[r].v, b = end->regs[r].v;
		if (live[r] && a != b && !Z3_is_eq_ast(sx->z, a, b))
			same = rel_and2(sx->rc, same, Z3_mk_eq(sx->z, a, b));
	}
	for (int e = first_ev; e < enc->n && same; e++) {
		unsigned long c = enc->ev[e].cls;
		int loc = enc->ev[e].loc;
		int ok = (c & EVC_BIT(EVC_R))
			? !(c & ~reads) && (c & marked) && loc >= 0 &&
			  !sx->plain_written[loc]
			: (c & EVC_BIT(EVC_F)) && !(c & ~fences);
		if (!ok)
			same = rel_and2(sx->rc, same, Z3_mk_not(sx->z, enc->ev[e].guard));
	}
	for (int a = first_assert; a < enc->nasserts && same; a++)
		same = rel_and2(sx->rc, same, Z3_mk_not(sx->z, enc->asserts[a].fails));
	return same ? same : sx->f;
}

/* A path still looping at the bound stops there: herd7 drops such
 * executions (enc->drop), bounds.c asks whether any is consistent. */
static void stop_at_bound(struct symex *sx, struct enc_bound b)
{
	struct encoding *enc = sx->enc;
	enc->bounds = arena_grow(enc->arena, enc->bounds, sizeof *enc->bounds,
				 (size_t)enc->nbounds, (size_t)enc->nbounds + 1);
	enc->bounds[enc->nbounds++] = b;
	Z3_ast_vector_push(sx->z, enc->drop, Z3_mk_not(sx->z, b.reach));
	sx->stopped = or_lit(sx, sx->stopped, b.reach);
}

void sx_exec_loop(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	struct loop_ctx lc = {0};
	lc.outer = sx->loop;
	sx->loop = &lc;
	struct deps saved_ctrl = sx->ctrl;
	struct state cur = sx_copy_state(sx, st);
	struct enc_bound b = {.loop = in, .thread = sx->th->id,
			      .stutter_any = sx->f, .last_stutter = sx->f};
	const unsigned char *live = spin_live_regs(sx->enc->arena, sx->th, in);
	for (int i = 0; i < sx->unroll && !is_false(sx, cur.guard); i++) {
		lc.nconts = 0;
		struct state start = sx_copy_state(sx, &cur);
		b.first_ev = sx->enc->n;
		int first_assert = sx->enc->nasserts;
		sx_exec_block(sx, &cur, &in->then_b);
		if (sx->failed)
			break;
		sx_push_state(sx, &lc.conts, &lc.nconts, &lc.ccap, cur);
		cur = sx_merge(sx, lc.conts, lc.nconts);
		b.end_ev = sx->enc->n;
		/* A path that goes on after an iteration without effect is a
		 * longer copy of one that left the loop later: it is not run
		 * further, only kept for the spin check (bounds.c). */
		Z3_ast rm = removable(sx, live, &start, &cur, b.first_ev, first_assert);
		Z3_ast spin = rel_and2(sx->rc, cur.guard, rm);
		if (!is_false(sx, spin)) {
			stop_at_bound(sx, (struct enc_bound){
				.loop = in, .thread = sx->th->id, .spin = 1,
				.reach = spin, .stutter_any = sx->t,
				.last_stutter = sx->t, .first_ev = b.first_ev,
				.end_ev = b.end_ev});
			cur.guard = rel_is_true(sx->rc, rm) ? NULL
				: sx_path_guard(sx, rel_and2(sx->rc, cur.guard, Z3_mk_not(sx->z, rm)));
			if (!cur.guard)
				cur.guard = sx->f;
		}
		b.last_stutter = stutter(sx, &start, &cur, b.first_ev);
		b.stutter_any = or_lit(sx, b.stutter_any, b.last_stutter);
	}
	if (!sx->failed && !is_false(sx, cur.guard)) {
		b.reach = cur.guard;
		stop_at_bound(sx, b);
	}
	sx->loop = lc.outer;
	sx->ctrl = saved_ctrl;
	if (lc.nexits == 0) {
		st->guard = sx->f;
		return;
	}
	*st = sx_merge(sx, lc.exits, lc.nexits);
}
