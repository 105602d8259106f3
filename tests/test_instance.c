/*
 * test_instance.c - unit tests of encoder/instance.c through
 * problem_open_instance (solver/problem.h): the model built over one
 * execution, its choices made constants, judges that execution as the
 * model built over the whole program does.
 *
 * Over the bundled litmus tests and C programs (litmus-tests/, read from
 * the repository at run time), up to EXECS executions of each program
 * alone (consistent or not: the model decides; each with other
 * reads-from than the ones before) are evaluated by two circuits
 * (encoder/circuit.h) in the same Z3 model: one over the whole
 * program's model, one over the instance's.  Every axiom and every flag
 * must have the same value in both.  Across the set both values must
 * occur (executions the model forbids and allows, flags raised and not),
 * so that the comparison is not between constants.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "encoder/circuit.h"
#include "frontend/frontend.h"
#include "solver/options.h"
#include "solver/problem.h"
#include "tests/testutil.h"

#define EXECS 6 /* executions per program */

/* What the comparison saw, over all programs. */
struct seen {
	int execs;               /* executions compared */
	int forbidden, allowed;  /* executions some axiom / no axiom forbids */
	int raised, lowered;     /* flags raised / not raised */
};

/* The clause ruling out m's reads-from in enc. */
static Z3_ast other_rf(const struct encoding *enc, Z3_model m)
{
	Z3_context z = enc->z;
	size_t nn = (size_t)enc->n * (size_t)enc->n;
	Z3_ast *lits = malloc(sizeof(Z3_ast) * (nn ? nn : 1));
	assert_non_null(lits);
	unsigned k = 0;
	for (size_t i = 0; enc->rf_var && i < nn; i++) {
		Z3_ast v = enc->rf_var[i], val = NULL;
		if (v && Z3_model_eval(z, m, v, 1, &val) && Z3_get_bool_value(z, val) == Z3_L_TRUE)
			lits[k++] = Z3_mk_not(z, v);
	}
	Z3_ast clause = k ? Z3_mk_or(z, k, lits) : Z3_mk_false(z);
	free(lits);
	return clause;
}

/* The circuit nodes of m's axioms, then its flags, in c (out: their count). */
static int *roots(struct circuit *c, const struct lkmm *m, int *count)
{
	int *node = calloc((size_t)(m->naxioms + m->nflags + 1), sizeof(int)), k = 0;
	assert_non_null(node);
	for (int a = 0; a < m->naxioms; a++)
		node[k++] = m->axiom[a].holds ? circuit_root(c, m->axiom[a].holds) : -2;
	for (int f = 0; f < m->nflags; f++)
		node[k++] = circuit_root(c, m->flag[f].raised);
	for (int i = 0; i < k; i++)
		assert_true(node[i] >= 0 || node[i] == -2);
	*count = k;
	return node;
}

/* Compare the two judgements of up to EXECS executions of the program at path. */
static void compare_on(const char *path, struct seen *seen)
{
	struct diag d = {0};
	struct ir_program *prog = frontend_parse_file(tu_frontend(), path, &d);
	if (!prog)
		diag_print(&d, stderr);
	assert_non_null(prog);
	struct check_options opt = {.unroll = 2};
	Z3_context z = problem_context(1);
	struct problem p;
	assert_int_equal(problem_open(&p, z, prog, &opt, 2, 0, ENC_ARITH_GENERAL, NULL, &d),
			 PROBLEM_READY);
	struct circuit *whole = circuit_new(&p.enc->rc);
	int nwhole;
	int *wnode = roots(whole, &p.m, &nwhole);
	Z3_solver s = problem_solver(&p, PG_FACTS | PG_CUT | PG_PROGRAM_DEFS | PG_FILTER, 0);
	for (int x = 0; x < EXECS && Z3_solver_check(z, s) == Z3_L_TRUE; x++) {
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		struct problem ip;
		assert_true(problem_open_instance(&ip, &p, m, &d));
		assert_int_equal(ip.m.naxioms, p.m.naxioms);
		assert_int_equal(ip.m.nflags, p.m.nflags);
		struct circuit *one = circuit_new(&ip.enc->rc);
		int none;
		int *onode = roots(one, &ip.m, &none);
		assert_int_equal(none, nwhole);
		assert_true(circuit_eval(whole, m));
		assert_true(circuit_eval(one, m));
		int forbidden = 0;
		for (int i = 0; i < nwhole; i++) {
			if (wnode[i] == -2) {
				assert_int_equal(onode[i], -2);
				continue;
			}
			int want = circuit_value(whole, wnode[i]), got = circuit_value(one, onode[i]);
			if (want != got)
				fprintf(stderr, "%s: execution %d: %s %d: whole %d, instance %d\n",
					path, x, i < p.m.naxioms ? "axiom" : "flag",
					i < p.m.naxioms ? i : i - p.m.naxioms, want, got);
			assert_int_equal(want, got);
			if (i < p.m.naxioms)
				forbidden |= !want;
			else if (want)
				seen->raised++;
			else
				seen->lowered++;
		}
		seen->forbidden += forbidden;
		seen->allowed += !forbidden;
		seen->execs++;
		circuit_free(one);
		free(onode);
		problem_close_instance(&ip);
		Z3_solver_assert(z, s, other_rf(p.enc, m));
		Z3_model_dec_ref(z, m);
	}
	Z3_solver_dec_ref(z, s);
	free(wnode);
	circuit_free(whole);
	problem_close(&p);
	Z3_del_context(z);
	ir_program_free(prog);
}

static void compare_glob(const char *pattern, struct seen *seen)
{
	glob_t g;
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 0);
	for (size_t i = 0; i < g.gl_pathc; i++)
		compare_on(g.gl_pathv[i], seen);
	globfree(&g);
}

static void test_same_judgement(void **state)
{
	(void)state;
	struct seen seen = {0};
	compare_glob("litmus-tests/*.litmus", &seen);
	compare_glob("litmus-tests/programs/*.c", &seen);
	fprintf(stderr, "compared %d executions: %d forbidden, %d allowed; flags %d raised, "
		"%d not\n", seen.execs, seen.forbidden, seen.allowed, seen.raised, seen.lowered);
	assert_true(seen.forbidden > 0);
	assert_true(seen.allowed > 0);
	assert_true(seen.raised > 0);
	assert_true(seen.lowered > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_judgement),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
