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

struct checker;
struct cat_model;

struct check_options {
	int unroll;         /* loop bound (herd7's default: 2) */
	int unroll_auto;    /* --unroll auto: raise the bound from unroll up
			     * to this limit until no execution needs more
			     * (0: off) */
	int exists_only;    /* answer reachability only, no state list */
	int no_cubes;       /* list states one query at a time, never by
			     * cubes (solver/cubes.h): for cross-checking */
	unsigned timeout_ms;/* time limit per test (and per query), 0: none */
	long max_memory_mb; /* --max-memory: limit on the resident set while a
			     * test is checked (solver/memwatch.h), 0: none */
	int memory_exit;    /* the process's exit status when the limit could
			     * not be kept by stopping the check: 1, or
			     * MEMWATCH_EXIT in a batch worker */
	int herd7_only;     /* herd7's options were used: print only what
			     * herd7 prints (no witness with -speedcheck) */
	int stats;          /* print encoding sizes and phase times to stderr */
	int witness;        /* print an execution reaching the condition */
	int explain;        /* say which axioms forbid an unreachable condition */
	const char *picture;/* draw the witness/explained execution here */
	int picture_svg;    /* as SVG (else Graphviz text) */
	struct cat_model *model; /* --model, -conf: the model read from cat
			     * files (models/cat.h); NULL: the built-in 6.1
			     * model.  Not owned. */
	const char *model_conf; /* -conf: a configuration file naming model
			     * files other than Linux 6.1's, to be read
			     * (cli/herd7opts.c); NULL: none */
};

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
 * Returns CHECK_* bits, or 0 and fills d when the test cannot be checked
 * (unsupported, time-out). */
int checker_run(struct checker *c, const struct ir_program *prog, FILE *out,
		struct diag *d);

#endif
