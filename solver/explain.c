/*
 * explain.c - minimal forbidding axioms and their cycles; see explain.h.
 *
 * A cycle (or a pair) is first found in the concrete relations of one
 * execution (the axiom's own edges), then each edge is written as steps in
 * the model's named relations as the model's data says (models/lkmm.h:
 * each relation's ways, the label relations; the built-in model's are in
 * models/lkmm_shape.c); with none, a step is labelled by the most specific
 * label relation holding, else by the axiom's own relation.  This file
 * knows no relation by name.  The self-check re-evaluates each step's
 * relation in the execution and checks that the steps join up, before
 * anything is kept.
 */
#include "solver/explain.h"
#include "solver/explanation.h"

#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/readback.h"
#include "solver/problem.h"
#include "common/check.h"
#include "common/xalloc.h"

struct step {
	int from, to;       /* events */
	int rel;            /* the named relation the step is in (rel[]) */
	int fence;          /* the fence (or RMW) event doing the work, or -1 */
};

struct expl {
	const struct encoding *enc;   /* the test */
	const struct lkmm *m;         /* its model */
	struct execution *x;          /* the execution explained */
	struct step *steps;           /* expansion of the current cycle */
	int nsteps, cap;
};

static int in(const struct expl *ex, int r, int a, int b)
{
	return execution_in(ex->x, ex->m->rel[r].r, a, b);
}

static void push(struct expl *ex, int a, int b, int r, int fence)
{
	XGROW(ex->steps, ex->cap, ex->nsteps + 1, 16);
	ex->steps[ex->nsteps++] = (struct step){a, b, r, fence};
}

/* The event a step (a, b) of label l rests on, or -1. */
static int fence_of(const struct expl *ex, const struct model_label *l, int a, int b)
{
	switch (l->at) {
	case MF_NONE: return -1;
	case MF_SOURCE: return a;
	case MF_TARGET: return b;
	case MF_BETWEEN: break;
	}
	const struct encoding *enc = ex->enc;
	for (int f = a + 1; f < b; f++)
		if (ex->x->on[f] && enc->ev[f].thread == enc->ev[a].thread &&
		    (enc->ev[f].cls & l->cls))
			return f;
	return -1;
}

/* The first of the model's label relations holding on (a, b), or -1. */
static int first_label(const struct expl *ex, int a, int b)
{
	for (int l = 0; l < ex->m->nlabels; l++)
		if (in(ex, ex->m->label[l].rel, a, b))
			return l;
	return -1;
}

/* A single step (a, b) labelled by the most specific relation holding. */
static int label(struct expl *ex, int a, int b)
{
	int l = first_label(ex, a, b);
	if (l < 0)
		return 0;
	const struct model_label *lb = &ex->m->label[l];
	push(ex, a, b, lb->rel, fence_of(ex, lb, a, b));
	return 1;
}

/* Breadth-first path from src to dst over the concrete edges of r (at least
 * min_len steps); fills path[0..len] and returns len, or -1. */
static int bfs(const struct expl *ex, rel_t r, rel_t r2, int src, int dst,
	       int min_len, int *path)
{
	int n = ex->enc->n;
	int *prev = xmalloc(sizeof(int) * (size_t)n);
	int *queue = xmalloc(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; i++)
		prev[i] = -2;
	int head = 0, tail = 0, found = -1;
	/* Seed with the successors of src so that a cycle (src == dst) works. */
	for (int v = 0; v < n; v++)
		if (execution_in(ex->x, r, src, v) || (r2 && execution_in(ex->x, r2, src, v))) {
			if (v == dst && min_len <= 1) {
				found = v;
				prev[v] = src;
				break;
			}
			if (prev[v] == -2) {
				prev[v] = src;
				queue[tail++] = v;
			}
		}
	while (found < 0 && head < tail) {
		int u = queue[head++];
		for (int v = 0; v < n && found < 0; v++) {
			if (!(execution_in(ex->x, r, u, v) || (r2 && execution_in(ex->x, r2, u, v))))
				continue;
			if (v == dst) {
				found = v;
				if (v != src)
					prev[v] = u;
				else
					prev[v] = u; /* closes the cycle */
			} else if (prev[v] == -2) {
				prev[v] = u;
				queue[tail++] = v;
			}
		}
	}
	int len = -1;
	if (found >= 0) {
		int tmp[4096], k = 0;
		int v = dst;
		tmp[k++] = v;
		do {
			v = prev[v];
			tmp[k++] = v;
		} while (v != src && k < 4095);
		len = k - 1;
		for (int i = 0; i < k; i++)
			path[i] = tmp[k - 1 - i];
	}
	free(prev);
	free(queue);
	return len;
}

static int expand(struct expl *ex, int rel, int a, int b);

