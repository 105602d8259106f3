/*
 * states.c - enumeration of final states with blocking clauses; see states.h.
 */
#include "solver/deadline.h"
#include "solver/lazy.h"
#include "solver/problem.h"
#include "solver/states.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "common/clock.h"
#include "common/xalloc.h"

struct column {
	struct ir_observable obs; /* what is observed */
	const char *label;        /* "0:r1" or "[x]" */
	Z3_ast term;              /* its final value */
};


struct state_set {
	const struct encoding *enc; /* the test */
	struct column *col;         /* observed columns, in herd7's order */
	int ncol;
	void *val;                  /* states found: ncol values each, in a row,
				     * as int32_t while every value fits (most
				     * tests: half the memory), else long */
	int wide;                   /* val holds longs */
	unsigned char *positive;    /* per state: satisfies the proposition */
	long nst, cap;              /* states found, room for */
};

struct state_set *state_set_new(const struct encoding *enc)
{
	struct state_set *ss = xcalloc(1, sizeof *ss);
	ss->enc = enc;
	const struct ir_program *p = enc->prog;
	struct ir_observable *obs;
	ss->ncol = ir_columns(p, &obs);
	ss->col = xcalloc((size_t)ss->ncol + 1, sizeof *ss->col);
	for (int i = 0; i < ss->ncol; i++) {
		struct ir_observable o = obs[i];
		char buf[256];
		ir_column_label(p, o, buf, sizeof buf);
		ss->col[i] = (struct column){o, xstrdup(buf), enc_observable(enc, o)};
	}
	free(obs);
	return ss;
}

void state_set_free(struct state_set *ss)
{
	if (!ss)
		return;
	for (int i = 0; i < ss->ncol; i++)
		free((char *)ss->col[i].label);
	free(ss->col);
	free(ss->val);
	free(ss->positive);
	free(ss);
}

int state_set_ncols(const struct state_set *ss)
{
	return ss->ncol;
}

struct ir_observable state_set_column(const struct state_set *ss, int i)
{
	return ss->col[i].obs;
}

int state_set_column_index(const struct state_set *ss, struct ir_observable o)
{
	for (int i = 0; i < ss->ncol; i++)
		if (ss->col[i].obs.thread == o.thread && ss->col[i].obs.index == o.index)
			return i;
	return -1;
}

/* The proposition on one state's values, as enc_cond() says it in Z3. */
static int cond_holds(const struct state_set *ss, const struct ir_cond *c,
		      const long *val)
{
	switch (c->kind) {
	case IR_C_TRUE:
		return 1;
	case IR_C_FALSE:
		return 0;
	case IR_C_ATOM: {
		/* every observable of the condition has a column (ir_columns) */
		int i = state_set_column_index(ss, c->lhs);
		int j = c->rhs_is_obs ? state_set_column_index(ss, c->rhs_obs) : 0;
		assert(i >= 0 && j >= 0);
		long x = val[i];
		if (c->rhs_is_obs)
			return x == val[j];
		return x == (c->rhs.kind == IR_VAL_LOC ? enc_loc_address(c->rhs.loc)
						       : c->rhs.num);
	}
	case IR_C_EXPR:
		/* only programs have it, and they list no states (check.c) */
		assert(0);
		return 0;
	case IR_C_NOT:
		return !cond_holds(ss, c->a, val);
	case IR_C_AND:
		return cond_holds(ss, c->a, val) && cond_holds(ss, c->b, val);
	case IR_C_OR:
		return cond_holds(ss, c->a, val) || cond_holds(ss, c->b, val);
	}
	return 0;
}

void state_set_add(struct state_set *ss, const long *val)
{
	size_t row = (size_t)(ss->ncol ? ss->ncol : 1);
	for (int c = 0; c < ss->ncol && !ss->wide; c++)
		if (val[c] != (int32_t)val[c]) {
			long *w = xmalloc_array(row * (size_t)ss->cap, sizeof(long));
			for (size_t i = 0; i < (size_t)ss->nst * row; i++)
				w[i] = ((int32_t *)ss->val)[i];
			free(ss->val);
			ss->val = w;
			ss->wide = 1;
		}
	size_t width = ss->wide ? sizeof(long) : sizeof(int32_t);
	if (ss->nst == ss->cap) {
		ss->cap = (long)xgrow_cap((size_t)ss->cap, (size_t)ss->nst + 1, 16);
		ss->val = xrealloc_array(ss->val, row * (size_t)ss->cap, width);
		ss->positive = xrealloc(ss->positive, (size_t)ss->cap);
	}
	for (int c = 0; c < ss->ncol; c++) {
		size_t at = (size_t)ss->nst * row + (size_t)c;
		if (ss->wide)
			((long *)ss->val)[at] = val[c];
		else
			((int32_t *)ss->val)[at] = (int32_t)val[c];
	}
	ss->positive[ss->nst++] = (unsigned char)cond_holds(ss, ss->enc->prog->cond, val);
}

