/*
 * symex.c - bounded symbolic execution of each thread into events.
 *
 * Walks a thread's IR with a path guard and a register file of symbolic
 * values, creating the events herd7 creates for each primitive (fences
 * around full-barrier RMWs, LKR/LKW pairs for spin_lock, one event per
 * alternative outcome of cmpxchg/trylock/is_locked, each guarded by that
 * outcome).  Every register value carries the set of reads it depends on,
 * which gives the addr, data and ctrl dependencies.  Loops run at most
 * `unroll` times; a path that would need more stops at the bound: the
 * encoding records it (enc->bounds, with what solver/bounds.c needs to tell
 * a loop that needs more iterations from one that spins without progress)
 * and enc->drop holds herd7's cut (no path stops there), which the verdict
 * assumes.  Assertions (IR_ASSERT) are recorded with the condition under
 * which they fail; they do not change the path.  This file creates events
 * only: relations and execution choices are built in execution.c.
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
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "encoder/internal.h"
#include "common/arena.h"
#include "encoder/spin.h"
#include "encoder/z3util.h"

/* A set of read events, sorted, immutable once built. */
struct deps {
	int *ids;      /* event indices */
	Z3_ast *cond;  /* when the dependency holds (NULL entry: always) */
	int n;         /* how many */
};

/* herd7 computes dependencies from the event graph of one path: data
 * flow (addr, data) is value flow through registers and arithmetic; ctrl
 * runs from the reads a branch condition depends on to the events inside
 * the branch, where a register written inside a branch counts as one of
 * those events, so a condition on it later is ctrl-dependent on the
 * first branch's reads too (its value need not come from them: `if (r0)
 * t = 1; else t = 0; if (t) W` orders W after r0's read).  Such control
 * reads never become data or addr: `WRITE_ONCE(*y, t)` after the join
 * depends on nothing.  Hence two sets per register, each path-sensitive
 * (an entry's condition says on which paths it holds). */
struct regval {
	Z3_ast v;       /* symbolic value */
	struct deps d;  /* reads its value flows from (addr, data, ctrl) */
	struct deps t;  /* reads deciding the branches that assigned it, or
			 * that of the registers it was computed from (ctrl
			 * only) */
};

struct state {
	Z3_ast guard;        /* path condition */
	struct regval *regs; /* one per register of the thread */
};

struct loop_ctx {
	struct state *exits;   /* states leaving by break */
	int nexits, cap;       /* count, capacity */
	struct state *conts;   /* states reaching continue */
	int nconts, ccap;      /* count, capacity */
	struct loop_ctx *outer;/* enclosing loop */
};

struct symex {
	struct encoding *enc;     /* where events go */
	Z3_context z;             /* enc->z */
	struct rel_ctx *rc;       /* &enc->rc: its and/or/fresh terms */
	struct diag *d;           /* first error */
	int unroll;               /* loop bound */
	const struct ir_thread *th; /* thread being run */
	int po;                   /* next program-order index */
	int cap;                  /* capacity of enc->ev */
	struct deps ctrl;         /* reads deciding the current path */
	Z3_ast named_from;        /* the last guard path_guard named */
	Z3_ast named;             /* its name */
	struct loop_ctx *loop;    /* innermost loop */
	Z3_ast f;                 /* false literal */
	Z3_ast t;                 /* true literal */
	Z3_ast stopped;           /* paths of this thread stopped at a bound */
	const unsigned char *plain_written; /* per location: a plain store may
				   * write it (spin_plain_written) */
	int failed;               /* an error was reported */
};

static const struct deps deps_none; /* no read */

static struct deps deps_union(struct symex *sx, struct deps a, struct deps b)
{
	if (b.n == 0)
		return a;
	if (a.n == 0)
		return b;
	struct deps r;
	r.ids = arena_alloc(sx->enc->arena, sizeof(int) * (size_t)(a.n + b.n));
	r.cond = arena_alloc(sx->enc->arena, sizeof(Z3_ast) * (size_t)(a.n + b.n));
	r.n = 0;
	int i = 0, j = 0;
	while (i < a.n || j < b.n) {
		if (j >= b.n || (i < a.n && a.ids[i] < b.ids[j])) {
			r.cond[r.n] = a.cond ? a.cond[i] : NULL;
			r.ids[r.n++] = a.ids[i++];
		} else if (i >= a.n || b.ids[j] < a.ids[i]) {
			r.cond[r.n] = b.cond ? b.cond[j] : NULL;
			r.ids[r.n++] = b.ids[j++];
		} else {
			Z3_ast ca = a.cond ? a.cond[i] : NULL, cb = b.cond ? b.cond[j] : NULL;
			r.cond[r.n] = !ca || !cb ? NULL : rel_or2(sx->rc, ca, cb);
			r.ids[r.n++] = a.ids[i++];
			j++;
		}
	}
	return r;
}

/* The same dependencies, holding only when g does (a value taken from one
 * branch of an if depends on that branch's reads only on that path). */
