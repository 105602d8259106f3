/*
 * repair.h - lkmmc --repair, --prune and --strip: program changes that
 * forbid an outcome, and barriers a test does not need.
 *
 * --repair: for a litmus test whose condition is reachable when it should
 * not be (an exists that is reachable, a ~exists or forall that fails) or
 * whose assertions can fail, the changes of least total cost from the menu
 * (repair/repair_menu.h, priced by repair/repair_cost.h) after which the
 * outcome is never reached and every assertion holds: every such repair
 * up to a limit, each as a unified diff of the file, each re-checked from
 * scratch on the patched text with the axiom that now forbids the outcome.
 * --prune: for a test that is already right, the fences and annotations
 * whose removal (each on its own, then greedily together) keeps it right.
 * --strip: the test with every fence and acquire/release annotation the
 * menu knows removed (for bench/repair.sh).  A candidate is asked of one
 * encoding of the test with every change under a choice (repair_enc.h)
 * where the test allows it, else checked by parsing its text and running
 * the ordinary checker on it; every repair printed is re-checked that
 * second way.  Whole C programs are not repaired.
 */
#ifndef LKMMC_REPAIR_H
#define LKMMC_REPAIR_H

#include <stdio.h>

#include "common/diag.h"
#include "solver/check.h"
#include "repair/repair_cost.h"

struct frontend;

/* What the command line asks of the repair. */
struct repair_options {
	int repair;              /* --repair */
	int prune;               /* --prune (with --repair or alone) */
	int strip;               /* --strip: print the stripped text */
	int max;                 /* --repair-max K: repairs printed (3) */
	long max_checks;         /* candidates checked at most (2000) */
	int plain;               /* --repair-plain: no growing of failed sets
				  * (plain enumeration, to measure the cut) */
	int scratch;             /* --repair-scratch: every candidate parsed
				  * and checked from scratch, never asked of
				  * one encoding (repair_enc.h), to measure
				  * it and cross-check */
	struct repair_costs costs; /* the default table, --repair-cost over it */
};

/* Whether any of --repair, --prune, --strip is on. */
int repair_wanted(const struct repair_options *ro);

/* Repair, prune or strip the litmus file at path (read again here, so that
 * the edits are of the file as written).  co is how the tests are checked
 * (--unroll, --model...; witness and explanation options are overridden).
 * Returns the exit status (common/exitcode.h): LKMMC_EXIT_OK repaired,
 * nothing to do, or pruned; LKMMC_EXIT_ERROR the test (or a patched text)
 * could not be checked, d says why; LKMMC_EXIT_CODE_FAILS no repair in
 * the menu forbids the outcome. */
int repair_file(const struct repair_options *ro, const struct check_options *co,
		struct frontend *fe, const char *path, FILE *out, FILE *err,
		struct diag *d);

#endif
