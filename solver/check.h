/*
 * check.h - answer a litmus test with Z3 and print herd7's output format.
 *
 * The checker encodes the program (encoder/) and the model (models/) into
 * one Z3 solver, then asks: which final states do consistent executions
 * that pass the filter reach (herd7's States), which flags can they raise,
 * and so whether the condition is validated.  Each attempt at a test has a
 * Z3 context of its own, deleted when the answer is printed.
 */
#ifndef LKMMC_CHECK_H
#define LKMMC_CHECK_H

#include <stdio.h>

#include "common/diag.h"
#include "frontend/ir.h"
#include "solver/options.h"
#include "solver/result.h"

struct checker;


struct checker *checker_new(const struct check_options *opt);
void checker_free(struct checker *c);
/* Where checker_run prints its warnings (assertions, unwinding); stderr
 * unless set (e.g. a batch worker's per-test error stream). */
void checker_set_err(struct checker *c, FILE *err);

/* What checker_run returns when it checked the test (bits). */
enum {
	CHECK_DONE = 1,         /* checked, answer printed */
	CHECK_CODE_FAILS = 2,   /* an assertion in the code can fail or a
				 * thread can spin forever */
	CHECK_BOUND_LIMIT = 4,  /* --unroll auto hit its limit (or gave up) */
};

/* Check one test and print the herd7-style answer to out, then the
 * assertion and unwinding report (solver/bounds.h; warnings on stderr).
 * r (zeroed, or a result already: it is reset) receives what was printed
 * as data (result.h).  Returns CHECK_* bits (r->status), or 0 and fills
 * r->error when the test cannot be checked (unsupported, time-out,
 * memory); what was printed before the error is in r too. */
int checker_run(struct checker *c, const struct ir_program *prog, FILE *out,
		struct check_result *r);

#endif
