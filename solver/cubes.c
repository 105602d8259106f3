/*
 * cubes.c - final states by regions; see cubes.h.
 *
 * A cube fixes the values of the first c columns (in herd7's order) and
 * leaves the others free over their domains.  Each cube gets at most two
 * questions, under assumptions that fix its columns:
 *   1. "Is some state of the cube reachable?" to the checker's solver
 *      (program, model, axioms).  No: the whole cube is unreachable.
 *   2. "Does some candidate execution of the cube break an axiom?" to a
 *      second solver holding the program, the model's definitions made
 *      exact (rel_exact_defs) and the negation of the axioms
 *      (lkmm_violation).  No: every candidate of the cube is consistent,
 *      so every state of the cube that some candidate has is reachable.
 *   Otherwise the cube is split on its next column.
 * A chain whose one forbidden state is the condition (2^N - 1 reachable
 * states) takes about 3N questions instead of 2^N.
 *
 * Step 2 lists the cube's states only if every combination of column values
 * is the state of some candidate execution.  program_applicable() and
 * column_domain() check a static condition that guarantees it:
 * straight-line code (every event executes, no loop), no locks, RMWs, SRCU,
 * filter, symmetry constraints or thin-air values, and every column either
 * a constant, the value of one read whose candidate writes all store
 * constants, or the final value of a location whose writes all store
 * constants.  Then the reads choose their writes independently (rf is free
 * in the program's constraints) and so does co, so each column takes each
 * value of its domain independently of the others.  Other tests go to
 * states.c.
 *
 * Soundness of step 2 needs the violation formula to be exact: true for
 * every inconsistent candidate and for no other.  The model is built a
 * second time for it (lkmm_build_exact): its closures keep their Horn
 * clauses and get the converse with ranks (rel_exact_defs), so they are
 * exactly the least fixpoint; rcu-order, whose Horn encoding with ranks is
 * far too slow for Z3 on the RCU chains, is unrolled into Kleene stages
 * instead, with "one more stage would add a pair" as a second disjunct of
 * the question, so an answer "no" also says the stages had converged in
 * that cube.  (See violation_solver.)
 */
#include "solver/cubes.h"

#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/problem.h"
#include "solver/states.h"
#include "common/xalloc.h"

struct cube_col {
	long *dom;        /* the values the column can take */
	int ndom;         /* how many */
	Z3_ast *lit;      /* lit[k]: a literal defined as "column == dom[k]" */
	Z3_ast *def;      /* def[k]: that definition, for both solvers */
};

struct cubes {
	struct state_set *ss;      /* where states go */
	Z3_context z;              /* the context */
	Z3_solver cons, bad;       /* with the axioms; with their negation */
	struct cube_col *col;      /* the columns, in state_set order */
	int ncol;                  /* how many */
	Z3_ast *assume;            /* the current cube's literals */
	long *val;                 /* its values (the first "depth" columns) */
	long **witness;            /* per depth: a reachable state of the cube */
	long **broken;             /* per depth: a state breaking an axiom */
	int ok;                    /* 0 once Z3 gave up */
	struct cubes_stats *st;    /* counters */
	Z3_ast violated;           /* in bad: some axiom is broken */
	int stages;                /* rcu-order stages in bad */
	const struct problem *p;   /* the test: its encoding, model, deadline
				    * and solver settings */
};

static int numeral(Z3_context z, Z3_ast a, long *v)
{
	int64_t x;
	if (!a || !Z3_is_numeral_ast(z, a) || !Z3_get_numeral_int64(z, a, &x))
		return 0;
	*v = (long)x;
	return 1;
}

static void dom_add(struct cube_col *c, long v)
{
	for (int i = 0; i < c->ndom; i++)
		if (c->dom[i] == v)
			return;
	c->dom = xrealloc_array(c->dom, (size_t)c->ndom + 1, sizeof *c->dom);
	c->dom[c->ndom++] = v;
}

/* Straight-line code without the events whose rf or co the program's
 * constraints tie together (see the header comment). */