/* Whether part p of a way joins a to b with one edge. */
static int part_holds(const struct expl *ex, const struct model_part *p, int a, int b)
{
	return p->kind == MP_LABEL ? first_label(ex, a, b) >= 0 : in(ex, p->rel, a, b);
}

/* Way w's parts between the chosen points pt[0..nparts] (skip: an
 * optional part left out) written as steps, a star part as a shortest
 * path; 0 (steps undone) if a part does not hold or cannot be written. */
static int write_way(struct expl *ex, const struct model_way *w, const int *pt,
		     const int *skip)
{
	for (int i = 0; i < w->nparts; i++)
		if (!skip[i] && w->part[i].kind != MP_STAR &&
		    !part_holds(ex, &w->part[i], pt[i], pt[i + 1]))
			return 0;
	int mark = ex->nsteps, ok = 1;
	for (int i = 0; ok && i < w->nparts; i++) {
		const struct model_part *p = &w->part[i];
		if (skip[i])
			continue;
		if (p->kind == MP_LABEL) {
			ok = label(ex, pt[i], pt[i + 1]);
		} else if (p->kind == MP_STAR) {
			int *path = xmalloc(sizeof(int) * (size_t)(ex->enc->n + 1) * 2);
			int len = pt[i] == pt[i + 1] ? 0
				: bfs(ex, ex->m->rel[p->rel].r, NULL, pt[i], pt[i + 1], 1, path);
			ok = len >= 0;
			for (int k = 0; ok && k < len; k++)
				ok = expand(ex, p->rel, path[k], path[k + 1]);
			free(path);
		} else {
			ok = expand(ex, p->rel, pt[i], pt[i + 1]);
		}
	}
	if (!ok)
		ex->nsteps = mark;
	return ok;
}

/* Which part picks a point, and from which end: a part left of the star
 * (or any but the last, without one) its end from its start, one right
 * of it its start from its end. */
struct pick {
	int part, left;
};

/* The points of way w, picked in order from pick[k] on (an optional part
 * skipped first, then each event in order), then written; 0 if no choice
 * is written. */
static int choose(struct expl *ex, const struct model_way *w, const struct pick *pick,
		  int npick, int k, int *pt, int *skip)
{
	if (k == npick)
		return write_way(ex, w, pt, skip);
	int i = pick[k].part, left = pick[k].left;
	const struct model_part *p = &w->part[i];
	int fixed = left ? pt[i] : pt[i + 1], *point = left ? &pt[i + 1] : &pt[i];
	if (p->kind == MP_OPT) {
		skip[i] = 1;
		*point = fixed;
		if (choose(ex, w, pick, npick, k + 1, pt, skip))
			return 1;
		skip[i] = 0;
	}
	for (int c = 0; c < ex->enc->n; c++)
		if (left ? part_holds(ex, p, fixed, c) : part_holds(ex, p, c, fixed)) {
			*point = c;
			if (choose(ex, w, pick, npick, k + 1, pt, skip))
				return 1;
		}
	return 0;
}

/* Edge (a, b) written by way w; 0 if it cannot be. */
static int way(struct expl *ex, const struct model_way *w, int a, int b)
{
	int n = w->nparts, star = -1, npick = 0;
	int pt[MODEL_MAX_PARTS + 1], skip[MODEL_MAX_PARTS] = {0};
	struct pick pick[MODEL_MAX_PARTS];
	for (int i = 0; i < n; i++)
		if (w->part[i].kind == MP_STAR)
			star = i;
	pt[0] = a;
	pt[n] = b;
	for (int i = 0; i < (star >= 0 ? star : n - 1); i++)
		pick[npick++] = (struct pick){i, 1};
	for (int i = n - 1; star >= 0 && i > star; i--)
		pick[npick++] = (struct pick){i, 0};
	return choose(ex, w, pick, npick, 0, pt, skip);
}

/* Edge (a, b) of relation rel written as steps: by the first of its ways
 * that can, or as one step labelled by the first label relation holding,
 * else by rel itself; 0 if none of its ways can. */
static int expand(struct expl *ex, int rel, int a, int b)
{
	const struct model_rel *r = &ex->m->rel[rel];
	for (int w = 0; w < r->nways; w++)
		if (way(ex, &r->ways[w], a, b))
			return 1;
	if (r->nways)
		return 0;
	if (!r->self && label(ex, a, b))
		return 1;
	push(ex, a, b, rel, -1);
	return 1;
}

/* A cycle of an acyclic axiom with parts: through an edge of its first
 * part, continuing in any of them; each edge written under the first part
 * that contains it. */
