/*
 * scalarset.c - threads interchangeable up to an index argument (see
 * scalarset.h for what qualifies and why it is sound).
 *
 * Three steps.  Threads are grouped by code alike up to the constants of
 * whole-value assignments ("me = 3"); each group's differing assignments
 * are its index, one value per thread, all values distinct.  The values
 * that can hold index + o are then found, with their offset o, as a
 * fixpoint over every thread (not only the group's: another thread may
 * read them): registers assigned, loaded or exchanged from them,
 * locations stored to or exchanged from them; subscripts by them name
 * array slots (the slot of index i).  Last, every instruction and the
 * final clauses are checked against the rules of scalarset.h, collecting
 * the indices constants meet, the bounds indices are compared with and
 * the slots each subscript has; a thread whose index is met, or whose
 * registers are observed, stays where it is, and the others of its group
 * form one class when they are on one side of every bound and every
 * subscript has alike slots for them.  Any other rule broken anywhere: no
 * class is joined.
 *
 * Why renaming then maps executions to executions: let sigma permute a
 * class and pi exchange the indices alike (a thread's index to that of
 * its image), fixing every other value, in particular the indices met;
 * let lambda exchange the slots of those indices in each array.  Apply
 * pi to every register and event value that can hold an index (to i + o:
 * pi(i) + o) and lambda to every event's location.  Copies and shifts
 * commute with pi; pi(x) == pi(y) iff x == y (same offset); pi(x) == c
 * iff x == c for a constant c - o that pi fixes; a bound holds of pi(x)
 * iff of x, all renamed indices being on one side of it; the subscript by
 * pi(x) is lambda of the subscript by x; values of other kinds are
 * untouched, lambda keeps same-location and the initial values (slots
 * alike), and the events, po, dependencies, rf and co are the same but
 * for the thread names and locations.  So each renamed thread runs its
 * code with its new index, the same branches taken, the same assertions
 * failing, the same final values of everything the final clauses observe
 * (they observe no slot that lambda moves: a slot they name is met).
 */
#include "solver/scalarset.h"

#include <limits.h>
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
		XGROW(d->at, d->cap, d->n + 1, 4);
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

/* "Holds no index": the offset of a value that is not index + offset. */
#define NO_INDEX LONG_MIN
/* Offsets are the small constants added to indices ("me + 1"). */
#define MAX_OFFSET (1L << 20)

/* An index compared with a constant: (index + o) op c. */
struct bound {
	int op; /* IR_LT, IR_LE, IR_GT or IR_GE */
	long o, c;
};

/* An array subscripted by an index: the indices it has slots for. */
struct subscript {
	long *index;
	int n;
};

/* What the analysis knows. */
struct scan {
	const struct ir_program *p;
	int *group;        /* per thread: its group's first thread, or -1 */
	long *index;       /* per thread in a group: its index */
	int **at;          /* per group's first thread: where its index is set */
	int *nat;          /* and how many places */
	long **reg;        /* per thread, per register: o when it can hold
			    * index + o, else NO_INDEX */
	long *loc;         /* per location: the same */
	long *slot;        /* per location: the index whose slot it is in an
			    * array subscripted by indices, else NO_INDEX */
	int *array;        /* per location: union-find parent, joining the
			    * slots of one array */
	long *met;         /* the indices constants meet (c - o) */
	int nmet, capmet;
	struct bound *bounds;       /* the comparisons of indices by < etc. */
	int nbounds, capbounds;
	struct subscript *subs;     /* the accesses through a subscript */
	int nsubs, capsubs;
	int *tg;           /* scratch: the locations an address can be */
	int ntg, captg;
	int coherent;      /* the model is coherent: a read after the
			    * thread's own write of a location never reads
			    * its initial value */
	char **reg_open;   /* per thread, per register: may be read before
			    * it is set (its initial value seen) */
	char *loc_open;    /* per location: may be read before the thread
			    * reading it wrote it */
	int computed;      /* some access has an address of unknown targets */
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
	XGROW(sc->met, sc->capmet, sc->nmet + 1, 8);
	sc->met[sc->nmet++] = c;
}

