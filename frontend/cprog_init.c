/*
 * cprog_init.c - main's code before the first pthread_create in a whole C
 * program (see cprog.c): it makes the initial state.  No thread runs
 * yet, so each global holds its initial value: a store sets it, a load
 * reads it, and main's statement is run here, on those values, once.
 * Values are constants and globals' addresses; what cannot be run so (a
 * lock, an atomic update, arithmetic on an address) is a located error.
 * It does not read the globals' declarations (cprog_global.c).
 */
#include <string.h>

#include "common/arena.h"
#include "cprog_int.h"
#include "fe.h"

/* The value of register reg of main's statement, while it is run. */
struct init_regs {
	struct ir_value *v; /* by register index */
	char *set;          /* 1 where v holds a value */
	int n;              /* registers */
};

/* The initial value location l holds now. */
static struct ir_value held(struct cprog *pc, int l)
{
	struct ir_value zero = { IR_VAL_INT, 0, 0 };
	return pc->fe->locx[l].has_init ? pc->fe->prog->locs[l].init : zero;
}

/* e with each register replaced by its value: an expression of constants
 * and addresses; NULL when a register has none. */
static struct ir_expr *substitute(struct cprog *pc, const struct ir_expr *e,
				  const struct init_regs *r)
{
	if (!e)
		return NULL;
	struct ir_expr *x = arena_alloc(pc->fe->arena, sizeof *x);
	*x = *e;
	if (e->kind == IR_E_REG) {
		if (e->reg < 0 || e->reg >= r->n || !r->set[e->reg])
			return NULL;
		const struct ir_value *v = &r->v[e->reg];
		x->kind = v->kind == IR_VAL_LOC ? IR_E_LOC : IR_E_CONST;
		x->num = v->num;
		x->loc = v->loc;
		return x;
	}
	if ((e->a && !(x->a = substitute(pc, e->a, r))) ||
	    (e->b && !(x->b = substitute(pc, e->b, r))) ||
	    (e->c && !(x->c = substitute(pc, e->c, r))))
		return NULL;
	return x;
}

/* The value of e now; 0 when it is none (a register without one, an
 * address in arithmetic). */
static int value_of(struct cprog *pc, const struct ir_expr *e,
		    const struct init_regs *r, struct ir_value *out)
{
	struct ir_expr *x = substitute(pc, e, r);
	long v;
	if (!x)
		return 0;
	if (x->kind == IR_E_LOC) {
		*out = (struct ir_value){ IR_VAL_LOC, 0, x->loc };
		return 1;
	}
	if (!cl_fold(x, &v))
		return 0;
	*out = (struct ir_value){ IR_VAL_INT, v, 0 };
	return 1;
}

/* What main's code before the threads may do, for the errors. */
#define INIT_ACCEPTS "it may store to globals values computed from " \
	"constants, addresses and the globals' initial values (x = 1; " \
	"WRITE_ONCE(x, y + 1); atomic_set(&v, 1))"

/* Run the instructions of one statement c of main on the initial state. */
static int run(struct cprog *pc, CXCursor c, const struct ir_instr *in, int n,
	       struct init_regs *r)
{
	for (int i = 0; i < n; i++, in++) {
		struct ir_value a, v;
		int ok = 1;
		switch (in->op) {
		case IR_FENCE: /* nothing runs beside main yet */
			continue;
		case IR_ASSIGN:
		case IR_LOAD:
			ok = in->dst >= 0 && in->dst < r->n &&
			     value_of(pc, in->a, r, &a) &&
			     (in->op == IR_ASSIGN || a.kind == IR_VAL_LOC);
			if (!ok)
				break;
			r->v[in->dst] = in->op == IR_ASSIGN ? a : held(pc, a.loc);
			r->set[in->dst] = 1;
			continue;
		case IR_STORE:
			ok = value_of(pc, in->a, r, &a) && a.kind == IR_VAL_LOC &&
			     value_of(pc, in->b, r, &v);
			if (!ok)
				break;
			struct ir_location *loc = &pc->fe->prog->locs[a.loc];
			if (loc->kind == IR_LOC_SPINLOCK || loc->kind == IR_LOC_SRCU)
				return cl_err_at(&pc->w, c, "'%s' is %s and cannot be "
					      "given an initial value", loc->name,
					      fe_kind_name(loc->kind));
			loc->init = v;
			pc->fe->locx[a.loc].has_init = 1;
			if (loc->kind == IR_LOC_INT && v.kind == IR_VAL_LOC)
				loc->kind = IR_LOC_PTR;
			continue;
		default:
			ok = 0;
			break;
		}
		return cl_err_at(&pc->w, c, "main's code before the first "
			      "pthread_create makes the initial state: "
			      INIT_ACCEPTS "; '%s' is not such a store: move it "
			      "into a thread", in->text ? in->text
			      : cl_src_of(&pc->w, c).text);
	}
	return 1;
}

/* The registers statement b's instructions use, none set yet. */
static void regs_for(struct cprog *pc, const struct bb *b, struct init_regs *r)
{
	int n = 0;
	for (int i = 0; i < b->n; i++)
		if (b->v[i].dst >= n)
			n = b->v[i].dst + 1;
	r->n = n;
	r->v = arena_alloc(pc->fe->arena, (size_t)(n ? n : 1) * sizeof *r->v);
	r->set = arena_alloc(pc->fe->arena, (size_t)(n ? n : 1));
	memset(r->set, 0, (size_t)(n ? n : 1));
}

int cprog_init_store(struct cprog *pc, CXCursor c)
{
	struct bb b = {0};
	struct init_regs r;
	if (!cl_stmt(&pc->w, c, &b))
		return 0;
	regs_for(pc, &b, &r);
	return run(pc, c, b.v, b.n, &r);
}

int cprog_init_value(struct cprog *pc, CXCursor e, struct ir_value *out)
{
	struct bb b = {0};
	struct init_regs r;
	struct ir_expr *x = cl_rv(&pc->w, e, &b);
	if (!x)
		return -1;
	regs_for(pc, &b, &r);
	for (int i = 0; i < b.n; i++)
		if (b.v[i].op != IR_LOAD && b.v[i].op != IR_ASSIGN)
			return 0;
	if (!run(pc, e, b.v, b.n, &r))
		return -1;
	return value_of(pc, x, &r, out);
}
