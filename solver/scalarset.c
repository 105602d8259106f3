/*
 * scalarset.c - threads interchangeable up to an index argument (see
 * scalarset.h for what qualifies and why it is sound).
 *
 * Three steps.  Threads are grouped by code alike up to the constants of
 * whole-value assignments ("me = 3"); each group's differing assignments
 * are its index, one value per thread, all values distinct.  The values
 * that can hold an index are then found as a fixpoint over every thread
 * (not only the group's: another thread may read them): registers
 * assigned or loaded from them, locations stored to from them.  Last,
 * every instruction and the final clauses are checked against the rules
 * of scalarset.h, collecting the constants indices meet; a thread whose
 * index is one of them, or whose registers are observed, stays where it
 * is, and the others of its group form one class.  Any rule broken
 * anywhere: no class is joined.
 *
 * Why renaming then maps executions to executions: let sigma permute a
 * class and pi exchange the indices alike (a thread's index to that of
 * its image), fixing every other value, in particular the constants met.
 * Apply pi to every register and event value that can hold an index.
 * Copies commute with pi; pi(x) == pi(y) iff x == y; pi(x) == c iff
 * x == c for a constant c that pi fixes; values of other kinds are
 * untouched, and so are the events, po, dependencies, rf and co but for
 * the thread names.  So each renamed thread runs its code with its new
 * index, the same branches taken, the same assertions failing, the same
 * final values of everything the final clauses observe.
 */
#include "solver/scalarset.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "frontend/ir.h"
#include "solver/symmetry.h"

/* Walk state of two threads' code compared alike. */
struct alike {
	int index;      /* preorder number of the instruction being compared */
	int *at;        /* where assignments of a constant differ */
	int n, cap;
};

static int alike_expr(const struct ir_expr *a, const struct ir_expr *b)
{
	if (!a || !b)
		return a == b;
	return a->kind == b->kind && a->num == b->num && a->loc == b->loc &&
	       a->reg == b->reg && a->op == b->op && alike_expr(a->a, b->a) &&
	       alike_expr(a->b, b->b) && alike_expr(a->c, b->c);
}

static int alike_block(const struct ir_block *a, const struct ir_block *b,
		       struct alike *d);

/* An assignment of a constant, "me = 3". */
static int const_assign(const struct ir_instr *in)
{
	return in->op == IR_ASSIGN && in->a && in->a->kind == IR_E_CONST;
}

static int alike_instr(const struct ir_instr *a, const struct ir_instr *b,
		       struct alike *d)
{
	int at = d ? d->index++ : 0;
	if (a->op == IR_SRCU_LOCK || a->op == IR_SRCU_UNLOCK || a->op == IR_SRCU_SYNC)
		return 0;
	if (d && const_assign(a) && const_assign(b) && a->dst == b->dst &&
	    a->a->num != b->a->num) {
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 4;
			d->at = xrealloc(d->at, sizeof(int) * (size_t)d->cap);
		}
		d->at[d->n++] = at;
		return 1;
	}
	return a->op == b->op && a->dst == b->dst && a->order == b->order &&
	       a->fence == b->fence && a->rmw == b->rmw && a->arith == b->arith &&
	       memcmp(a->tags, b->tags, sizeof a->tags) == 0 &&
	       alike_expr(a->a, b->a) && alike_expr(a->b, b->b) && alike_expr(a->c, b->c) &&
	       alike_block(&a->then_b, &b->then_b, d) && alike_block(&a->else_b, &b->else_b, d);
}

static int alike_block(const struct ir_block *a, const struct ir_block *b,
		       struct alike *d)
{
	if (a->count != b->count)
		return 0;
	for (int i = 0; i < a->count; i++)
		if (!alike_instr(&a->items[i], &b->items[i], d))
			return 0;
	return 1;
}

/* Same registers, parameters and code; with d, assignments of constants
 * may differ (d lists where). */
static int alike_threads(const struct ir_thread *a, const struct ir_thread *b,
			 struct alike *d)
{
	if (a->nregs != b->nregs || a->nparams != b->nparams)
		return 0;
	for (int i = 0; i < a->nparams; i++)
		if (a->params[i] != b->params[i])
			return 0;
	for (int i = 0; i < a->nregs; i++) {
		const struct ir_reg *x = &a->regs[i], *y = &b->regs[i];
		if (x->has_init != y->has_init || x->init.kind != y->init.kind ||
		    x->init.num != y->init.num || x->init.loc != y->init.loc)
			return 0;
	}
	return alike_block(&a->body, &b->body, d);
}

