/*
 * modeldiff.h - lkmmc --model-diff: one run, two models (see modeldiff.c).
 */
#ifndef LKMMC_MODELDIFF_H
#define LKMMC_MODELDIFF_H

#include <stddef.h>
#include <stdio.h>

struct batch_row;
struct check_options;
struct model_diff;

/* Both models, read from folders dir_a and dir_b, for checking tests with
 * opt (its model ignored; its timeout is per file, all the checks of the
 * file together; unroll: helper recursion).  NULL, said on err, when a
 * model cannot be read. */
struct model_diff *model_diff_open(const struct check_options *opt, const char *dir_a,
				   const char *dir_b, int unroll, FILE *err);
void model_diff_free(struct model_diff *md);

/* A batch_fn (cli/batch.h; ctx: the model_diff): check path under both
 * models and print to out, only when the answers differ, both of them
 * (row: the verdict and States count printed last).  Returns
 * LKMMC_EXIT_OK, or LKMMC_EXIT_ERROR when it could not be checked (the
 * reason on err). */
int model_diff_file(void *ctx, const char *path, FILE *out, FILE *err,
		    struct batch_row *row);

/* Tally one file, in the parent (batch_options.printed): its status and
 * the bytes model_diff_file printed for it (none: the answers agree). */
void model_diff_count(void *ctx, int status, size_t out_len);

/* Print the summary line over nfiles files; the exit status: OK, or ERROR
 * when some file could not be checked. */
int model_diff_summary(const struct model_diff *md, int nfiles, FILE *out);

#endif
