/*
 * z3-intake.c - how long Z3's SMT core (the solver lkmmc asks: a simple
 * solver with relevancy 0 and the dense difference-logic solver) takes to
 * answer a formula that needs no search: C random Horn clauses
 * (a /\ b => c) over V Boolean variables, satisfied by every variable true.
 * The time is what Z3 spends taking the clauses in, as it does with the
 * model's definitions (closures are Horn clauses, rel.c); the search has
 * nothing to do (no conflict).  docs/benchmarks.md ("Where a correct lock
 * program's time goes") compares it with lkmmc's lock programs.
 *
 * It is not part of lkmmc and links nothing of it.  Build and run:
 *   cc -O2 -o /tmp/z3-intake bench/z3-intake.c -lz3
 *   /tmp/z3-intake V C [one]
 * "one" gives the clauses as one conjunction instead of C assertions.
 * Prints V, C, the answer, the seconds of the check and Z3's counts of
 * decisions and conflicts.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <z3.h>

static double seconds_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Z3's statistic called key after a check (Z3 leaves out those that are 0). */
static long stat_of(Z3_context z, Z3_solver s, const char *key)
{
	Z3_stats st = Z3_solver_get_statistics(z, s);
	Z3_stats_inc_ref(z, st);
	long v = 0;
	for (unsigned i = 0; i < Z3_stats_size(z, st); i++)
		if (!strcmp(Z3_stats_get_key(z, st, i), key) && Z3_stats_is_uint(z, st, i))
			v = (long)Z3_stats_get_uint_value(z, st, i);
	Z3_stats_dec_ref(z, st);
	return v;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s VARIABLES CLAUSES [one]\n", argv[0]);
		return 2;
	}
	int nvars = atoi(argv[1]), nclauses = atoi(argv[2]);
	int as_one = argc > 3 && !strcmp(argv[3], "one");
	if (nvars < 1 || nclauses < 1) {
		fprintf(stderr, "%s: VARIABLES and CLAUSES must be positive\n", argv[0]);
		return 2;
	}
	Z3_config cfg = Z3_mk_config();
	Z3_context z = Z3_mk_context(cfg); /* as lkmmc's (solver/problem.c) */
	Z3_del_config(cfg);
	Z3_solver s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, s);
	/* lkmmc's settings for a test of up to 600 events (solver/problem.c) */
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "relevancy"), 0);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "arith.solver"), 3);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);

	Z3_ast_vector var = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, var);
	for (int i = 0; i < nvars; i++)
		Z3_ast_vector_push(z, var, Z3_mk_fresh_const(z, "v", Z3_mk_bool_sort(z)));
	Z3_ast_vector all = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, all);
	srand(1);
	for (int c = 0; c < nclauses; c++) {
		Z3_ast body[2] = {Z3_ast_vector_get(z, var, (unsigned)(rand() % nvars)),
				  Z3_ast_vector_get(z, var, (unsigned)(rand() % nvars))};
		Z3_ast head = Z3_ast_vector_get(z, var, (unsigned)(rand() % nvars));
		Z3_ast clause = Z3_mk_implies(z, Z3_mk_and(z, 2, body), head);
		if (as_one)
			Z3_ast_vector_push(z, all, clause);
		else
			Z3_solver_assert(z, s, clause);
	}
	if (as_one) {
		unsigned n = Z3_ast_vector_size(z, all);
		Z3_ast *conj = malloc(sizeof(Z3_ast) * n);
		if (!conj)
			return 1;
		for (unsigned i = 0; i < n; i++)
			conj[i] = Z3_ast_vector_get(z, all, i);
		Z3_solver_assert(z, s, Z3_mk_and(z, n, conj));
		free(conj);
	}
	double t0 = seconds_now();
	Z3_lbool r = Z3_solver_check(z, s);
	double t = seconds_now() - t0;
	printf("variables %d clauses %d%s: %s in %.3f s, %ld decisions, %ld conflicts\n",
	       nvars, nclauses, as_one ? " (one conjunction)" : "",
	       r == Z3_L_TRUE ? "sat" : r == Z3_L_FALSE ? "unsat" : "unknown", t,
	       stat_of(z, s, "decisions"), stat_of(z, s, "conflicts"));
	Z3_ast_vector_dec_ref(z, all);
	Z3_ast_vector_dec_ref(z, var);
	Z3_solver_dec_ref(z, s);
	Z3_del_context(z);
	return r == Z3_L_TRUE ? 0 : 1;
}