static int cycle_through(struct expl *ex, const struct model_axiom *ax)
{
	const struct lkmm *m = ex->m;
	struct rel_ctx rc_copy = ex->enc->rc;
	int strict = ax->parts[0];
	rel_t all = m->rel[strict].r;
	for (int i = 1; i < ax->nparts; i++)
		all = rel_union(&rc_copy, all, m->rel[ax->parts[i]].r);
	int n = ex->enc->n;
	int *path = xmalloc(sizeof(int) * (size_t)(n + 1) * 2);
	int ok = 0;
	for (int u = 0; u < n && !ok; u++)
		for (int v = 0; v < n && !ok; v++) {
			if (!in(ex, strict, u, v))
				continue;
			int len = u == v ? 0 : bfs(ex, all, NULL, v, u, 1, path);
			if (len < 0)
				continue;
			ex->nsteps = 0;
			ok = expand(ex, strict, u, v);
			for (int i = 0; ok && i < len; i++) {
				int a = path[i], b = path[i + 1], r = strict;
				for (int w = 1; w < ax->nparts && !in(ex, r, a, b); w++)
					if (in(ex, ax->parts[w], a, b))
						r = ax->parts[w];
				ok = expand(ex, r, a, b);
			}
		}
	free(path);
	return ok;
}

/* A shortest cycle of relation rel through the first event on one. */
static int shortest_cycle(struct expl *ex, int rel)
{
	int n = ex->enc->n, ok = 0;
	int *path = xmalloc(sizeof(int) * (size_t)(n + 1) * 2);
	for (int e = 0; e < n && !ok; e++) {
		int len = ex->x->on[e] ? bfs(ex, ex->m->rel[rel].r, NULL, e, e, 1, path) : -1;
		if (len < 1)
			continue;
		ex->nsteps = 0;
		ok = 1;
		for (int k = 0; ok && k < len; k++)
			ok = expand(ex, rel, path[k], path[k + 1]);
	}
	free(path);
	return ok;
}

/* The first pair of relation rel (the diagonal first) that can be written
 * as steps; *closed: it is on the diagonal. */
static int first_pair(struct expl *ex, int rel, int *closed)
{
	int n = ex->enc->n;
	for (int pass = 0; pass < 2; pass++)
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				if ((pass || a == b) && in(ex, rel, a, b)) {
					ex->nsteps = 0;
					if (expand(ex, rel, a, b)) {
						*closed = a == b;
						return 1;
					}
				}
	return 0;
}

/* The self-check: each step is in its relation, and the steps form a
 * closed walk (or, for a pair, a walk from its first to its last event). */
static int self_check(const struct expl *ex, int closed)
{
	if (ex->nsteps == 0)
		return 0;
	for (int i = 0; i < ex->nsteps; i++) {
		const struct step *s = &ex->steps[i];
		if (!in(ex, s->rel, s->from, s->to))
			return 0;
		if (i > 0 && ex->steps[i - 1].to != s->from)
			return 0;
	}
	return !closed || ex->steps[ex->nsteps - 1].to == ex->steps[0].from;
}

/* Event e of x as data, without its source. */
static struct check_event event_data(const struct execution *x, int e)
{
	struct check_event d;
	execution_record_event(x, e, &d);
	return d;
}

/* The steps found, as data, into a. */
static void keep_steps(const struct expl *ex, struct explanation_axiom *a)
{
	a->from = ex->steps[0].from;
	a->from_event = event_data(ex->x, a->from);
	for (int i = 0; i < ex->nsteps; i++) {
		const struct step *s = &ex->steps[i];
		const struct event *f = s->fence >= 0 ? &ex->enc->ev[s->fence] : NULL;
		explanation_step_add(a, ex->m->rel[s->rel].name,
				     !f ? NULL : f->instr && f->instr->text ? f->instr->text : "?",
				     f && f->instr ? f->instr->pos.line : 0, s->to,
				     event_data(ex->x, s->to));
	}
}

/* Explain in a how axiom ax fails in the execution: a cycle of its
 * relation (acyclic), or a pair in it (irreflexive, empty). */
static void explain_axiom(struct expl *ex, const struct model_axiom *ax,
			  struct explanation_axiom *a)
{
	if (ax->rel < 0) {
		a->status = EXPLAINED_NO_RELATION;
		return;
	}
	int ok, closed = 1;
	const char *what = ax->what;
	ex->nsteps = 0;
	if (ax->kind == MC_ACYCLIC) {
		what = what ? what : "cycle";
		ok = ax->nparts ? cycle_through(ex, ax) : shortest_cycle(ex, ax->rel);
	} else {
		what = what ? what : "forbidden pair";
		ok = first_pair(ex, ax->rel, &closed);
	}
	if (!ok || !self_check(ex, closed)) {
		a->status = EXPLAINED_SELF_CHECK;
		return;
	}
	a->status = EXPLAINED_SHOWN;
	a->what = xstrdup(what);
	keep_steps(ex, a);
}

static Z3_lbool check_with(Z3_context z, Z3_solver s, Z3_ast *lits, int k)
{
	return problem_check(z, s, (unsigned)k, lits);
}

