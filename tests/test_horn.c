/*
 * test_horn.c - unit tests of the Horn clauses of closures (encoder/horn.c):
 * rel_least_model() turns a solver model whose closure variables are all
 * true (the clauses allow it) back into the least fixpoint, which must be
 * reachability over the edges that the model makes true; and over
 * clauses whose lhs are formulas (and, or, not, as rcu-order's are) it
 * evaluates those formulas itself, leaving Z3's evaluator only what has no
 * Horn variable below (or an operator it does not know); over and/or
 * alone, by propagation over the distinct terms.  The closure of
 * c | a ; b ; d as the walks 0 -c-> 0, 0 -a-> 1 -b-> 2 -d-> 0
 * (rel_plus_walks, encoder/relwalk.c) is exactly that closure: every
 * model of its rules holds it, and its least model is no more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "encoder/rel.h"
#include "tests/testutil.h"

#define N 6 /* events */

/* The events' relation context (tests/testutil.h). */
static int setup(void **state)
{
	return tu_rel_open(state, N);
}

static int holds(Z3_context z, Z3_model m, Z3_ast a)
{
	Z3_ast v = NULL;
	return a && Z3_model_eval(z, m, a, 1, &v) && Z3_get_bool_value(z, v) == Z3_L_TRUE;
}

/* reach[i][j]: a path of one edge or more from i to j in edge[][]. */
static void reachability(int edge[N][N], int reach[N][N])
{
	tu_reachability(N, &edge[0][0], &reach[0][0]);
}

/* Random graphs: each pair is no edge, a sure edge or a free variable;
 * the solver fixes the variables at random and may set every closure
 * variable true; the least model is exactly reachability (a+) and, for
 * [from] ; (a+ ; b)*, a second closure over the first one's variables,
 * reachability in the graph of a+ ; b from the rows of from. */
static void test_least_model_is_reachability(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(7);
	for (int round = 0; round < 40; round++) {
		rel_t a = rel_new(rc), b = rel_new(rc);
		int edge[N][N] = {{0}}, bedge[N][N] = {{0}};
		Z3_solver s = Z3_mk_solver(z);
		Z3_solver_inc_ref(z, s);
		char name[32];
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				int kind = rand() % 10;
				if (kind < 2) {
					REL_AT(a, N, i, j) = rc->t;
					edge[i][j] = 1;
				} else if (kind < 5) {
					snprintf(name, sizeof name, "e%d_%d_%d", round, i, j);
					Z3_ast x = Z3_mk_const(z, Z3_mk_string_symbol(z, name),
							       Z3_mk_bool_sort(z));
					REL_AT(a, N, i, j) = x;
					edge[i][j] = rand() % 2;
					Z3_solver_assert(z, s, edge[i][j] ? x : Z3_mk_not(z, x));
				}
				if (rand() % 4 == 0) {
					REL_AT(b, N, i, j) = rc->t;
					bedge[i][j] = 1;
				}
			}
		set_t from = set_new(rc);
		int in_from[N];
		for (int i = 0; i < N; i++) {
			in_from[i] = rand() % 2;
			from[i] = in_from[i] ? rc->t : NULL;
		}
		int first = rel_horn_count(rc);
		rel_t tc = rel_plus(rc, a, "tc");
		rel_t outer = rel_star_from(rc, from, rel_seq(rc, tc, b), "outer");
		assert_true(rel_horn_count(rc) > first || round > 0);
		unsigned k = Z3_ast_vector_size(z, rc->defs);
		for (unsigned i = 0; i < k; i++)
			Z3_solver_assert(z, s, Z3_ast_vector_get(z, rc->defs, i));
		/* the largest model the clauses allow */
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				if (REL_AT(tc, N, i, j))
					Z3_solver_assert(z, s, REL_AT(tc, N, i, j));
				if (REL_AT(outer, N, i, j))
					Z3_solver_assert(z, s, REL_AT(outer, N, i, j));
			}
		assert_int_equal(Z3_solver_check(z, s), Z3_L_TRUE);
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		rel_least_model(rc, m);
		int reach[N][N], step[N][N] = {{0}}, star[N][N];
		reachability(edge, reach);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				assert_int_equal(holds(z, m, REL_AT(tc, N, i, j)), reach[i][j]);
		for (int i = 0; i < N; i++)
			for (int x = 0; x < N; x++)
				for (int j = 0; j < N; j++)
					step[i][j] |= reach[i][x] && bedge[x][j];
		reachability(step, star);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				assert_int_equal(holds(z, m, REL_AT(outer, N, i, j)),
						 in_from[i] && (i == j || star[i][j]));
		Z3_model_dec_ref(z, m);
		Z3_solver_dec_ref(z, s);
	}
}

