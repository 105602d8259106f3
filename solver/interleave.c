/*
 * interleave.c - a program's execution as one sequence of steps; see
 * interleave.h for the order chosen and why a weak execution has no
 * interleaving.
 */
#include "solver/interleave.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/readback.h"

/* The order being built over the executed events of the threads. */
struct order {
	const struct execution *x; /* the execution */
	int k;                     /* how many steps */
	int *ev;                   /* per step: its event; by thread, then po */
	unsigned char *reach;      /* k*k: step i is listed before step j */
	int skipped;               /* po/rf/co/fr edges left out (a cycle) */
};

static unsigned char *at(const struct order *o, int i, int j)
{
	return &o->reach[(size_t)i * (size_t)o->k + (size_t)j];
}

/* Put step a before step b, keeping reach transitive; 0 when b is
 * already before a (the edge would close a cycle). */
static int add(struct order *o, int a, int b)
{
	if (a == b || *at(o, b, a))
		return 0;
	if (*at(o, a, b))
		return 1;
	for (int i = 0; i < o->k; i++) {
		if (i != a && !*at(o, i, a))
			continue;
		for (int j = 0; j < o->k; j++)
			if (j == b || *at(o, b, j))
				*at(o, i, j) = 1;
	}
	return 1;
}

/* Add the pairs of steps in r (NULL: none); with counted, a pair left out
 * makes the order something other than an interleaving.  same_loc: only
 * pairs on one location can be in r (co, fr), the others are not asked. */
static void add_rel(struct order *o, rel_t r, int counted, int same_loc)
{
	const struct execution *x = o->x;
	int n = x->enc->n;
	if (!r)
		return;
	for (int i = 0; i < o->k; i++)
		for (int j = 0; j < o->k; j++) {
			int a = o->ev[i], b = o->ev[j];
			if (i == j || !REL_AT(r, n, a, b) ||
			    (same_loc && x->loc[a] != x->loc[b]))
				continue;
			if (execution_holds(x, REL_AT(r, n, a, b)) && !add(o, i, j))
				o->skipped += counted;
		}
}

static int by_thread_po(const void *pa, const void *pb, void *enc_)
{
	const struct encoding *enc = enc_;
	const struct event *a = &enc->ev[*(const int *)pa];
	const struct event *b = &enc->ev[*(const int *)pb];
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return (a->po > b->po) - (a->po < b->po);
}

