/*
 * modeldiff.h - lkmmc --model-diff: one run, two models (see modeldiff.c).
 */
#ifndef LKMMC_MODELDIFF_H
#define LKMMC_MODELDIFF_H

#include <stdio.h>

struct check_options;

/* Check each of files under the models of folders dir_a and dir_b (opt as
 * for any check, its model ignored; unroll: helper recursion) and print to
 * out only the tests whose answers differ, then a summary line.  Returns
 * the exit status: 0, or 1 when a model or some test could not be read
 * or checked (the reason on err). */
int model_diff(const struct check_options *opt, const char *dir_a, const char *dir_b,
	       int unroll, int nfiles, char **files, FILE *out, FILE *err);

#endif