static int program_applicable(const struct encoding *enc, int symmetric)
{
	const unsigned long tied = EVC_BIT(EVC_LKR) | EVC_BIT(EVC_LKW) |
		EVC_BIT(EVC_UL) | EVC_BIT(EVC_LF) | EVC_BIT(EVC_RL) |
		EVC_BIT(EVC_RU) | EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_RMW) |
		EVC_BIT(EVC_SRCU_LOCK) | EVC_BIT(EVC_SRCU_UNLOCK);
	if (symmetric || enc->prog->filter || enc->defined || enc->nbounds ||
	    Z3_ast_vector_size(enc->z, enc->drop))
		return 0;
	for (int e = 0; e < enc->n; e++) {
		const struct event *x = &enc->ev[e];
		if (!rel_is_true(&enc->rc, x->guard) || (x->cls & tied) ||
		    x->rmw_peer >= 0)
			return 0;
		if (x->addr && x->loc < 0)
			return 0;
	}
	return 1;
}

/* The domain of one column, or 0 when it is not of a kind whose values
 * combine freely with the others'.  used[r]: read r already gives a
 * column. */
static int column_domain(const struct encoding *enc, struct ir_observable o,
			 struct cube_col *c, unsigned char *used)
{
	Z3_context z = enc->z;
	Z3_ast term = enc_observable(enc, o);
	long v;
	if (numeral(z, term, &v)) { /* a register set to a constant */
		dom_add(c, v);
		return 1;
	}
	int n = enc->n;
	if (o.thread < 0) { /* a location: the value of its co-last write */
		int iw = -1;
		for (int w = 0; w < n; w++) {
			const struct event *x = &enc->ev[w];
			if (!(x->cls & EVC_BIT(EVC_W)) || x->loc != o.index)
				continue;
			if (x->cls & EVC_BIT(EVC_IW)) {
				iw = w;
				continue;
			}
			if (enc_overwritten(enc, w, -1))
				continue; /* never co-last: not a candidate's value */
			if (!numeral(z, x->val, &v))
				return 0;
			dom_add(c, v);
		}
		if (c->ndom == 0 && iw >= 0 && numeral(z, enc->ev[iw].val, &v))
			dom_add(c, v);
		return c->ndom > 0;
	}
	/* A register: the value of one read, never used by another column. */
	for (int r = 0; r < n; r++) {
		const struct event *x = &enc->ev[r];
		if (!(x->cls & EVC_BIT(EVC_R)) || !x->val || !Z3_is_eq_ast(z, x->val, term))
			continue;
		if (used[r])
			return 0;
		used[r] = 1;
		for (int w = 0; w < n; w++) {
			if (!REL_AT(enc->rf_var, n, w, r))
				continue;
			if (!numeral(z, enc->ev[w].val, &v))
				return 0;
			dom_add(c, v);
		}
		return c->ndom > 0;
	}
	return 0;
}

static Z3_lbool ask(struct cubes *cb, Z3_solver s, int depth)
{
	return problem_ask_until(cb->z, s, (unsigned)depth, cb->assume, cb->p->deadline);
}

/* Every state of the cube: the first depth columns as fixed, the others
 * over their domains. */
static void add_all(struct cubes *cb, int depth)
{
	if (depth == cb->ncol) {
		state_set_add(cb->ss, cb->val);
		cb->st->states_in_cubes++;
		return;
	}
	const struct cube_col *c = &cb->col[depth];
	for (int k = 0; k < c->ndom; k++) {
		cb->val[depth] = c->dom[k];
		add_all(cb, depth + 1);
	}
}

static Z3_solver violation_solver(struct cubes *cb, struct encoding *enc, int stages);

/* Does the violation solver's model break an axiom (rather than only
 * show that rcu-order needs more stages)?  If so, its state goes to bad. */
static int real_violation(struct cubes *cb, long *bad)
{
	Z3_model m = Z3_solver_get_model(cb->z, cb->bad);
	Z3_model_inc_ref(cb->z, m);
	Z3_ast v = NULL;
	int yes = Z3_model_eval(cb->z, m, cb->violated, 1, &v) &&
		  Z3_get_bool_value(cb->z, v) == Z3_L_TRUE;
	if (yes)
		state_set_eval(cb->ss, m, bad);
	Z3_model_dec_ref(cb->z, m);
	return yes;
}

