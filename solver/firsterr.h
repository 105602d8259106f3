/*
 * firsterr.h - --first-error: one error of a C program, found fast, shown
 * with its execution, and nothing more asked (as GenMC stops at its first
 * error).
 *
 * It looks for errors only: a thread assertion that fails, a final
 * assert violated or a flag raised (a data race) in an execution herd7's
 * cut keeps, a hang.  A loop cut off at the bound is not an error.  When
 * there is none, the caller gives the program's usual answer, told that
 * no error can happen (nothing is asked twice).  It does not print that
 * answer, and it is not for litmus tests, whose answer is herd7's block.
 */
#ifndef LKMMC_FIRSTERR_H
#define LKMMC_FIRSTERR_H

#include <stdio.h>
#include <z3.h>

#include "common/diag.h"

struct check_options;
struct problem;

/* What first_error found. */
enum first_error_result {
	FIRST_ERROR_SHOWN,   /* an error was printed to out (its located
			      * message to err) */
	FIRST_ERROR_NONE,    /* no consistent execution has an error */
	FIRST_ERROR_UNKNOWN, /* the solver gave up: d is filled */
};

/* The caller's formula of the errors above, over p (its model built). */
typedef Z3_ast first_error_errors_fn(const struct problem *p);

/* An error in the execution of one of the schedules (firsterr.c) of p's
 * program, shown: 1; none: 0, nothing printed.  p is encoded without its
 * model (problem_open_program): each execution is judged by the model
 * built over it alone (problem_open_instance), where errors_of(its
 * problem) must hold.  Ask it before the model is built over the whole
 * program, which then need not be built. */
int first_error_before_model(const struct check_options *opt, const struct problem *p,
			     first_error_errors_fn *errors_of, FILE *out, FILE *err);

/* An error in one of the first sequentially consistent executions of
 * p's program (an execution where errors, the caller's formula of the
 * errors above, holds), shown: 1; none found: 0, nothing printed.  It
 * asks a solver of its own, of the program alone, for executions Z3
 * chooses (first_error_before_model has asked the schedules); its tries,
 * a few, end when they have taken a few times the first one's time.  Ask
 * it before first_error, which asks the model's solver. */
int first_error_interleaved(const struct check_options *opt, const struct problem *p,
			    Z3_ast errors, FILE *out, FILE *err);

/* Look for one error of p's program: an execution where errors holds.
 * s holds p's PG_CONSISTENT groups (not herd7's cut) and is left as it
 * was found.  No query runs past p's deadline. */
enum first_error_result first_error(const struct check_options *opt,
				    const struct problem *p, Z3_solver s, Z3_ast errors,
				    FILE *out, FILE *err, struct diag *d);

#endif
