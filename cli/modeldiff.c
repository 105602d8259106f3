/*
 * modeldiff.c - lkmmc --model-diff DIR_A DIR_B FILE...: each test checked
 * under two models read from cat files (models/cat/cat.h), and only the tests
 * whose answers differ printed: both answers, the one that reaches the
 * condition with a witness execution and the one that never does with
 * the axioms that forbid it (--explain).  Each model lowers the test with
 * its own .def, so the program is parsed and encoded once per model.  It
 * compares the two answers as printed without their Time lines, each
 * rendered from the checker's result (solver/result.h), whose states,
 * flags and verdict say what differs; it reads no printed text back.
 * One file at a time is model_diff_file, a batch_fn (cli/batch.h): the
 * caller runs it serially or in -j workers and tallies what it printed
 * (model_diff_count); a file's --timeout covers all of its checks, both
 * models, so that a batch is bounded by files x timeout.
 */
#include "cli/modeldiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch.h"
#include "common/clock.h"
#include "common/diag.h"
#include "common/exitcode.h"
#include "common/xalloc.h"
#include "frontend/frontend.h"
#include "models/cat/cat.h"
#include "solver/check.h"

/* One side of the comparison. */
struct side {
	const char *dir;            /* its folder */
	struct cat_model *model;    /* its model */
	struct frontend *fe;        /* lowers tests with its .def */
	struct check_options opt;   /* the options, with its model */
};

/* Both models, and the tally of the files done. */
struct model_diff {
	struct side s[2];           /* model A, model B */
	double limit;               /* seconds per file, all its checks
				     * together (0: none) */
	int ndiff;                  /* files whose answers differ */
	int nerr;                   /* files that could not be checked */
};

/* Check path under side s (with witness / explain as asked), within the
 * file's deadline (0: none); the output without its Time line, malloc'ed,
 * and its result in *res (zeroed or a result; the caller frees it), or
 * NULL with the reason on err. */
static char *answer(struct side *s, const char *path, int witness, int explain,
		    double deadline, FILE *err, struct check_result *res)
{
	struct diag d = {0};
	unsigned left_ms = 0;
	if (deadline > 0) {
		double left = deadline - clock_now();
		if (left < 0.001) {
			fprintf(err, "%s: error: time-out: the time limit was used up before the check under %s\n",
				path, s->dir);
			return NULL;
		}
		left_ms = (unsigned)(left * 1000.0);
	}
	struct ir_program *prog = frontend_parse_file(s->fe, path, &d);
	if (!prog) {
		diag_print(&d, err);
		return NULL;
	}
	struct check_options o = s->opt;
	o.witness = witness;
	o.explain = explain;
	o.timeout_ms = left_ms;
	struct checker *c = checker_new(&o);
	checker_set_err(c, err);
	int r = checker_run(c, prog, NULL, res);
	if (!r && res->error.set)
		d = res->error;
	checker_free(c);
	ir_program_free(prog);
	if (!r) {
		if (d.set)
			diag_print(&d, err);
		return NULL;
	}
	/* without the Time line: it always differs */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		abort();
	check_result_print(res, m, 0);
	fclose(m);
	return buf;
}

/* r's final states as printed ("0:r0=1; [x]=1;\n") then its flags'
 * names, each a string, in order; *nstates of them are states. */
static char **outcome_lines(const struct check_result *r, int *n, int *nstates)
{
	long ns = r->nstates >= 0 ? r->states.n : 0;
	char **v = xcalloc((size_t)ns + (size_t)r->nflags + 1, sizeof *v);
	*n = 0;
	for (long i = 0; i < ns; i++) {
		size_t len = 0;
		FILE *f = open_memstream(&v[*n], &len);
		if (!f)
			abort();
		check_state_print(&r->states, i, f);
		fclose(f);
		++*n;
	}
	*nstates = *n;
	for (int i = 0; i < r->nflags; i++) {
		v[*n] = xmalloc(strlen(r->flags[i]) + 2);
		sprintf(v[(*n)++], "%s\n", r->flags[i]);
	}
	return v;
}

static int has_line(char **v, int n, const char *line)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i], line) == 0)
			return 1;
	return 0;
}

/* What one model's answer has that the other's lacks, state by state and
 * flag by flag ("only under DIR: state ..." / "... flag ..."), so that a
 * difference of one state among hundreds is seen without a diff of the
 * two answers; nothing when only the verdict's counts differ. */
