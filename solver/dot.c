/*
 * dot.c - an execution as a Graphviz picture; see dot.h.
 *
 * One cluster per thread with its memory events in program order down the
 * column; across, rf (red), co (blue, immediate successors only), fr
 * (orange, to the write just after the one read), and the derived hb
 * (indigo) and fence (dark green) edges between threads' events, colored as
 * the kernel's linux-kernel.cfg colors them.  Initial writes are not drawn
 * (linux-kernel.cfg: showinitwrites false).  Layout is left to dot.
 */
#include "solver/dot.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/afile.h"
#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/readback.h"

static int drawn(const struct execution *x, int e)
{
	const struct event *ev = &x->enc->ev[e];
	return x->on[e] && ev->thread >= 0 && ev->addr != NULL;
}

static void label(const struct execution *x, int e, FILE *out)
{
	/* the event as printed in text, with quotes escaped */
	char *buf = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&buf, &len);
	execution_print_event(x, e, s);
	fclose(s);
	for (char *p = buf; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	free(buf);
}

static void edges(const struct execution *x, rel_t r, const char *name,
		  const char *color, int only_ext, FILE *out)
{
	const struct encoding *enc = x->enc;
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++) {
			if (a == b || !drawn(x, a) || !drawn(x, b))
				continue;
			if (only_ext && enc->ev[a].thread == enc->ev[b].thread)
				continue;
			if (execution_in(x, r, a, b))
				fprintf(out, "  e%d -> e%d [label=\"%s\", color=%s, fontcolor=%s, constraint=false];\n",
					a, b, name, color, color);
		}
}

void dot_print(const struct execution *x, const struct lkmm *m, FILE *out)
{
	const struct encoding *enc = x->enc;
	const struct ir_program *p = enc->prog;
	fprintf(out, "digraph \"%s\" {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n"
		"  edge [fontsize=8, arrowsize=0.8];\n", p->name);
	for (int t = 0; t < p->nthreads; t++) {
		fprintf(out, "  subgraph cluster_P%d {\n    label=\"P%d\";\n", t, t);
		int prev = -1;
		for (int e = 0; e < enc->n; e++) {
			if (enc->ev[e].thread != t || !drawn(x, e))
				continue;
			fprintf(out, "    e%d [label=\"", e);
			label(x, e, out);
			fputs("\"];\n", out);
			if (prev >= 0)
				fprintf(out, "    e%d -> e%d [label=\"po\", color=black];\n", prev, e);
			prev = e;
		}
		fputs("  }\n", out);
	}
	for (int r = 0; r < enc->n; r++) {
		int w = x->rf_src[r];
		if (w >= 0 && drawn(x, r) && drawn(x, w))
			fprintf(out, "  e%d -> e%d [label=\"rf\", color=red, fontcolor=red, constraint=false];\n", w, r);
	}
	/* co and fr: only immediate steps, so the picture stays readable */
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++) {
			if (!drawn(x, b) || !execution_in(x, enc->co, a, b))
				continue;
			int immediate = 1;
			for (int c = 0; c < enc->n && immediate; c++)
				if (execution_in(x, enc->co, a, c) && execution_in(x, enc->co, c, b))
					immediate = 0;
			if (!immediate)
				continue;
			if (drawn(x, a))
				fprintf(out, "  e%d -> e%d [label=\"co\", color=blue, fontcolor=blue, constraint=false];\n", a, b);
			for (int r = 0; r < enc->n; r++)
				if (drawn(x, r) && x->rf_src[r] == a && r != b)
					fprintf(out, "  e%d -> e%d [label=\"fr\", color=orange, fontcolor=orange, constraint=false];\n", r, b);
		}
	edges(x, m->rel[LR_HB].r, "hb", "indigo", 1, out);
	edges(x, m->rel[LR_MB].r, "mb", "darkgreen", 0, out);
	edges(x, m->rel[LR_WMB].r, "wmb", "darkgreen", 0, out);
	edges(x, m->rel[LR_RMB].r, "rmb", "darkgreen", 0, out);
	fputs("}\n", out);
}

/* Render the picture to SVG with graphviz's dot (run without a shell):
 * the Graphviz text goes to dot's stdin from an unnamed temporary file,
 * and what dot prints is copied to svg here, so that a write error on svg
 * (a full disk) is seen. */
static int dot_to_svg(const struct execution *x, const struct lkmm *m, FILE *svg)
{
	FILE *in = tmpfile();
	int p[2];
	if (!in)
		return 0;
	dot_print(x, m, in);
	if (fflush(in) || fseek(in, 0, SEEK_SET) || pipe(p)) {
		fclose(in);
		return 0;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	char *argv[] = {"dot", "-Tsvg", NULL};
	pid_t pid;
	int err = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	fclose(in);
	int ok = !err;
	char buf[8192];
	ssize_t n;
	while (!err && ((n = read(p[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0 && fwrite(buf, 1, (size_t)n, svg) != (size_t)n)
			ok = 0;
	close(p[0]);
	int st = 0;
	while (!err && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int dot_write(const struct execution *x, const struct lkmm *m, const char *path,
	      int svg)
{
	/* Whole or not at all: a temporary name renamed once complete. */
	struct afile a;
	FILE *f = afile_open(&a, path);
	if (!f)
		return 0;
	if (svg && !dot_to_svg(x, m, f)) {
		afile_discard(&a);
		return 0;
	}
	if (!svg)
		dot_print(x, m, f);
	return afile_commit(&a);
}
