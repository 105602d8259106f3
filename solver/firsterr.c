/*
 * firsterr.c - --first-error: one error of a C program, found fast, shown
 * with its execution (firsterr.h).
 *
 * The full answer looks for every error and proves the others absent; on
 * the broken lock programs of bench/gen-families.sh the first error was
 * known after 40 ms and the proofs went on for over a minute (ticket lock
 * without its acquire, 8 threads).  Here one question, under symmetry
 * breaking (the errors are invariant under renaming interchangeable
 * threads), asks for any consistent execution with an error; its model is
 * shown as the full answer shows an error, re-checked as a witness is, and
 * nothing more is asked.  "No error" is that question's "no".
 *
 * Sequentially consistent executions come first (sc_error): a solver of
 * the program alone with acyclic(po | rf | co | fr) proposes a few, and
 * each is evaluated against the model's formulas outside Z3 (a circuit,
 * encoder/circuit.h: the axioms and the errors, exactly, closures as least
 * fixpoints).  The model's definitions never reach Z3, whose preprocessing
 * of them was most of the question's time (20 of the 23 s of the per-index
 * MCS lock of 6 threads without its release), and the lock programs that
 * lose a release or an acquire race on their plain accesses already in an
 * interleaving.  Tried before without the circuit: each execution
 * confirmed by the model's solver with its choices fixed, which cost as
 * much as the model's own question, and only assertion failures looked
 * for, which those programs have in weak executions only.
 */
#include "solver/firsterr.h"

#include <stdlib.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "encoder/circuit.h"
#include "encoder/rel.h"
#include "solver/readback.h"
#include "solver/options.h"
#include "solver/lazy.h"
#include "solver/problem.h"
#include "solver/report.h"
#include "solver/symmetry.h"

/* Show the error of x; back: its re-check's answer. */
static void show_execution(const struct check_options *opt, const struct problem *p,
			   struct execution *x, int (*recheck)(const struct problem *,
							       struct execution *, void *),
			   void *arg, FILE *out, FILE *err)
{
	double t1 = clock_now();
	fprintf(out, "Program %s\n", p->prog->file);
	int shown = report_error_in(opt, p, x, out, err);
	double t2 = clock_now();
	int back = shown && recheck(p, x, arg);
	if (opt->stats)
		fprintf(err, "stats: first error: shown %.3fs, re-checked %.3fs\n",
			t2 - t1, clock_now() - t2);
	fprintf(out, "  re-checked against the model: %s\n\n",
		back ? "consistent, the error happens in it" : "FAILED (internal error)");
	fputs("Stopped at the first error (--first-error): other errors "
	      "were not looked for\n", out);
}

/* As a witness: its choices fed back to s, the model must accept it. */
static int recheck_in_solver(const struct problem *p, struct execution *x, void *arg)
{
	Z3_solver s = arg;
	Z3_solver_push(p->z, s);
	execution_assert_choices(x, s);
	int back = problem_ask(p, s, NULL) == Z3_L_TRUE;
	Z3_solver_pop(p->z, s, 1);
	return back;
}

/* Show the error of the model of s (asked: errors held), re-checked. */
static void show(const struct check_options *opt, const struct problem *p,
		 Z3_solver s, FILE *out, FILE *err)
{
	Z3_model m = Z3_solver_get_model(p->z, s);
	Z3_model_inc_ref(p->z, m);
	struct execution *x = execution_new(p->enc, m);
	show_execution(opt, p, x, recheck_in_solver, s, out, err);
	execution_free(x);
	Z3_model_dec_ref(p->z, m);
}

/*
 * The sequentially consistent executions first: at most SC_TRIES of them,
 * and none once the pass has taken SC_PATIENCE times its first execution's
 * time (at least SC_MIN_SECONDS): on a correct program the pass is lost
 * time, a few times that of a query over the program alone; when none has
 * an error, the model's question decides (a Never never depends on this
 * pass).  The per-index MCS lock of 6 threads without its release shows
 * its race in the 11th execution, 2.1 s into the pass (1.4 s of it the
 * first).
 */
#define SC_TRIES 64
#define SC_PATIENCE 2.0
#define SC_MIN_SECONDS 1.0

