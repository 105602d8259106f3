/*
 * symex.c - bounded symbolic execution of each thread into events: the
 * instructions.
 *
 * Walks a thread's IR with a path guard and a register file of symbolic
 * values, creating the events herd7 creates for each primitive (fences
 * around full-barrier RMWs, LKR/LKW pairs for spin_lock, one event per
 * alternative outcome of cmpxchg/trylock/is_locked, each guarded by that
 * outcome).  Every register value carries the set of reads it depends on
 * (symex_deps.c), which gives the addr, data and ctrl dependencies;
 * expressions become terms in symex_eval.c.  Loops run at most `unroll`
 * times (symex_path.c, with the joins of paths and the spin loops); a path
 * that would need more stops at the bound: the encoding records it
 * (enc->bounds, with what solver/bounds.c needs to tell a loop that needs
 * more iterations from one that spins without progress) and enc->drop
 * holds herd7's cut (no path stops there), which the verdict assumes.
 * Assertions (IR_ASSERT) are recorded with the condition under which they
 * fail; they do not change the path.  These files create events only:
 * relations and execution choices are built in execution.c.
 */
#include <stdlib.h>
#include <string.h>

#include "encoder/symex.h"
#include "common/arena.h"
#include "encoder/spin.h"

static const struct deps deps_none; /* no read */

static Z3_ast fresh_int(struct symex *sx, const char *p)
{
	return rel_fresh_int(sx->rc, p);
}

static Z3_ast fresh_bool(struct symex *sx, const char *p)
{
	return rel_fresh_bool(sx->rc, p);
}

static int unsupported(struct symex *sx, struct ir_pos pos, const char *what)
{
	if (!sx->failed)
		diag_error(sx->d, sx->enc->prog->file, pos.line, pos.col,
			   "unsupported: %s", what);
	sx->failed = 1;
	return 0;
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
	ev->guard = sx_path_guard(sx, guard);
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
	st->regs[reg].t = sx_deps_union(sx, t, sx->ctrl);
}

static void do_rmw(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_context z = sx->z;
	Z3_ast g = st->guard;
	struct regval addr = sx_eval(sx, st, in->a);
	int mb = in->order == IR_ORD_MB;
	unsigned long rc = order_class(in->order, 1) | EVC_BIT(EVC_RMW);
	unsigned long wc = order_class(in->order, 0) | EVC_BIT(EVC_RMW);
	struct regval b = {0}, c = {0};
	if (in->b)
		b = sx_eval(sx, st, in->b);
	if (in->c)
		c = sx_eval(sx, st, in->c);

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
			nv.v = sx_arith(sx, IR_ADD, vs, b.v);
			nv.d = sx_deps_union(sx, sx_deps_one(sx, rs), b.d);
			res = b2i(sx, succ);
		}
		int w = write_event(sx, gs, wc, in, addr, nv);
		set_tags(sx, w, in, IR_TAG_W);
		pair(sx, rs, w);
		if (mb)
			rmw_fence(sx, gs, in);
		struct deps d = sx_deps_union(sx, sx_deps_one(sx, rs), sx_deps_one(sx, rf));
		set_reg(sx, st, in->dst, res, d, deps_none);
		return;
	}

	if (mb)
		rmw_fence(sx, g, in);
	if (in->rmw == IR_RMW_OP)
		rc = (rc & ~EVC_BIT(EVC_ONCE)) | EVC_BIT(EVC_NORETURN);
	int r = read_event(sx, g, rc, in, addr);
	Z3_ast old = sx->enc->ev[r].val;
	struct deps rd = sx_deps_one(sx, r);
	struct regval nv;
	Z3_ast res = old;
	switch (in->rmw) {
	case IR_RMW_XCHG:
		nv = b;
		break;
	case IR_RMW_OP_RETURN:
		nv.v = sx_arith(sx, in->arith, old, b.v);
		nv.d = sx_deps_union(sx, rd, b.d);
		res = nv.v;
		break;
	default: /* FETCH_OP, OP */
		nv.v = sx_arith(sx, in->arith, old, b.v);
		nv.d = sx_deps_union(sx, rd, b.d);
		break;
	}
	int w = write_event(sx, g, wc, in, addr, nv);
	set_tags(sx, w, in, IR_TAG_W);
	pair(sx, r, w);
	if (mb)
		rmw_fence(sx, g, in);
	if (in->rmw == IR_RMW_OP_RETURN)
		set_reg(sx, st, in->dst, res, sx_deps_union(sx, rd, b.d), b.t);
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

