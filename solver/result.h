/*
 * result.h - one test's answer as data: what checker_run (check.h) found
 * and printed, for the callers that act on it (a batch's --times row,
 * --json's error kind, --model-diff's and --repair's verdicts) instead of
 * reading the printed text back.
 *
 * It holds everything checker_run prints, in the order printed: herd7's
 * block (the verdict, its counts, the final states value by value, the
 * flags raised), the witness and a data race as executions
 * (execdata.h), the explanation (explanation.h), the findings about the
 * code (assertions, loop bounds, spins) and the error with its kind.
 * herd7's text (check_result_print), --json (report/json.c) and
 * --model-diff (cli/modeldiff.c) are rendered from it.  Two parts are
 * still the text their printers wrote, carried verbatim: a C program's
 * report (report.c, firsterr.c) and the assertion and unwinding notes
 * (bounds.c).
 */
#ifndef LKMMC_RESULT_H
#define LKMMC_RESULT_H

#include <stdio.h>

#include "common/diag.h"
#include "frontend/ir.h"
#include "solver/execdata.h"

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
/* The final states as herd7 lists them: one row of values per state, in
 * the order printed, each value of column c under the label cols[c]
 * ("0:r1", "[x]"). */
struct check_states {
	int ncols;
	char **cols;     /* the columns' labels (owned) */
	long n;          /* states */
	int wide;        /* val holds longs, else int32_t (most tests:
			  * half the memory of a 2^19-state list) */
	void *val;       /* n rows of ncols values */
	long loc_base;   /* a value loc_base + i, i < nlocs, is the address
			  * of location locs[i] and prints as its name */
	int nlocs;
	char **locs;     /* (owned) */
	long symbolic;   /* the value printed "S" (herd7's S16) */
};

/* The j-th value of state i. */
long check_state_value(const struct check_states *st, long i, int j);
/* v as printed: a location's name, "S" or the number (in buf, at least
 * 24 bytes). */
const char *check_value_text(const struct check_states *st, long v, char *buf);
/* State i as herd7 prints it: "0:r0=0; 1:r0=1; [x]=1;" and a newline. */
void check_state_print(const struct check_states *st, long i, FILE *out);
void check_states_free(struct check_states *st);

/* A data race of a litmus test: the two accesses, and the execution. */
struct check_race {
	struct check_event a, b;
	struct check_execution x;
};

/* "Data race: EVENT\n      and: EVENT\n  in this execution:\n" and
 * the execution's listing. */
void check_race_print(const struct check_race *race, FILE *out);
void check_race_free(struct check_race *race);

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
	const char *name;           /* the test's name (owned) */
	const char *cond_text;      /* its condition as written, NULL when
				     * none (owned) */
	int loop;                   /* herd7's "Loop": the bound cut
				     * executions, with a verdict */
	double seconds;             /* the Time line's, with a verdict */
	struct check_states states; /* the final states listed (when
				     * nstates >= 0) */
	char *program_text;         /* a C program's report, as printed
				     * (report.c, firsterr.c), or NULL */
	struct check_execution *witness; /* an execution reaching the
				     * condition, or NULL */
	int witness_rechecked;      /* the model accepted it when fed back */
	struct check_race *race;    /* a data race (--explain), or NULL */
	char *notes;                /* the assertion and unwinding notes
				     * bounds.c printed after the answer, or
				     * NULL */
	int findings;               /* CHECK_FOUND_* bits */
	struct diag error;          /* why it could not be checked (set),
				     * with its kind */
	struct explanation *explained; /* why never: --explain's answer to a
				     * Never (or, for a C program, to no
				     * assertion failing) as data
				     * (explanation.h; owned), or NULL */
};

/* The word herd7 prints for v ("Never", ...; "" for NONE). */
const char *check_verdict_word(enum check_verdict v);

/* The verdict of pos and neg final states, as herd7 words it. */
enum check_verdict check_verdict_of(long pos, long neg);

/* Whether herd7 says Ok: the condition, under quantifier q, holds of
 * pos and neg final states. */
int check_validated(enum ir_quant q, long pos, long neg);

/* The whole answer as checker_run prints it, in order: a program's
 * report or herd7's block (with its Time line when with_time: --model-
 * diff leaves it out), the witness, the explanation, a data race, the
 * notes. */
void check_result_print(const struct check_result *r, FILE *out, int with_time);

/* Back to an empty result (nstates -1), freeing what r owns; r is zeroed
 * or a result already (checker_run resets the caller's). */
void check_result_reset(struct check_result *r);

/* Free what r owns (r itself is the caller's). */
void check_result_free(struct check_result *r);

#endif