/* What the pass keeps: the circuit of the axioms and the errors. */
struct sc_pass {
	struct circuit *c;
	int *axiom;     /* the axioms' nodes */
	int naxioms;
	int errors;     /* the errors' node */
	Z3_ast errors_f; /* and formula */
};

/* Whether an edge of strict lies on a cycle of strict | weak in x: the
 * transitive closure of the pairs x has (Warshall), and a strict edge
 * (i, j) with j reaching i. */
static int cyclic_in(const struct execution *x, const struct rel_acyclic_check *chk, int n)
{
	size_t nn = (size_t)n;
	unsigned char *strict = xcalloc(nn * nn, 1), *reach = xcalloc(nn * nn, 1);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			size_t ij = (size_t)i * nn + (size_t)j;
			strict[ij] = REL_AT(chk->strict, n, i, j) && execution_in(x, chk->strict, i, j);
			reach[ij] = strict[ij] || (chk->weak && REL_AT(chk->weak, n, i, j) &&
						   execution_in(x, chk->weak, i, j));
		}
	for (size_t k = 0; k < nn; k++)
		for (size_t i = 0; i < nn; i++)
			if (reach[i * nn + k])
				for (size_t j = 0; j < nn; j++)
					reach[i * nn + j] |= reach[k * nn + j];
	int cyclic = 0;
	for (size_t i = 0; i < nn && !cyclic; i++)
		for (size_t j = 0; j < nn && !cyclic; j++)
			cyclic = strict[i * nn + j] && (i == j || reach[j * nn + i]);
	free(strict);
	free(reach);
	return cyclic;
}

/*
 * The re-check of an execution found here, by other means than the
 * circuit that found it: x is read off the model with the circuit's
 * values of the named relations, its closures again by encoder/horn.c,
 * every formula by Z3's evaluator, each acyclicity axiom by a search for
 * a cycle through a strict edge among the pairs x has.  The model's
 * solver is not asked: its preprocessing is what this pass avoids.
 */
static int recheck_by_evaluation(const struct problem *p, struct execution *x, void *arg)
{
	const struct sc_pass *sp = arg;
	const struct rel_ctx *rc = &p->enc->rc;
	for (int a = 0; a < p->m.naxioms; a++) {
		Z3_ast holds = p->m.axiom[a].holds;
		if (!holds)
			continue;
		int k = 0;
		while (k < rc->nacyc && !Z3_is_eq_ast(p->z, rc->acyc[k].holds, holds))
			k++;
		if (k < rc->nacyc ? cyclic_in(x, &rc->acyc[k], p->enc->n)
				  : !execution_holds(x, holds))
			return 0;
	}
	return execution_holds(x, sp->errors_f);
}

/* Add to s the clause that rules out what made node's value in the last
 * evaluation (its justification's atoms). */
static void rule_out(const struct problem *p, struct circuit *c, Z3_solver s, int node)
{
	Z3_solver_assert(p->z, s, circuit_clause(c, node, NULL, NULL));
}

/* The circuit of p's axioms and errors; 0 when one cannot be evaluated. */
static int sc_pass_open(struct sc_pass *sp, const struct problem *p, Z3_ast errors)
{
	sp->c = circuit_new(&p->enc->rc);
	sp->axiom = lazy_axiom_nodes(sp->c, p, &sp->naxioms);
	if (!sp->axiom)
		return 0;
	sp->errors = circuit_root(sp->c, errors);
	sp->errors_f = errors;
	return sp->errors >= 0;
}

/* Evaluate the model of s; 1 when it is consistent and has an error,
 * else a clause ruling out what it lacked is added to s. */
static int sc_try(const struct problem *p, struct sc_pass *sp, Z3_solver s, Z3_model m)
{
	if (!circuit_eval(sp->c, m))
		return -1;
	for (int i = 0; i < sp->naxioms; i++)
		if (circuit_value(sp->c, sp->axiom[i]) == 0) {
			rule_out(p, sp->c, s, sp->axiom[i]);
			return 0;
		}
	if (circuit_value(sp->c, sp->errors) == 1)
		return 1;
	rule_out(p, sp->c, s, sp->errors);
	return 0;
}

