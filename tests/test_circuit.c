/*
 * test_circuit.c - unit tests of the circuit (encoder/circuit.c): the
 * model's formulas evaluated outside Z3 and the reasons for their values.
 * On random graphs (each pair no edge, a sure edge or a free variable) a
 * closure's entries are exactly reachability, an acyclicity check is
 * violated exactly when there is a cycle, and every justification is
 * sound: the literals it gives force the value whatever the other
 * variables are (a cycle among the edges it says true; no path through
 * the edges it leaves unsaid).  Unknown atoms leave values unknown where
 * they matter, and a negation inside a recursive definition is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "encoder/circuit.h"
#include "encoder/rel.h"
#include "tests/testutil.h"

#define N 6 /* events */

static int setup(void **state)
{
	return tu_rel_open(state, N);
}

/* reach[i][j]: a path of one edge or more from i to j in edge[][]. */
static void reachability(int edge[N][N], int reach[N][N])
{
	tu_reachability(N, &edge[0][0], &reach[0][0]);
}

/* A random graph over fresh variables: kind[i][j] 0 none, 1 sure, 2 a
 * variable var[i][j] whose value is val[i][j]. */
struct graph {
	rel_t a;
	int kind[N][N], val[N][N];
	Z3_ast var[N][N];
};

static void random_graph(struct rel_ctx *rc, struct graph *g, int round)
{
	Z3_context z = rc->z;
	g->a = rel_new(rc);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int k = rand() % 10;
			g->kind[i][j] = k < 1 ? 1 : k < 4 ? 2 : 0;
			g->val[i][j] = g->kind[i][j] == 1 || (g->kind[i][j] == 2 && rand() % 2);
			g->var[i][j] = NULL;
			if (g->kind[i][j] == 1) {
				REL_AT(g->a, N, i, j) = rc->t;
			} else if (g->kind[i][j] == 2) {
				char name[32];
				snprintf(name, sizeof name, "c%d_%d_%d", round, i, j);
				g->var[i][j] = Z3_mk_const(z, Z3_mk_string_symbol(z, name),
							   Z3_mk_bool_sort(z));
				REL_AT(g->a, N, i, j) = g->var[i][j];
			}
		}
}

/* The circuit's atom values from the graph's (atoms not in it: -1). */
static signed char *atom_values(struct circuit *c, const struct graph *g, Z3_context z)
{
	int na = circuit_atom_count(c);
	signed char *v = malloc((size_t)na + 1);
	for (int k = 0; k < na; k++) {
		v[k] = -1;
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				if (g->var[i][j] && Z3_is_eq_ast(z, g->var[i][j], circuit_atom(c, k)))
					v[k] = (signed char)g->val[i][j];
	}
	return v;
}

/* Which edge variable a literal is (and its sign): *pi, *pj, *pos. */
static void literal_edge(Z3_context z, const struct graph *g, Z3_ast lit, int *pi,
			 int *pj, int *pos)
{
	*pos = 1;
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, lit))) == Z3_OP_NOT) {
		*pos = 0;
		lit = Z3_get_app_arg(z, Z3_to_app(z, lit), 0);
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			if (g->var[i][j] && Z3_is_eq_ast(z, g->var[i][j], lit)) {
				*pi = i;
				*pj = j;
				return;
			}
	fail_msg("a literal that is no edge variable: %s", Z3_ast_to_string(z, lit));
}

/* Closures are reachability; violated acyclicity is a cycle; the
 * justifications force what they justify. */