int scalarset_same_code(const struct ir_thread *a, const struct ir_thread *b)
{
	return alike_threads(a, b, NULL);
}

/* The instruction of preorder number want in b (counting from *k). */
static const struct ir_instr *nth_instr(const struct ir_block *b, int want, int *k)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if ((*k)++ == want)
			return in;
		const struct ir_instr *x = nth_instr(&in->then_b, want, k);
		if (!x)
			x = nth_instr(&in->else_b, want, k);
		if (x)
			return x;
	}
	return NULL;
}

/* What the analysis knows. */
struct scan {
	const struct ir_program *p;
	int *group;        /* per thread: its group's first thread, or -1 */
	long *index;       /* per thread in a group: its index */
	int **at;          /* per group's first thread: where its index is set */
	int *nat;          /* and how many places */
	char **reg;        /* per thread, per register: can hold an index */
	char *loc;         /* per location: can hold an index */
	long *met;         /* the constants indices meet */
	int nmet, capmet;
	int computed;      /* some access has a computed address */
	int broken;        /* a rule is broken */
	int changed;       /* the fixpoint moved */
};

/* Is preorder number k of thread t where its group sets its index? */
static int sets_index(const struct scan *sc, int t, int k)
{
	int g = sc->group[t];
	if (g < 0)
		return 0;
	for (int i = 0; i < sc->nat[g]; i++)
		if (sc->at[g][i] == k)
			return 1;
	return 0;
}

static void meet(struct scan *sc, long c)
{
	if (sc->nmet == sc->capmet) {
		sc->capmet = sc->capmet ? 2 * sc->capmet : 8;
		sc->met = xrealloc(sc->met, sizeof(long) * (size_t)sc->capmet);
	}
	sc->met[sc->nmet++] = c;
}

static int met(const struct scan *sc, long c)
{
	for (int i = 0; i < sc->nmet; i++)
		if (sc->met[i] == c)
			return 1;
	return 0;
}

/* Is e a register of thread t that can hold an index? */
static int index_reg(const struct scan *sc, int t, const struct ir_expr *e)
{
	return e && e->kind == IR_E_REG && sc->reg[t][e->reg];
}

/* Can e be the value given to a place that holds indices: one of them,
 * or a constant (then met)? */
static int index_value(struct scan *sc, int t, const struct ir_expr *e)
{
	if (index_reg(sc, t, e))
		return 1;
	if (e && e->kind == IR_E_CONST) {
		meet(sc, e->num);
		return 1;
	}
	return 0;
}

/* Does e use indices only as operands of == and != against an index or
 * a constant? */
static int uses_ok(struct scan *sc, int t, const struct ir_expr *e)
{
	if (!e)
		return 1;
	if (index_reg(sc, t, e))
		return 0;
	if (e->kind == IR_E_BINARY && (e->op == IR_EQ || e->op == IR_NE)) {
		if (index_reg(sc, t, e->a))
			return index_value(sc, t, e->b);
		if (index_reg(sc, t, e->b))
			return index_value(sc, t, e->a);
	}
	return uses_ok(sc, t, e->a) && uses_ok(sc, t, e->b) && uses_ok(sc, t, e->c);
}

/* An access's address: a location, or computed (noted). */
static int address(struct scan *sc, int t, const struct ir_expr *a)
{
	if (a && a->kind == IR_E_LOC)
		return a->loc;
	sc->computed = 1;
	if (!uses_ok(sc, t, a))
		sc->broken = 1;
	return -1;
}

static void mark(struct scan *sc, char *flag)
{
	if (!*flag)
		sc->changed = 1;
	*flag = 1;
}

/* One step of the fixpoint over block b of thread t (k: preorder). */
static void spread(struct scan *sc, int t, const struct ir_block *b, int *k)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int here = (*k)++;
		if (in->op == IR_ASSIGN && (sets_index(sc, t, here) || index_reg(sc, t, in->a)))
			mark(sc, &sc->reg[t][in->dst]);
		else if (in->op == IR_LOAD && in->a->kind == IR_E_LOC && sc->loc[in->a->loc])
			mark(sc, &sc->reg[t][in->dst]);
		else if (in->op == IR_STORE && in->a->kind == IR_E_LOC && index_reg(sc, t, in->b))
			mark(sc, &sc->loc[in->a->loc]);
		spread(sc, t, &in->then_b, k);
		spread(sc, t, &in->else_b, k);
	}
}