int state_set_eval(const struct state_set *ss, Z3_model m, long *val)
{
	Z3_context z = ss->enc->z;
	int fits = 1;
	for (int i = 0; i < ss->ncol; i++) {
		Z3_ast v = NULL;
		int64_t x = 0;
		int ok = Z3_model_eval(z, m, ss->col[i].term, 1, &v) &&
			 Z3_get_numeral_int64(z, v, &x);
		val[i] = ok ? (long)x : 0;
		fits &= ok;
	}
	return fits;
}

/*
 * Enumeration by splitting, with assumptions only (no blocking clauses that
 * pile up): a model found under assumptions P gives one state v; the rest
 * of P's states are partitioned into, for each column i from the last down
 * to the first free one, "columns before i equal v, column i differs from
 * v[i]", each explored the same way.  Every satisfiable check yields a new
 * state, and the assumptions stay short.
 */
struct lit_cache {
	long val;              /* a column value */
	Z3_ast lit;            /* the literal defined as "column == val" */
};

struct walk {
	struct state_set *ss;  /* where states go */
	struct lit_cache **lits; /* per column: literals defined so far */
	int *nlits;            /* per column: how many */
	Z3_solver s;           /* the solver */
	Z3_ast *assume;        /* assumption stack */
	int nassume, cap;
	int ok;                /* 0 once Z3 gave up or a value did not fit */
	int out_of_range;      /* 1: a final value did not fit in a long
				* (asking for other values than 0 would never end) */
	double deadline;       /* no query starts after this (0: none) */
	struct lazy *lz;       /* the lazy core, when it owns s */
};

/* A literal equivalent to "column c has value v" (defined in the solver). */
static Z3_ast column_is(struct walk *w, int c, long v)
{
	Z3_context z = w->ss->enc->z;
	for (int i = 0; i < w->nlits[c]; i++)
		if (w->lits[c][i].val == v)
			return w->lits[c][i].lit;
	char name[64];
	snprintf(name, sizeof name, "col%d=%ld", c, v);
	Z3_ast lit = Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bool_sort(z));
	Z3_ast eq = Z3_mk_eq(z, w->ss->col[c].term, Z3_mk_int64(z, v, Z3_mk_int_sort(z)));
	Z3_solver_assert(z, w->s, Z3_mk_eq(z, lit, eq));
	w->lits[c] = xrealloc_array(w->lits[c], (size_t)w->nlits[c] + 1, sizeof **w->lits);
	w->lits[c][w->nlits[c]++] = (struct lit_cache){v, lit};
	return lit;
}

static void assume(struct walk *w, Z3_ast lit)
{
	XGROW(w->assume, w->cap, w->nassume + 1, 32);
	w->assume[w->nassume++] = lit;
}

static void walk(struct walk *w, int from)
{
	struct state_set *ss = w->ss;
	Z3_context z = ss->enc->z;
	if (!w->ok)
		return;
	if (clock_past(w->deadline)) {
		w->ok = 0;
		return;
	}
	Z3_lbool r;
	if (lazy_owns(w->lz, w->s)) {
		r = lazy_check(w->lz, w->s, (unsigned)w->nassume, w->assume, w->deadline);
	} else {
		deadline_arm(z, w->s, w->deadline);
		r = problem_check(z, w->s, (unsigned)w->nassume, w->assume);
	}
	if (r == Z3_L_UNDEF)
		w->ok = 0;
	if (r != Z3_L_TRUE)
		return;
	Z3_model m = Z3_solver_get_model(z, w->s);
	Z3_model_inc_ref(z, m);
	long *v = xmalloc(sizeof(long) * (size_t)(ss->ncol ? ss->ncol : 1));
	int fits = state_set_eval(ss, m, v);
	Z3_model_dec_ref(z, m);
	if (!fits) {
		w->ok = 0;
		w->out_of_range = 1;
		free(v);
		return;
	}
	state_set_add(ss, v);
	for (int i = ss->ncol - 1; i >= from && w->ok; i--) {
		int mark = w->nassume;
		for (int j = from; j < i; j++)
			assume(w, column_is(w, j, v[j]));
		assume(w, Z3_mk_not(z, column_is(w, i, v[i])));
		walk(w, i);
		w->nassume = mark;
	}
	free(v);
}

int state_set_enumerate(struct state_set *ss, Z3_solver s, struct lazy *lz,
			double deadline)
{
	Z3_context z = ss->enc->z;
	Z3_solver_push(z, s);
	struct walk w = {.ss = ss, .s = s, .ok = 1, .deadline = deadline, .lz = lz};
	w.lits = xcalloc((size_t)ss->ncol + 1, sizeof *w.lits);
	w.nlits = xcalloc((size_t)ss->ncol + 1, sizeof *w.nlits);
	walk(&w, 0);
	for (int i = 0; i < ss->ncol; i++)
		free(w.lits[i]);
	free(w.lits);
	free(w.nlits);
	free(w.assume);
	Z3_solver_pop(z, s, 1);
	return w.out_of_range ? STATES_OUT_OF_RANGE : w.ok;
}