/* spin_lock, spin_unlock, spin_trylock, spin_is_locked: lock.cat's
 * events, one per outcome where there are two, each guarded by it. */
static void exec_lock(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_context z = sx->z;
	Z3_ast g = st->guard;
	struct regval a = sx_eval(sx, st, in->a);
	switch (in->op) {
	case IR_LOCK:
		do_lock(sx, g, in, a);
		return;
	case IR_UNLOCK: {
		struct regval zero = {.v = z3u_int(sx->z, 0)};
		write_event(sx, g, EVC_BIT(EVC_UL), in, a, zero);
		return;
	}
	case IR_TRYLOCK: {
		Z3_ast succ = fresh_bool(sx, "trylock");
		do_lock(sx, rel_and2(sx->rc, g, succ), in, a);
		int lf = read_event(sx, rel_and2(sx->rc, g, Z3_mk_not(z, succ)),
				    EVC_BIT(EVC_LF), in, a);
		int lkr = lf - 2;
		set_reg(sx, st, in->dst, b2i(sx, succ),
			sx_deps_union(sx, sx_deps_one(sx, lkr), sx_deps_one(sx, lf)), deps_none);
		return;
	}
	default: { /* IR_ISLOCKED */
		Z3_ast held = fresh_bool(sx, "islocked");
		int rl = read_event(sx, rel_and2(sx->rc, g, held), EVC_BIT(EVC_RL), in, a);
		int ru = read_event(sx, rel_and2(sx->rc, g, Z3_mk_not(z, held)),
				    EVC_BIT(EVC_RU), in, a);
		set_reg(sx, st, in->dst, b2i(sx, held),
			sx_deps_union(sx, sx_deps_one(sx, rl), sx_deps_one(sx, ru)), deps_none);
		return;
	}
	}
}

/* srcu_read_lock, srcu_read_unlock, synchronize_srcu: one event each. */
static void exec_srcu(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_ast g = st->guard;
	struct regval a = sx_eval(sx, st, in->a);
	switch (in->op) {
	case IR_SRCU_LOCK: {
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SRCU_LOCK), in);
		set_addr(sx, e, a, in->a);
		/* herd7 returns a constant unique to the call site. */
		Z3_ast v = z3u_int(sx->z, e);
		sx->enc->ev[e].val = v;
		set_reg(sx, st, in->dst, v, deps_none, deps_none);
		return;
	}
	case IR_SRCU_UNLOCK: {
		struct regval v = sx_eval(sx, st, in->b);
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SRCU_UNLOCK), in);
		set_addr(sx, e, a, in->a);
		sx->enc->ev[e].val = v.v;
		return;
	}
	default: { /* IR_SRCU_SYNC */
		int e = new_event(sx, g, EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SYNC_SRCU), in);
		set_addr(sx, e, a, in->a);
		return;
	}
	}
}

/* An if: both branches run from copies of st, then merged into st. */
static void exec_if(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	Z3_context z = sx->z;
	Z3_ast g = st->guard;
	struct regval c = sx_eval(sx, st, in->a);
	Z3_ast cond = Z3_simplify(z, nonzero(sx, c.v));
	struct deps saved = sx->ctrl;
	sx->ctrl = sx_deps_union(sx, saved, sx_deps_union(sx, c.d, c.t));
	int before = sx->loop ? sx->loop->nexits + sx->loop->nconts : 0;
	struct state s[2];
	s[0] = sx_copy_state(sx, st);
	s[0].guard = sx_path_guard(sx, rel_and2(sx->rc, g, cond));
	s[1] = sx_copy_state(sx, st);
	s[1].guard = sx_path_guard(sx, rel_and2(sx->rc, g, Z3_simplify(z, Z3_mk_not(z, cond))));
	Z3_ast then_g = s[0].guard, else_g = s[1].guard;
	if (!is_false(sx, s[0].guard))
		sx_exec_block(sx, &s[0], &in->then_b);
	if (!is_false(sx, s[1].guard))
		sx_exec_block(sx, &s[1], &in->else_b);
	int jumped = sx->loop &&
		     sx->loop->nexits + sx->loop->nconts != before;
	/* In herd7's unrolled loops the rest of the body sits inside
	 * the branch, so a break keeps the condition's ctrl. */
	if (!jumped)
		sx->ctrl = saved;
	Z3_ast gt = s[0].guard, ge = s[1].guard;
	int kept = (gt == then_g || Z3_is_eq_ast(z, gt, then_g)) &&
		   (ge == else_g || Z3_is_eq_ast(z, ge, else_g));
	*st = sx_merge(sx, s, 2);
	/* Both paths reach the join: the path condition is the one
	 * before the if, not a disjunction Z3 would have to see through. */
	if (kept)
		st->guard = g;
}

