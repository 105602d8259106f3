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
 * Tried first and left out: sequentially consistent executions first, from
 * a solver holding the program without the model and acyclic(po | rf | co
 * | fr), each fed to the model's solver with its choices fixed.  On the
 * mutex whose bug is reading cmpxchg's old value as a success flag (8
 * threads) it found the failing interleaving in 0.31 s, but confirming it
 * under the model took longer than the model's own question (0.24 s); on
 * the lock programs missing an acquire or a release no interleaving fails
 * (only weak executions do) and it cost 0.4-7 s for nothing.
 */
#include "solver/firsterr.h"

#include "common/clock.h"
#include "solver/readback.h"
#include "solver/options.h"
#include "solver/problem.h"
#include "solver/report.h"
#include "solver/symmetry.h"

/* Show the error of the model of s (asked: errors held), re-checked. */
static void show(const struct check_options *opt, const struct problem *p,
		 Z3_solver s, FILE *out, FILE *err)
{
	double t0 = clock_now();
	Z3_model m = Z3_solver_get_model(p->z, s);
	Z3_model_inc_ref(p->z, m);
	struct execution *x = execution_new(p->enc, m);
	double t1 = clock_now();
	fprintf(out, "Program %s\n", p->prog->file);
	int shown = report_error_in(opt, p, x, out, err);
	double t2 = clock_now();
	/* As a witness: its choices fed back, the model must accept it. */
	Z3_solver_push(p->z, s);
	execution_assert_choices(x, s);
	int back = shown && problem_ask(p, s, NULL) == Z3_L_TRUE;
	Z3_solver_pop(p->z, s, 1);
	if (opt->stats)
		fprintf(err, "stats: first error: execution %.3fs, shown %.3fs, "
			"re-checked %.3fs\n", t1 - t0, t2 - t1, clock_now() - t2);
	fprintf(out, "  re-checked against the model: %s\n\n",
		back ? "consistent, the error happens in it" : "FAILED (internal error)");
	fputs("Stopped at the first error (--first-error): other errors "
	      "were not looked for\n", out);
	execution_free(x);
	Z3_model_dec_ref(p->z, m);
}

enum first_error_result first_error(const struct check_options *opt,
				    const struct problem *p, Z3_solver s, Z3_ast errors,
				    FILE *out, FILE *err, struct diag *d)
{
	Z3_context z = p->z;
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
