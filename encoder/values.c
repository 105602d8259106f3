/*
 * values.c - the values each register and location can hold (values.h):
 * a flow-insensitive fixpoint over the program's IR, before it is
 * encoded.  It makes no Z3 term and knows nothing of events; the tables
 * built from it are symex_eval.c's.
 *
 * Why the sets hold every value the encoding lets a register take on an
 * executed path (the soundness of symex_eval.c's tables, which give any
 * value outside them a wrong result):
 *  - a register starts at its initial value (0 unless the init block sets
 *    it), and every instruction that assigns it adds all it can assign,
 *    wherever it stands (flow-insensitive: a superset of any one path);
 *  - an executed read takes the value of the write it reads from, which
 *    has its address: an initial write (a location's initial value) or a
 *    write of the program, whose value the sets of the locations its
 *    address can name hold (every write adds its values there, a write at
 *    an address not known adds them everywhere); a read at an address
 *    naming no location can only read such a write (kept in `wild`);
 *  - execution.c gives a read whose value would come out of thin air the
 *    value ENC_SYMBOLIC; that needs a write whose value depends on a read
 *    (a cycle of value flow), so where the program has one, every read
 *    can also return ENC_SYMBOLIC;
 *  - operators are applied to every pair of the operands' values with
 *    the encoding's own arithmetic (values_apply).
 * By induction over the reads an execution's values flow through (well
 * founded: execution.c's thin-air ranks where value flow is cyclic), an
 * executed read's value is in its set, and then every register computed
 * from it.  A set that would exceed VALUES_MAX is "not known", and so is
 * everything when the fixpoint takes more than MAX_PASSES passes.  Values
 * on paths an execution does not take are left free by the encoding and
 * never constrain anything, so their tables may give anything.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "encoder/values.h"

/* Passes of the fixpoint before it gives up (each one that does not end
 * it grows a set; a counter takes VALUES_MAX + 1 of them to be "not
 * known"). */
#define MAX_PASSES 100

/* A set of values, sorted. */
struct vset {
	int n;                 /* how many; -1: not known to be few */
	long v[VALUES_MAX];    /* the values */
};

struct value_sets {
	const struct ir_program *prog; /* the program analysed */
	struct vset *loc;      /* per location: the values it can hold */
	struct vset wild;      /* values written at addresses that name no
				* location */
	struct vset **reg;     /* per thread, per register */
	int thin_air;          /* a read can return ENC_SYMBOLIC */
	int grew;              /* the current pass grew a set */
	int gave_up;           /* no fixpoint within MAX_PASSES */
};

/* ---- sets ---- */

static void vset_one(struct vset *s, long v)
{
	s->n = 1;
	s->v[0] = v;
}

/* Add v to s; s becomes "not known" when it would hold too many. */
static int vset_add(struct vset *s, long v)
{
	if (s->n < 0)
		return 0;
	int i = 0;
	while (i < s->n && s->v[i] < v)
		i++;
	if (i < s->n && s->v[i] == v)
		return 0;
	if (s->n == VALUES_MAX) {
		s->n = -1;
		return 1;
	}
	memmove(&s->v[i + 1], &s->v[i], sizeof(long) * (size_t)(s->n - i));
	s->v[i] = v;
	s->n++;
	return 1;
}

/* s |= t; whether s grew. */
static int vset_union(struct vset *s, const struct vset *t)
{
	if (s->n < 0)
		return 0;
	if (t->n < 0) {
		s->n = -1;
		return 1;
	}
	int grew = 0;
	for (int i = 0; i < t->n; i++)
		grew |= vset_add(s, t->v[i]);
	return grew;
}

static void grow(struct value_sets *vs, struct vset *s, const struct vset *t)
{
	vs->grew |= vset_union(s, t);
}

/* ---- the encoding's arithmetic on values ---- */

int values_apply(enum ir_binop op, long x, long y, long *r)
{
	return ir_apply_binop(op, x, y, r);
}

