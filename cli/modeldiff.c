/*
 * modeldiff.c - lkmmc --model-diff DIR_A DIR_B FILE...: each test checked
 * under two models read from cat files (models/cat.h), and only the tests
 * whose answers differ printed: both answers, the one that reaches the
 * condition with a witness execution and the one that never does with
 * the axioms that forbid it (--explain).  Each model lowers the test with
 * its own .def, so the program is parsed and encoded once per model.  It
 * does not compare anything but herd7's output lines (Time lines left out).
 */
#include "cli/modeldiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "frontend/frontend.h"
#include "models/cat.h"
#include "solver/check.h"

/* One side of the comparison. */
struct side {
	const char *dir;            /* its folder */
	struct cat_model *model;    /* its model */
	struct frontend *fe;        /* lowers tests with its .def */
	struct check_options opt;   /* the options, with its model */
};

/* Check path under side s (with witness / explain as asked); the output
 * without its Time line, malloc'ed, or NULL with the reason on err. */
static char *answer(struct side *s, const char *path, int witness, int explain,
		    FILE *err)
{
	struct diag d = {0};
	struct ir_program *prog = frontend_parse_file(s->fe, path, &d);
	if (!prog) {
		diag_print(&d, err);
		return NULL;
	}
	struct check_options o = s->opt;
	o.witness = witness;
	o.explain = explain;
	struct checker *c = checker_new(&o);
	checker_set_err(c, err);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int r = m ? checker_run(c, prog, m, &d) : 0;
	if (m)
		fclose(m);
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

/* The verdict word of an answer ("Never", ...), or "". */
static void verdict(const char *a, char *word, size_t size)
{
	const char *o = strstr(a, "\nObservation ");
	word[0] = 0;
	if (!o)
		return;
	o = strchr(o + 13, ' '); /* past the test name */
	if (o)
		sscanf(o, " %15s", word);
	(void)size;
}

int model_diff(const struct check_options *opt, const char *dir_a, const char *dir_b,
	       int unroll, int nfiles, char **files, FILE *out, FILE *err)
{
	struct side s[2] = {{.dir = dir_a}, {.dir = dir_b}};
	int status = 0, ndiff = 0, nerr = 0;
	for (int k = 0; k < 2; k++) {
		struct diag d = {0};
		s[k].model = cat_model_load(s[k].dir, NULL, &d);
		if (!s[k].model) {
			diag_print(&d, err);
			status = 1;
			goto done;
		}
		s[k].fe = frontend_new();
		frontend_set_unroll(s[k].fe, unroll);
		if (cat_model_macros(s[k].model))
			frontend_set_macros(s[k].fe, cat_model_macros(s[k].model));
		s[k].opt = *opt;
		s[k].opt.model = s[k].model;
	}
	for (int i = 0; i < nfiles; i++) {
		char *a[2];
		for (int k = 0; k < 2; k++)
			a[k] = answer(&s[k], files[i], 0, 0, err);
		if (!a[0] || !a[1]) {
			nerr++;
			free(a[0]);
			free(a[1]);
			continue;
		}
		if (strcmp(a[0], a[1]) != 0) {
			ndiff++;
			char v[2][16];
			verdict(a[0], v[0], sizeof v[0]);
			verdict(a[1], v[1], sizeof v[1]);
			int never0 = strcmp(v[0], "Never") == 0, never1 = strcmp(v[1], "Never") == 0;
			if (never0 != never1) {
				/* the model that reaches the condition: a witness;
				 * the other: the axioms that forbid it */
				for (int k = 0; k < 2; k++) {
					int never = k ? never1 : never0;
					char *b = answer(&s[k], files[i], !never, never, err);
					if (b) {
						free(a[k]);
						a[k] = b;
					}
				}
			}
			fprintf(out, "Differs %s\n", files[i]);
			for (int k = 0; k < 2; k++)
				fprintf(out, "--- %s\n%s", s[k].dir, a[k]);
			fputc('\n', out);
			fflush(out);
		}
		free(a[0]);
		free(a[1]);
	}
	fprintf(out, "model-diff: %d tests, %d differ, %d could not be checked\n", nfiles,
		ndiff, nerr);
	if (nerr)
		status = 1;
done:
	for (int k = 0; k < 2; k++) {
		frontend_free(s[k].fe);
		cat_model_free(s[k].model);
	}
	return status;
}