static int met(const struct scan *sc, long c)
{
	for (int i = 0; i < sc->nmet; i++)
		if (sc->met[i] == c)
			return 1;
	return 0;
}

/* A location named outright: when it is an index's slot, that index is
 * met (the thread of that index keeps its place, the slot with it). */
static void meet_slot(struct scan *sc, int x)
{
	if (sc->slot[x] != NO_INDEX)
		meet(sc, sc->slot[x]);
}

static int small(long c)
{
	return c > -MAX_OFFSET && c < MAX_OFFSET;
}

/* The offset o when e is index + o (a register that can hold one, plus
 * or minus constants), else NO_INDEX. */
static long ival(const struct scan *sc, int t, const struct ir_expr *e)
{
	if (!e)
		return NO_INDEX;
	if (e->kind == IR_E_REG)
		return sc->reg[t][e->reg];
	if (e->kind != IR_E_BINARY || (e->op != IR_ADD && e->op != IR_SUB))
		return NO_INDEX;
	long o;
	if (e->b->kind == IR_E_CONST && small(e->b->num) &&
	    (o = ival(sc, t, e->a)) != NO_INDEX && small(o))
		return e->op == IR_ADD ? o + e->b->num : o - e->b->num;
	if (e->op == IR_ADD && e->a->kind == IR_E_CONST && small(e->a->num) &&
	    (o = ival(sc, t, e->b)) != NO_INDEX && small(o))
		return o + e->a->num;
	return NO_INDEX;
}

/* Can e be the value given to a place holding index + o: such a value, or
 * a constant (then met)? */
static int index_value(struct scan *sc, int t, const struct ir_expr *e, long o)
{
	if (o != NO_INDEX && ival(sc, t, e) == o)
		return 1;
	if (o != NO_INDEX && e && e->kind == IR_E_CONST) {
		meet(sc, e->num - o);
		return 1;
	}
	return 0;
}

static void add_bound(struct scan *sc, int op, long o, long c)
{
	XGROW(sc->bounds, sc->capbounds, sc->nbounds + 1, 8);
	sc->bounds[sc->nbounds++] = (struct bound){op, o, c};
}

static int uses_ok(struct scan *sc, int t, const struct ir_expr *e);

/* e in a condition: an index there is compared with 0. */
static int cond_ok(struct scan *sc, int t, const struct ir_expr *e)
{
	long o = ival(sc, t, e);
	if (o != NO_INDEX) {
		meet(sc, -o);
		return 1;
	}
	return uses_ok(sc, t, e);
}

/* a op b where a or b holds an index: == and != against another with
 * the same offset or a constant; <, <=, > and >= against a constant. */
static int compare_ok(struct scan *sc, int t, int op, const struct ir_expr *a,
		      const struct ir_expr *b)
{
	static const int flip[] = {[IR_LT] = IR_GT, [IR_LE] = IR_GE,
				   [IR_GT] = IR_LT, [IR_GE] = IR_LE};
	long oa = ival(sc, t, a), ob = ival(sc, t, b);
	if (oa == NO_INDEX) { /* the index on the left */
		const struct ir_expr *x = a;
		a = b;
		b = x;
		oa = ob;
		ob = NO_INDEX;
		if (op != IR_EQ && op != IR_NE)
			op = flip[op];
	}
	if (op == IR_EQ || op == IR_NE)
		return ob != NO_INDEX ? oa == ob : index_value(sc, t, b, oa);
	if (b->kind != IR_E_CONST)
		return 0;
	add_bound(sc, op, oa, b->num);
	return 1;
}

/* Does e use indices only as compare_ok and cond_ok allow, never as a
 * number?  Locations it names are met (meet_slot). */