/* The steps and their order; returns the listing order (k entries). */
static int *build(struct order *o, const struct lkmm *m)
{
	const struct execution *x = o->x;
	const struct encoding *enc = x->enc;
	o->ev = xmalloc(sizeof(int) * (size_t)(enc->n ? enc->n : 1));
	o->k = 0;
	for (int e = 0; e < enc->n; e++)
		if (x->on[e] && enc->ev[e].thread >= 0)
			o->ev[o->k++] = e;
	qsort_r(o->ev, (size_t)o->k, sizeof(int), by_thread_po, (void *)enc);
	o->reach = xcalloc((size_t)o->k * (size_t)o->k + 1, 1);
	int *step = xmalloc(sizeof(int) * (size_t)(enc->n ? enc->n : 1));
	for (int e = 0; e < enc->n; e++)
		step[e] = -1;
	for (int i = 0; i < o->k; i++)
		step[o->ev[i]] = i;
	/* the model's executes-before order: acyclic, never left out */
	static const enum lkmm_rel xb[] = {LR_HB, LR_PB, LR_RB};
	for (size_t r = 0; m && r < sizeof xb / sizeof xb[0]; r++)
		add_rel(o, m->rel[xb[r]].r, 0, 0);
	/* program order, then rf, co, fr where they fit */
	for (int i = 0; i + 1 < o->k; i++)
		if (enc->ev[o->ev[i]].thread == enc->ev[o->ev[i + 1]].thread &&
		    !add(o, i, i + 1))
			o->skipped++;
	for (int i = 0; i < o->k; i++) {
		int w = x->rf_src[o->ev[i]];
		if (w >= 0 && step[w] >= 0 && !add(o, step[w], i))
			o->skipped++;
	}
	add_rel(o, enc->co, 1, 1);
	add_rel(o, enc->fr, 1, 1);
	free(step);

	/* Kahn's algorithm on the closure: a step is ready when every step
	 * before it is listed. */
	int *list = xmalloc(sizeof(int) * (size_t)(o->k ? o->k : 1));
	int *preds = xcalloc((size_t)(o->k ? o->k : 1), sizeof(int));
	unsigned char *done = xcalloc((size_t)(o->k ? o->k : 1), 1);
	for (int i = 0; i < o->k; i++)
		for (int j = 0; j < o->k; j++)
			preds[j] += *at(o, i, j);
	int last = -1;
	for (int p = 0; p < o->k; p++) {
		int pick = -1;
		for (int i = 0; i < o->k; i++) {
			if (done[i] || preds[i])
				continue;
			if (pick < 0)
				pick = i;
			if (enc->ev[o->ev[i]].thread == last) {
				pick = i;
				break;
			}
		}
		if (pick < 0)
			abort(); /* reach is acyclic: some step is always ready */
		done[pick] = 1;
		list[p] = pick;
		last = enc->ev[o->ev[pick]].thread;
		for (int j = 0; j < o->k; j++)
			preds[j] -= *at(o, pick, j);
	}
	free(preds);
	free(done);
	return list;
}