/* A solver of the program alone whose executions are sequentially
 * consistent, under symmetry breaking. */
static Z3_solver sc_solver(const struct problem *p)
{
	struct encoding *enc = p->enc;
	struct rel_ctx *rc = &enc->rc; /* its ranks are added there */
	Z3_solver s = problem_solver(p, PG_FACTS | PG_CUT | PG_PROGRAM_DEFS | PG_FILTER, 1);
	rel_t com = rel_union3(rc, enc->rf, enc->co, enc->fr);
	Z3_solver_assert(p->z, s, rel_acyclic(rc, rel_union(rc, enc->po, com), "sc"));
	symmetry_break(enc, s);
	return s;
}

/* An error in one of the first sequentially consistent executions,
 * shown: 1; none found: 0, nothing printed. */
static int sc_error(const struct check_options *opt, const struct problem *p,
		    Z3_ast errors, FILE *out, FILE *err)
{
	double t0 = clock_now();
	struct sc_pass sp = {0};
	int found = 0, tries = 0;
	double first = 0; /* seconds to the first execution */
	Z3_solver s = NULL;
	if (!sc_pass_open(&sp, p, errors))
		goto done;
	if (opt->stats)
		fprintf(err, "stats: first error: circuit of %d nodes in %.3fs\n",
			circuit_nodes(sp.c), clock_now() - t0);
	double deadline = p->deadline;
	s = sc_solver(p);
	while (!found && tries < SC_TRIES &&
	       problem_ask_until(p->z, s, 0, NULL, deadline) == Z3_L_TRUE) {
		if (tries++ == 0) {
			first = clock_now() - t0;
			double stop = t0 + SC_PATIENCE * first;
			if (stop < t0 + SC_MIN_SECONDS)
				stop = t0 + SC_MIN_SECONDS;
			if (!deadline || stop < deadline)
				deadline = stop;
		}
		Z3_model m = Z3_solver_get_model(p->z, s);
		Z3_model_inc_ref(p->z, m);
		int r = sc_try(p, &sp, s, m);
		found = r == 1;
		if (found) {
			if (opt->stats)
				fprintf(err, "stats: first error: found in the sequentially "
					"consistent execution %d, %.3fs\n", tries, clock_now() - t0);
			/* the model's relations as the circuit has them */
			circuit_fix_model(sp.c, m);
			struct execution *x = execution_new(p->enc, m);
			show_execution(opt, p, x, recheck_by_evaluation, &sp, out, err);
			execution_free(x);
		}
		Z3_model_dec_ref(p->z, m);
		if (r < 0)
			break;
	}
done:
	if (!found && opt->stats)
		fprintf(err, "stats: first error: none in %d sequentially consistent "
			"executions, %.3fs (the first after %.3fs)\n", tries,
			clock_now() - t0, first);
	if (s)
		Z3_solver_dec_ref(p->z, s);
	circuit_free(sp.c);
	free(sp.axiom);
	return found > 0;
}

enum first_error_result first_error(const struct check_options *opt,
				    const struct problem *p, Z3_solver s, Z3_ast errors,
				    FILE *out, FILE *err, struct diag *d)
{
	Z3_context z = p->z;
	if (sc_error(opt, p, errors, out, err))
		return FIRST_ERROR_SHOWN;
	double t0 = clock_now();
	Z3_solver_push(z, s);
	symmetry_break(p->enc, s);
	Z3_lbool r = problem_ask(p, s, errors);
	if (opt->stats)
		fprintf(err, "stats: first error: asked in %.3fs, %s\n", clock_now() - t0,
			r == Z3_L_TRUE ? "found one" : r == Z3_L_FALSE ? "none" : "gave up");
	if (r == Z3_L_TRUE)
		show(opt, p, s, out, err);
	Z3_solver_pop(z, s, 1);
	if (r == Z3_L_UNDEF) {
		report_timed_out(d, p->prog, "looking for a first error");
		return FIRST_ERROR_UNKNOWN;
	}
	return r == Z3_L_TRUE ? FIRST_ERROR_SHOWN : FIRST_ERROR_NONE;
}