static int unary(enum ir_unop op, long x, long *r)
{
	switch (op) {
	case IR_NEG: return !__builtin_sub_overflow(0, x, r);
	case IR_LNOT: *r = !x; return 1;
	case IR_BNOT: *r = ~x; return 1; /* the encoding's -x - 1 */
	}
	return 0;
}

/* ---- expressions ---- */

/* out = { x op y : x in a, y in b }. */
static void apply_sets(enum ir_binop op, const struct vset *a,
		       const struct vset *b, struct vset *out)
{
	out->n = a->n < 0 || b->n < 0 ? -1 : 0;
	for (int i = 0; i < a->n && out->n >= 0; i++)
		for (int j = 0; j < b->n && out->n >= 0; j++) {
			long r;
			if (!values_apply(op, a->v[i], b->v[j], &r))
				out->n = -1;
			else
				vset_add(out, r);
		}
}

static void eval(const struct value_sets *vs, int t, const struct ir_expr *e,
		 struct vset *out)
{
	struct vset a;
	switch (e->kind) {
	case IR_E_CONST:
		vset_one(out, e->num);
		return;
	case IR_E_LOC:
		vset_one(out, enc_loc_address(e->loc));
		return;
	case IR_E_REG:
		*out = vs->reg[t][e->reg];
		return;
	case IR_E_CHOICE:
		vset_one(out, 0);
		vset_add(out, 1);
		return;
	case IR_E_UNARY:
		eval(vs, t, e->a, &a);
		out->n = a.n < 0 ? -1 : 0;
		for (int i = 0; i < a.n && out->n >= 0; i++) {
			long r;
			if (!unary((enum ir_unop)e->op, a.v[i], &r))
				out->n = -1;
			else
				vset_add(out, r);
		}
		return;
	case IR_E_COND:
		eval(vs, t, e->b, out);
		eval(vs, t, e->c, &a);
		vset_union(out, &a);
		return;
	case IR_E_BINARY: {
		struct vset b;
		eval(vs, t, e->a, &a);
		eval(vs, t, e->b, &b);
		apply_sets((enum ir_binop)e->op, &a, &b, out);
		return;
	}
	}
	out->n = -1;
}

/* ---- memory ---- */

/* The location whose address is v, or -1. */
static int address_loc(const struct ir_program *p, long v)
{
	for (int l = 0; l < p->nlocs; l++)
		if (enc_loc_address(l) == v)
			return l;
	return -1;
}

/* What a read at the addresses addr can return. */
static void read_at(const struct value_sets *vs, const struct vset *addr,
		    struct vset *out)
{
	const struct ir_program *p = vs->prog;
	out->n = 0;
	if (addr->n < 0) {
		*out = vs->wild;
		for (int l = 0; l < p->nlocs; l++)
			vset_union(out, &vs->loc[l]);
	}
	for (int i = 0; i < addr->n; i++) {
		int l = address_loc(p, addr->v[i]);
		vset_union(out, l >= 0 ? &vs->loc[l] : &vs->wild);
	}
	if (vs->thin_air)
		vset_add(out, ENC_SYMBOLIC);
}

/* A write of the values val at the addresses addr. */
static void write_at(struct value_sets *vs, const struct vset *addr,
		     const struct vset *val)
{
	const struct ir_program *p = vs->prog;
	if (addr->n < 0) {
		for (int l = 0; l < p->nlocs; l++)
			grow(vs, &vs->loc[l], val);
		grow(vs, &vs->wild, val);
		return;
	}
	for (int i = 0; i < addr->n; i++) {
		int l = address_loc(p, addr->v[i]);
		grow(vs, l >= 0 ? &vs->loc[l] : &vs->wild, val);
	}
}

/* ---- instructions ---- */

static void assign(struct value_sets *vs, int t, int dst, const struct vset *v)
{
	if (dst >= 0)
		grow(vs, &vs->reg[t][dst], v);
}