static int uses_ok(struct scan *sc, int t, const struct ir_expr *e)
{
	if (!e)
		return 1;
	if (ival(sc, t, e) != NO_INDEX)
		return 0;
	switch (e->kind) {
	case IR_E_LOC:
		meet_slot(sc, e->loc);
		return 1;
	case IR_E_BINARY:
		if (e->op >= IR_EQ && e->op <= IR_GE &&
		    (ival(sc, t, e->a) != NO_INDEX || ival(sc, t, e->b) != NO_INDEX))
			return compare_ok(sc, t, e->op, e->a, e->b);
		if (e->op == IR_LAND || e->op == IR_LOR)
			return cond_ok(sc, t, e->a) && cond_ok(sc, t, e->b);
		break;
	case IR_E_UNARY:
		if (e->op == IR_LNOT)
			return cond_ok(sc, t, e->a);
		break;
	case IR_E_COND:
		return cond_ok(sc, t, e->a) && uses_ok(sc, t, e->b) && uses_ok(sc, t, e->c);
	default:
		break;
	}
	return uses_ok(sc, t, e->a) && uses_ok(sc, t, e->b) && uses_ok(sc, t, e->c);
}

/* The front end's array subscript, "(X == k0) ? &a[k0] : (X == k1) ?
 * &a[k1] : ... : &a" with the same X throughout: returns how many slots
 * (0 when a is not one), *sel: X. */
static int subscript_shape(const struct ir_expr *a, const struct ir_expr **sel)
{
	int n = 0;
	for (*sel = NULL; a && a->kind == IR_E_COND; a = a->c, n++) {
		const struct ir_expr *q = a->a;
		if (!q || q->kind != IR_E_BINARY || q->op != IR_EQ || !q->b ||
		    q->b->kind != IR_E_CONST || !a->b || a->b->kind != IR_E_LOC ||
		    (*sel && !alike_expr(*sel, q->a)))
			return 0;
		*sel = q->a;
	}
	return a && a->kind == IR_E_LOC ? n : 0;
}

/* The offset of a's selector when a is a subscript by an index, else
 * NO_INDEX. */
static long subscript_offset(const struct scan *sc, int t, const struct ir_expr *a)
{
	const struct ir_expr *sel;
	return subscript_shape(a, &sel) ? ival(sc, t, sel) : NO_INDEX;
}

static void push_target(struct scan *sc, int x)
{
	XGROW(sc->tg, sc->captg, sc->ntg + 1, 16);
	sc->tg[sc->ntg++] = x;
}

/* The locations address a can be into sc->tg: a location, or the
 * locations of a tree of conditionals over them.  Returns 0 when a is
 * computed otherwise (its targets unknown). */
static int collect(struct scan *sc, const struct ir_expr *a)
{
	if (a && a->kind == IR_E_LOC) {
		push_target(sc, a->loc);
		return 1;
	}
	return a && a->kind == IR_E_COND && collect(sc, a->b) && collect(sc, a->c);
}

static int targets(struct scan *sc, const struct ir_expr *a)
{
	sc->ntg = 0;
	return collect(sc, a);
}

/* The offset the targets share (NO_INDEX when they hold no index); a
 * mix, or unknown targets: broken, NO_INDEX. */
static long target_offset(struct scan *sc, const struct ir_expr *a)
{
	if (!targets(sc, a))
		return NO_INDEX;
	long o = sc->loc[sc->tg[0]];
	for (int i = 1; i < sc->ntg; i++)
		if (sc->loc[sc->tg[i]] != o)
			sc->broken = 1;
	return o;
}

static void mark(struct scan *sc, long *off, long o)
{
	if (o == NO_INDEX || *off == o)
		return;
	if (*off != NO_INDEX)
		sc->broken = 1; /* two offsets: pi would not commute */
	*off = o;
	sc->changed = 1;
}