#define K 24 /* Horn variables of the formula test */

static Z3_ast bool_const(Z3_context z, const char *fmt, int round, int i)
{
	char name[32];
	snprintf(name, sizeof name, fmt, round, i);
	return Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bool_sort(z));
}

/* One round's variables: h[] the Horn variables, e[] and g[] fixed at
 * random in s (values in ev[], gv[]); names start with prefix. */
static void round_vars(Z3_context z, Z3_solver s, const char *prefix, int round,
		       Z3_ast h[K], Z3_ast e[K], Z3_ast g[K], int ev[K], int gv[K])
{
	char fmt[16];
	for (int i = 0; i < K; i++) {
		snprintf(fmt, sizeof fmt, "%sh%%d_%%d", prefix);
		h[i] = bool_const(z, fmt, round, i);
		snprintf(fmt, sizeof fmt, "%se%%d_%%d", prefix);
		e[i] = bool_const(z, fmt, round, i);
		snprintf(fmt, sizeof fmt, "%sg%%d_%%d", prefix);
		g[i] = bool_const(z, fmt, round, i);
		ev[i] = rand() % 3 != 0;
		gv[i] = rand() % 2;
		Z3_solver_assert(z, s, ev[i] ? e[i] : Z3_mk_not(z, e[i]));
		Z3_solver_assert(z, s, gv[i] ? g[i] : Z3_mk_not(z, g[i]));
	}
}

/* Clauses h[i] <= (h[i-1] /\ e[i]) \/ (h[j] /\ !g[i]) \/ (g[i] /\ e[j])
 * (j = 7i mod K), or-headed as rcu-order's are, and an ite-headed clause
 * that Z3 evaluates: the least model is the least fixpoint computed here,
 * and no or, and or not above a Horn variable goes to Z3's evaluator (it
 * did, once per visit of each clause, before lhs_holds evaluated them). */
