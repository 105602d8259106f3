/*
 * test_rel.c - unit tests of the relation algebra (encoder/rel.c).
 *
 * Each test builds relations over a few events whose entries are constants
 * or free variables, then asks Z3 whether a claimed property is valid
 * (its negation unsatisfiable) or satisfiable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "encoder/rel.h"
#include "tests/testutil.h"

/* The events' relation context (tests/testutil.h). */
static int setup(void **state)
{
	return tu_rel_open(state, 5);
}

/* Is fact satisfiable together with the context's definitions? */
static int sat(struct tu_rel *f, Z3_ast fact)
{
	Z3_solver s = Z3_mk_solver(f->z);
	Z3_solver_inc_ref(f->z, s);
	unsigned k = Z3_ast_vector_size(f->z, f->rc.defs);
	for (unsigned i = 0; i < k; i++)
		Z3_solver_assert(f->z, s, Z3_ast_vector_get(f->z, f->rc.defs, i));
	if (fact)
		Z3_solver_assert(f->z, s, fact);
	int r = Z3_solver_check(f->z, s) == Z3_L_TRUE;
	Z3_solver_dec_ref(f->z, s);
	return r;
}

static Z3_ast var(struct tu_rel *f, const char *name)
{
	return Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bool_sort(f->z));
}

#define AT(r, a, b) REL_AT(r, 5, a, b)

/* A relation whose edges "ij ij ..." (events i -> j) are sure (true). */
static rel_t sure(struct rel_ctx *rc, const char *edges)
{
	rel_t a = rel_new(rc);
	for (const char *e = edges; e[0] && e[1]; e += e[2] ? 3 : 2)
		AT(a, e[0] - '0', e[1] - '0') = rc->t;
	return a;
}

/* Define, in the context, the exact definitions of the closures made
 * since Horn clause from (rel_exact_defs); returns how many. */
static unsigned define_exact(struct tu_rel *f, int from)
{
	Z3_ast_vector wf = Z3_mk_ast_vector(f->z);
	Z3_ast_vector_inc_ref(f->z, wf);
	rel_exact_defs(&f->rc, from, wf);
	unsigned k = Z3_ast_vector_size(f->z, wf);
	for (unsigned i = 0; i < k; i++)
		rel_define(&f->rc, Z3_ast_vector_get(f->z, wf, i));
	Z3_ast_vector_dec_ref(f->z, wf);
	return k;
}

static void test_seq_prunes_and_folds(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc), b = rel_new(rc);
	AT(a, 0, 1) = rc->t;
	AT(b, 1, 2) = rc->t;
	AT(b, 3, 4) = var(f, "x");
	rel_t ab = rel_seq(rc, a, b);
	assert_int_equal(rel_count(rc, ab), 1);
	assert_true(rel_is_true(rc, AT(ab, 0, 2)));
	assert_null(AT(ab, 0, 4));
}

static void test_inverse_and_diff(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc);
	Z3_ast x = var(f, "x");
	AT(a, 1, 3) = x;
	AT(a, 2, 2) = rc->t;
	rel_t inv = rel_inv(rc, a);
	assert_ptr_equal(AT(inv, 3, 1), x);
	rel_t id = rel_id(rc, set_all(rc));
	rel_t d = rel_diff(rc, a, id);
	assert_null(AT(d, 2, 2));
	assert_ptr_equal(AT(d, 1, 3), x);
}

/* A cycle 0->1->2->0 whose last edge is a variable: acyclic iff not x. */
static void test_acyclic_cycle(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = sure(rc, "01 12 34"); /* 3 -> 4: not on a cycle, no rank */
	Z3_ast x = var(f, "x");
	AT(a, 2, 0) = x;
	Z3_ast ac = rel_acyclic(rc, a, "t");
	assert_true(sat(f, ac));
	Z3_ast both[2] = {ac, x};
	assert_false(sat(f, Z3_mk_and(f->z, 2, both)));
}