/* Mark every target of address a as holding index + o. */
static void mark_targets(struct scan *sc, const struct ir_expr *a, long o)
{
	if (o != NO_INDEX && targets(sc, a))
		for (int i = 0; i < sc->ntg; i++)
			mark(sc, &sc->loc[sc->tg[i]], o);
}

/* Mark register dst as holding what the targets of a hold. */
static void mark_loaded(struct scan *sc, int t, int dst, const struct ir_expr *a)
{
	if (dst < 0 || !targets(sc, a))
		return;
	for (int i = 0; i < sc->ntg; i++)
		mark(sc, &sc->reg[t][dst], sc->loc[sc->tg[i]]);
}

static int array_root(struct scan *sc, int x)
{
	while (sc->array[x] != x)
		x = sc->array[x] = sc->array[sc->array[x]];
	return x;
}

/* Name the slots of a subscript by an index (selector offset o). */
static void name_slots(struct scan *sc, const struct ir_expr *a, long o)
{
	int first = a->b->loc;
	for (; a->kind == IR_E_COND; a = a->c) {
		int x = a->b->loc;
		long i = a->a->b->num - o;
		if (!small(a->a->b->num) || (sc->slot[x] != NO_INDEX && sc->slot[x] != i))
			sc->broken = 1;
		sc->slot[x] = i;
		sc->array[array_root(sc, x)] = array_root(sc, first);
	}
}

/* One step of the fixpoint over block b of thread t (k: preorder). */
static void spread(struct scan *sc, int t, const struct ir_block *b, int *k)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int here = (*k)++;
		long o = subscript_offset(sc, t, in->a);
		if (o != NO_INDEX && in->op != IR_ASSIGN && in->op != IR_IF &&
		    in->op != IR_ASSERT)
			name_slots(sc, in->a, o);
		switch (in->op) {
		case IR_ASSIGN:
			mark(sc, &sc->reg[t][in->dst],
			     sets_index(sc, t, here) ? 0 : ival(sc, t, in->a));
			break;
		case IR_LOAD:
			mark_loaded(sc, t, in->dst, in->a);
			break;
		case IR_STORE:
			mark_targets(sc, in->a, ival(sc, t, in->b));
			break;
		case IR_RMW:
			if (in->rmw == IR_RMW_XCHG) {
				mark_targets(sc, in->a, ival(sc, t, in->b));
				mark_loaded(sc, t, in->dst, in->a);
			} else if (in->rmw == IR_RMW_CMPXCHG) {
				mark_targets(sc, in->a, ival(sc, t, in->b));
				mark_targets(sc, in->a, ival(sc, t, in->c));
				mark_loaded(sc, t, in->dst, in->a);
			}
			break;
		default:
			break;
		}
		spread(sc, t, &in->then_b, k);
		spread(sc, t, &in->else_b, k);
	}
}

/* Record the slots of a subscript by an index (its targets, but for
 * the last, which is the array itself: the out-of-range fallback). */
static void add_subscript(struct scan *sc, const struct ir_expr *a)
{
	XGROW(sc->subs, sc->capsubs, sc->nsubs + 1, 8);
	struct subscript *s = &sc->subs[sc->nsubs++];
	const struct ir_expr *sel;
	s->n = 0;
	s->index = xmalloc(sizeof(long) * ((size_t)subscript_shape(a, &sel) + 1));
	for (; a->kind == IR_E_COND; a = a->c)
		s->index[s->n++] = sc->slot[a->b->loc];
}

/* An access's address: a location (met if a slot), a subscript by an
 * index (recorded), or else checked as an expression (unknown targets
 * noted). */
static int address(struct scan *sc, int t, const struct ir_expr *a)
{
	if (subscript_offset(sc, t, a) != NO_INDEX) {
		add_subscript(sc, a);
		return 1;
	}
	if (!targets(sc, a))
		sc->computed = 1;
	return uses_ok(sc, t, a);
}