static void test_closure_and_cycles(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(11);
	for (int round = 0; round < 60; round++) {
		struct graph g;
		random_graph(rc, &g, round);
		rel_t plus = rel_plus(rc, g.a, "plus");
		Z3_ast acyc = rel_acyclic(rc, g.a, "a");
		struct circuit *c = circuit_new(rc);
		int node[N][N], acyc_node = circuit_root(c, acyc);
		assert_true(acyc_node >= 0);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				node[i][j] = REL_AT(plus, N, i, j) ? circuit_root(c, REL_AT(plus, N, i, j)) : -1;
		signed char *v = atom_values(c, &g, z);
		assert_true(circuit_eval_given(c, v, circuit_nodes(c)));
		int reach[N][N], cyclic = 0;
		reachability(g.val, reach);
		for (int i = 0; i < N; i++) {
			cyclic |= reach[i][i];
			for (int j = 0; j < N; j++)
				assert_int_equal(node[i][j] < 0 ? 0 : circuit_value(c, node[i][j]),
						 reach[i][j]);
		}
		assert_int_equal(circuit_value(c, acyc_node), !cyclic);
		if (cyclic) {
			/* the true edges it names (and the sure ones) have a cycle */
			Z3_ast *lits;
			int k = circuit_justify(c, acyc_node, &lits);
			int said[N][N], r2[N][N], again = 0;
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					said[i][j] = g.kind[i][j] == 1;
			for (int l = 0; l < k; l++) {
				int i, j, pos;
				literal_edge(z, &g, lits[l], &i, &j, &pos);
				assert_true(pos);
				said[i][j] = 1;
			}
			reachability(said, r2);
			for (int i = 0; i < N; i++)
				again |= r2[i][i];
			assert_true(again);
		}
		/* a false closure entry: no path even with every edge it does not
		 * say false */
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				if (node[i][j] < 0 || reach[i][j])
					continue;
				Z3_ast *lits;
				int k = circuit_justify(c, node[i][j], &lits);
				int maybe[N][N], r2[N][N];
				for (int a = 0; a < N; a++)
					for (int b = 0; b < N; b++)
						maybe[a][b] = g.kind[a][b] != 0;
				for (int l = 0; l < k; l++) {
					int a, b, pos;
					literal_edge(z, &g, lits[l], &a, &b, &pos);
					assert_false(pos);
					maybe[a][b] = 0;
				}
				reachability(maybe, r2);
				assert_false(r2[i][j]);
			}
		free(v);
		circuit_free(c);
	}
}

/* With an edge unknown, a cycle through it is unknown, and one without
 * it is already a violation. */
static void test_unknown_atoms(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	rel_t a = rel_new(rc);
	Z3_ast e01 = Z3_mk_const(z, Z3_mk_string_symbol(z, "u01"), Z3_mk_bool_sort(z));
	Z3_ast e10 = Z3_mk_const(z, Z3_mk_string_symbol(z, "u10"), Z3_mk_bool_sort(z));
	Z3_ast e23 = Z3_mk_const(z, Z3_mk_string_symbol(z, "u23"), Z3_mk_bool_sort(z));
	REL_AT(a, N, 0, 1) = e01;
	REL_AT(a, N, 1, 0) = e10;
	REL_AT(a, N, 2, 3) = e23;
	REL_AT(a, N, 3, 2) = rc->t;
	Z3_ast acyc = rel_acyclic(rc, a, "u"); /* before the circuit, which
						* knows the checks made so far */
	struct circuit *c = circuit_new(rc);
	int u = circuit_root(c, acyc);
	assert_true(u >= 0);
	int na = circuit_atom_count(c);
	signed char *v = malloc((size_t)na);
	for (int k = 0; k < na; k++) {
		Z3_ast x = circuit_atom(c, k);
		v[k] = Z3_is_eq_ast(z, x, e01) ? 1 : Z3_is_eq_ast(z, x, e10) ? -1 : 0;
	}
	assert_false(circuit_eval_given(c, v, circuit_nodes(c))); /* one unknown */
	assert_int_equal(circuit_value(c, u), -1);
	for (int k = 0; k < na; k++)
		if (Z3_is_eq_ast(z, circuit_atom(c, k), e23))
			v[k] = 1;
	circuit_eval_given(c, v, circuit_nodes(c));
	assert_int_equal(circuit_value(c, u), 0); /* 2 -> 3 -> 2 */
	Z3_ast *lits;
	assert_int_equal(circuit_justify(c, u, &lits), 1);
	assert_true(Z3_is_eq_ast(z, lits[0], e23));
	free(v);
	circuit_free(c);
}