static void print_changes(FILE *out, struct side *s, const struct check_result res[2])
{
	char **v[2];
	int n[2], ns[2];
	for (int k = 0; k < 2; k++)
		v[k] = outcome_lines(&res[k], &n[k], &ns[k]);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < n[k]; i++)
			if (!has_line(v[1 - k], n[1 - k], v[k][i]))
				fprintf(out, "only under %s: %s %s", s[k].dir,
					i < ns[k] ? "state" : "flag",
					v[k][i]);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n[k]; i++)
			free(v[k][i]);
		free(v[k]);
	}
}

struct model_diff *model_diff_open(const struct check_options *opt, const char *dir_a,
				   const char *dir_b, int unroll, FILE *err)
{
	struct model_diff *md = xcalloc(1, sizeof *md);
	md->s[0].dir = dir_a;
	md->s[1].dir = dir_b;
	md->limit = opt->timeout_ms / 1000.0;
	for (int k = 0; k < 2; k++) {
		struct side *s = &md->s[k];
		struct diag d = {0};
		s->model = cat_model_load(s->dir, NULL, &d);
		if (!s->model) {
			diag_print(&d, err);
			model_diff_free(md);
			return NULL;
		}
		s->fe = frontend_new();
		frontend_set_unroll(s->fe, unroll);
		if (cat_model_macros(s->model))
			frontend_set_macros(s->fe, cat_model_macros(s->model));
		s->opt = *opt;
		s->opt.model = s->model;
	}
	return md;
}

void model_diff_free(struct model_diff *md)
{
	if (!md)
		return;
	for (int k = 0; k < 2; k++) {
		frontend_free(md->s[k].fe);
		cat_model_free(md->s[k].model);
	}
	free(md);
}

/* The --times row of two answers printed A then B: the verdict and
 * States count of the last herd7 block that has them. */
static void diff_row(const struct check_result res[2], struct batch_row *row)
{
	for (int k = 0; k < 2; k++) {
		if (res[k].verdict != CHECK_VERDICT_NONE)
			snprintf(row->verdict, sizeof row->verdict, "%s",
				 check_verdict_word(res[k].verdict));
		if (res[k].verdict != CHECK_VERDICT_NONE && res[k].nstates >= 0)
			row->nstates = res[k].nstates;
	}
}

int model_diff_file(void *ctx, const char *path, FILE *out, FILE *err,
		    struct batch_row *row)
{
	struct model_diff *md = ctx;
	struct side *s = md->s;
	double deadline = md->limit > 0 ? clock_now() + md->limit : 0;
	char *a[2];
	struct check_result res[2] = {{0}, {0}};
	for (int k = 0; k < 2; k++)
		a[k] = answer(&s[k], path, 0, 0, deadline, err, &res[k]);
	int status = LKMMC_EXIT_ERROR;
	if (a[0] && a[1] && strcmp(a[0], a[1]) != 0) {
		int never[2] = {res[0].verdict == CHECK_NEVER, res[1].verdict == CHECK_NEVER};
		if (never[0] != never[1]) {
			/* the model that reaches the condition: a witness; the
			 * other: the axioms that forbid it (where the time
			 * limit leaves room: else the plain answers) */
			for (int k = 0; k < 2; k++) {
				struct check_result again = {0};
				char *b = answer(&s[k], path, !never[k], never[k], deadline,
						 err, &again);
				if (b) {
					free(a[k]);
					a[k] = b;
					check_result_free(&res[k]);
					res[k] = again;
				} else {
					check_result_free(&again);
				}
			}
		}
		fprintf(out, "Differs %s\n", path);
		print_changes(out, s, res);
		for (int k = 0; k < 2; k++)
			fprintf(out, "--- %s\n%s", s[k].dir, a[k]);
		fputc('\n', out);
		fflush(out);
		diff_row(res, row);
	}
	if (a[0] && a[1])
		status = LKMMC_EXIT_OK;
	for (int k = 0; k < 2; k++) {
		free(a[k]);
		check_result_free(&res[k]);
	}
	return status;
}

void model_diff_count(void *ctx, int status, size_t out_len)
{
	struct model_diff *md = ctx;
	if (status == LKMMC_EXIT_ERROR)
		md->nerr++;
	else if (out_len > 0)
		md->ndiff++;
}

int model_diff_summary(const struct model_diff *md, int nfiles, FILE *out)
{
	fprintf(out, "model-diff: %d tests, %d differ, %d could not be checked\n", nfiles,
		md->ndiff, md->nerr);
	return md->nerr ? LKMMC_EXIT_ERROR : LKMMC_EXIT_OK;
}