/* Check block b of thread t against the rules (scalarset.h). */
static void check_block(struct scan *sc, int t, const struct ir_block *b, int *k)
{
	const long *reg = sc->reg[t];
	for (int i = 0; i < b->count && !sc->broken; i++) {
		const struct ir_instr *in = &b->items[i];
		int here = (*k)++, ok = 1;
		long to = in->dst >= 0 ? reg[in->dst] : NO_INDEX, at;
		switch (in->op) {
		case IR_ASSIGN:
			ok = sets_index(sc, t, here) ||
			     (to != NO_INDEX ? index_value(sc, t, in->a, to) : uses_ok(sc, t, in->a));
			break;
		case IR_LOAD:
			ok = address(sc, t, in->a) &&
			     (targets(sc, in->a) ? target_offset(sc, in->a) == to : to == NO_INDEX);
			break;
		case IR_STORE:
			ok = address(sc, t, in->a);
			at = target_offset(sc, in->a);
			ok = ok && (at != NO_INDEX ? index_value(sc, t, in->b, at) : uses_ok(sc, t, in->b));
			break;
		case IR_RMW:
			ok = address(sc, t, in->a);
			at = target_offset(sc, in->a);
			if (at == NO_INDEX)
				ok = ok && to == NO_INDEX && uses_ok(sc, t, in->b) && uses_ok(sc, t, in->c);
			else if (in->rmw == IR_RMW_XCHG)
				ok = ok && to == at && index_value(sc, t, in->b, at);
			else if (in->rmw == IR_RMW_CMPXCHG)
				ok = ok && to == at && index_value(sc, t, in->b, at) &&
				     index_value(sc, t, in->c, at);
			else /* arithmetic on it */
				ok = 0;
			break;
		case IR_IF:
		case IR_ASSERT:
			ok = to == NO_INDEX && cond_ok(sc, t, in->a);
			break;
		case IR_FENCE:
		case IR_LOOP:
		case IR_BREAK:
		case IR_CONTINUE:
			ok = to == NO_INDEX;
			break;
		default: /* locks and SRCU: an address, maybe a value */
			ok = address(sc, t, in->a) && to == NO_INDEX &&
			     uses_ok(sc, t, in->b) && uses_ok(sc, t, in->c);
			break;
		}
		if (!ok)
			sc->broken = 1;
		check_block(sc, t, &in->then_b, k);
		check_block(sc, t, &in->else_b, k);
	}
}

/* Does e (a final assert's C condition) read a location holding indices?
 * The slots it reads are met. */
static int expr_observes(struct scan *sc, const struct ir_expr *e)
{
	if (!e)
		return 0;
	if (e->kind == IR_E_LOC) {
		meet_slot(sc, e->loc);
		if (sc->loc[e->loc] != NO_INDEX)
			return 1;
	}
	return expr_observes(sc, e->a) | expr_observes(sc, e->b) | expr_observes(sc, e->c);
}

static int observes(struct scan *sc, struct ir_observable o)
{
	if (o.thread >= 0)
		return sc->reg[o.thread][o.index] != NO_INDEX;
	meet_slot(sc, o.index);
	return sc->loc[o.index] != NO_INDEX;
}

static int cond_observes(struct scan *sc, const struct ir_cond *c)
{
	if (!c)
		return 0;
	int seen = 0;
	if (c->kind == IR_C_ATOM) {
		seen = observes(sc, c->lhs) | (c->rhs_is_obs && observes(sc, c->rhs_obs));
		if (!c->rhs_is_obs && c->rhs.kind == IR_VAL_LOC)
			meet_slot(sc, c->rhs.loc); /* "0:r1=locked[2]" */
	}
	return seen | expr_observes(sc, c->expr) | cond_observes(sc, c->a) |
	       cond_observes(sc, c->b);
}