static struct deps deps_when(struct symex *sx, struct deps a, Z3_ast g)
{
	struct deps r = a;
	if (a.n == 0)
		return r;
	r.cond = arena_alloc(sx->enc->arena, sizeof(Z3_ast) * (size_t)a.n);
	for (int i = 0; i < a.n; i++)
		r.cond[i] = rel_and2(sx->rc, a.cond && a.cond[i] ? a.cond[i] : sx->rc->t, g);
	return r;
}

/* Whether two dependency sets are the same (the same reads, each under
 * the same condition). */
static int deps_same(struct deps a, struct deps b)
{
	if (a.n != b.n)
		return 0;
	if (a.ids == b.ids && a.cond == b.cond)
		return 1;
	for (int i = 0; i < a.n; i++) {
		Z3_ast ca = a.cond ? a.cond[i] : NULL, cb = b.cond ? b.cond[i] : NULL;
		if (a.ids[i] != b.ids[i] || ca != cb)
			return 0;
	}
	return 1;
}

/* a on the paths where g holds, b on the others (a merge after an if). */
static struct deps deps_merge(struct symex *sx, struct deps a, struct deps b,
			      Z3_ast g)
{
	if (deps_same(a, b))
		return a;
	return deps_union(sx, deps_when(sx, a, g),
			  deps_when(sx, b, Z3_mk_not(sx->z, g)));
}

static struct deps deps_one(struct symex *sx, int e)
{
	struct deps r;
	r.ids = arena_alloc(sx->enc->arena, sizeof(int));
	r.ids[0] = e;
	r.cond = NULL;
	r.n = 1;
	return r;
}

/* rel.c's and2/or2 use NULL for false. */
static int is_false(struct symex *sx, Z3_ast g)
{
	return !g || Z3_get_bool_value(sx->z, g) == Z3_L_FALSE;
}

static Z3_ast or_lit(struct symex *sx, Z3_ast a, Z3_ast b)
{
	Z3_ast r = rel_or2(sx->rc, a, b);
	return r ? r : sx->f;
}



static Z3_ast fresh_int(struct symex *sx, const char *p)
{
	return rel_fresh_int(sx->rc, p);
}

static Z3_ast fresh_bool(struct symex *sx, const char *p)
{
	return rel_fresh_bool(sx->rc, p);
}


/*
 * A path condition as a Boolean of its own, defined once in the facts.
 * Every relation entry of an event carries its guard, and Z3 preprocesses
 * each definition on its own, walking whatever terms it holds: with the
 * guards written out, a lock program's 50,000 definitions held 10 million
 * nodes between them (Z3 took seconds to take them in); named, about as
 * many as they have entries.  true, false and atoms are kept as they are
 * (the encoder tests for them).
 */
static Z3_ast path_guard(struct symex *sx, Z3_ast g)
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

static Z3_ast b2i(struct symex *sx, Z3_ast b)
{
	return Z3_mk_ite(sx->z, b, z3u_int(sx->z, 1), z3u_int(sx->z, 0));
}

static Z3_ast nonzero(struct symex *sx, Z3_ast v)
{
	return Z3_mk_not(sx->z, Z3_mk_eq(sx->z, v, z3u_int(sx->z, 0)));
}

static int unsupported(struct symex *sx, struct ir_pos pos, const char *what)
{
	if (!sx->failed)
		diag_error(sx->d, sx->enc->prog->file, pos.line, pos.col,
			   "unsupported: %s", what);
	sx->failed = 1;
	return 0;
}

/* ---- expressions ---- */

static Z3_ast bv(struct symex *sx, Z3_ast i)
{
	return Z3_mk_int2bv(sx->z, 64, i);
}

static Z3_ast from_bv(struct symex *sx, Z3_ast b)
{
	return Z3_mk_bv2int(sx->z, b, 1);
}

static Z3_ast binop(struct symex *sx, enum ir_binop op, struct regval a,
		    struct regval b);

static struct regval eval(struct symex *sx, struct state *st,
			  const struct ir_expr *e)
{
	struct regval r = {0};
	Z3_context z = sx->z;
	switch (e->kind) {
	case IR_E_CONST:
		r.v = z3u_int(sx->z, e->num);
		return r;
	case IR_E_LOC:
		r.v = z3u_int(sx->z, enc_loc_address(e->loc));
		return r;
	case IR_E_REG:
		return st->regs[e->reg];
	case IR_E_UNARY: {
		struct regval a = eval(sx, st, e->a);
		r.d = a.d;
		r.t = a.t;
		switch ((enum ir_unop)e->op) {
		case IR_NEG:
			r.v = Z3_mk_unary_minus(z, a.v);
			break;
		case IR_LNOT:
			r.v = b2i(sx, Z3_mk_eq(z, a.v, z3u_int(sx->z, 0)));
			break;
		case IR_BNOT: /* two's complement: ~a == -a - 1 */
			r.v = Z3_mk_sub(z, 2, (Z3_ast[]){Z3_mk_unary_minus(z, a.v),
							  z3u_int(sx->z, 1)});
			break;
		}
		return r;
	}
	case IR_E_COND: {
		struct regval a = eval(sx, st, e->a);
		struct regval b = eval(sx, st, e->b);
		struct regval c = eval(sx, st, e->c);
		Z3_ast pick_b = nonzero(sx, a.v);
		r.v = Z3_mk_ite(z, pick_b, b.v, c.v);
		/* Like an if: each arm's reads count only when that arm is taken. */
		r.d = deps_union(sx, a.d, deps_union(sx, deps_when(sx, b.d, pick_b),
			deps_when(sx, c.d, Z3_mk_not(z, pick_b))));
		r.t = deps_union(sx, a.t, deps_union(sx, deps_when(sx, b.t, pick_b),
			deps_when(sx, c.t, Z3_mk_not(z, pick_b))));
		return r;
	}
	case IR_E_BINARY:
		break;
	}
	struct regval a = eval(sx, st, e->a);
	struct regval b = eval(sx, st, e->b);
	r.d = deps_union(sx, a.d, b.d);
	r.t = deps_union(sx, a.t, b.t);
	r.v = binop(sx, (enum ir_binop)e->op, a, b);
	return r;
}