/*
 * The bounds kept during a search (circuit_inc_*): atoms fixed one at a
 * time in a random order, with levels taken back now and then.  At every
 * step each node's bounds are no tighter than a full evaluation of the
 * same partial assignment gives, as tight for a closure's lower bound
 * and for a cycle already there, and undoing a level gives back exactly
 * the values it had.
 */
static void test_incremental(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(23);
	for (int round = 0; round < 40; round++) {
		struct graph g;
		random_graph(rc, &g, 100 + round);
		rel_t plus = rel_plus(rc, g.a, "iplus");
		Z3_ast acyc = rel_acyclic(rc, g.a, "ia");
		struct circuit *c = circuit_new(rc);
		int acyc_node = circuit_root(c, acyc), plus_node[N * N], neg_node[N * N];
		for (int k = 0; k < N * N; k++) {
			Z3_ast e = REL_AT(plus, N, k / N, k % N);
			plus_node[k] = e ? circuit_root(c, e) : -1;
			neg_node[k] = e ? circuit_root(c, Z3_mk_not(z, e)) : -1;
		}
		int nn = circuit_nodes(c), na = circuit_atom_count(c);
		signed char *full = atom_values(c, &g, z);
		signed char *given = malloc((size_t)na + 1);
		int *order = malloc(sizeof(int) * ((size_t)na + 1));
		int *snap = malloc(sizeof(int) * (size_t)nn * ((size_t)na + 1));
		size_t *level = malloc(sizeof(size_t) * ((size_t)na + 1));
		int *inc = malloc(sizeof(int) * (size_t)nn);
		for (int k = 0; k < na; k++) {
			given[k] = -1;
			order[k] = k;
		}
		for (int k = na - 1; k > 0; k--) {
			int r = rand() % (k + 1), t = order[k];
			order[k] = order[r];
			order[r] = t;
		}
		circuit_inc_start(c);
		circuit_inc_follow(c, acyc_node);
		for (int k = 0; k < N * N; k++)
			if (plus_node[k] >= 0) {
				circuit_inc_follow(c, plus_node[k]);
				circuit_inc_follow(c, neg_node[k]);
			}
		int fixed = 0;
		while (fixed < na) {
			level[fixed] = circuit_inc_level(c);
			for (int u = 0; u < nn; u++)
				snap[(size_t)fixed * (size_t)nn + (size_t)u] = circuit_value(c, u);
			int a = order[fixed++];
			given[a] = full[a];
			circuit_inc_fix(c, a, given[a]);
			for (int u = 0; u < nn; u++)
				inc[u] = circuit_value(c, u);
			circuit_inc_save(c);
			circuit_eval_given(c, given, nn);
			for (int u = 0; u < nn; u++) {
				int ex = circuit_value(c, u);
				/* known values agree; none known that is not */
				if (inc[u] >= 0)
					assert_int_equal(inc[u], ex);
			}
			for (int k = 0; k < N * N; k++)
				if (plus_node[k] >= 0 && circuit_value(c, plus_node[k]) == 1)
					assert_int_equal(inc[plus_node[k]], 1);
			if (circuit_value(c, acyc_node) == 0)
				assert_int_equal(inc[acyc_node], 0);
			circuit_inc_restore(c);
			for (int u = 0; u < nn; u++)
				assert_int_equal(circuit_value(c, u), inc[u]);
			if (inc[acyc_node] == 0) {
				/* its justification is made of atoms fixed so far */
				Z3_ast *lits;
				int k = circuit_justify(c, acyc_node, &lits);
				const int *atoms = circuit_justified_atoms(c);
				for (int l = 0; l < k; l++)
					assert_true(given[atoms[l]] >= 0);
			}
			if (rand() % 4 == 0) {
				/* take back the last few atoms */
				int back = fixed - 1 - rand() % (fixed < 3 ? fixed : 3);
				circuit_inc_undo(c, level[back]);
				for (int u = 0; u < nn; u++)
					assert_int_equal(circuit_value(c, u),
							 snap[(size_t)back * (size_t)nn + (size_t)u]);
				while (fixed > back)
					given[order[--fixed]] = -1;
			}
		}
		for (int k = 0; k < N * N; k++)
			if (neg_node[k] >= 0)
				assert_true(circuit_value(c, neg_node[k]) != 1 ||
					    circuit_value(c, plus_node[k]) == 0);
		free(full);
		free(given);
		free(order);
		free(snap);
		free(level);
		free(inc);
		circuit_free(c);
	}
}