/* a+ contains every path and, in its least model, nothing else. */
static void test_plus_horn(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = sure(rc, "01");
	Z3_ast x = var(f, "x");
	AT(a, 1, 2) = x;
	rel_t tc = rel_plus(rc, a, "tc");
	assert_null(AT(tc, 2, 0)); /* not in the may-closure */
	/* x forces 0 ->+ 2 */
	Z3_ast f1[2] = {x, Z3_mk_not(f->z, AT(tc, 0, 2))};
	assert_false(sat(f, Z3_mk_and(f->z, 2, f1)));
	/* without x, 0 ->+ 2 may be false (least fixpoint reachable) */
	Z3_ast f2[2] = {Z3_mk_not(f->z, x), Z3_mk_not(f->z, AT(tc, 0, 2))};
	assert_true(sat(f, Z3_mk_and(f->z, 2, f2)));
}

/* rel_cyclic is the exact negation of acyclicity: cyclic iff x, here. */
static void test_cyclic_exact(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = sure(rc, "01 12 34");
	Z3_ast x = var(f, "x");
	AT(a, 2, 0) = x;
	Z3_ast cyc = rel_cyclic(rc, a, "t");
	assert_true(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){cyc, x})));
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){cyc, Z3_mk_not(f->z, x)})));
	rel_t self = rel_new(rc);
	AT(self, 4, 4) = x;
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){rel_cyclic(rc, self, "s"),
							  Z3_mk_not(f->z, x)})));
}

/* With rel_exact_defs a closure over a cycle is its least fixpoint: the
 * Horn clauses alone let 0 ->+ 0 (the cycle 1 <-> 2 supporting itself
 * after a step from 0) be true although 0 reaches no cycle back to 0. */
static void test_exact_defs_least(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = sure(rc, "01 12 21");
	Z3_ast x = var(f, "x");
	AT(a, 2, 0) = x;
	int from = rel_horn_count(rc);
	rel_t tc = rel_plus(rc, a, "tc");
	assert_non_null(AT(tc, 0, 0));
	Z3_ast loop_without_x[2] = {AT(tc, 0, 0), Z3_mk_not(f->z, x)};
	/* Horn clauses only: the self-supporting value is allowed */
	assert_true(sat(f, Z3_mk_and(f->z, 2, loop_without_x)));
	assert_true(define_exact(f, from) > 0);
	assert_false(sat(f, Z3_mk_and(f->z, 2, loop_without_x)));
	/* and the real paths are still there */
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){x, Z3_mk_not(f->z, AT(tc, 0, 0))})));
	assert_false(sat(f, Z3_mk_not(f->z, AT(tc, 1, 1))));
}

/* Pairs joined by sure (true) edges are true in a+ without a variable;
 * the rest stays exact: x alone decides 0 ->+ 4, also with the exact
 * definitions (the Horn rules skip the redundant sure edge 0 -> 3). */
static void test_plus_sure_paths(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = sure(rc, "01 12 23 03");
	Z3_ast x = var(f, "x");
	AT(a, 3, 4) = x;
	int from = rel_horn_count(rc);
	rel_t tc = rel_plus(rc, a, "tc");
	assert_true(rel_is_true(rc, AT(tc, 0, 3)));
	assert_true(rel_is_true(rc, AT(tc, 1, 3)));
	assert_null(AT(tc, 4, 0));
	assert_null(AT(tc, 0, 0));
	assert_false(rel_is_true(rc, AT(tc, 0, 4)));
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){x, Z3_mk_not(f->z, AT(tc, 0, 4))})));
	define_exact(f, from);
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){Z3_mk_not(f->z, x), AT(tc, 0, 4)})));
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){Z3_mk_not(f->z, x), AT(tc, 1, 4)})));
}

/* [from] ; a*: a sure path gives the row's own from term. */
static void test_star_from_sure(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc);
	Z3_ast g = var(f, "g"), x = var(f, "x");
	AT(a, 0, 1) = rc->t;
	AT(a, 1, 2) = x;
	set_t from = set_new(rc);
	from[0] = g;
	rel_t r = rel_star_from(rc, from, a, "st");
	assert_true(Z3_is_eq_ast(f->z, AT(r, 0, 0), g));
	assert_true(Z3_is_eq_ast(f->z, AT(r, 0, 1), g));
	assert_null(AT(r, 1, 2)); /* not a row of from */
	Z3_ast need[3] = {g, x, Z3_mk_not(f->z, AT(r, 0, 2))};
	assert_false(sat(f, Z3_mk_and(f->z, 3, need)));
}

/* a \ b is statically empty when b is a disjunction that contains a (the
 * guard of a READ_ONCE minus Marked), and only then. */