/* Check block b of thread t against the rules (scalarset.h). */
static void check_block(struct scan *sc, int t, const struct ir_block *b, int *k)
{
	const char *reg = sc->reg[t];
	for (int i = 0; i < b->count && !sc->broken; i++) {
		const struct ir_instr *in = &b->items[i];
		int here = (*k)++, x, ok = 1;
		int to_index = in->dst >= 0 && reg[in->dst];
		switch (in->op) {
		case IR_ASSIGN:
			ok = sets_index(sc, t, here) ||
			     (to_index ? index_value(sc, t, in->a) : uses_ok(sc, t, in->a));
			break;
		case IR_LOAD:
			x = address(sc, t, in->a);
			ok = x >= 0 ? to_index == sc->loc[x] : !to_index;
			break;
		case IR_STORE:
			x = address(sc, t, in->a);
			ok = x >= 0 && sc->loc[x] ? index_value(sc, t, in->b) : uses_ok(sc, t, in->b);
			break;
		case IR_RMW:
			x = address(sc, t, in->a);
			ok = !(x >= 0 && sc->loc[x]) && !to_index &&
			     uses_ok(sc, t, in->b) && uses_ok(sc, t, in->c);
			break;
		case IR_IF:
		case IR_ASSERT:
			ok = !to_index && uses_ok(sc, t, in->a);
			break;
		case IR_FENCE:
		case IR_LOOP:
		case IR_BREAK:
		case IR_CONTINUE:
			ok = !to_index;
			break;
		default: /* locks and SRCU: an address, maybe a value */
			address(sc, t, in->a);
			ok = !to_index && uses_ok(sc, t, in->b) && uses_ok(sc, t, in->c);
			break;
		}
		if (!ok)
			sc->broken = 1;
		check_block(sc, t, &in->then_b, k);
		check_block(sc, t, &in->else_b, k);
	}
}

/* Does e (a final assert's C condition) read a location holding indices? */
static int expr_observes(const struct scan *sc, const struct ir_expr *e)
{
	if (!e)
		return 0;
	if (e->kind == IR_E_LOC && sc->loc[e->loc])
		return 1;
	return expr_observes(sc, e->a) || expr_observes(sc, e->b) || expr_observes(sc, e->c);
}

static int observes(const struct scan *sc, struct ir_observable o)
{
	return o.thread < 0 ? sc->loc[o.index] : sc->reg[o.thread][o.index];
}

static int cond_observes(const struct scan *sc, const struct ir_cond *c)
{
	if (!c)
		return 0;
	if (c->kind == IR_C_ATOM &&
	    (observes(sc, c->lhs) || (c->rhs_is_obs && observes(sc, c->rhs_obs))))
		return 1;
	return expr_observes(sc, c->expr) || cond_observes(sc, c->a) ||
	       cond_observes(sc, c->b);
}

/* Are the final clauses blind to indices? */
static int clauses_blind(const struct scan *sc)
{
	const struct ir_program *p = sc->p;
	if (cond_observes(sc, p->cond) || cond_observes(sc, p->filter))
		return 0;
	for (int i = 0; i < p->nasserts; i++)
		if (cond_observes(sc, p->asserts[i].cond))
			return 0;
	for (int i = 0; i < p->nobserved; i++)
		if (observes(sc, p->observed[i]))
			return 0;
	return 1;
}

/* The constants of the initial values of what holds indices; 0 when one
 * is an address. */
static int initial_values(struct scan *sc)
{
	const struct ir_program *p = sc->p;
	for (int x = 0; x < p->nlocs; x++) {
		if (!sc->loc[x])
			continue;
		if (p->locs[x].init.kind != IR_VAL_INT ||
		    (p->locs[x].kind != IR_LOC_INT && p->locs[x].kind != IR_LOC_ATOMIC))
			return 0;
		meet(sc, p->locs[x].init.num);
	}
	for (int t = 0; t < p->nthreads; t++)
		for (int r = 0; r < p->threads[t].nregs; r++) {
			const struct ir_reg *g = &p->threads[t].regs[r];
			if (!sc->reg[t][r])
				continue;
			if (g->has_init && g->init.kind != IR_VAL_INT)
				return 0;
			meet(sc, g->has_init ? g->init.num : 0);
		}
	return 1;
}