/* Are the final clauses blind to indices? */
static int clauses_blind(struct scan *sc)
{
	const struct ir_program *p = sc->p;
	int seen = cond_observes(sc, p->cond) | cond_observes(sc, p->filter);
	for (int i = 0; i < p->nasserts; i++)
		seen |= cond_observes(sc, p->asserts[i].cond);
	for (int i = 0; i < p->nobserved; i++)
		seen |= observes(sc, p->observed[i]);
	return !seen;
}

/* The registers an expression reads, marked open unless set (set[r]). */
static void read_regs(struct scan *sc, int t, const struct ir_expr *e, const char *set)
{
	if (!e)
		return;
	if (e->kind == IR_E_REG && !set[e->reg])
		sc->reg_open[t][e->reg] = 1;
	read_regs(sc, t, e->a, set);
	read_regs(sc, t, e->b, set);
	read_regs(sc, t, e->c, set);
}

/* The locations a read at address a may read, marked open unless the
 * thread surely wrote them before (wrote[x]); unknown targets: all. */
static void read_locs(struct scan *sc, const struct ir_expr *a, const char *wrote)
{
	int n = sc->p->nlocs;
	if (!targets(sc, a)) {
		memset(sc->loc_open, 1, (size_t)n);
		return;
	}
	for (int i = 0; i < sc->ntg; i++)
		if (!wrote[sc->tg[i]])
			sc->loc_open[sc->tg[i]] = 1;
}

static int reads_memory(const struct ir_instr *in)
{
	return in->op == IR_LOAD || in->op == IR_RMW || in->op == IR_TRYLOCK ||
	       in->op == IR_ISLOCKED || in->op == IR_LOCK || in->op == IR_SRCU_LOCK;
}

/* Does in surely write the one location it names (a store, an RMW that
 * cannot fail)? */
static int surely_writes(const struct ir_instr *in)
{
	return in->a && in->a->kind == IR_E_LOC &&
	       (in->op == IR_STORE ||
		(in->op == IR_RMW && in->rmw != IR_RMW_CMPXCHG &&
		 in->rmw != IR_RMW_ADD_UNLESS));
}

/* Walk block b of thread t in program order with set (registers surely
 * set) and wrote (locations it surely wrote), marking what may be read
 * before.  A branch's sets meet after it; a loop's body is walked with the
 * sets it is entered with, and leaves them as they were (conservative:
 * later iterations and the code after it only know more). */
static void reads_before(struct scan *sc, int t, const struct ir_block *b,
			 char *set, char *wrote)
{
	int nr = sc->p->threads[t].nregs, nl = sc->p->nlocs;
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		read_regs(sc, t, in->a, set);
		read_regs(sc, t, in->b, set);
		read_regs(sc, t, in->c, set);
		if (reads_memory(in))
			read_locs(sc, in->a, wrote);
		if (surely_writes(in))
			wrote[in->a->loc] = 1;
		if (in->dst >= 0)
			set[in->dst] = 1;
		if (in->op != IR_IF && in->op != IR_LOOP)
			continue;
		/* the then branch (or the loop's body) on copies; the else
		 * branch in place, then what both set */
		char *s2 = xmalloc((size_t)nr + 1), *w2 = xmalloc((size_t)nl + 1);
		memcpy(s2, set, (size_t)nr);
		memcpy(w2, wrote, (size_t)nl);
		reads_before(sc, t, &in->then_b, s2, w2);
		if (in->op == IR_IF) {
			reads_before(sc, t, &in->else_b, set, wrote);
			for (int r = 0; r < nr; r++)
				set[r] &= s2[r];
			for (int x = 0; x < nl; x++)
				wrote[x] &= w2[x];
		}
		free(s2);
		free(w2);
	}
}

/* What each thread may read before setting or writing it. */
static void find_open(struct scan *sc)
{
	const struct ir_program *p = sc->p;
	for (int t = 0; t < p->nthreads; t++) {
		char *set = xcalloc((size_t)p->threads[t].nregs + 1, 1);
		char *wrote = xcalloc((size_t)p->nlocs + 1, 1);
		reads_before(sc, t, &p->threads[t].body, set, wrote);
		free(set);
		free(wrote);
	}
}