static void test_diff_folds_contained(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_ast g = var(f, "g"), x = var(f, "x"), y = var(f, "y");
	set_t a = set_new(rc), b = set_new(rc);
	a[0] = g;
	b[0] = rel_or2(rc, rel_or2(rc, x, y), rel_or2(rc, g, y));
	a[1] = g;
	b[1] = rel_or2(rc, x, y);
	a[2] = g;
	b[2] = g;
	set_t d = set_diff(rc, a, b);
	assert_null(d[0]);
	assert_non_null(d[1]);
	assert_null(d[2]);
	rel_t ra = rel_new(rc), rb = rel_new(rc);
	AT(ra, 0, 1) = g;
	AT(rb, 0, 1) = rel_or2(rc, x, g);
	AT(ra, 1, 2) = g;
	AT(rb, 1, 2) = rel_or2(rc, x, y);
	rel_t rd = rel_diff(rc, ra, rb);
	assert_null(AT(rd, 0, 1));
	assert_non_null(AT(rd, 1, 2));
}

/* Is fact satisfiable with the definitions and the exact ones in more? */
static int sat_exact(struct tu_rel *f, Z3_ast_vector more, Z3_ast fact)
{
	Z3_solver s = Z3_mk_solver(f->z);
	Z3_solver_inc_ref(f->z, s);
	Z3_ast_vector v[2] = {f->rc.defs, more};
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < Z3_ast_vector_size(f->z, v[k]); i++)
			Z3_solver_assert(f->z, s, Z3_ast_vector_get(f->z, v[k], i));
	Z3_solver_assert(f->z, s, fact);
	int r = Z3_solver_check(f->z, s) == Z3_L_TRUE;
	Z3_solver_dec_ref(f->z, s);
	return r;
}

/* With the closures made since Horn clause from exact (rel_exact_defs),
 * got equals want on the 5 x 5 pairs keep marks, and is empty elsewhere. */
static void assert_same_exact(struct tu_rel *f, int from, rel_t want, rel_t got,
			      const unsigned char *keep)
{
	struct rel_ctx *rc = &f->rc;
	Z3_ast_vector exact = Z3_mk_ast_vector(f->z);
	Z3_ast_vector_inc_ref(f->z, exact);
	rel_exact_defs(rc, from, exact);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++) {
			if (!keep[i * 5 + j]) {
				assert_null(AT(got, i, j));
				continue;
			}
			Z3_ast x = AT(want, i, j) ? AT(want, i, j) : Z3_mk_false(f->z);
			Z3_ast y = AT(got, i, j) ? AT(got, i, j) : Z3_mk_false(f->z);
			assert_false(sat_exact(f, exact, Z3_mk_xor(f->z, x, y)));
		}
	Z3_ast_vector_dec_ref(f->z, exact);
}

/* The columns of a* for the events of to, as models/lkmm.c builds xbstar
 * (the rows of (a^-1)* from to, inverted), equal a* there, and the other
 * columns are left empty: on random graphs of sure, possible and absent
 * edges, with both closures made exact (rel_exact_defs). */
static void test_star_columns_random(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	unsigned seed = 12345;
	for (int round = 0; round < 40; round++) {
		rel_t a = rel_new(rc);
		set_t to = set_new(rc);
		for (int i = 0; i < 5; i++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 2)
				to[i] = rc->guard[i];
			for (int j = 0; j < 5; j++) {
				seed = seed * 1103515245u + 12345u;
				unsigned k = (seed >> 16) % 6;
				char name[32];
				snprintf(name, sizeof name, "e%d_%d_%d", round, i, j);
				AT(a, i, j) = k == 0 ? rc->t : k <= 2 ? var(f, name) : NULL;
			}
		}
		int from = rel_horn_count(rc);
		rel_t all = rel_star(rc, a, "all");
		rel_t cols = rel_inv(rc, rel_star_from(rc, to, rel_inv(rc, a), "cols"));
		unsigned char keep[5 * 5];
		for (int i = 0; i < 5 * 5; i++)
			keep[i] = to[i % 5] != NULL;
		assert_same_exact(f, from, all, cols, keep);
	}
}

/* init ; a* as one closure over init's rows (rel_seq_star, rcu-link's
 * po? ; (hb | pb)*) equals init ; a* built from a* over every row, on
 * random graphs of sure, possible and absent edges, with both closures
 * made exact; rows init has no entry in stay empty. */