/* The minimal core of the axioms lit[idx[0..k)] (with as[0], the
 * condition's literal, assumed): start from all, drop each that is not
 * needed (deletion-based minimisation over Z3's core); in_core[a] set for
 * axiom a in it.  as: room for k + 1 literals.  0 if the condition is
 * reached with all of them or the solver gave up. */
static int minimal_core(Z3_context z, Z3_solver s, Z3_ast *as, const Z3_ast *lit,
			const int *idx, int k, int *in_core)
{
	for (int i = 0; i < k; i++)
		as[i + 1] = lit[idx[i]];
	if (check_with(z, s, as, k + 1) != Z3_L_FALSE)
		return 0;
	Z3_ast_vector core = Z3_solver_get_unsat_core(z, s);
	Z3_ast_vector_inc_ref(z, core);
	for (unsigned c = 0; c < Z3_ast_vector_size(z, core); c++)
		for (int i = 0; i < k; i++)
			if (Z3_is_eq_ast(z, Z3_ast_vector_get(z, core, c), lit[idx[i]]))
				in_core[idx[i]] = 1;
	Z3_ast_vector_dec_ref(z, core);
	for (int i = 0; i < k; i++) {
		int a = idx[i];
		if (!in_core[a])
			continue;
		in_core[a] = 0;
		int na = 1;
		for (int j = 0; j < k; j++)
			if (in_core[idx[j]])
				as[na++] = lit[idx[j]];
		if (check_with(z, s, as, na) != Z3_L_FALSE)
			in_core[a] = 1; /* needed */
	}
	return 1;
}

struct explanation *explain_never(const struct encoding *enc, const struct lkmm *m,
				  Z3_solver s, Z3_ast cond, struct execution **keep)
{
	struct explanation *e = xcalloc(1, sizeof *e);
	Z3_context z = enc->z;
	struct rel_ctx rc = enc->rc; /* for fresh names only */
	int nax = m->naxioms;
	Z3_ast *lit = xcalloc((size_t)nax + 1, sizeof *lit);
	int *idx = xcalloc((size_t)nax + 1, sizeof *idx), k = 0;
	Z3_ast cond_lit = rel_fresh_bool(&rc, "condition");
	Z3_solver_assert(z, s, Z3_mk_implies(z, cond_lit, cond));
	for (int a = 0; a < nax; a++) {
		Z3_ast holds = m->axiom[a].holds;
		if (!holds || rel_is_true(&rc, holds))
			continue;
		lit[a] = rel_fresh_bool(&rc, m->axiom[a].name);
		Z3_solver_assert(z, s, Z3_mk_implies(z, lit[a], holds));
		idx[k++] = a;
	}
	Z3_ast *as = xmalloc(sizeof(Z3_ast) * (size_t)(nax + 1));
	int *in_core = xcalloc((size_t)nax + 1, sizeof *in_core);
	as[0] = cond_lit;
	if (!minimal_core(z, s, as, lit, idx, k, in_core)) {
		free(as);
		free(lit);
		free(idx);
		free(in_core);
		return e;
	}
	/* The core's axioms, none explained yet (NO_EXECUTION until one is
	 * found: what a time-out cuts short stays so). */
	e->found = 1;
	for (int i = 0; i < k; i++)
		if (in_core[idx[i]])
			explanation_add(e, m->axiom[idx[i]].name, EXPLAINED_NO_EXECUTION);

	struct expl ex = {.enc = enc, .m = m};
	for (int i = 0, done = 0; i < k; i++) {
		int a = idx[i];
		if (!in_core[a])
			continue;
		struct explanation_axiom *ea = &e->axiom[done++];
		/* All other axioms hold if possible, else the rest of the core. */
		int na = 1;
		for (int j = 0; j < k; j++)
			if (idx[j] != a)
				as[na++] = lit[idx[j]];
		Z3_lbool r = check_with(z, s, as, na);
		if (r != Z3_L_TRUE) {
			na = 1;
			for (int j = 0; j < k; j++)
				if (idx[j] != a && in_core[idx[j]])
					as[na++] = lit[idx[j]];
			r = check_with(z, s, as, na);
		}
		if (r != Z3_L_TRUE)
			continue;
		Z3_model model = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, model);
		ex.x = execution_new(enc, model);
		explain_axiom(&ex, &m->axiom[a], ea);
		ea->execution = xcalloc(1, sizeof *ea->execution);
		execution_record(ex.x, ea->execution);
		if (keep && !*keep) {
			*keep = ex.x; /* the caller releases it and its model */
		} else {
			execution_free(ex.x);
			Z3_model_dec_ref(z, model);
		}
	}
	free(ex.steps);
	free(as);
	free(lit);
	free(idx);
	free(in_core);
	return e;
}