/* k when v is the numeral 2^k with 0 < k < 63, else 0. */
static int power_of_two(Z3_context z, Z3_ast v)
{
	int64_t c;
	if (!Z3_is_numeral_ast(z, v) || !Z3_get_numeral_int64(z, v, &c) || c < 2)
		return 0;
	for (int k = 1; k < 63; k++)
		if (c == (int64_t)1 << k)
			return k;
	return 0;
}

/* a & b, a >> b as integer arithmetic where they are: a & (2^k - 1) is a
 * mod 2^k and a >> k is a div 2^k (Z3's mod and div round towards minus
 * infinity for a positive divisor, as the bits of a two's complement
 * number do), which Z3 solves as linear arithmetic, where int2bv and
 * bv2int (the general case) are bit-blasted: a circular buffer's index
 * (head + 1) & (SIZE - 1) took its check from 60 s to 1 s.  But mod over
 * a bv2int term costs Z3 more than staying in bit-vectors (csd-lock's
 * VAL & 1 on a flags word set with |: 13 s became minutes), so this is
 * used only when every bitwise operator of the program can be
 * (enc->bits_linear).  NULL when the operand is not such a constant. */
static Z3_ast arith_bitop(Z3_context z, enum ir_binop op, Z3_ast a, Z3_ast b)
{
	int64_t c;
	if (op == IR_BAND) {
		Z3_ast x = a, m = b;
		if (!Z3_is_numeral_ast(z, m)) {
			x = b;
			m = a;
		}
		if (!Z3_is_numeral_ast(z, m) || !Z3_get_numeral_int64(z, m, &c) ||
		    c < 1 || c >= INT64_MAX || !power_of_two(z, Z3_mk_int64(z, c + 1, Z3_get_sort(z, m))))
			return NULL;
		return Z3_mk_mod(z, x, Z3_mk_int64(z, c + 1, Z3_get_sort(z, m)));
	}
	if (op == IR_SHR && Z3_is_numeral_ast(z, b) && Z3_get_numeral_int64(z, b, &c) &&
	    c > 0 && c < 63)
		return Z3_mk_div(z, a, Z3_mk_int64(z, (int64_t)1 << c, Z3_get_sort(z, b)));
	return NULL;
}

/* C's a / b (mod 0) or a % b (mod 1): the quotient truncated toward zero
 * and the remainder of a's sign, where Z3's div and mod are Euclidean;
 * and 0 when b is 0 (undefined in C: as the kernel modules' lk_div and
 * lk_mod, kernel/kmod.c), where Z3 leaves it free (any value: a test's
 * final states would never end). */
static Z3_ast c_div(struct symex *sx, Z3_ast a, Z3_ast b, int mod)
{
	Z3_context z = sx->z;
	Z3_ast zero = z3u_int(sx->z, 0);
	Z3_ast aneg = Z3_mk_lt(z, a, zero), bneg = Z3_mk_lt(z, b, zero);
	Z3_ast absa = Z3_mk_ite(z, aneg, Z3_mk_unary_minus(z, a), a);
	Z3_ast absb = Z3_mk_ite(z, bneg, Z3_mk_unary_minus(z, b), b);
	Z3_ast q = Z3_mk_div(z, absa, absb);
	q = Z3_mk_ite(z, Z3_mk_xor(z, aneg, bneg), Z3_mk_unary_minus(z, q), q);
	Z3_ast r = mod ? Z3_mk_sub(z, 2, (Z3_ast[]){a, Z3_mk_mul(z, 2, (Z3_ast[]){b, q})}) : q;
	return Z3_mk_ite(z, Z3_mk_eq(z, b, zero), zero, r);
}

