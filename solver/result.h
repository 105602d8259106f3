/*
 * result.h - one test's answer as data: what checker_run (check.h) found
 * and printed, for the callers that act on it (a batch's --times row,
 * --json's error kind, --model-diff's and --repair's verdicts) instead of
 * reading the printed text back.
 *
 * It holds the verdict and its counts, the final states' number, the
 * flags raised, the findings about the code (assertions, loop bounds,
 * spins) and the error with its kind.  It does not hold the states
 * themselves, the witness or the explanation: those exist only as the
 * text checker_run prints (report/json.c still translates that text).
 */
#ifndef LKMMC_RESULT_H
#define LKMMC_RESULT_H

#include "common/diag.h"
#include "frontend/ir.h"

/* herd7's Observation word: whether the proposition holds in no, some or
 * every final state (by the counts, whatever the quantifier). */
enum check_verdict {
	CHECK_VERDICT_NONE = 0, /* no herd7 block was printed (a C program's
				 * report, or the test could not be checked) */
	CHECK_NEVER,
	CHECK_SOMETIMES,
	CHECK_ALWAYS,
};

/* What the code of a test can do (bits of check_result.findings). */
enum {
	CHECK_FOUND_ASSERT_FAILS = 1, /* an assertion can fail */
	CHECK_FOUND_LOOP_BOUND = 2,   /* an execution needs more loop
				       * iterations than the bound */
	CHECK_FOUND_SPINS = 4,        /* a thread can spin forever */
	CHECK_FOUND_PROGRAM_BAD = 8,  /* a C program can go wrong (an assert,
				       * a flag, a deadlock, its first error) */
};

struct explanation;

struct check_result {
	int status;                 /* what checker_run returned: CHECK_*
				     * bits (check.h), 0 when not checked */
	int program;                /* a whole C program: its report was
				     * printed, not herd7's block */
	enum ir_quant quant;        /* the condition's quantifier */
	enum check_verdict verdict; /* as the Observation line says; NONE
				     * when no herd7 block was printed */
	int validated;              /* herd7's Ok (else No), with a verdict */
	long pos, neg;              /* final states (exists-only: 0 or 1)
				     * where the proposition holds, where it
				     * does not, as the Observation line */
	long nstates;               /* the States line's count, -1 when the
				     * states were not listed or no herd7
				     * block was printed */
	int nflags;                 /* flags raised, with a verdict */
	char **flags;               /* their names, in the order printed
				     * (owned) */
	int findings;               /* CHECK_FOUND_* bits */
	struct diag error;          /* why it could not be checked (set),
				     * with its kind */
	struct explanation *explanation; /* --explain's answer to a Never
				     * (explanation.h; owned), or NULL */
};

/* The word herd7 prints for v ("Never", ...; "" for NONE). */
const char *check_verdict_word(enum check_verdict v);

/* The verdict of pos and neg final states, as herd7 words it. */
enum check_verdict check_verdict_of(long pos, long neg);

/* Whether herd7 says Ok: the condition, under quantifier q, holds of
 * pos and neg final states. */
int check_validated(enum ir_quant q, long pos, long neg);

/* Back to an empty result (nstates -1), freeing what r owns; r is zeroed
 * or a result already (checker_run resets the caller's). */
void check_result_reset(struct check_result *r);

/* Free what r owns (r itself is the caller's). */
void check_result_free(struct check_result *r);

#endif