/* The constants of the initial values of what holds indices, where they
 * may be read (find_open; a location's, with a coherent model); 0 when
 * one is an address.  A slot whose address is an initial value (a
 * pointer set to it, which unknown targets may then reach) is met.  An
 * initial value never read is not an index any thread sees: renaming
 * leaves it, and the initial write, as it is. */
static int initial_values(struct scan *sc)
{
	const struct ir_program *p = sc->p;
	for (int x = 0; x < p->nlocs; x++)
		if (p->locs[x].init.kind == IR_VAL_LOC)
			meet_slot(sc, p->locs[x].init.loc);
	for (int t = 0; t < p->nthreads; t++)
		for (int r = 0; r < p->threads[t].nregs; r++)
			if (p->threads[t].regs[r].has_init &&
			    p->threads[t].regs[r].init.kind == IR_VAL_LOC)
				meet_slot(sc, p->threads[t].regs[r].init.loc);
	for (int x = 0; x < p->nlocs; x++) {
		if (sc->loc[x] == NO_INDEX)
			continue;
		if (p->locs[x].init.kind != IR_VAL_INT ||
		    (p->locs[x].kind != IR_LOC_INT && p->locs[x].kind != IR_LOC_ATOMIC))
			return 0;
		if (sc->loc_open[x] || !sc->coherent)
			meet(sc, p->locs[x].init.num - sc->loc[x]);
	}
	for (int t = 0; t < p->nthreads; t++)
		for (int r = 0; r < p->threads[t].nregs; r++) {
			const struct ir_reg *g = &p->threads[t].regs[r];
			if (sc->reg[t][r] == NO_INDEX)
				continue;
			if (g->has_init && g->init.kind != IR_VAL_INT)
				return 0;
			if (sc->reg_open[t][r])
				meet(sc, (g->has_init ? g->init.num : 0) - sc->reg[t][r]);
		}
	return 1;
}

/* Is every index of joined[0..n) on one side of each bound? */
static int bounds_agree(const struct scan *sc, const long *joined, int n)
{
	for (int b = 0; b < sc->nbounds; b++) {
		const struct bound *d = &sc->bounds[b];
		int side = -1;
		for (int j = 0; j < n; j++) {
			long v = joined[j] + d->o;
			int s = d->op == IR_LT ? v < d->c : d->op == IR_LE ? v <= d->c :
				d->op == IR_GT ? v > d->c : v >= d->c;
			if (side >= 0 && s != side)
				return 0;
			side = s;
		}
	}
	return 1;
}