long state_set_size(const struct state_set *ss)
{
	return ss->nst;
}

long state_set_count(const struct state_set *ss, int positive)
{
	long k = 0;
	for (long i = 0; i < ss->nst; i++)
		k += ss->positive[i] == positive;
	return k;
}

static long value_at(const struct state_set *ss, long st, int c)
{
	size_t at = (size_t)st * (size_t)ss->ncol + (size_t)c;
	return ss->wide ? ((const long *)ss->val)[at] : ((const int32_t *)ss->val)[at];
}

int state_value_cmp(const struct encoding *enc, long x, long y)
{
	if (x == y)
		return 0;
	if (x == ENC_SYMBOLIC || y == ENC_SYMBOLIC)
		return x == ENC_SYMBOLIC ? -1 : 1; /* herd7 lists symbols first */
	int lx = enc_address_loc(enc, x), ly = enc_address_loc(enc, y);
	if ((lx >= 0) != (ly >= 0))
		return lx >= 0 ? 1 : -1;
	if (lx >= 0)
		return strcmp(enc->prog->locs[lx].name, enc->prog->locs[ly].name);
	return x < y ? -1 : 1;
}

/* Column by column, in state_value_cmp's order.  a and b index states. */
static int state_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct state_set *ss = ctx;
	long a = *(const long *)pa, b = *(const long *)pb;
	for (int i = 0; i < ss->ncol; i++) {
		int c = state_value_cmp(ss->enc, value_at(ss, a, i), value_at(ss, b, i));
		if (c)
			return c;
	}
	return 0;
}

/* Sort the states in place into herd7's order (cubes come in order
 * already, see cubes.c: then it is a check, not a sort).  The rows are
 * permuted cycle by cycle with one row of room: no copy of the list. */
static void sort_states(struct state_set *ss)
{
	long *order = xmalloc(sizeof(long) * (size_t)(ss->nst ? ss->nst : 1));
	int sorted = 1;
	for (long i = 0; i < ss->nst; i++) {
		order[i] = i;
		if (i && sorted && state_cmp(&order[i - 1], &order[i], (void *)ss) > 0)
			sorted = 0;
	}
	if (!sorted)
		qsort_r(order, (size_t)ss->nst, sizeof *order, state_cmp, (void *)ss);
	size_t width = (ss->wide ? sizeof(long) : sizeof(int32_t)) * (size_t)ss->ncol;
	char *rows = ss->val, *tmp = xmalloc(width ? width : 1);
	for (long i = 0; !sorted && i < ss->nst; i++) {
		/* row i gets row order[i], which gets row order[order[i]], ... */
		if (order[i] == i)
			continue;
		memcpy(tmp, rows + (size_t)i * width, width);
		unsigned char pos = ss->positive[i];
		long j = i;
		while (order[j] != i) {
			long k = order[j];
			memcpy(rows + (size_t)j * width, rows + (size_t)k * width, width);
			ss->positive[j] = ss->positive[k];
			order[j] = j;
			j = k;
		}
		memcpy(rows + (size_t)j * width, tmp, width);
		ss->positive[j] = pos;
		order[j] = j;
	}
	free(tmp);
	free(order);
}

/* The states of ss, sorted, as result.h's data: the values are ss's
 * own, the labels and names copied when owned (else borrowed). */
static void states_view(struct state_set *ss, struct check_states *st, int owned)
{
	const struct ir_program *p = ss->enc->prog;
	sort_states(ss);
	*st = (struct check_states){.ncols = ss->ncol, .n = ss->nst, .wide = ss->wide,
				    .val = ss->val, .loc_base = enc_loc_address(0),
				    .nlocs = p->nlocs, .symbolic = ENC_SYMBOLIC};
	st->cols = xcalloc((size_t)ss->ncol + 1, sizeof *st->cols);
	for (int c = 0; c < ss->ncol; c++)
		st->cols[c] = owned ? xstrdup(ss->col[c].label) : (char *)ss->col[c].label;
	st->locs = xcalloc((size_t)p->nlocs + 1, sizeof *st->locs);
	for (int l = 0; l < p->nlocs; l++)
		st->locs[l] = owned ? xstrdup(p->locs[l].name) : (char *)p->locs[l].name;
}

void state_set_take(struct state_set *ss, struct check_states *st)
{
	states_view(ss, st, 1);
	ss->val = NULL;
	ss->nst = ss->cap = 0;
}

void state_set_print(struct state_set *ss, FILE *out)
{
	struct check_states st;
	states_view(ss, &st, 0);
	for (long i = 0; i < st.n; i++)
		check_state_print(&st, i, out);
	free(st.cols);
	free(st.locs);
}
