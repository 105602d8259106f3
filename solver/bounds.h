/*
 * bounds.h - what herd7's verdict leaves out: assertions in the thread code
 * that some execution violates, and executions cut off by the loop
 * unrolling bound.  It does not compute the verdict (check.c does).
 */
#ifndef LKMMC_BOUNDS_H
#define LKMMC_BOUNDS_H

#include <stdio.h>
#include <z3.h>

#include "common/diag.h"
#include "frontend/ir.h"

struct problem;
struct encoding;
struct check_options;
struct memlimit;
struct execution;

/* What bounds_report found (bits). */
enum {
	BOUNDS_ASSERT_FAILS = 1, /* some consistent execution fails an assertion */
	BOUNDS_REACHED = 2,      /* some consistent execution needs more loop
				  * iterations than the bound */
	BOUNDS_SPINS = 4,        /* some thread spins forever in a consistent
				  * execution */
	BOUNDS_UNKNOWN = 8,      /* a query gave up (time-out) */
};

/* What a caller of bounds_report knows no execution has (bits). */
enum {
	BOUNDS_CLEAN_ERRORS = 1, /* a failing assertion or a hang */
	BOUNDS_CLEAN_CUT = 2,    /* a path cut off at a bound */
	BOUNDS_CLEAN = 3,        /* none of the findings */
};

/* Whether prog has a loop or an assertion (else nothing to check). */
int bounds_needed(const struct ir_program *prog);

/* How many assertions the thread code of enc has (an unrolled loop's
 * copies counted once). */
int bounds_assert_sites(const struct encoding *enc);

/* Ask about p's assertions and cut-off loops (consistent executions that
 * pass the filter, whatever the final condition), print a report to out
 * (after the herd7 block) and one warning a finding to err.  The
 * assertions' part goes to asserts (out itself for a litmus test; a
 * program's answer puts it with main's asserts, and says "none of N can
 * fail" itself, report.h).  s holds
 * p's PG_CONSISTENT groups but not herd7's cut (PG_CUT): the caller's
 * solver, asked before it adds the cut for the verdict, so that the
 * encoding is taken in once and an assertion that fails is found by the
 * first query.  s is left as it was found; no query runs past p's
 * deadline.  clean: BOUNDS_CLEAN_* bits, what the caller knows cannot
 * happen (not asked).  Returns the BOUNDS_* bits found. */
int bounds_report(const struct check_options *opt, const struct problem *p,
		  Z3_solver s, int clean, FILE *asserts, FILE *out, FILE *err);

/* Some execution fails an assertion, is cut off at a bound or hangs: the
 * three findings' conditions as one (for a question asked before
 * bounds_report, which is then told clean: none of them can happen), in
 * *kinds how many of the three are not false by construction. */
Z3_ast bounds_anything(const struct problem *p, int *kinds);

/* Some execution fails a thread assertion or hangs (every path stopped
 * at a bound spins for good): the errors among the findings, without
 * cut-off loops, which only say the bound is too small (--first-error's
 * question, solver/firsterr.h). */
Z3_ast bounds_errors(const struct problem *p);

/* If x fails a thread assertion (hangs: if x hangs), print the first such
 * site as bounds_report does, with x, and its warning to err; returns 1,
 * else 0 and prints nothing.  x: an execution of p with the model's
 * relations (execution_new). */
int bounds_show_in(const struct check_options *opt, const struct problem *p,
		   const struct execution *x, int hangs, FILE *out, FILE *err);

/* --unroll auto: the least bound from opt->unroll up to opt->unroll_limit
 * at which no consistent execution needs more iterations, in *unroll (the
 * limit when every bound is reached).  Returns 0 and fills d when the test
 * cannot be encoded.  Past deadline (0: none) it stops at the bound it
 * is trying, and so it does once over limit (the memory limit; NULL:
 * none). */
int bounds_auto_unroll(const struct check_options *opt, Z3_context z,
		       const struct ir_program *prog, double deadline,
		       struct memlimit *limit, int *unroll, struct diag *d);

#endif