/* An RMW: the value read, what it writes, what its register gets. */
static void step_rmw(struct value_sets *vs, int t, const struct ir_instr *in,
		     const struct vset *addr)
{
	struct vset old, b = {.n = -1}, nv, res;
	read_at(vs, addr, &old);
	if (in->b)
		eval(vs, t, in->b, &b);
	res = old;
	switch (in->rmw) {
	case IR_RMW_XCHG:
		nv = b;
		break;
	case IR_RMW_CMPXCHG:
		eval(vs, t, in->c, &nv);
		break;
	default: { /* old arith b (add_unless: old + b) */
		apply_sets(in->rmw == IR_RMW_ADD_UNLESS ? IR_ADD : in->arith,
			   &old, &b, &nv);
		if (in->rmw == IR_RMW_OP_RETURN)
			res = nv;
		else if (in->rmw == IR_RMW_ADD_UNLESS) {
			vset_one(&res, 0);
			vset_add(&res, 1);
		}
		break;
	}
	}
	write_at(vs, addr, &nv);
	assign(vs, t, in->dst, &res);
}

static void step_block(struct value_sets *vs, int t, const struct ir_block *b);

static void step(struct value_sets *vs, int t, const struct ir_instr *in)
{
	struct vset addr = {0}, v, bool01;
	vset_one(&bool01, 0);
	vset_add(&bool01, 1);
	if (in->a && in->op != IR_ASSIGN && in->op != IR_IF && in->op != IR_ASSERT)
		eval(vs, t, in->a, &addr);
	switch (in->op) {
	case IR_ASSIGN:
		eval(vs, t, in->a, &v);
		assign(vs, t, in->dst, &v);
		return;
	case IR_LOAD:
		read_at(vs, &addr, &v);
		assign(vs, t, in->dst, &v);
		return;
	case IR_STORE:
		eval(vs, t, in->b, &v);
		write_at(vs, &addr, &v);
		return;
	case IR_RMW:
		step_rmw(vs, t, in, &addr);
		return;
	case IR_LOCK:
	case IR_TRYLOCK:
		/* LKW writes 1, UL 0 (symex.c): values a read could see */
		vset_one(&v, 1);
		write_at(vs, &addr, &v);
		assign(vs, t, in->dst, &bool01);
		return;
	case IR_UNLOCK:
		vset_one(&v, 0);
		write_at(vs, &addr, &v);
		return;
	case IR_ISLOCKED:
		assign(vs, t, in->dst, &bool01);
		return;
	case IR_SRCU_LOCK: /* the constant of its event: not known here */
		v.n = -1;
		assign(vs, t, in->dst, &v);
		return;
	case IR_IF:
	case IR_LOOP:
		step_block(vs, t, &in->then_b);
		step_block(vs, t, &in->else_b);
		return;
	default: /* fences, SRCU unlock and sync (no write a read reads),
		  * break, continue, assertions: no value */
		return;
	}
}

static void step_block(struct value_sets *vs, int t, const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++)
		step(vs, t, &b->items[i]);
}

/* ---- thin air ---- */

/* Does e use a register of taint (one a read's value may flow into)? */
static int tainted(const unsigned char *taint, const struct ir_expr *e)
{
	if (!e)
		return 0;
	if (e->kind == IR_E_REG)
		return taint[e->reg];
	return tainted(taint, e->a) || tainted(taint, e->b) || tainted(taint, e->c);
}

/* One pass over b: registers a read's value may flow into join taint
 * (*grew says whether one did); whether some write's value may depend on
 * a read (execution.c's value flow, whose cycles make thin air). */