/*
 * The cube fixing the first depth columns.  reach: a state of the cube
 * known to be reachable (question 1 is skipped), or NULL.  broken: the
 * state of a candidate of the cube known to break an axiom (question 2
 * would say yes, so it is skipped), or NULL.  Both come from the parent's
 * models: a ring with one forbidden state asks only the questions that
 * settle cubes.
 */
static void explore(struct cubes *cb, struct encoding *enc, int depth,
		    const long *reach, const long *broken)
{
	Z3_context z = cb->z;
	if (!cb->ok)
		return;
	long *wit = cb->witness[depth], *bad = cb->broken[depth];
	if (reach) {
		memcpy(wit, reach, sizeof(long) * (size_t)cb->ncol);
	} else {
		cb->st->consistent_queries++;
		Z3_lbool r = ask(cb, cb->cons, depth);
		if (r == Z3_L_UNDEF)
			cb->ok = 0;
		if (r != Z3_L_TRUE)
			return;
		Z3_model m = Z3_solver_get_model(z, cb->cons);
		Z3_model_inc_ref(z, m);
		state_set_eval(cb->ss, m, wit);
		Z3_model_dec_ref(z, m);
	}
	if (depth == cb->ncol) {
		state_set_add(cb->ss, cb->val);
		return;
	}
	int known_bad = broken != NULL;
	if (broken) {
		memcpy(bad, broken, sizeof(long) * (size_t)cb->ncol);
	} else {
		Z3_lbool r;
		for (;;) {
			cb->st->violation_queries++;
			r = ask(cb, cb->bad, depth);
			if (r != Z3_L_TRUE)
				break;
			if (real_violation(cb, bad)) {
				known_bad = 1;
				break;
			}
			if (cb->stages >= 64)
				break;
			/* Only rcu-order is short of its fixpoint: more stages,
			 * one at a time at first (each costs every later
			 * question; the chains need 5 or so), then doubling. */
			Z3_solver more = violation_solver(cb, enc, cb->stages < 8 ? cb->stages + 1
									: 2 * cb->stages);
			if (!more)
				break;
			Z3_solver_dec_ref(z, cb->bad);
			cb->bad = more;
		}
		if (r == Z3_L_UNDEF) {
			cb->ok = 0;
			return;
		}
		if (r == Z3_L_FALSE) {
			cb->st->whole_cubes++;
			add_all(cb, depth);
			return;
		}
	}
	const struct cube_col *c = &cb->col[depth];
	for (int k = 0; k < c->ndom && cb->ok; k++) {
		cb->assume[depth] = c->lit[k];
		cb->val[depth] = c->dom[k];
		explore(cb, enc, depth + 1, wit[depth] == c->dom[k] ? wit : NULL,
			known_bad && bad[depth] == c->dom[k] ? bad : NULL);
	}
}

/*
 * A state known to break an axiom before any question 2: the final
 * condition when it fixes every column and is unreachable (the usual
 * "Never" chain).  Every state is some candidate's here, so that state's
 * candidates all break an axiom.  Returns 1 and fills bad.
 */
static int condition_state_broken(struct cubes *cb, const struct ir_cond *c, long *bad)
{
	int ncol = cb->ncol, fixed = 0;
	unsigned char *seen = xcalloc((size_t)ncol + 1, 1);
	const struct ir_cond *stack[64];
	int sp = 0, ok = 1;
	stack[sp++] = c;
	while (sp && ok) {
		const struct ir_cond *x = stack[--sp];
		if (x->kind == IR_C_AND && sp + 2 <= 64) {
			stack[sp++] = x->a;
			stack[sp++] = x->b;
			continue;
		}
		ok = x->kind == IR_C_ATOM && !x->rhs_is_obs;
		int col = ok ? state_set_column_index(cb->ss, x->lhs) : -1;
		ok = col >= 0 && !seen[col];
		if (!ok)
			break;
		seen[col] = 1;
		fixed++;
		bad[col] = x->rhs.kind == IR_VAL_LOC ? enc_loc_address(x->rhs.loc) : x->rhs.num;
	}
	free(seen);
	if (!ok || fixed != ncol)
		return 0;
	for (int i = 0; i < ncol; i++) {
		int k = 0;
		while (k < cb->col[i].ndom && cb->col[i].dom[k] != bad[i])
			k++;
		if (k == cb->col[i].ndom)
			return 0; /* not a state of the product at all */
		cb->assume[i] = cb->col[i].lit[k];
	}
	cb->st->consistent_queries++;
	return ask(cb, cb->cons, ncol) == Z3_L_FALSE;
}

