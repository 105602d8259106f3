/*
 * spin.c - which registers one iteration of a loop hands on (spin.h).
 *
 * symex_path.c leaves out a loop iteration that has no effect (see its
 * header comment and README "Spin loops"); "no effect" includes the
 * registers: whatever the iteration wrote must be dead when the loop tests
 * again and when it is left.  This file finds, from the IR alone, the
 * registers that are not: those read in the body before the body itself has
 * written them on every path (the next iteration would see the value), and
 * those that some path from the start of the body to a break leaves
 * unwritten (code after the loop, or the final state, would see it).  A
 * register outside that set is overwritten before anything can read the
 * value one iteration gave it, so only the registers in the set are
 * compared.  The analysis is conservative (a register may be reported live
 * when it is not), never the other way round.  It also finds the locations
 * a plain store may write (a race with one could be flagged on a read only
 * a left-out iteration has).  It creates no events and knows nothing of Z3.
 */
#include "encoder/spin.h"

#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"

/* The breaks of one loop seen so far. */
struct exits {
	unsigned char *def; /* registers written on every path to each of them */
	int n;              /* how many breaks */
};

struct walk {
	int nregs;          /* registers of the thread */
	unsigned char *ue;  /* read before written in the body: live */
};

static void expr_uses(struct walk *w, const struct ir_expr *e,
		      const unsigned char *def)
{
	if (!e)
		return;
	if (e->kind == IR_E_REG && e->reg >= 0 && e->reg < w->nregs && !def[e->reg])
		w->ue[e->reg] = 1;
	expr_uses(w, e->a, def);
	expr_uses(w, e->b, def);
	expr_uses(w, e->c, def);
}

static void meet(unsigned char *into, const unsigned char *d, int n)
{
	for (int r = 0; r < n; r++)
		into[r] &= d[r];
}

static unsigned char *dup(const unsigned char *d, int n)
{
	unsigned char *c = xmalloc((size_t)(n ? n : 1));
	memcpy(c, d, (size_t)n);
	return c;
}

/* Walk b with def (registers written on every path so far, updated in
 * place); a break is one of brk's.  Returns 0 when no path reaches the
 * end of b (every one left by break or continue). */
static int walk_block(struct walk *w, const struct ir_block *b,
		      unsigned char *def, struct exits *brk)
{
	int n = w->nregs;
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		expr_uses(w, in->a, def);
		switch (in->op) {
		case IR_IF: {
			unsigned char *d1 = dup(def, n), *d2 = dup(def, n);
			int r1 = walk_block(w, &in->then_b, d1, brk);
			int r2 = walk_block(w, &in->else_b, d2, brk);
			if (r1 && r2) {
				meet(d1, d2, n);
				memcpy(def, d1, (size_t)n);
			} else if (r1 || r2) {
				memcpy(def, r1 ? d1 : d2, (size_t)n);
			}
			free(d1);
			free(d2);
			if (!r1 && !r2)
				return 0;
			break;
		}
		case IR_LOOP: {
			/* The first iteration starts with the fewest registers
			 * written: its uses cover the later ones'. */
			struct exits inner = {dup(def, n), 0};
			memset(inner.def, 1, (size_t)n);
			unsigned char *d = dup(def, n);
			walk_block(w, &in->then_b, d, &inner);
			free(d);
			if (inner.n)
				memcpy(def, inner.def, (size_t)n);
			free(inner.def);
			if (!inner.n)
				return 0; /* never left */
			break;
		}
		case IR_BREAK:
			meet(brk->def, def, n);
			brk->n++;
			return 0;
		case IR_CONTINUE:
			return 0;
		default:
			expr_uses(w, in->b, def);
			expr_uses(w, in->c, def);
			if (in->dst >= 0 && in->dst < n)
				def[in->dst] = 1;
			break;
		}
	}
	return 1;
}

unsigned char *spin_live_regs(struct arena *a, const struct ir_thread *th,
			      const struct ir_instr *loop)
{
	int n = th->nregs;
	unsigned char *live = arena_alloc(a, (size_t)(n ? n : 1));
	struct walk w = {n, live};
	memset(live, 0, (size_t)(n ? n : 1));
	unsigned char *def = xcalloc((size_t)(n ? n : 1), 1);
	struct exits brk = {xmalloc((size_t)(n ? n : 1)), 0};
	memset(brk.def, 1, (size_t)(n ? n : 1));
	walk_block(&w, &loop->then_b, def, &brk);
	for (int r = 0; r < n; r++)
		if (!brk.def[r])
			live[r] = 1;
	free(def);
	free(brk.def);
	return live;
}

static void plain_stores(const struct ir_block *b, unsigned char *loc, int nlocs)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (in->op == IR_STORE && in->order == IR_ORD_PLAIN) {
			if (in->a && in->a->kind == IR_E_LOC && in->a->loc >= 0 &&
			    in->a->loc < nlocs)
				loc[in->a->loc] = 1;
			else
				memset(loc, 1, (size_t)nlocs); /* could be any */
		}
		plain_stores(&in->then_b, loc, nlocs);
		plain_stores(&in->else_b, loc, nlocs);
	}
}

unsigned char *spin_plain_written(struct arena *a, const struct ir_program *prog)
{
	int n = prog->nlocs;
	unsigned char *loc = arena_alloc(a, (size_t)(n ? n : 1));
	for (int t = 0; t < prog->nthreads; t++)
		plain_stores(&prog->threads[t].body, loc, n);
	return loc;
}