static int taint_block(const struct ir_block *b, unsigned char *taint, int *grew)
{
	int dep_write = 0;
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int from_read = in->op == IR_LOAD || in->op == IR_RMW ||
				in->op == IR_TRYLOCK || in->op == IR_ISLOCKED ||
				(in->op == IR_ASSIGN && tainted(taint, in->a));
		if (from_read && in->dst >= 0 && !taint[in->dst]) {
			taint[in->dst] = 1;
			*grew = 1;
		}
		if (in->op == IR_STORE || in->op == IR_RMW)
			dep_write |= tainted(taint, in->b) || tainted(taint, in->c) ||
				     (in->op == IR_RMW && in->rmw != IR_RMW_XCHG &&
				      in->rmw != IR_RMW_CMPXCHG); /* old arith b */
		dep_write |= taint_block(&in->then_b, taint, grew);
		dep_write |= taint_block(&in->else_b, taint, grew);
	}
	return dep_write;
}

static int may_thin_air(const struct ir_program *p)
{
	int dep_write = 0;
	for (int t = 0; t < p->nthreads && !dep_write; t++) {
		const struct ir_thread *th = &p->threads[t];
		unsigned char *taint = xcalloc((size_t)th->nregs + 1, 1);
		int grew = 1;
		while (grew && !dep_write) {
			grew = 0;
			dep_write = taint_block(&th->body, taint, &grew);
		}
		free(taint);
	}
	return dep_write;
}

/* ---- the analysis ---- */

static int expr_bitwise(const struct ir_expr *e)
{
	if (!e)
		return 0;
	if (e->kind == IR_E_BINARY && e->op >= IR_BAND && e->op <= IR_SHR)
		return 1;
	return expr_bitwise(e->a) || expr_bitwise(e->b) || expr_bitwise(e->c);
}

static int block_bitwise(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (expr_bitwise(in->a) || expr_bitwise(in->b) || expr_bitwise(in->c) ||
		    block_bitwise(&in->then_b) || block_bitwise(&in->else_b))
			return 1;
	}
	return 0;
}

static struct vset init_value(const struct ir_value *v)
{
	struct vset s;
	vset_one(&s, v->kind == IR_VAL_LOC ? enc_loc_address(v->loc) : v->num);
	return s;
}

struct value_sets *values_analyse(const struct ir_program *p)
{
	int bitwise = 0;
	for (int t = 0; t < p->nthreads && !bitwise; t++)
		bitwise = block_bitwise(&p->threads[t].body);
	if (!bitwise)
		return NULL;
	struct value_sets *vs = xcalloc(1, sizeof *vs);
	vs->prog = p;
	vs->thin_air = may_thin_air(p);
	vs->loc = xcalloc((size_t)p->nlocs + 1, sizeof *vs->loc);
	for (int l = 0; l < p->nlocs; l++)
		vs->loc[l] = init_value(&p->locs[l].init);
	vs->reg = xcalloc((size_t)p->nthreads + 1, sizeof *vs->reg);
	for (int t = 0; t < p->nthreads; t++) {
		const struct ir_thread *th = &p->threads[t];
		vs->reg[t] = xcalloc((size_t)th->nregs + 1, sizeof **vs->reg);
		for (int r = 0; r < th->nregs; r++) {
			struct ir_value zero = {.kind = IR_VAL_INT};
			vs->reg[t][r] = init_value(th->regs[r].has_init ? &th->regs[r].init : &zero);
		}
	}
	int pass = 0;
	do {
		vs->grew = 0;
		for (int t = 0; t < p->nthreads; t++)
			step_block(vs, t, &p->threads[t].body);
	} while (vs->grew && ++pass < MAX_PASSES);
	vs->gave_up = vs->grew;
	return vs;
}

void values_free(struct value_sets *vs)
{
	if (!vs)
		return;
	for (int t = 0; t < vs->prog->nthreads; t++)
		free(vs->reg[t]);
	free(vs->reg);
	free(vs->loc);
	free(vs);
}

int values_of(const struct value_sets *vs, int t, const struct ir_expr *e,
	      long *out)
{
	if (!vs || vs->gave_up)
		return -1;
	struct vset s;
	eval(vs, t, e, &s);
	if (s.n > 0)
		memcpy(out, s.v, sizeof(long) * (size_t)s.n);
	return s.n;
}