static void free_columns(struct cube_col *col, int ncol)
{
	for (int i = 0; i < ncol; i++) {
		free(col[i].dom);
		free(col[i].lit);
		free(col[i].def);
	}
	free(col);
}

/*
 * The solver for question 2: the program, the model built again by
 * lkmm_build_exact() with rcu-order unrolled into the given number of
 * Kleene stages, and "some axiom is broken, or one more stage would add
 * to rcu-order".  The stages never exceed the least fixpoint and the
 * violation formula only grows with rcu-order, so a violation it finds is
 * real; when it finds none in a cube, the stages are the least fixpoint
 * there and nothing is broken.  A model where only the second disjunct
 * holds asks for more stages.
 */
static Z3_solver violation_solver(struct cubes *cb, struct encoding *enc, int stages)
{
	Z3_context z = enc->z;
	unsigned defs_from = Z3_ast_vector_size(z, enc->rc.defs);
	int horn_from = rel_horn_count(&enc->rc);
	struct lkmm exact;
	struct diag d = {0};
	if (!model_build_exact(cb->p->model, enc, stages, &exact, &d))
		return NULL;
	Z3_ast violated = lkmm_violation(enc, &exact);
	if (!violated)
		return NULL;
	Z3_ast_vector wf = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, wf);
	rel_exact_defs(&enc->rc, horn_from, wf);
	Z3_solver bad = problem_solver(cb->p, PG_FACTS | PG_PROGRAM_DEFS, 1);
	/* Closure, stage and rank variables false until forced: about 25%
	 * faster on the RCU chains than Z3's cached phases. */
	Z3_params phase = Z3_mk_params(z);
	Z3_params_inc_ref(z, phase);
	Z3_params_set_uint(z, phase, Z3_mk_string_symbol(z, "phase_selection"), 0);
	Z3_solver_set_params(z, bad, phase);
	Z3_params_dec_ref(z, phase);
	problem_assert_range(z, bad, enc->rc.defs, defs_from,
			     Z3_ast_vector_size(z, enc->rc.defs));
	problem_assert_range(z, bad, wf, 0, Z3_ast_vector_size(z, wf));
	Z3_ast_vector_dec_ref(z, wf);
	for (int i = 0; i < cb->ncol; i++)
		for (int k = 0; k < cb->col[i].ndom; k++)
			Z3_solver_assert(z, bad, cb->col[i].def[k]);
	Z3_ast either[2] = {violated, exact.rcu_unconverged};
	Z3_solver_assert(z, bad, exact.rcu_unconverged ? Z3_mk_or(z, 2, either) : violated);
	cb->violated = violated;
	cb->stages = stages;
	return bad;
}

/* With a read model, the smallest state space listed by cubes. */
#define CUBES_CAT_MIN_STATES 4096