/* a op b (their values). */
static Z3_ast binop(struct symex *sx, enum ir_binop op, struct regval a,
		    struct regval b)
{
	Z3_context z = sx->z;
	struct regval r = {0};
	Z3_ast ab[2] = {a.v, b.v};
	int64_t x, y, xy;
	if ((op == IR_ADD || op == IR_SUB || op == IR_MUL) && Z3_is_numeral_ast(z, a.v) &&
	    Z3_is_numeral_ast(z, b.v) && Z3_get_numeral_int64(z, a.v, &x) &&
	    Z3_get_numeral_int64(z, b.v, &y) &&
	    !(op == IR_ADD ? __builtin_add_overflow(x, y, &xy)
	      : op == IR_SUB ? __builtin_sub_overflow(x, y, &xy)
	      : __builtin_mul_overflow(x, y, &xy)))
		return Z3_mk_int64(z, xy, Z3_get_sort(z, a.v)); /* SIZE - 1 */
	Z3_ast linear = sx->enc->bits_linear ? arith_bitop(z, op, a.v, b.v) : NULL;
	if (linear)
		return linear;
	switch (op) {
	case IR_ADD: r.v = Z3_mk_add(z, 2, ab); break;
	case IR_SUB: r.v = Z3_mk_sub(z, 2, ab); break;
	case IR_MUL: r.v = Z3_mk_mul(z, 2, ab); break;
	case IR_DIV: r.v = c_div(sx, a.v, b.v, 0); break;
	case IR_MOD: r.v = c_div(sx, a.v, b.v, 1); break;
	case IR_BAND: r.v = from_bv(sx, Z3_mk_bvand(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_BOR: r.v = from_bv(sx, Z3_mk_bvor(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_BXOR: r.v = from_bv(sx, Z3_mk_bvxor(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_SHL: r.v = from_bv(sx, Z3_mk_bvshl(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_SHR: r.v = from_bv(sx, Z3_mk_bvashr(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_EQ: r.v = b2i(sx, Z3_mk_eq(z, a.v, b.v)); break;
	case IR_NE: r.v = b2i(sx, Z3_mk_not(z, Z3_mk_eq(z, a.v, b.v))); break;
	case IR_LT: r.v = b2i(sx, Z3_mk_lt(z, a.v, b.v)); break;
	case IR_LE: r.v = b2i(sx, Z3_mk_le(z, a.v, b.v)); break;
	case IR_GT: r.v = b2i(sx, Z3_mk_gt(z, a.v, b.v)); break;
	case IR_GE: r.v = b2i(sx, Z3_mk_ge(z, a.v, b.v)); break;
	case IR_LAND:
		r.v = b2i(sx, rel_and2(sx->rc, nonzero(sx, a.v), nonzero(sx, b.v)));
		break;
	case IR_LOR:
		r.v = b2i(sx, Z3_mk_or(z, 2, (Z3_ast[]){nonzero(sx, a.v),
							 nonzero(sx, b.v)}));
		break;
	}
	return r.v;
}

/* ---- events ---- */

static int new_event(struct symex *sx, Z3_ast guard, unsigned long cls,
		     const struct ir_instr *in)
{
	struct encoding *enc = sx->enc;
	if (enc->n == sx->cap) {
		int ncap = sx->cap ? 2 * sx->cap : 64;
		enc->ev = arena_grow(enc->arena, enc->ev, sizeof *enc->ev,
				     (size_t)enc->n, (size_t)ncap);
		sx->cap = ncap;
	}
	int e = enc->n++;
	struct event *ev = &enc->ev[e];
	memset(ev, 0, sizeof *ev);
	ev->thread = sx->th->id;
	ev->po = sx->po++;
	ev->cls = cls;
	ev->tags = in ? in->tags[IR_TAG_EV] : 0;
	ev->guard = path_guard(sx, guard);
	ev->loc = -1;
	ev->instr = in;
	ev->rmw_peer = -1;
	ev->ctrl_dep = sx->ctrl.ids;
	ev->ctrl_dep_cond = sx->ctrl.cond;
	ev->nctrl_dep = sx->ctrl.n;
	return e;
}

/* Address of an access: static location when the expression is &x. */
static void set_addr(struct symex *sx, int e, struct regval a,
		     const struct ir_expr *ae)
{
	struct event *ev = &sx->enc->ev[e];
	ev->addr = a.v;
	ev->addr_dep = a.d.ids;
	ev->addr_dep_cond = a.d.cond;
	ev->naddr_dep = a.d.n;
	if (ae->kind == IR_E_LOC)
		ev->loc = ae->loc;
	else {
		/* Registers holding a constant address are static too. */
		int64_t v;
		if (Z3_get_numeral_int64(sx->z, a.v, &v)) {
			ev->loc = enc_address_loc(sx->enc, v);
			if (ev->loc < 0)
				unsupported(sx, ae->pos,
					    "access through a value that is not the address of a shared location");
		}
	}
}

static unsigned long order_class(enum ir_order o, int is_read)
{
	switch (o) {
	case IR_ORD_PLAIN: return 0;
	case IR_ORD_ACQUIRE: return is_read ? EVC_BIT(EVC_ACQUIRE) : EVC_BIT(EVC_ONCE);
	case IR_ORD_RELEASE: return is_read ? EVC_BIT(EVC_ONCE) : EVC_BIT(EVC_RELEASE);
	case IR_ORD_ONCE:
	case IR_ORD_MB: return EVC_BIT(EVC_ONCE);
	}
	return 0;
}

static int read_event(struct symex *sx, Z3_ast g, unsigned long cls,
		      const struct ir_instr *in, struct regval addr)
{
	int e = new_event(sx, g, EVC_BIT(EVC_R) | cls, in);
	set_addr(sx, e, addr, in->a);
	sx->enc->ev[e].val = fresh_int(sx, "val");
	return e;
}

static int write_event(struct symex *sx, Z3_ast g, unsigned long cls,
		       const struct ir_instr *in, struct regval addr,
		       struct regval v)
{
	int e = new_event(sx, g, EVC_BIT(EVC_W) | cls, in);
	set_addr(sx, e, addr, in->a);
	struct event *ev = &sx->enc->ev[e];
	ev->val = v.v;
	ev->data_dep = v.d.ids;
	ev->data_dep_cond = v.d.cond;
	ev->ndata_dep = v.d.n;
	return e;
}

static int fence_event(struct symex *sx, Z3_ast g, enum ev_class c,
		       const struct ir_instr *in)
{
	return new_event(sx, g, EVC_BIT(EVC_F) | (c < EVC_COUNT ? EVC_BIT(c) : 0), in);
}

/* The model tags of an RMW's other events (see IR_TAG_*). */
static void set_tags(struct symex *sx, int e, const struct ir_instr *in, int slot)
{
	sx->enc->ev[e].tags = in->tags[slot];
}

/* The fences around a fully ordered RMW. */
static void rmw_fence(struct symex *sx, Z3_ast g, const struct ir_instr *in)
{
	set_tags(sx, fence_event(sx, g, EVC_MB, in), in, IR_TAG_FENCE);
}

static void pair(struct symex *sx, int r, int w)
{
	sx->enc->ev[r].rmw_peer = w;
	sx->enc->ev[w].rmw_peer = r;
}

/* Assign a register: value v flowing from the reads d, computed from
 * registers whose control reads are t; inside branches, the reads deciding
 * them join t (see struct regval). */
static void set_reg(struct symex *sx, struct state *st, int reg, Z3_ast v,
		    struct deps d, struct deps t)
{
	if (reg < 0)
		return;
	st->regs[reg].v = v;
	st->regs[reg].d = d;
	st->regs[reg].t = deps_union(sx, t, sx->ctrl);
}

static Z3_ast arith(struct symex *sx, enum ir_binop op, Z3_ast a, Z3_ast b)
{
	return binop(sx, op, (struct regval){.v = a}, (struct regval){.v = b});
}

static void do_rmw(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_context z = sx->z;
	Z3_ast g = st->guard;
	struct regval addr = eval(sx, st, in->a);
	int mb = in->order == IR_ORD_MB;
	unsigned long rc = order_class(in->order, 1) | EVC_BIT(EVC_RMW);
	unsigned long wc = order_class(in->order, 0) | EVC_BIT(EVC_RMW);
	struct regval b = {0}, c = {0};
	if (in->b)
		b = eval(sx, st, in->b);
	if (in->c)
		c = eval(sx, st, in->c);

	if (in->rmw == IR_RMW_CMPXCHG || in->rmw == IR_RMW_ADD_UNLESS) {
		/* Two outcomes: success is a full RMW (with its fences), failure
		 * a single R[once]; the value read decides which one happens. */
		Z3_ast succ = fresh_bool(sx, "succ");
		Z3_ast gs = rel_and2(sx->rc, g, succ);
		Z3_ast gf = rel_and2(sx->rc, g, Z3_mk_not(z, succ));
		if (mb)
			rmw_fence(sx, gs, in);
		int rs = read_event(sx, gs, rc, in, addr);
		/* herd7 makes the read of a failed RMW an RMW event too (R* in
		 * tools/memory-model/Documentation/herd-representation.txt) */
		int rf = read_event(sx, gf, EVC_BIT(EVC_ONCE) | EVC_BIT(EVC_RMW), in, addr);
		set_tags(sx, rf, in, IR_TAG_FAIL);
		Z3_ast vs = sx->enc->ev[rs].val, vf = sx->enc->ev[rf].val;
		struct regval nv;
		Z3_ast res;
		if (in->rmw == IR_RMW_CMPXCHG) {
			enc_fact(sx->enc, Z3_mk_implies(z, gs, Z3_mk_eq(z, vs, b.v)));
			enc_fact(sx->enc, Z3_mk_implies(z, gf, Z3_mk_not(z, Z3_mk_eq(z, vf, b.v))));
			nv = c;
			res = Z3_mk_ite(z, succ, vs, vf);
		} else {
			enc_fact(sx->enc, Z3_mk_implies(z, gs, Z3_mk_not(z, Z3_mk_eq(z, vs, c.v))));
			enc_fact(sx->enc, Z3_mk_implies(z, gf, Z3_mk_eq(z, vf, c.v)));
			nv.v = arith(sx, IR_ADD, vs, b.v);
			nv.d = deps_union(sx, deps_one(sx, rs), b.d);
			res = b2i(sx, succ);
		}
		int w = write_event(sx, gs, wc, in, addr, nv);
		set_tags(sx, w, in, IR_TAG_W);
		pair(sx, rs, w);
		if (mb)
			rmw_fence(sx, gs, in);
		struct deps d = deps_union(sx, deps_one(sx, rs), deps_one(sx, rf));
		set_reg(sx, st, in->dst, res, d, deps_none);
		return;
	}

	if (mb)
		rmw_fence(sx, g, in);
	if (in->rmw == IR_RMW_OP)
		rc = (rc & ~EVC_BIT(EVC_ONCE)) | EVC_BIT(EVC_NORETURN);
	int r = read_event(sx, g, rc, in, addr);
	Z3_ast old = sx->enc->ev[r].val;
	struct deps rd = deps_one(sx, r);
	struct regval nv;
	Z3_ast res = old;
	switch (in->rmw) {
	case IR_RMW_XCHG:
		nv = b;
		break;
	case IR_RMW_OP_RETURN:
		nv.v = arith(sx, in->arith, old, b.v);
		nv.d = deps_union(sx, rd, b.d);
		res = nv.v;
		break;
	default: /* FETCH_OP, OP */
		nv.v = arith(sx, in->arith, old, b.v);
		nv.d = deps_union(sx, rd, b.d);
		break;
	}
	int w = write_event(sx, g, wc, in, addr, nv);
	set_tags(sx, w, in, IR_TAG_W);
	pair(sx, r, w);
	if (mb)
		rmw_fence(sx, g, in);
	if (in->rmw == IR_RMW_OP_RETURN)
		set_reg(sx, st, in->dst, res, deps_union(sx, rd, b.d), b.t);
	else
		set_reg(sx, st, in->dst, res, rd, deps_none);
}

static const enum ev_class fence_class[] = {
	[IR_F_MB] = EVC_MB, [IR_F_RMB] = EVC_RMB, [IR_F_WMB] = EVC_WMB,
	[IR_F_BARRIER] = EVC_BARRIER, [IR_F_RCU_LOCK] = EVC_RCU_LOCK,
	[IR_F_RCU_UNLOCK] = EVC_RCU_UNLOCK, [IR_F_SYNC_RCU] = EVC_SYNC_RCU,
	[IR_F_BEFORE_ATOMIC] = EVC_BEFORE_ATOMIC,
	[IR_F_AFTER_ATOMIC] = EVC_AFTER_ATOMIC,
	[IR_F_AFTER_SPINLOCK] = EVC_AFTER_SPINLOCK,
	[IR_F_AFTER_UNLOCK_LOCK] = EVC_AFTER_UNLOCK_LOCK,
	[IR_F_OTHER] = EVC_COUNT, /* none: its model tags say */
};

static void do_lock(struct symex *sx, Z3_ast g, const struct ir_instr *in,
		    struct regval addr)
{
	int r = read_event(sx, g, EVC_BIT(EVC_LKR), in, addr);
	struct regval one = {.v = z3u_int(sx->z, 1)};
	int w = write_event(sx, g, EVC_BIT(EVC_LKW), in, addr, one);
	/* LKW is a write but lock.cat keeps it apart from W until co is
	 * built; execution.c handles lock events itself. */
	pair(sx, r, w);
}

static void exec_block(struct symex *sx, struct state *st, const struct ir_block *b);

static struct state copy_state(struct symex *sx, const struct state *st)
{
	struct state c;
	c.guard = st->guard;
	c.regs = arena_alloc(sx->enc->arena, sizeof(struct regval) * (size_t)sx->th->nregs);
	memcpy(c.regs, st->regs, sizeof(struct regval) * (size_t)sx->th->nregs);
	return c;
}

/* Merge states (by their guards) into one. */
static struct state merge(struct symex *sx, struct state *s, int k)
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
	m = copy_state(sx, &s[live - 1]);
	Z3_ast g = s[live - 1].guard;
	for (int i = live - 2; i >= 0; i--) {
		for (int r = 0; r < sx->th->nregs; r++) {
			struct regval a = s[i].regs[r], b = m.regs[r];
			if (a.v != b.v && !Z3_is_eq_ast(sx->z, a.v, b.v))
				m.regs[r].v = Z3_mk_ite(sx->z, s[i].guard, a.v, b.v);
			/* Path-sensitive: each side's reads count on its own path,
			 * also when both sides computed the same value. */
			m.regs[r].d = deps_merge(sx, a.d, b.d, s[i].guard);
			m.regs[r].t = deps_merge(sx, a.t, b.t, s[i].guard);
		}
		g = rel_or2(sx->rc, s[i].guard, g);
	}
	m.guard = path_guard(sx, g);
	return m;
}

static void push_state(struct symex *sx, struct state **arr, int *n, int *cap,
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
 * looping after it (see "Spin loops" in the header comment): on that path
 * it created only marked reads and fences other than RCU's, no assertion
 * of it failed, and the registers the next iteration or the code after
 * the loop can read (live) are as it found them.
 */
static Z3_ast removable(struct symex *sx, const unsigned char *live,
			const struct state *start, const struct state *end,
			int first_ev, int first_assert)
{
	const unsigned long reads = EVC_BIT(EVC_R) | EVC_BIT(EVC_ONCE) |
		EVC_BIT(EVC_ACQUIRE);
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

static void exec_loop(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	struct loop_ctx lc = {0};
	lc.outer = sx->loop;
	sx->loop = &lc;
	struct deps saved_ctrl = sx->ctrl;
	struct state cur = copy_state(sx, st);
	struct enc_bound b = {.loop = in, .thread = sx->th->id,
			      .stutter_any = sx->f, .last_stutter = sx->f};
	const unsigned char *live = spin_live_regs(sx->enc->arena, sx->th, in);
	for (int i = 0; i < sx->unroll && !is_false(sx, cur.guard); i++) {
		lc.nconts = 0;
		struct state start = copy_state(sx, &cur);
		b.first_ev = sx->enc->n;
		int first_assert = sx->enc->nasserts;
		exec_block(sx, &cur, &in->then_b);
		if (sx->failed)
			break;
		push_state(sx, &lc.conts, &lc.nconts, &lc.ccap, cur);
		cur = merge(sx, lc.conts, lc.nconts);
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
				: path_guard(sx, rel_and2(sx->rc, cur.guard, Z3_mk_not(sx->z, rm)));
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
	*st = merge(sx, lc.exits, lc.nexits);
}

static void exec_instr(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_context z = sx->z;
	Z3_ast g = st->guard;
	switch (in->op) {
	case IR_ASSIGN: {
		struct regval v = eval(sx, st, in->a);
		set_reg(sx, st, in->dst, v.v, v.d, v.t);
		return;
	}
	case IR_LOAD: {
		struct regval a = eval(sx, st, in->a);
		int e = read_event(sx, g, order_class(in->order, 1), in, a);
		set_reg(sx, st, in->dst, sx->enc->ev[e].val, deps_one(sx, e), deps_none);
		return;
	}
	case IR_STORE: {
		struct regval a = eval(sx, st, in->a);
		struct regval v = eval(sx, st, in->b);
		write_event(sx, g, order_class(in->order, 0), in, a, v);
		return;
	}
	case IR_RMW:
		do_rmw(sx, st, in);
		return;
	case IR_FENCE:
		fence_event(sx, g, fence_class[in->fence], in);
		return;
	case IR_LOCK:
		do_lock(sx, g, in, eval(sx, st, in->a));
		return;
	case IR_UNLOCK: {
		struct regval a = eval(sx, st, in->a);
		struct regval zero = {.v = z3u_int(sx->z, 0)};
		write_event(sx, g, EVC_BIT(EVC_UL), in, a, zero);
		return;
	}
	case IR_TRYLOCK: {
		struct regval a = eval(sx, st, in->a);
		Z3_ast succ = fresh_bool(sx, "trylock");
		do_lock(sx, rel_and2(sx->rc, g, succ), in, a);
		int lf = read_event(sx, rel_and2(sx->rc, g, Z3_mk_not(z, succ)),
				    EVC_BIT(EVC_LF), in, a);
		int lkr = lf - 2;
		set_reg(sx, st, in->dst, b2i(sx, succ),
			deps_union(sx, deps_one(sx, lkr), deps_one(sx, lf)), deps_none);
		return;
	}
	case IR_ISLOCKED: {
		struct regval a = eval(sx, st, in->a);
		Z3_ast held = fresh_bool(sx, "islocked");
		int rl = read_event(sx, rel_and2(sx->rc, g, held), EVC_BIT(EVC_RL), in, a);
		int ru = read_event(sx, rel_and2(sx->rc, g, Z3_mk_not(z, held)),
				    EVC_BIT(EVC_RU), in, a);
		set_reg(sx, st, in->dst, b2i(sx, held),
			deps_union(sx, deps_one(sx, rl), deps_one(sx, ru)), deps_none);
		return;
	}
	case IR_SRCU_LOCK: {
		struct regval a = eval(sx, st, in->a);
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SRCU_LOCK), in);
		set_addr(sx, e, a, in->a);
		/* herd7 returns a constant unique to the call site. */
		Z3_ast v = z3u_int(sx->z, e);
		sx->enc->ev[e].val = v;
		set_reg(sx, st, in->dst, v, deps_none, deps_none);
		return;
	}
	case IR_SRCU_UNLOCK: {
		struct regval a = eval(sx, st, in->a);
		struct regval v = eval(sx, st, in->b);
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SRCU_UNLOCK), in);
		set_addr(sx, e, a, in->a);
		sx->enc->ev[e].val = v.v;
		return;
	}
	case IR_SRCU_SYNC: {
		struct regval a = eval(sx, st, in->a);
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SYNC_SRCU), in);
		set_addr(sx, e, a, in->a);
		return;
	}
	case IR_IF: {
		struct regval c = eval(sx, st, in->a);
		Z3_ast cond = Z3_simplify(z, nonzero(sx, c.v));
		struct deps saved = sx->ctrl;
		sx->ctrl = deps_union(sx, saved, deps_union(sx, c.d, c.t));
		int before = sx->loop ? sx->loop->nexits + sx->loop->nconts : 0;
		struct state s[2];
		s[0] = copy_state(sx, st);
		s[0].guard = path_guard(sx, rel_and2(sx->rc, g, cond));
		s[1] = copy_state(sx, st);
		s[1].guard = path_guard(sx, rel_and2(sx->rc, g, Z3_simplify(z, Z3_mk_not(z, cond))));
		Z3_ast then_g = s[0].guard, else_g = s[1].guard;
		if (!is_false(sx, s[0].guard))
			exec_block(sx, &s[0], &in->then_b);
		if (!is_false(sx, s[1].guard))
			exec_block(sx, &s[1], &in->else_b);
		int jumped = sx->loop &&
			     sx->loop->nexits + sx->loop->nconts != before;
		/* In herd7's unrolled loops the rest of the body sits inside
		 * the branch, so a break keeps the condition's ctrl. */
		if (!jumped)
			sx->ctrl = saved;
		Z3_ast gt = s[0].guard, ge = s[1].guard;
		int kept = (gt == then_g || Z3_is_eq_ast(z, gt, then_g)) &&
			   (ge == else_g || Z3_is_eq_ast(z, ge, else_g));
		*st = merge(sx, s, 2);
		/* Both paths reach the join: the path condition is the one
		 * before the if, not a disjunction Z3 would have to see through. */
		if (kept)
			st->guard = g;
		return;
	}
	case IR_LOOP:
		exec_loop(sx, st, in);
		return;
	case IR_ASSERT: {
		struct encoding *enc = sx->enc;
		struct regval c = eval(sx, st, in->a);
		enc->asserts = arena_grow(enc->arena, enc->asserts, sizeof *enc->asserts,
					  (size_t)enc->nasserts, (size_t)enc->nasserts + 1);
		enc->asserts[enc->nasserts++] = (struct enc_assert){
			.instr = in, .thread = sx->th->id,
			.fails = rel_and2(sx->rc, g, Z3_mk_eq(z, c.v, z3u_int(sx->z, 0)))};
		if (!enc->asserts[enc->nasserts - 1].fails)
			enc->asserts[enc->nasserts - 1].fails = sx->f;
		return;
	}
	case IR_BREAK:
	case IR_CONTINUE:
		if (!sx->loop) {
			unsupported(sx, in->pos, "break or continue outside a loop");
			return;
		}
		if (in->op == IR_BREAK)
			push_state(sx, &sx->loop->exits, &sx->loop->nexits,
				   &sx->loop->cap, copy_state(sx, st));
		else
			push_state(sx, &sx->loop->conts, &sx->loop->nconts,
				   &sx->loop->ccap, copy_state(sx, st));
		st->guard = sx->f;
		return;
	}
}

static void exec_block(struct symex *sx, struct state *st, const struct ir_block *b)
{
	for (int i = 0; i < b->count && !sx->failed; i++) {
		if (is_false(sx, st->guard))
			return;
		exec_instr(sx, st, &b->items[i]);
	}
}

int symex_thread(struct encoding *enc, const struct ir_thread *th, int unroll,
		 int *cap, struct diag *d)
{
	struct symex sx = {0};
	sx.enc = enc;
	sx.z = enc->z;
	sx.rc = &enc->rc;
	sx.d = d;
	sx.unroll = unroll;
	sx.th = th;
	sx.cap = *cap;
	sx.f = Z3_mk_false(enc->z);
	sx.t = Z3_mk_true(enc->z);
	sx.stopped = sx.f;
	sx.plain_written = spin_plain_written(enc->arena, enc->prog);
	struct state st;
	st.guard = sx.t;
	st.regs = arena_alloc(enc->arena, sizeof(struct regval) * (size_t)(th->nregs ? th->nregs : 1));
	for (int r = 0; r < th->nregs; r++) {
		const struct ir_reg *reg = &th->regs[r];
		long v = 0;
		if (reg->has_init)
			v = reg->init.kind == IR_VAL_LOC ? enc_loc_address(reg->init.loc)
							 : reg->init.num;
		st.regs[r].v = z3u_int(sx.z, v);
	}
	exec_block(&sx, &st, &th->body);
	*cap = sx.cap;
	if (sx.failed)
		return 0;
	enc->final_reg[th->id] = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)(th->nregs ? th->nregs : 1));
	for (int r = 0; r < th->nregs; r++)
		enc->final_reg[th->id][r] = st.regs[r].v;
	/* An execution runs the thread to its end or stops at a loop bound
	 * (which enc->drop then rules out for the verdict). */
	Z3_ast done = or_lit(&sx, st.guard, sx.stopped);
	if (!rel_is_true(&enc->rc, done))
		enc_fact(enc, done);
	return 1;
}
