/*
 * herd7out.h - a litmus test's answer in herd7's output format.
 *
 * The block herd7 prints for a test (Test, States, Ok/No, Witnesses,
 * Flag, Condition, Observation, Time), from counts the checker found.  It
 * asks no question and prints nothing else: witnesses, explanations and a
 * C program's answer are report.h's.
 */
#ifndef LKMMC_HERD7OUT_H
#define LKMMC_HERD7OUT_H

#include <stdio.h>

#include "frontend/ir.h"

struct state_set;

struct herd7_answer {
	long pos, neg;       /* final states (exists-only: 0 or 1) where the
			      * proposition holds, where it does not */
	const struct state_set *states; /* the final states, NULL when not
			      * listed (--exists-only) */
	int loop;            /* the loop bound cut executions: herd7's "Loop"
			      * before Ok/No */
	const char **flags;  /* the names of the flags raised, in order */
	int nflags;          /* how many */
	double seconds;      /* time taken, for the Time line */
};

/* Print prog's answer a to out, as herd7 does; ~exists prints the
 * negation's counts. */
void herd7_print(FILE *out, const struct ir_program *prog, const struct herd7_answer *a);

#endif