/* A node followed for its upper bound only (circuit_inc_follow_upper),
 * shaped as a race flag: "some pair is not connected by the closure".
 * As atoms are fixed: when the core says it can no longer be true, a
 * full evaluation agrees, and the atoms of its justification alone
 * already force it (a conflict's premises, solver/lazy.c); once every
 * atom is fixed it says so exactly when the flag is false. */
static void test_follow_upper(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_context z = f->z;
	srand(29);
	int zeros = 0;
	for (int round = 0; round < 40; round++) {
		struct graph g;
		random_graph(rc, &g, 200 + round);
		rel_t plus = rel_plus(rc, g.a, "uplus");
		Z3_ast unordered[N * N];
		int nu = 0;
		for (int k = 0; k < N * N; k++) {
			Z3_ast e = REL_AT(plus, N, k / N, k % N);
			if (k / N != k % N && e && rand() % 2)
				unordered[nu++] = Z3_mk_not(z, e);
		}
		if (nu == 0)
			continue;
		struct circuit *c = circuit_new(rc);
		int flag = circuit_root(c, Z3_mk_or(z, (unsigned)nu, unordered));
		assert_true(flag >= 0);
		int nn = circuit_nodes(c), na = circuit_atom_count(c);
		signed char *full = atom_values(c, &g, z);
		signed char *given = malloc((size_t)na + 1);
		signed char *just = malloc((size_t)na + 1);
		for (int k = 0; k < na; k++)
			given[k] = -1;
		circuit_inc_start(c);
		circuit_inc_follow_upper(c, flag);
		for (int k = 0; k < na; k++) {
			int a = k; /* atoms in the order they were met */
			given[a] = full[a];
			circuit_inc_fix(c, a, given[a]);
			if (circuit_value(c, flag) != 0)
				continue;
			zeros++;
			Z3_ast *lits;
			int nj = circuit_justify(c, flag, &lits);
			const int *atoms = circuit_justified_atoms(c);
			for (int l = 0; l < na; l++)
				just[l] = -1;
			for (int l = 0; l < nj; l++) {
				assert_true(given[atoms[l]] >= 0);
				just[atoms[l]] = given[atoms[l]];
			}
			circuit_inc_save(c);
			circuit_eval_given(c, given, nn);
			assert_int_equal(circuit_value(c, flag), 0);
			circuit_eval_given(c, just, nn);
			assert_int_equal(circuit_value(c, flag), 0);
			circuit_inc_restore(c);
		}
		/* everything fixed: the upper bound is the flag's value */
		int inc = circuit_value(c, flag);
		circuit_inc_save(c);
		circuit_eval_given(c, given, nn);
		assert_int_equal(inc == 0, circuit_value(c, flag) == 0);
		circuit_inc_restore(c);
		free(full);
		free(given);
		free(just);
		circuit_free(c);
	}
	assert_true(zeros > 0); /* the rounds did rule flags out */
}

/* v <= not v has no least fixpoint: refused. */
static void test_negation_in_recursion(void **state)
{
	struct tu_rel *f = *state;
	struct rel_ctx *rc = &f->rc;
	Z3_ast v = rel_fresh_bool(rc, "neg");
	rel_horn(rc, Z3_mk_not(rc->z, v), v);
	struct circuit *c = circuit_new(rc);
	assert_int_equal(circuit_root(c, v), -1);
	circuit_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_closure_and_cycles, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_unknown_atoms, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_incremental, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_follow_upper, setup, tu_rel_close),
		cmocka_unit_test_setup_teardown(test_negation_in_recursion, setup, tu_rel_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