static int line_of(const struct event *ev)
{
	return ev->instr ? ev->instr->pos.line : 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The marks of step list[p]: what an interleaving would not do. */
static void marks(const struct order *o, const int *list, int p, FILE *out)
{
	const struct execution *x = o->x;
	const struct encoding *enc = x->enc;
	int i = list[p], e = o->ev[i];
	const struct event *ev = &enc->ev[e];
	/* a read missing the last write to its location listed before it */
	if (x->rf_src[e] >= 0 && (ev->cls & EVC_BIT(EVC_R))) {
		int w = x->rf_src[e], miss = -1;
		for (int q = 0; q < p; q++) {
			int f = o->ev[list[q]];
			if (f != w && f != e && x->loc[f] == x->loc[e] &&
			    (enc->ev[f].cls & EVC_BIT(EVC_W)) &&
			    REL_AT(enc->co, enc->n, w, f) &&
			    execution_holds(x, REL_AT(enc->co, enc->n, w, f)))
				miss = f;
		}
		if (miss >= 0) {
			fprintf(out, "; not yet visible: P%d line %d's ",
				enc->ev[miss].thread, line_of(&enc->ev[miss]));
			execution_print_value(x, x->val[miss], out);
		}
	}
	/* listed before a step of its thread that precedes it in po */
	for (int q = p + 1; q < o->k; q++) {
		int f = o->ev[list[q]];
		if (enc->ev[f].thread == ev->thread && enc->ev[f].po < ev->po) {
			fprintf(out, "  [out of program order: before line %d]",
				line_of(&enc->ev[f]));
			break;
		}
	}
	/* a write listed after one that follows it in coherence order */
	if (ev->cls & EVC_BIT(EVC_W))
		for (int q = 0; q < p; q++) {
			int f = o->ev[list[q]];
			if (x->loc[f] == x->loc[e] && REL_AT(enc->co, enc->n, e, f) &&
			    execution_holds(x, REL_AT(enc->co, enc->n, e, f))) {
				fprintf(out, "  [before P%d line %d's write in "
					"coherence order]", enc->ev[f].thread,
					line_of(&enc->ev[f]));
				break;
			}
		}
}

/* "reads x = 1 (from P0 line 18)", "writes x = 1", or nothing. */
static void effect(const struct execution *x, int e, FILE *out)
{
	const struct encoding *enc = x->enc;
	const struct event *ev = &enc->ev[e];
	const char *loc = x->loc[e] >= 0 ? enc->prog->locs[x->loc[e]].name : "?";
	if (!ev->addr || !ev->val || (ev->cls & EVC_BIT(EVC_F)))
		return;
	if (ev->cls & EVC_BIT(EVC_R)) {
		fprintf(out, "reads %s = ", loc);
		execution_print_value(x, x->val[e], out);
		int w = x->rf_src[e];
		if (w < 0)
			return;
		if (enc->ev[w].thread < 0)
			fputs(" (the initial value)", out);
		else
			fprintf(out, " (from P%d line %d)", enc->ev[w].thread,
				line_of(&enc->ev[w]));
	} else if (ev->cls & EVC_BIT(EVC_W)) {
		fprintf(out, "writes %s = ", loc);
		execution_print_value(x, x->val[e], out);
	}
}

void interleave_print(const struct execution *x, const struct lkmm *m, FILE *out)
{
	const struct encoding *enc = x->enc;
	const struct ir_program *p = enc->prog;
	struct order o = {.x = x};
	int *list = build(&o, m);
	const char *file = base_name(p->file);
	if (p->thread_fn) {
		fputs("  threads:", out);
		for (int t = 0; t < p->nthreads; t++)
			fprintf(out, "%s P%d = %s", t ? "," : "", t, p->thread_fn[t]);
		fputc('\n', out);
	}
	if (!o.skipped)
		fputs("  as an interleaving (each read reads the latest write "
		      "listed before it):\n", out);
	else
		fprintf(out, "  no interleaving gives this execution (it is not "
			"sequentially consistent);\n  the steps in %s,\n  marked "
			"where an interleaving would differ:\n",
			m ? "the model's executes-before order "
			"(hb | pb | rb; then po, rf, co, fr where they fit)"
			: "an order of po, rf, co and fr");
	/* column widths: "P1 prog.c:24" and the statement */
	int w1 = 0, w2 = 0;
	for (int i = 0; i < o.k; i++) {
		const struct event *ev = &enc->ev[o.ev[i]];
		int a = snprintf(NULL, 0, "P%d %s:%d", ev->thread, file, line_of(ev));
		int b = ev->instr && ev->instr->text ? (int)strlen(ev->instr->text) : 0;
		w1 = a > w1 ? a : w1;
		w2 = b > w2 ? b : w2;
	}
	w2 = w2 > 40 ? 40 : w2;
	for (int q = 0; q < o.k; q++) {
		int e = o.ev[list[q]];
		const struct event *ev = &enc->ev[e];
		char where[512], *line = NULL;
		size_t len = 0;
		FILE *l = open_memstream(&line, &len);
		if (!l)
			abort();
		snprintf(where, sizeof where, "P%d %s:%d", ev->thread, file, line_of(ev));
		fprintf(l, "    %-*s  %-*s  ", w1, where, w2,
			ev->instr && ev->instr->text ? ev->instr->text : "");
		effect(x, e, l);
		marks(&o, list, q, l);
		fclose(l);
		while (len && line[len - 1] == ' ')
			len--;
		fprintf(out, "%.*s\n", (int)len, line);
		free(line);
	}
	fputs("  final state:", out);
	for (int l = 0; l < p->nlocs; l++) {
		fprintf(out, " %s=", p->locs[l].name);
		execution_print_value(x, execution_eval(x, enc->final_loc[l]), out);
	}
	fputc('\n', out);
	free(list);
	free(o.ev);
	free(o.reach);
}

void interleave_show(const struct execution *x, const struct lkmm *m, int listing,
		     FILE *out)
{
	if (!x->enc->prog->is_program) {
		execution_print(x, out);
		return;
	}
	interleave_print(x, m, out);
	if (listing) {
		fputs("  per thread:\n", out);
		execution_print(x, out);
	}
}
