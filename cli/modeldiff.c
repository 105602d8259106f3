/*
 * modeldiff.c - lkmmc --model-diff DIR_A DIR_B FILE...: each test checked
 * under two models read from cat files (models/cat/cat.h), and only the tests
 * whose answers differ printed: both answers, the one that reaches the
 * condition with a witness execution and the one that never does with
 * the axioms that forbid it (--explain).  Each model lowers the test with
 * its own .def, so the program is parsed and encoded once per model.  It
 * does not compare anything but herd7's output lines (Time lines left out);
 * which answer says Never is the checker's result (solver/result.h).
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
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int r = m ? checker_run(c, prog, m, res) : 0;
	if (m)
		fclose(m);
	if (!r && res->error.set)
		d = res->error;
	checker_free(c);
	ir_program_free(prog);
	if (!r) {
		if (d.set)
			diag_print(&d, err);
		free(buf);
		return NULL;
	}
	/* drop the Time line: it always differs */
	char *w = buf;
	for (char *l = buf; *l;) {
		char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
		if (strncmp(l, "Time ", 5) != 0) {
			memmove(w, l, n);
			w += n;
		}
		l += n;
	}
	*w = 0;
	return buf;
}

/* The lines of answer a that list its final states ("States N" up to the
 * "Ok"/"No" line) and its flags ("Flag name"), in order, each with its
 * '\n'; *nstates of them are states. */
static char **outcome_lines(const char *a, int *n, int *nstates)
{
	char **v = NULL;
	int cap = 0, in_states = 0;
	*n = *nstates = 0;
	for (const char *l = a; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
		int keep = 0;
		if (strncmp(l, "States ", 7) == 0)
			in_states = 1;
		else if (in_states && (strncmp(l, "Ok\n", 3) == 0 || strncmp(l, "No\n", 3) == 0))
			in_states = 0;
		else if (in_states)
			keep = 1, (*nstates)++;
		else if (strncmp(l, "Flag ", 5) == 0)
			keep = 1;
		if (keep) {
			if (*n == cap)
				v = xrealloc_array(v, (size_t)(cap = cap ? 2 * cap : 16), sizeof *v);
			char *c = xmalloc(len + 1);
			memcpy(c, l, len);
			c[len] = 0;
			v[(*n)++] = c;
		}
		l += len;
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
static void print_changes(FILE *out, struct side *s, char *const a[2])
{
	char **v[2];
	int n[2], ns[2];
	for (int k = 0; k < 2; k++)
		v[k] = outcome_lines(a[k], &n[k], &ns[k]);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < n[k]; i++)
			if (!has_line(v[1 - k], n[1 - k], v[k][i]))
				fprintf(out, "only under %s: %s %s", s[k].dir,
					i < ns[k] ? "state" : "flag",
					i < ns[k] ? v[k][i] : v[k][i] + 5);
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
		print_changes(out, s, a);
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
