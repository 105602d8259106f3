/*
 * irb.c - the unit tests' IR builder; see irb.h.
 */
#include "irb.h"

#include "common/arena.h"

struct irb irb_new(const char *name, int nlocs, int nthreads)
{
	static const char *const names[] = {"x", "y", "z", "l", "m", "n"};
	struct irb b;
	b.a = arena_new();
	b.p = arena_alloc(b.a, sizeof *b.p);
	b.p->arena = b.a;
	b.p->file = "hand-built.litmus";
	b.p->name = name;
	b.p->nlocs = nlocs;
	b.p->locs = arena_alloc(b.a, sizeof *b.p->locs * (size_t)(nlocs ? nlocs : 1));
	for (int i = 0; i < nlocs; i++) {
		b.p->locs[i].name = i < 6 ? names[i] : arena_printf(b.a, "v%d", i);
		b.p->locs[i].ctype = "int";
	}
	b.p->nthreads = nthreads;
	b.p->threads = arena_alloc(b.a, sizeof *b.p->threads * (size_t)nthreads);
	for (int t = 0; t < nthreads; t++) {
		struct ir_thread *th = &b.p->threads[t];
		th->id = t;
		th->nregs = 2;
		th->regs = arena_alloc(b.a, sizeof *th->regs * 2);
		th->regs[0].name = "r0";
		th->regs[1].name = "r1";
	}
	b.p->cond = arena_alloc(b.a, sizeof *b.p->cond);
	b.p->cond->kind = IR_C_TRUE;
	b.p->quant = IR_Q_FORALL;
	return b;
}

struct ir_expr *irb_expr(struct irb *b, enum ir_expr_kind k, long v)
{
	struct ir_expr *e = arena_alloc(b->a, sizeof *e);
	e->kind = k;
	e->num = v;
	e->loc = (int)v;
	e->reg = (int)v;
	return e;
}

struct ir_expr *irb_num(struct irb *b, long v)
{
	return irb_expr(b, IR_E_CONST, v);
}

struct ir_expr *irb_loc(struct irb *b, int l)
{
	return irb_expr(b, IR_E_LOC, l);
}

struct ir_expr *irb_reg(struct irb *b, int r)
{
	return irb_expr(b, IR_E_REG, r);
}

struct ir_expr *irb_bin(struct irb *b, enum ir_binop op, struct ir_expr *l,
			struct ir_expr *r)
{
	struct ir_expr *e = irb_expr(b, IR_E_BINARY, 0);
	e->op = op;
	e->a = l;
	e->b = r;
	return e;
}

struct ir_block *irb_body(struct irb *b, int t)
{
	return &b->p->threads[t].body;
}

struct ir_instr *irb_add(struct irb *b, struct ir_block *blk, enum ir_op op)
{
	int n = blk->count;
	if (n == 0 || (n >= 8 && (n & (n - 1)) == 0)) /* full: 8, 16, 32, ... */
		blk->items = arena_grow(b->a, blk->items, sizeof *blk->items,
					(size_t)n, (size_t)(n ? 2 * n : 8));
	struct ir_instr *in = &blk->items[blk->count++];
	in->op = op;
	in->dst = -1;
	in->text = "";
	in->order = IR_ORD_ONCE;
	in->pos.line = 10 + blk->count;
	return in;
}

void irb_store(struct irb *b, struct ir_block *blk, int l, struct ir_expr *v,
	       enum ir_order o)
{
	struct ir_instr *in = irb_add(b, blk, IR_STORE);
	in->a = irb_loc(b, l);
	in->b = v;
	in->order = o;
}

void irb_load(struct irb *b, struct ir_block *blk, int reg, int l,
	      enum ir_order o)
{
	struct ir_instr *in = irb_add(b, blk, IR_LOAD);
	in->dst = reg;
	in->a = irb_loc(b, l);
	in->order = o;
}

void irb_fence(struct irb *b, struct ir_block *blk, enum ir_fence f)
{
	irb_add(b, blk, IR_FENCE)->fence = f;
}

void irb_break_if(struct irb *b, struct ir_block *blk, struct ir_expr *c)
{
	struct ir_instr *in = irb_add(b, blk, IR_IF);
	in->a = c;
	irb_add(b, &in->then_b, IR_BREAK);
}

static struct ir_cond *atom(struct irb *b, int thread, int index, long v)
{
	struct ir_cond *c = arena_alloc(b->a, sizeof *c);
	c->kind = IR_C_ATOM;
	c->lhs.thread = thread;
	c->lhs.index = index;
	c->rhs.kind = IR_VAL_INT;
	c->rhs.num = v;
	return c;
}

struct ir_cond *irb_reg_is(struct irb *b, int t, int reg, long v)
{
	return atom(b, t, reg, v);
}

struct ir_cond *irb_loc_is(struct irb *b, int l, long v)
{
	return atom(b, -1, l, v);
}

struct ir_cond *irb_and(struct irb *b, struct ir_cond *x, struct ir_cond *y)
{
	struct ir_cond *c = arena_alloc(b->a, sizeof *c);
	c->kind = IR_C_AND;
	c->a = x;
	c->b = y;
	return c;
}

void irb_exists(struct irb *b, struct ir_cond *c)
{
	b->p->quant = IR_Q_EXISTS;
	b->p->cond = c;
}

void irb_observe(struct irb *b, int thread, int index)
{
	struct ir_program *p = b->p;
	p->observed = arena_grow(b->a, p->observed, sizeof *p->observed,
				 (size_t)p->nobserved, (size_t)p->nobserved + 1);
	p->observed[p->nobserved++] = (struct ir_observable){thread, index};
}