/* Group the threads alike up to their index (sc->group, at, index);
 * returns how many threads are in a group, -1 when two indices agree. */
static int find_groups(struct scan *sc)
{
	const struct ir_program *p = sc->p;
	int n = p->nthreads, grouped = 0;
	for (int f = 0; f < n; f++) {
		if (sc->group[f] >= 0)
			continue;
		struct alike d = {0};
		int members = 1;
		for (int u = f + 1; u < n; u++) {
			int before = d.n;
			d.index = 0;
			if (sc->group[u] < 0 && alike_threads(&p->threads[f], &p->threads[u], &d)) {
				sc->group[u] = f;
				members++;
			} else {
				d.n = before; /* not alike: forget what it listed */
			}
		}
		if (!d.n) { /* identical code: symmetry.c's classes, if any */
			for (int u = f + 1; u < n; u++)
				if (sc->group[u] == f)
					sc->group[u] = -1;
			free(d.at);
			continue;
		}
		sc->group[f] = f;
		sc->at[f] = d.at;
		sc->nat[f] = d.n;
		grouped += members;
	}
	/* each member's index: its one value at every place listed */
	for (int t = 0; t < n; t++) {
		int g = sc->group[t];
		if (g < 0)
			continue;
		for (int i = 0; i < sc->nat[g]; i++) {
			int k = 0;
			const struct ir_instr *in = nth_instr(&p->threads[t].body, sc->at[g][i], &k);
			if (!in || !const_assign(in) || (i && in->a->num != sc->index[t]))
				return -1;
			sc->index[t] = in->a->num;
		}
		for (int u = 0; u < t; u++)
			if (sc->group[u] >= 0 && sc->index[u] == sc->index[t])
				return -1;
	}
	return grouped;
}

int scalarset_join(const struct ir_program *p, const char *pinned, int *rep)
{
	int n = p->nthreads, joined = 0;
	struct scan sc = {.p = p};
	sc.group = xmalloc(sizeof(int) * ((size_t)n + 1));
	sc.index = xcalloc((size_t)n + 1, sizeof(long));
	sc.at = xcalloc((size_t)n + 1, sizeof(int *));
	sc.nat = xcalloc((size_t)n + 1, sizeof(int));
	sc.reg = xcalloc((size_t)n + 1, sizeof(char *));
	sc.loc = xcalloc((size_t)p->nlocs + 1, 1);
	for (int t = 0; t < n; t++) {
		sc.group[t] = -1;
		sc.reg[t] = xcalloc((size_t)p->threads[t].nregs + 1, 1);
	}
	if (find_groups(&sc) <= 0)
		goto done;
	do {
		sc.changed = 0;
		for (int t = 0; t < n; t++) {
			int k = 0;
			spread(&sc, t, &p->threads[t].body, &k);
		}
	} while (sc.changed);
	for (int t = 0; t < n && !sc.broken; t++) {
		int k = 0;
		check_block(&sc, t, &p->threads[t].body, &k);
	}
	int any_loc = 0;
	for (int x = 0; x < p->nlocs; x++)
		any_loc |= sc.loc[x];
	if (sc.broken || (sc.computed && any_loc) || !initial_values(&sc) || !clauses_blind(&sc))
		goto done;
	/* threads that keep their place: their index stays where it is */
	for (int t = 0; t < n; t++)
		if (sc.group[t] >= 0 && pinned[t])
			meet(&sc, sc.index[t]);
	for (int g = 0; g < n; g++) {
		if (sc.group[g] != g)
			continue;
		int low = -1, k = 0;
		for (int t = g; t < n; t++)
			if (sc.group[t] == g && !pinned[t] && !met(&sc, sc.index[t]) && k++ == 0)
				low = t;
		for (int t = low + 1; k > 1 && t < n; t++)
			if (sc.group[t] == g && !pinned[t] && !met(&sc, sc.index[t]))
				rep[t] = low;
		joined += k > 1 ? k : 0;
	}
done:
	for (int t = 0; t < n; t++) {
		free(sc.reg[t]);
		free(sc.at[t]);
	}
	free(sc.reg);
	free(sc.at);
	free(sc.nat);
	free(sc.loc);
	free(sc.index);
	free(sc.group);
	free(sc.met);
	return joined;
}