static void test_least_model_of_formulas(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(11);
	for (int round = 0; round < 20; round++) {
		Z3_ast h[K], e[K], g[K];
		int ev[K], gv[K];
		Z3_solver s = Z3_mk_solver(z);
		Z3_solver_inc_ref(z, s);
		round_vars(z, s, "", round, h, e, g, ev, gv);
		int first = rel_horn_count(rc);
		for (int i = 0; i < K; i++) {
			int j = (7 * i) % K;
			Z3_ast a[2] = {h[(i + K - 1) % K], e[i]};
			Z3_ast b[2] = {h[j], Z3_mk_not(z, g[i])};
			Z3_ast c[2] = {g[i], e[j]};
			Z3_ast any[3] = {Z3_mk_and(z, 2, a), Z3_mk_and(z, 2, b), Z3_mk_and(z, 2, c)};
			rel_horn(rc, i == 0 ? e[0] : Z3_mk_or(z, 3, any), h[i]);
		}
		/* x <= ite(g[0], h[K-1], false): an ite, left to Z3 */
		Z3_ast x = bool_const(z, "x%d_%d", round, 0);
		rel_horn(rc, Z3_mk_ite(z, g[0], h[K - 1], Z3_mk_false(z)), x);
		unsigned k = Z3_ast_vector_size(z, rc->defs);
		for (unsigned i = 0; i < k; i++)
			Z3_solver_assert(z, s, Z3_ast_vector_get(z, rc->defs, i));
		for (int i = 0; i < K; i++) /* the largest model the clauses allow */
			Z3_solver_assert(z, s, h[i]);
		Z3_solver_assert(z, s, x);
		assert_int_equal(Z3_solver_check(z, s), Z3_L_TRUE);
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		long asked = rel_least_model(rc, m);
		int hv[K] = {0}, changed = 1;
		while (changed) { /* the least fixpoint, by rounds */
			changed = 0;
			for (int i = 0; i < K; i++) {
				int j = (7 * i) % K;
				int now = i == 0 ? ev[0]
					: (hv[i - 1] && ev[i]) || (hv[j] && !gv[i]) || (gv[i] && ev[j]);
				if (now && !hv[i])
					hv[i] = changed = 1;
			}
		}
		for (int i = 0; i < K; i++)
			assert_int_equal(holds(z, m, h[i]), hv[i]);
		assert_int_equal(holds(z, m, x), gv[0] && hv[K - 1]);
		/* the ite alone, once or again after h[K-1] became true, and so
		 * each earlier round's (they share rc) */
		assert_true(asked >= round + 1 && asked <= 2 * (round + 1));
		assert_true(rel_horn_count(rc) - first == K + 1);
		Z3_model_dec_ref(z, m);
		Z3_solver_dec_ref(z, s);
	}
}

/* Clauses over and/or alone, as closures' are, are solved by propagation
 * over their distinct terms (horn.c's least_by_propagation): here with a
 * subterm shared by every clause, an and with an argument twice and an and
 * with a false argument.  The least model is the fixpoint computed here,
 * and Z3's evaluator is asked nothing with a Horn variable below. */
static void test_least_model_by_propagation(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(12);
	for (int round = 0; round < 20; round++) {
		Z3_ast h[K], e[K], g[K];
		int ev[K], gv[K];
		Z3_solver s = Z3_mk_solver(z);
		Z3_solver_inc_ref(z, s);
		round_vars(z, s, "p", round, h, e, g, ev, gv);
		Z3_ast twice[3] = {h[1], h[2], h[1]};
		Z3_ast shared = Z3_mk_and(z, 3, twice);
		Z3_ast dead[2] = {h[3], Z3_mk_false(z)};
		for (int i = 0; i < K; i++) {
			int j = (5 * i + 3) % K;
			Z3_ast a[2] = {h[(i + K - 1) % K], e[i]};
			Z3_ast b[2] = {h[j], Z3_mk_not(z, g[i])};
			Z3_ast any[4] = {Z3_mk_and(z, 2, a), Z3_mk_and(z, 2, b), shared,
					 Z3_mk_and(z, 2, dead)};
			rel_horn(rc, i == 0 ? e[0] : Z3_mk_or(z, 4, any), h[i]);
		}
		unsigned k = Z3_ast_vector_size(z, rc->defs);
		for (unsigned i = 0; i < k; i++)
			Z3_solver_assert(z, s, Z3_ast_vector_get(z, rc->defs, i));
		for (int i = 0; i < K; i++) /* the largest model the clauses allow */
			Z3_solver_assert(z, s, h[i]);
		assert_int_equal(Z3_solver_check(z, s), Z3_L_TRUE);
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		/* earlier rounds' clauses (they share rc) are of this form too */
		assert_int_equal(rel_least_model(rc, m), 0);
		int hv[K] = {0}, changed = 1;
		while (changed) { /* the least fixpoint, by rounds */
			changed = 0;
			for (int i = 0; i < K; i++) {
				int j = (5 * i + 3) % K;
				int now = i == 0 ? ev[0]
					: (hv[i - 1] && ev[i]) || (hv[j] && !gv[i]) ||
					  (hv[1] && hv[2]);
				if (now && !hv[i])
					hv[i] = changed = 1;
			}
		}
		for (int i = 0; i < K; i++)
			assert_int_equal(holds(z, m, h[i]), hv[i]);
		Z3_model_dec_ref(z, m);
		Z3_solver_dec_ref(z, s);
	}
}

