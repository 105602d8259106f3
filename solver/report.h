/*
 * report.h - the executions shown beside an answer: one that reaches the
 * condition (a witness), a data race, why a condition is never reached,
 * and a whole C program's answer in its own terms.
 *
 * Each asks the problem's solver what it shows (problem.h) and prints to
 * out; located errors go to err or d.  herd7's block itself is
 * herd7out.h's; which of these a test gets is check.c's decision.
 */
#ifndef LKMMC_REPORT_H
#define LKMMC_REPORT_H

#include <stdio.h>
#include <z3.h>

#include "common/diag.h"
#include "frontend/ir.h"
#include "solver/result.h"

struct check_options;
struct problem;
struct execution;
struct explanation;

/* Fill d with "solver gave up while WHAT", of kind DIAG_TIMEOUT;
 * returns 0. */
int report_timed_out(struct diag *d, const struct ir_program *prog, const char *what);

/* Print title and an execution of s reaching cond (found: the model of an
 * earlier query of cond on s, NULL: ask), re-checked against the model,
 * and draw it when opt asks.  Returns 0 (d filled) on an internal error
 * or when the picture cannot be written; 1 otherwise, also when cond is
 * not reached. */
int report_witness(const struct check_options *opt, const struct problem *p,
		   Z3_solver s, Z3_ast cond, Z3_model found, FILE *out,
		   struct diag *d, const char *title);

/* The same for a litmus test, into r (result.h: r->witness and
 * r->witness_rechecked) instead of printed. */
int report_witness_data(const struct check_options *opt, const struct problem *p,
			Z3_solver s, Z3_ast cond, Z3_model found,
			struct check_result *r, struct diag *d);

/* The two racing accesses of one execution of s that raises data-race
 * (for a program in its terms, with a located error on err). */
void report_race(const struct check_options *opt, const struct problem *p,
		 Z3_solver s, FILE *out, FILE *err);

/* A litmus test's data race as data (result.h), NULL when no execution
 * of s raises data-race. */
struct check_race *report_race_data(const struct problem *p, Z3_solver s);

/* The first error x shows, printed with x as the full answer prints it
 * (a thread assertion failed, a final assert violated, a data race or
 * another flag raised, a hang; the located error to err): returns 1, or
 * 0 when x shows none.  x: an execution of p with the model's relations
 * (execution_new); nothing is asked. */
int report_error_in(const struct check_options *opt, const struct problem *p,
		    const struct execution *x, FILE *out, FILE *err);

/* Why no consistent execution reaches cond: which axioms forbid the
 * candidates that do (solver/explain.h), from a solver of its own; *made
 * receives it as data (the caller's, explanation_free; one made before is
 * freed), printed with the answer (check_result_print).  With --dot or
 * --svg, the first explained execution is drawn. */
int report_explain(const struct check_options *opt, const struct problem *p,
		   Z3_ast cond, struct diag *d, struct explanation **made);

/* A whole C program's answer instead of herd7's block: each final assert
 * some execution violates (with that execution), then asserts (the
 * thread assertions' findings, bounds_report's) and, when no assertion of
 * either kind can fail, "Assertions: none of N can fail" (both counted);
 * the flags raised (raised[], by index in p->m.flag[]) as errors, or "No
 * errors".  found: what bounds_report found; completes: some execution
 * reaches the end.  Returns 0 (d filled) on a time-out; sets *bad when
 * something can go wrong. */
int report_program(const struct check_options *opt, const struct problem *p,
		   Z3_solver s, const int *raised, int found, const char *asserts,
		   int completes, FILE *out, FILE *err, struct diag *d, int *bad);

#endif