static void test_seq_star_random(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	unsigned seed = 4242;
	for (int round = 0; round < 40; round++) {
		rel_t a = rel_new(rc), init = rel_new(rc);
		for (int i = 0; i < 5; i++)
			for (int j = 0; j < 5; j++) {
				char name[32];
				seed = seed * 1103515245u + 12345u;
				unsigned k = (seed >> 16) % 6;
				snprintf(name, sizeof name, "a%d_%d_%d", round, i, j);
				AT(a, i, j) = k == 0 ? rc->t : k <= 2 ? var(f, name) : NULL;
				seed = seed * 1103515245u + 12345u;
				k = (seed >> 16) % 8;
				snprintf(name, sizeof name, "p%d_%d_%d", round, i, j);
				/* rows 3 and 4 have no entry */
				if (i < 3)
					AT(init, i, j) = k == 0 ? rc->t : k <= 2 ? var(f, name) : NULL;
			}
		int from = rel_horn_count(rc);
		rel_t want = rel_seq(rc, init, rel_star(rc, a, "all"));
		rel_t got = rel_seq_star(rc, init, a, "seq");
		unsigned char keep[5 * 5];
		for (int i = 0; i < 5 * 5; i++)
			keep[i] = i / 5 < 3;
		assert_same_exact(f, from, want, got, keep);
	}
}

/* Rank constraints left out (implied by sure paths or by an edge of the
 * same formula) still forbid exactly the cycles. */
static void test_acyclic_implied_edges(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc);
	Z3_ast x = var(f, "x"), y = var(f, "y");
	AT(a, 0, 1) = rc->t;
	AT(a, 1, 2) = rc->t;
	AT(a, 0, 2) = y;     /* ordered by the sure path 0 -> 1 -> 2 anyway */
	AT(a, 3, 1) = x;
	AT(a, 3, 2) = x;     /* same formula as 3 -> 1, then 1 -> 2 is sure */
	AT(a, 2, 3) = rc->t;
	Z3_ast ac = rel_acyclic(rc, a, "t");
	assert_true(sat(f, Z3_mk_and(f->z, 3, (Z3_ast[]){ac, Z3_mk_not(f->z, x), y})));
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){ac, x})));
	/* the cycle 2 -> 3 -> 2 alone (through the left-out edge) */
	rel_t b = rel_new(rc);
	AT(b, 3, 1) = x;
	AT(b, 3, 2) = x;
	AT(b, 1, 2) = rc->t;
	AT(b, 2, 3) = rc->t;
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){rel_acyclic(rc, b, "b"), x})));
}

/* A disjunct reached through two middle events is written once. */
static void test_seq_repeated_disjunct(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc), b = rel_new(rc);
	Z3_ast x = var(f, "x");
	AT(a, 0, 1) = x;
	AT(a, 0, 2) = x;
	AT(b, 1, 3) = rc->t;
	AT(b, 2, 3) = rc->t;
	rel_t ab = rel_seq(rc, a, b);
	assert_true(Z3_is_eq_ast(f->z, AT(ab, 0, 3), x));
}

static void test_irreflexive_and_empty(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc);
	Z3_ast x = var(f, "x");
	AT(a, 2, 2) = x;
	AT(a, 1, 0) = rc->t;
	assert_false(sat(f, Z3_mk_and(f->z, 2, (Z3_ast[]){rel_irreflexive(rc, a), x})));
	assert_true(sat(f, rel_irreflexive(rc, a)));
	assert_false(sat(f, rel_is_empty(rc, a)));
}

static void test_domain_range(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	rel_t a = rel_new(rc);
	AT(a, 0, 3) = rc->t;
	set_t d = set_domain(rc, a), r = set_range(rc, a);
	assert_true(rel_is_true(rc, d[0]));
	assert_null(d[3]);
	assert_true(rel_is_true(rc, r[3]));
	assert_null(r[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seq_prunes_and_folds, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_inverse_and_diff, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_acyclic_cycle, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_plus_horn, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_cyclic_exact, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_exact_defs_least, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_irreflexive_and_empty, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_domain_range, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_plus_sure_paths, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_star_from_sure, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_acyclic_implied_edges, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_seq_repeated_disjunct, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_diff_folds_contained, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_star_columns_random, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_seq_star_random, setup, tu_rel_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
