/*
 * ir_check.c - the IR's invariants, walked over a whole program (see
 * ir_program_check in ir.h): what every consumer of the IR (encoder,
 * --to-c, --kmod, --dump-ir) indexes by without testing.
 *
 * It checks indexes and shapes, not meaning: a well-formed program may
 * still be one the encoder rejects with a located error.
 */
#include "ir.h"

#include "common/check.h"

/* What the walk knows of where it is. */
struct ir_walk {
	const struct ir_program *p;
	const struct ir_thread *th; /* NULL in the final clauses */
	int loops;                  /* IR_LOOPs around the instruction */
};

static void check_value(const struct ir_walk *w, struct ir_value v)
{
	CHECK(v.kind != IR_VAL_LOC || (v.loc >= 0 && v.loc < w->p->nlocs),
	      "%s: a value names location %d of %d", w->p->file, v.loc, w->p->nlocs);
}

static void check_expr(const struct ir_walk *w, const struct ir_expr *e)
{
	if (!e)
		return;
	const struct ir_program *p = w->p;
	switch (e->kind) {
	case IR_E_CONST:
	case IR_E_CHOICE:
		return;
	case IR_E_LOC:
		CHECK(e->loc >= 0 && e->loc < p->nlocs, "%s:%d: location %d of %d",
		      p->file, e->pos.line, e->loc, p->nlocs);
		return;
	case IR_E_REG:
		/* registers are a thread's: none in the final clauses */
		CHECK(w->th && e->reg >= 0 && e->reg < w->th->nregs,
		      "%s:%d: register %d outside its thread", p->file, e->pos.line, e->reg);
		return;
	case IR_E_UNARY:
		CHECK(e->a, "%s:%d: a unary operator without its operand", p->file, e->pos.line);
		break;
	case IR_E_BINARY:
		CHECK(e->a && e->b, "%s:%d: a binary operator without its operands",
		      p->file, e->pos.line);
		break;
	case IR_E_COND:
		CHECK(e->a && e->b && e->c, "%s:%d: ?: without its three operands",
		      p->file, e->pos.line);
		break;
	}
	check_expr(w, e->a);
	check_expr(w, e->b);
	check_expr(w, e->c);
}

static void check_block(struct ir_walk *w, const struct ir_block *b);

static void check_instr(struct ir_walk *w, const struct ir_instr *in)
{
	const struct ir_program *p = w->p;
	CHECK(in->dst >= -1 && in->dst < w->th->nregs, "%s:%d: destination register %d of %d",
	      p->file, in->pos.line, in->dst, w->th->nregs);
	check_expr(w, in->a);
	check_expr(w, in->b);
	check_expr(w, in->c);
	/* tags are bits of the .def's names: none with the built-in table */
	for (int s = 0; s < IR_TAG_SLOTS; s++)
		CHECK(p->tag_names || !in->tags[s], "%s:%d: model tags without a .def",
		      p->file, in->pos.line);
	switch (in->op) {
	case IR_FENCE:
		CHECK(in->fence >= 0 && in->fence <= IR_F_OTHER, "%s:%d: fence %d",
		      p->file, in->pos.line, (int)in->fence);
		break;
	case IR_LOAD:
	case IR_STORE:
	case IR_RMW:
		CHECK(in->a, "%s:%d: an access without its address", p->file, in->pos.line);
		break;
	case IR_IF:
		CHECK(in->a, "%s:%d: an if without its condition", p->file, in->pos.line);
		check_block(w, &in->then_b);
		check_block(w, &in->else_b);
		return;
	case IR_LOOP:
		w->loops++;
		check_block(w, &in->then_b);
		w->loops--;
		return;
	case IR_BREAK:
	case IR_CONTINUE:
		CHECK(w->loops > 0, "%s:%d: break or continue outside a loop",
		      p->file, in->pos.line);
		break;
	default:
		break;
	}
	CHECK(!in->then_b.count && !in->else_b.count,
	      "%s:%d: branches under an instruction that is no if or loop",
	      p->file, in->pos.line);
}

static void check_block(struct ir_walk *w, const struct ir_block *b)
{
	CHECK(b->count >= 0 && (b->items || !b->count), "a block of %d instructions", b->count);
	for (int i = 0; i < b->count; i++)
		check_instr(w, &b->items[i]);
}

static void check_observable(const struct ir_walk *w, struct ir_observable o)
{
	const struct ir_program *p = w->p;
	if (o.thread < 0)
		CHECK(o.thread == -1 && o.index >= 0 && o.index < p->nlocs,
		      "%s: observed location %d of %d", p->file, o.index, p->nlocs);
	else
		CHECK(o.thread < p->nthreads && o.index >= 0 &&
		      o.index < p->threads[o.thread].nregs,
		      "%s: observed register %d of thread %d", p->file, o.index, o.thread);
}

static void check_cond(const struct ir_walk *w, const struct ir_cond *c)
{
	if (!c)
		return;
	switch (c->kind) {
	case IR_C_ATOM:
		check_observable(w, c->lhs);
		if (c->rhs_is_obs)
			check_observable(w, c->rhs_obs);
		else
			check_value(w, c->rhs);
		return;
	case IR_C_NOT:
		CHECK(c->a, "%s: a negation without its operand", w->p->file);
		break;
	case IR_C_AND:
	case IR_C_OR:
		CHECK(c->a && c->b, "%s: a conjunction without its operands", w->p->file);
		break;
	case IR_C_EXPR:
		CHECK(c->expr, "%s: a program's condition without its expression", w->p->file);
		check_expr(w, c->expr);
		return;
	case IR_C_TRUE:
	case IR_C_FALSE:
		return;
	}
	check_cond(w, c->a);
	check_cond(w, c->b);
}

void ir_program_check(const struct ir_program *p)
{
	struct ir_walk w = {.p = p};
	CHECK(p->nlocs >= 0 && p->nthreads >= 0, "%s: %d locations, %d threads",
	      p->file, p->nlocs, p->nthreads);
	for (int l = 0; l < p->nlocs; l++)
		check_value(&w, p->locs[l].init);
	for (int t = 0; t < p->nthreads; t++) {
		const struct ir_thread *th = &p->threads[t];
		/* threads[i].id == i: the encoder and the output index by id */
		CHECK(th->id == t, "%s: thread %d has id %d", p->file, t, th->id);
		for (int r = 0; r < th->nregs; r++)
			check_value(&w, th->regs[r].init);
		for (int k = 0; k < th->nparams; k++)
			CHECK(th->params[k] >= 0 && th->params[k] < p->nlocs,
			      "%s: P%d's parameter %d is location %d", p->file, t, k,
			      th->params[k]);
		w.th = th;
		check_block(&w, &th->body);
	}
	w.th = NULL;
	for (int i = 0; i < p->nobserved; i++)
		check_observable(&w, p->observed[i]);
	check_cond(&w, p->filter);
	check_cond(&w, p->cond);
	for (int i = 0; i < p->nasserts; i++)
		check_cond(&w, p->asserts[i].cond);
}