static int in(const long *v, int n, long x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Does every subscript have a slot for each index of joined[0..n), and
 * are the slots of those indices in one array alike (type, initial
 * value, what they hold), so that exchanging indices exchanges slots? */
static int slots_alike(struct scan *sc, const long *joined, int n)
{
	const struct ir_program *p = sc->p;
	for (int s = 0; s < sc->nsubs; s++)
		for (int j = 0; j < n; j++)
			if (!in(sc->subs[s].index, sc->subs[s].n, joined[j]))
				return 0;
	for (int x = 0; x < p->nlocs; x++) {
		if (!in(joined, n, sc->slot[x]))
			continue;
		for (int y = x + 1; y < p->nlocs; y++) {
			if (!in(joined, n, sc->slot[y]) || array_root(sc, x) != array_root(sc, y))
				continue;
			const struct ir_location *a = &p->locs[x], *b = &p->locs[y];
			if (sc->slot[x] == sc->slot[y] || a->kind != b->kind ||
			    strcmp(a->ctype, b->ctype) != 0 || a->init.kind != b->init.kind ||
			    a->init.num != b->init.num || a->init.loc != b->init.loc ||
			    sc->loc[x] != sc->loc[y])
				return 0;
		}
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

int scalarset_join(const struct ir_program *p, const char *pinned, int coherent, int *rep)
{
	int n = p->nthreads, joined = 0;
	struct scan sc = {.p = p, .coherent = coherent};
	sc.group = xmalloc(sizeof(int) * ((size_t)n + 1));
	sc.index = xcalloc((size_t)n + 1, sizeof(long));
	sc.at = xcalloc((size_t)n + 1, sizeof(int *));
	sc.nat = xcalloc((size_t)n + 1, sizeof(int));
	sc.reg = xcalloc((size_t)n + 1, sizeof(long *));
	sc.loc = xmalloc(sizeof(long) * ((size_t)p->nlocs + 1));
	sc.slot = xmalloc(sizeof(long) * ((size_t)p->nlocs + 1));
	sc.array = xmalloc(sizeof(int) * ((size_t)p->nlocs + 1));
	sc.loc_open = xcalloc((size_t)p->nlocs + 1, 1);
	sc.reg_open = xcalloc((size_t)n + 1, sizeof(char *));
	long *members = xmalloc(sizeof(long) * ((size_t)n + 1));
	for (int x = 0; x < p->nlocs; x++) {
		sc.loc[x] = sc.slot[x] = NO_INDEX;
		sc.array[x] = x;
	}
	for (int t = 0; t < n; t++) {
		sc.group[t] = -1;
		sc.reg[t] = xmalloc(sizeof(long) * ((size_t)p->threads[t].nregs + 1));
		sc.reg_open[t] = xcalloc((size_t)p->threads[t].nregs + 1, 1);
		for (int r = 0; r < p->threads[t].nregs; r++)
			sc.reg[t][r] = NO_INDEX;
	}
	if (find_groups(&sc) <= 0)
		goto done;
	do {
		sc.changed = 0;
		for (int t = 0; t < n; t++) {
			int k = 0;
			spread(&sc, t, &p->threads[t].body, &k);
		}
	} while (sc.changed && !sc.broken);
	for (int t = 0; t < n && !sc.broken; t++) {
		int k = 0;
		check_block(&sc, t, &p->threads[t].body, &k);
	}
	find_open(&sc);
	int any_loc = 0;
	for (int x = 0; x < p->nlocs; x++)
		any_loc |= sc.loc[x] != NO_INDEX;
	if (sc.broken || (sc.computed && any_loc) || !initial_values(&sc) || !clauses_blind(&sc))
		goto done;
	/* threads that keep their place: their index stays where it is */
	for (int t = 0; t < n; t++)
		if (sc.group[t] >= 0 && pinned[t])
			meet(&sc, sc.index[t]);
	for (int g = 0; g < n; g++) {
		if (sc.group[g] != g)
			continue;
		int k = 0;
		for (int t = g; t < n; t++)
			if (sc.group[t] == g && !pinned[t] && !met(&sc, sc.index[t]))
				members[k++] = t;
		for (int j = 0; j < k; j++)
			members[j] = sc.index[members[j]];
		if (k < 2 || !bounds_agree(&sc, members, k) || !slots_alike(&sc, members, k))
			continue;
		int low = -1;
		for (int t = g; t < n; t++) {
			if (sc.group[t] != g || pinned[t] || met(&sc, sc.index[t]))
				continue;
			if (low < 0)
				low = t;
			else
				rep[t] = low;
		}
		joined += k;
	}
done:
	for (int t = 0; t < n; t++) {
		free(sc.reg[t]);
		free(sc.reg_open[t]);
		free(sc.at[t]);
	}
	free(sc.reg_open);
	free(sc.loc_open);
	for (int s = 0; s < sc.nsubs; s++)
		free(sc.subs[s].index);
	free(sc.subs);
	free(sc.bounds);
	free(sc.tg);
	free(members);
	free(sc.reg);
	free(sc.at);
	free(sc.nat);
	free(sc.loc);
	free(sc.slot);
	free(sc.array);
	free(sc.index);
	free(sc.group);
	free(sc.met);
	return joined;
}