int cubes_enumerate(struct state_set *ss, const struct problem *p, Z3_solver s,
		    int symmetric, struct cubes_stats *stats)
{
	Z3_context z = p->z;
	struct encoding *enc = p->enc;
	struct cat_model *model = p->model;
	int ncol = state_set_ncols(ss);
	if (!program_applicable(enc, symmetric))
		return CUBES_NOT_APPLICABLE;
	struct cube_col *col = xcalloc((size_t)ncol + 1, sizeof *col);
	unsigned char *used = xcalloc((size_t)enc->n + 1, 1);
	int fits = 1;
	for (int i = 0; i < ncol && fits; i++)
		fits = column_domain(enc, state_set_column(ss, i), &col[i], used);
	free(used);
	/* A model read from cat files has no xb heads (models/lkmm.c): its
	 * violation question carries every closure of the cat with exact
	 * ranks and is slow, so cubes pay off only on big state spaces.
	 * Measured on 6.1's files: 65,535 states 10 s with cubes (over 30 s
	 * without), 127 states 3 s without (58 s with). */
	double space = 1;
	for (int i = 0; i < ncol && fits; i++)
		space *= col[i].ndom;
	if (!fits || (model && space < CUBES_CAT_MIN_STATES)) {
		free_columns(col, ncol);
		return CUBES_NOT_APPLICABLE;
	}
	/* Domains in herd7's order: cubes then come out in the order of the
	 * printed list. */
	for (int i = 0; i < ncol; i++)
		for (int a = 1; a < col[i].ndom; a++)
			for (int b = a; b > 0 && state_value_cmp(enc, col[i].dom[b - 1], col[i].dom[b]) > 0; b--) {
				long t = col[i].dom[b];
				col[i].dom[b] = col[i].dom[b - 1];
				col[i].dom[b - 1] = t;
			}

	Z3_solver_push(z, s);
	for (int i = 0; i < ncol; i++) {
		Z3_ast term = enc_observable(enc, state_set_column(ss, i));
		col[i].lit = xmalloc(sizeof(Z3_ast) * (size_t)col[i].ndom);
		col[i].def = xmalloc(sizeof(Z3_ast) * (size_t)col[i].ndom);
		for (int k = 0; k < col[i].ndom; k++) {
			char name[64];
			snprintf(name, sizeof name, "cube-col%d=%ld", i, col[i].dom[k]);
			Z3_ast lit = Z3_mk_const(z, Z3_mk_string_symbol(z, name),
						 Z3_mk_bool_sort(z));
			Z3_ast def = Z3_mk_eq(z, lit, Z3_mk_eq(z, term,
				Z3_mk_int64(z, col[i].dom[k], Z3_mk_int_sort(z))));
			Z3_solver_assert(z, s, def);
			col[i].lit[k] = lit;
			col[i].def[k] = def;
		}
	}

	struct cubes_stats dummy = {0};
	struct cubes cb = {.p = p, .ss = ss, .z = z, .cons = s, .col = col,
			   .ncol = ncol, .ok = 1, .st = stats ? stats : &dummy};
	cb.bad = violation_solver(&cb, enc, 3); /* see explore() for more */
	if (!cb.bad) {
		free_columns(col, ncol);
		Z3_solver_pop(z, s, 1);
		return CUBES_NOT_APPLICABLE;
	}
	cb.assume = xcalloc((size_t)ncol + 1, sizeof(Z3_ast));
	cb.val = xcalloc((size_t)ncol + 1, sizeof(long));
	cb.witness = xcalloc((size_t)ncol + 1, sizeof(long *));
	cb.broken = xcalloc((size_t)ncol + 1, sizeof(long *));
	for (int d = 0; d <= ncol; d++) {
		cb.witness[d] = xcalloc((size_t)ncol + 1, sizeof(long));
		cb.broken[d] = xcalloc((size_t)ncol + 1, sizeof(long));
	}
	long *cond_bad = xcalloc((size_t)ncol + 1, sizeof(long));
	int cond_broken = condition_state_broken(&cb, enc->prog->cond, cond_bad);
	explore(&cb, enc, 0, NULL, cond_broken ? cond_bad : NULL);

	free(cond_bad);
	for (int d = 0; d <= ncol; d++) {
		free(cb.witness[d]);
		free(cb.broken[d]);
	}
	free(cb.witness);
	free(cb.broken);
	free(cb.val);
	free(cb.assume);
	free_columns(col, ncol);
	Z3_solver_pop(z, s, 1);
	Z3_solver_dec_ref(z, cb.bad);
	if (stats)
		stats->rcu_stages = cb.stages;
	return cb.ok;
}
