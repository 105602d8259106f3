/*
 * test_horn.c - unit tests of the Horn clauses of closures (encoder/horn.c):
 * rel_least_model() turns a solver model whose closure variables are all
 * true (the clauses allow it) back into the least fixpoint, which must be
 * reachability over the edges that the model makes true.
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
	memcpy(reach, edge, sizeof(int) * N * N);
	for (int k = 0; k < N; k++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				reach[i][j] |= reach[i][k] && reach[k][j];
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_least_model_is_reachability, setup, tu_rel_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
