/*
 * herd7out.h - a litmus test's answer in herd7's output format.
 *
 * The block herd7 prints for a test (Test, States, Ok/No, Witnesses,
 * Flag, Condition, Observation, Time), rendered from the check's result
 * (result.h).  It asks no question and prints nothing else: the rest of
 * the answer is resultout.c's.
 */
#ifndef LKMMC_HERD7OUT_H
#define LKMMC_HERD7OUT_H

#include <stdio.h>

#include "solver/result.h"

/* Print r's block to out, as herd7 does (its Time line when with_time);
 * ~exists prints the negation's counts. */
void herd7_print(FILE *out, const struct check_result *r, int with_time);

/* The quantifier's keyword in herd7's Condition line: "exists",
 * "~exists", "forall". */
const char *herd7_quant_text(enum ir_quant q);

#endif