/* An assertion: recorded with the condition under which it fails. */
static void exec_assert(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	struct encoding *enc = sx->enc;
	struct regval c = sx_eval(sx, st, in->a);
	enc->asserts = arena_grow(enc->arena, enc->asserts, sizeof *enc->asserts,
				  (size_t)enc->nasserts, (size_t)enc->nasserts + 1);
	enc->asserts[enc->nasserts++] = (struct enc_assert){
		.instr = in, .thread = sx->th->id,
		.fails = rel_and2(sx->rc, st->guard, Z3_mk_eq(sx->z, c.v, z3u_int(sx->z, 0)))};
	if (!enc->asserts[enc->nasserts - 1].fails)
		enc->asserts[enc->nasserts - 1].fails = sx->f;
}

/* break or continue: the path leaves for the loop's exits or its next
 * iteration, and stops here. */
static void exec_jump(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	if (!sx->loop) {
		unsupported(sx, in->pos, "break or continue outside a loop");
		return;
	}
	if (in->op == IR_BREAK)
		sx_push_state(sx, &sx->loop->exits, &sx->loop->nexits,
			      &sx->loop->cap, sx_copy_state(sx, st));
	else
		sx_push_state(sx, &sx->loop->conts, &sx->loop->nconts,
			      &sx->loop->ccap, sx_copy_state(sx, st));
	st->guard = sx->f;
}

/* An assignment, a load or a store. */
static void exec_access(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	struct regval a = sx_eval(sx, st, in->a);
	if (in->op == IR_ASSIGN) {
		set_reg(sx, st, in->dst, a.v, a.d, a.t);
	} else if (in->op == IR_LOAD) {
		int e = read_event(sx, st->guard, order_class(in->order, 1), in, a);
		set_reg(sx, st, in->dst, sx->enc->ev[e].val, sx_deps_one(sx, e), deps_none);
	} else {
		struct regval v = sx_eval(sx, st, in->b);
		write_event(sx, st->guard, order_class(in->order, 0), in, a, v);
	}
}

static void exec_fence(struct symex *sx, struct state *st, const struct ir_instr *in)
{
	fence_event(sx, st->guard, fence_class[in->fence], in);
}

/* What runs each kind of instruction. */
static void (*const exec_op[])(struct symex *sx, struct state *st,
			       const struct ir_instr *in) = {
	[IR_ASSIGN] = exec_access, [IR_LOAD] = exec_access,
	[IR_STORE] = exec_access, [IR_RMW] = do_rmw, [IR_FENCE] = exec_fence,
	[IR_LOCK] = exec_lock, [IR_UNLOCK] = exec_lock,
	[IR_TRYLOCK] = exec_lock, [IR_ISLOCKED] = exec_lock,
	[IR_SRCU_LOCK] = exec_srcu, [IR_SRCU_UNLOCK] = exec_srcu,
	[IR_SRCU_SYNC] = exec_srcu, [IR_IF] = exec_if, [IR_LOOP] = sx_exec_loop,
	[IR_BREAK] = exec_jump, [IR_CONTINUE] = exec_jump,
	[IR_ASSERT] = exec_assert,
};

void sx_exec_block(struct symex *sx, struct state *st, const struct ir_block *b)
{
	for (int i = 0; i < b->count && !sx->failed; i++) {
		if (is_false(sx, st->guard))
			return;
		exec_op[b->items[i].op](sx, st, &b->items[i]);
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
	sx_exec_block(&sx, &st, &th->body);
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