/* A random relation: each pair no edge, a sure edge or a free variable
 * fixed at random in s; val[][] its value. */
static rel_t random_rel(struct rel_ctx *rc, Z3_solver s, int round, char tag,
			int val[N][N])
{
	Z3_context z = rc->z;
	rel_t r = rel_new(rc);
	char name[32];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int kind = rand() % 10;
			val[i][j] = 0;
			if (kind < 2) {
				REL_AT(r, N, i, j) = rc->t;
				val[i][j] = 1;
			} else if (kind < 4) {
				snprintf(name, sizeof name, "%c%d_%d_%d", tag, round, i, j);
				Z3_ast x = Z3_mk_const(z, Z3_mk_string_symbol(z, name),
						       Z3_mk_bool_sort(z));
				REL_AT(r, N, i, j) = x;
				val[i][j] = rand() % 2;
				Z3_solver_assert(z, s, val[i][j] ? x : Z3_mk_not(z, x));
			}
		}
	return r;
}

static void test_walks_are_the_closure(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(19);
	int nonempty = 0, cycles = 0;
	for (int round = 0; round < 30; round++) {
		Z3_solver s = Z3_mk_solver(z);
		Z3_solver_inc_ref(z, s);
		int c[N][N], a[N][N], b[N][N], d[N][N];
		rel_t edge[3 * 3] = {0};
		edge[0] = random_rel(rc, s, round, 'c', c);
		edge[1] = random_rel(rc, s, round, 'a', a);
		edge[5] = random_rel(rc, s, round, 'b', b);
		edge[6] = random_rel(rc, s, round, 'd', d);
		int first = rc->nhorn;
		unsigned first_def = Z3_ast_vector_size(z, rc->defs);
		rel_t w = rel_plus_walks(rc, 3, edge, "walks");
		for (unsigned i = first_def; i < Z3_ast_vector_size(z, rc->defs); i++)
			Z3_solver_assert(z, s, Z3_ast_vector_get(z, rc->defs, i));
		/* reach: the closure of c | a ; b ; d */
		int reach[N][N];
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				reach[i][j] = c[i][j];
				for (int x = 0; x < N; x++)
					for (int y = 0; y < N; y++)
						reach[i][j] |= a[i][x] && b[x][y] && d[y][j];
			}
		for (int k = 0; k < N; k++)
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					reach[i][j] |= reach[i][k] && reach[k][j];
		/* every model of the rules holds the closure */
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				Z3_ast x = REL_AT(w, N, i, j);
				if (!reach[i][j])
					continue;
				nonempty++;
				cycles += i == j;
				assert_non_null(x);
				Z3_ast no = Z3_mk_not(z, x);
				assert_int_equal(Z3_solver_check_assumptions(z, s, 1, &no),
						 Z3_L_FALSE);
			}
		/* the least model of the largest one is the closure */
		Z3_solver_push(z, s);
		for (int h = first; h < rc->nhorn; h++)
			Z3_solver_assert(z, s, rc->horn_var[h]);
		assert_int_equal(Z3_solver_check(z, s), Z3_L_TRUE);
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		rel_least_model(rc, m);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				assert_int_equal(holds(z, m, REL_AT(w, N, i, j)), reach[i][j]);
		Z3_model_dec_ref(z, m);
		Z3_solver_pop(z, s, 1);
		Z3_solver_dec_ref(z, s);
	}
	/* the graphs were not all empty, and some walks came back */
	assert_true(nonempty > 100);
	assert_true(cycles > 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_least_model_is_reachability, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_least_model_of_formulas, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_least_model_by_propagation, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_walks_are_the_closure, setup, tu_rel_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
