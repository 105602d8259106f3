/*
 * explain.c - minimal forbidding axioms and their cycles; see explain.h.
 *
 * A cycle is first found in the concrete relations of one execution (the
 * axiom's own edges), then each edge is expanded into the named relations
 * of linux-kernel.cat that produce it (rfe, fre, a fence with its source
 * line, prop's overwrite ; cumul-fence* ; rfe? path, ...).  The expansion is
 * a list of steps; the self-check re-evaluates each step's relation in the
 * execution and checks that the steps join up, before anything is printed.
 * With a model read from cat files the axioms are the cat's (their "as"
 * names): a cycle of an acyclic axiom's relation, or a pair of an empty or
 * irreflexive one, each edge labelled by the most specific of the cat's
 * relations that explanations know by name (rfe, ppo, ...), else by the
 * axiom's own relation.
 */
#include "solver/explain.h"

#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/readback.h"
#include "solver/problem.h"
#include "common/xalloc.h"

struct step {
	int from, to;       /* events */
	enum lkmm_rel rel;  /* the named relation the step is in */
	int fence;          /* the fence (or RMW) event doing the work, or -1 */
	rel_t own;          /* a read model's axiom relation the step is in
			     * instead of rel (NULL: rel) */
	const char *own_name; /* its name */
};

struct expl {
	const struct encoding *enc;   /* the test */
	const struct lkmm *m;         /* its model */
	struct execution *x;          /* the execution explained */
	struct step *steps;           /* expansion of the current cycle */
	int nsteps, cap;
	int failed;                   /* an edge could not be expanded */
};

static int in(const struct expl *ex, enum lkmm_rel r, int a, int b)
{
	return execution_in(ex->x, ex->m->rel[r], a, b);
}

static void push(struct expl *ex, int a, int b, enum lkmm_rel r, int fence)
{
	XGROW(ex->steps, ex->cap, ex->nsteps + 1, 16);
	ex->steps[ex->nsteps++] = (struct step){a, b, r, fence, NULL, NULL};
}

/* The event a fence relation between a and b rests on: for po-rel the
 * release b, for acq-po the acquire a, otherwise the first event of the
 * given classes strictly between them in program order. */
static int fence_between(const struct expl *ex, int a, int b, enum lkmm_rel r,
			 unsigned long cls)
{
	if (r == LR_PO_REL)
		return b;
	if (r == LR_ACQ_PO)
		return a;
	const struct encoding *enc = ex->enc;
	for (int f = a + 1; f < b; f++)
		if (ex->x->on[f] && enc->ev[f].thread == enc->ev[a].thread &&
		    (enc->ev[f].cls & cls))
			return f;
	return -1;
}

/* A single step (a, b) labelled by the most specific relation holding. */
static int single(struct expl *ex, int a, int b)
{
	static const struct {
		enum lkmm_rel rel;
		unsigned long fence;
	} order[] = {
		{LR_RFE, 0}, {LR_FRE, 0}, {LR_COE, 0}, {LR_RFI, 0}, {LR_FRI, 0},
		{LR_COI, 0}, {LR_RMW, 0}, {LR_ADDR, 0}, {LR_DATA, 0}, {LR_CTRL, 0},
		{LR_MB, EVC_BIT(EVC_MB) | EVC_BIT(EVC_BEFORE_ATOMIC) |
			EVC_BIT(EVC_AFTER_ATOMIC) | EVC_BIT(EVC_AFTER_SPINLOCK) |
			EVC_BIT(EVC_AFTER_UNLOCK_LOCK)},
		{LR_GP, EVC_BIT(EVC_SYNC_RCU) | EVC_BIT(EVC_SYNC_SRCU)},
		{LR_RCU_FENCE, 0},
		{LR_WMB, EVC_BIT(EVC_WMB)}, {LR_RMB, EVC_BIT(EVC_RMB)},
		{LR_PO_REL, EVC_BIT(EVC_RELEASE) | EVC_BIT(EVC_UL)},
		{LR_ACQ_PO, EVC_BIT(EVC_ACQUIRE) | EVC_BIT(EVC_LKR)},
		{LR_PO_UNLOCK_LOCK_PO, EVC_BIT(EVC_UL)},
		{LR_PO_LOC, 0}, {LR_FENCE, 0}, {LR_PPO, 0},
	};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (in(ex, order[i].rel, a, b)) {
			int f = order[i].fence
				? fence_between(ex, a, b, order[i].rel, order[i].fence) : -1;
			push(ex, a, b, order[i].rel, f);
			return 1;
		}
	return 0;
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

/* cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
 * po-unlock-lock-po) ; [Marked], A-cumul(r) = (rfe ; [Marked])? ; r */
static int expand_cumul_fence(struct expl *ex, int a, int b)
{
	if (single(ex, a, b))
		return 1;
	for (int c = 0; c < ex->enc->n; c++)
		if (in(ex, LR_RFE, a, c) && single(ex, c, b)) {
			/* single() pushed (c, b); put rfe before it */
			struct step last = ex->steps[--ex->nsteps];
			push(ex, a, c, LR_RFE, -1);
			ex->steps[ex->nsteps++] = last;
			return 1;
		}
	return 0;
}

/* prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ; [Marked] ; rfe? */
static int expand_prop(struct expl *ex, int a, int c)
{
	int n = ex->enc->n;
	int *path = xmalloc(sizeof(int) * (size_t)(n + 1) * 2);
	int ok = 0;
	for (int x0 = -1; x0 < n && !ok; x0++) {
		int x = x0 < 0 ? a : x0;
		if (x0 >= 0 && !in(ex, LR_OVERWRITE_EXT, a, x))
			continue;
		for (int y0 = -1; y0 < n && !ok; y0++) {
			int y = y0 < 0 ? c : y0;
			if (y0 >= 0 && !in(ex, LR_RFE, y, c))
				continue;
			int len = x == y ? 0 : bfs(ex, ex->m->rel[LR_CUMUL_FENCE], NULL, x, y, 1, path);
			if (len < 0)
				continue;
			int mark = ex->nsteps;
			if (x0 >= 0)
				ok = single(ex, a, x);
			else
				ok = 1;
			for (int i = 0; ok && i < len; i++)
				ok = expand_cumul_fence(ex, path[i], path[i + 1]);
			if (ok && y0 >= 0)
				push(ex, y, c, LR_RFE, -1);
			if (!ok)
				ex->nsteps = mark;
		}
	}
	free(path);
	return ok;
}

/* pb-head = prop ; strong-fence, rb-head = prop ; rcu-fence */
static int expand_head(struct expl *ex, int a, int b, enum lkmm_rel fence)
{
	for (int c = 0; c < ex->enc->n; c++) {
		if (!in(ex, LR_PROP, a, c) || !in(ex, fence, c, b))
			continue;
		int mark = ex->nsteps;
		if (expand_prop(ex, a, c) && single(ex, c, b))
			return 1;
		ex->nsteps = mark;
	}
	return 0;
}

/* An hb edge: ppo | rfe | ((prop \ id) & int) */
static int expand_hb(struct expl *ex, int a, int b)
{
	if (single(ex, a, b))
		return 1;
	return expand_prop(ex, a, b);
}

static int expand_edge(struct expl *ex, int a, int b, enum lkmm_rel r)
{
	switch (r) {
	case LR_HB: return expand_hb(ex, a, b);
	case LR_PB: return expand_head(ex, a, b, LR_STRONG_FENCE);
	case LR_RB: return expand_head(ex, a, b, LR_RCU_FENCE);
	default: return single(ex, a, b);
	}
}

/* A cycle through an edge of strict, continuing in strict | weak; each edge
 * is expanded under the first of the relations that contains it. */
static int find_cycle(struct expl *ex, enum lkmm_rel strict, const enum lkmm_rel *weak,
		      int nweak)
{
	const struct lkmm *m = ex->m;
	struct rel_ctx rc_copy = ex->enc->rc;
	rel_t all = m->rel[strict];
	for (int i = 0; i < nweak; i++)
		all = rel_union(&rc_copy, all, m->rel[weak[i]]);
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
			ok = expand_edge(ex, u, v, strict);
			for (int i = 0; ok && i < len; i++) {
				int a = path[i], b = path[i + 1];
				enum lkmm_rel r = strict;
				if (!in(ex, strict, a, b))
					for (int w = 0; w < nweak; w++)
						if (in(ex, weak[w], a, b)) {
							r = weak[w];
							break;
						}
				ok = expand_edge(ex, a, b, r);
			}
		}
	free(path);
	return ok;
}

/* The self-check: each step is in its relation, and the steps form a
 * closed walk (or, for a pair, a walk from its first to its last event). */
static int self_check(const struct expl *ex, int closed)
{
	if (ex->nsteps == 0)
		return 0;
	for (int i = 0; i < ex->nsteps; i++) {
		const struct step *s = &ex->steps[i];
		if (s->own ? !execution_in(ex->x, s->own, s->from, s->to)
			   : !in(ex, s->rel, s->from, s->to))
			return 0;
		if (i > 0 && ex->steps[i - 1].to != s->from)
			return 0;
	}
	return !closed || ex->steps[ex->nsteps - 1].to == ex->steps[0].from;
}

static void print_steps(const struct expl *ex, FILE *out)
{
	fputs("    ", out);
	execution_print_event(ex->x, ex->steps[0].from, out);
	fputc('\n', out);
	for (int i = 0; i < ex->nsteps; i++) {
		const struct step *s = &ex->steps[i];
		fprintf(out, "      --[%s", s->own ? s->own_name : lkmm_rel_name(s->rel));
		if (s->fence >= 0) {
			const struct event *f = &ex->enc->ev[s->fence];
			fprintf(out, ": %s line %d", f->instr && f->instr->text ? f->instr->text : "?",
				f->instr ? f->instr->pos.line : 0);
		}
		fputs("]--> ", out);
		execution_print_event(ex->x, s->to, out);
		fputc('\n', out);
	}
}

/* The acyclic axioms: the cycle goes through an edge of rel and continues
 * in rel | inner (find_cycle's strict and weak). */
struct axiom_cycle {
	enum lkmm_axiom axiom;		/* the axiom */
	const char *what;		/* what its explanation shows */
	enum lkmm_rel rel;		/* the relation that must be acyclic */
	const enum lkmm_rel *inner;	/* relations the cycle may also use */
	int ninner;			/* how many of them */
};

/* The cycle that breaks acyclic axiom a; NULL for the other axioms. */
static const struct axiom_cycle *axiom_cycle(enum lkmm_axiom a)
{
	static const enum lkmm_rel hb_pb[] = {LR_HB, LR_PB};
	static const struct axiom_cycle cycles[] = {
		{AX_COHERENCE, "cycle", LR_COM, NULL, 0},
		{AX_HAPPENS_BEFORE, "hb cycle", LR_HB, NULL, 0},
		{AX_PROPAGATION, "pb cycle", LR_PB, hb_pb, 1},
		{AX_RCU, "rb cycle", LR_RB, hb_pb, 2},
	};
	for (size_t c = 0; c < sizeof cycles / sizeof cycles[0]; c++)
		if (cycles[c].axiom == a)
			return &cycles[c];
	return NULL;
}

/* The atomic axiom's violation: a read r of an rmw, an external write c
 * it is fr-before and the rmw's write w coe-after c; 0 if none. */
static int find_atomic_violation(struct expl *ex)
{
	int n = ex->enc->n;
	for (int r = 0; r < n; r++)
		for (int w = 0; w < n; w++) {
			if (!in(ex, LR_ATOMIC_VIOLATION, r, w))
				continue;
			for (int c = 0; c < n; c++)
				if (in(ex, LR_FRE, r, c) && in(ex, LR_COE, c, w)) {
					push(ex, r, c, LR_FRE, -1);
					push(ex, c, w, LR_COE, -1);
					return 1;
				}
		}
	return 0;
}

/* plain-coherence's forbidden pair; 0 if none. */
static int find_plain_incoherence(struct expl *ex)
{
	int n = ex->enc->n;
	for (int p = 0; p < n; p++)
		for (int q = 0; q < n; q++)
			if (in(ex, LR_PLAIN_INCOH, p, q)) {
				push(ex, p, q, LR_PLAIN_INCOH, -1);
				return 1;
			}
	return 0;
}

/* Explain how axiom a fails in the execution; 0 if the check fails. */
static int explain_axiom(struct expl *ex, enum lkmm_axiom a, FILE *out)
{
	const struct axiom_cycle *cycle = axiom_cycle(a);
	int ok, closed = 1;
	const char *what;
	ex->nsteps = 0;
	if (cycle) {
		what = cycle->what;
		ok = find_cycle(ex, cycle->rel, cycle->inner, cycle->ninner);
	} else if (a == AX_ATOMIC) {
		what = "rmw & (fre ; coe)";
		closed = 0;
		ok = find_atomic_violation(ex);
	} else {
		what = "forbidden pair";
		closed = 0;
		ok = find_plain_incoherence(ex);
	}
	if (!ok || !self_check(ex, closed)) {
		fprintf(out, "  %s: internal error: the explanation failed its self-check\n",
			lkmm_axiom_name(a));
		return 0;
	}
	fprintf(out, "  %s %s:\n", lkmm_axiom_name(a), what);
	print_steps(ex, out);
	return 1;
}

/* A step (a, b) of a read model's axiom relation r named name: labelled
 * by the most specific named relation of the cat holding (single()), else
 * by r itself. */
static void own_step(struct expl *ex, int a, int b, rel_t r, const char *name)
{
	if (single(ex, a, b))
		return;
	push(ex, a, b, LR_PPO, -1);
	ex->steps[ex->nsteps - 1].own = r;
	ex->steps[ex->nsteps - 1].own_name = name;
}

/* Explain how axiom i of a model read from cat files fails: a cycle of
 * its relation (acyclic), or a pair in it, the diagonal first
 * (irreflexive, empty); 0 if the check fails. */
static int explain_cat_axiom(struct expl *ex, int i, FILE *out)
{
	const struct lkmm *m = ex->m;
	const char *name = m->cat_axiom_name[i];
	rel_t r = m->cat_acyclic[i];
	int n = ex->enc->n, ok = 0, closed = 1;
	const char *what = "cycle";
	ex->nsteps = 0;
	if (r) {
		int *path = xmalloc(sizeof(int) * (size_t)(n + 2));
		for (int e = 0; e < n && !ok; e++) {
			int len = ex->x->on[e] ? bfs(ex, r, NULL, e, e, 1, path) : -1;
			if (len < 1)
				continue;
			for (int k = 0; k < len; k++)
				own_step(ex, path[k], path[k + 1], r, name);
			ok = 1;
		}
		free(path);
	} else if ((r = m->cat_checked ? m->cat_checked[i] : NULL)) {
		what = "forbidden pair";
		closed = 0;
		for (int pass = 0; pass < 2 && !ok; pass++)
			for (int a = 0; a < n && !ok; a++)
				for (int b = 0; b < n && !ok; b++)
					if ((pass || a == b) && execution_in(ex->x, r, a, b)) {
						own_step(ex, a, b, r, name);
						closed = a == b;
						ok = 1;
					}
	} else {
		fprintf(out, "  %s: violated (a check lkmmc shows no relation of)\n", name);
		return 1;
	}
	if (!ok || !self_check(ex, closed)) {
		fprintf(out, "  %s: internal error: the explanation failed its self-check\n", name);
		return 0;
	}
	fprintf(out, "  %s %s:\n", name, what);
	print_steps(ex, out);
	return 1;
}

static Z3_lbool check_with(Z3_context z, Z3_solver s, Z3_ast *lits, int k)
{
	return problem_check(z, s, (unsigned)k, lits);
}

/* The model's axioms: the built-in ones (AX_*) or a read model's. */
static int naxioms(const struct lkmm *m)
{
	return m->ncat_axioms ? m->ncat_axioms : AX_COUNT;
}
static Z3_ast axiom(const struct lkmm *m, int a)
{
	return m->ncat_axioms ? m->cat_axiom[a] : m->axiom[a];
}
static const char *axiom_name(const struct lkmm *m, int a)
{
	return m->ncat_axioms ? m->cat_axiom_name[a] : lkmm_axiom_name((enum lkmm_axiom)a);
}

int explain_never(const struct encoding *enc, const struct lkmm *m,
		  Z3_solver s, Z3_ast cond, FILE *out, struct execution **keep)
{
	Z3_context z = enc->z;
	struct rel_ctx rc = enc->rc; /* for fresh names only */
	int nax = naxioms(m);
	Z3_ast *lit = xcalloc((size_t)nax + 1, sizeof *lit);
	int *idx = xcalloc((size_t)nax + 1, sizeof *idx), k = 0;
	Z3_ast cond_lit = rel_fresh_bool(&rc, "condition");
	Z3_solver_assert(z, s, Z3_mk_implies(z, cond_lit, cond));
	for (int a = 0; a < nax; a++) {
		if (!axiom(m, a) || rel_is_true(&rc, axiom(m, a)))
			continue;
		lit[a] = rel_fresh_bool(&rc, axiom_name(m, a));
		Z3_solver_assert(z, s, Z3_mk_implies(z, lit[a], axiom(m, a)));
		idx[k++] = a;
	}
	/* The minimal core: start from all axioms, drop each that is not
	 * needed (deletion-based minimisation over Z3's core). */
	Z3_ast *as = xmalloc(sizeof(Z3_ast) * (size_t)(nax + 1));
	int *in_core = xcalloc((size_t)nax + 1, sizeof *in_core);
	as[0] = cond_lit;
	for (int i = 0; i < k; i++)
		as[i + 1] = lit[idx[i]];
	if (check_with(z, s, as, k + 1) != Z3_L_FALSE) {
		fputs("Explanation: none (the condition is reachable or the solver gave up)\n", out);
		free(as);
		free(lit);
		free(idx);
		free(in_core);
		return 0;
	}
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
	fputs("Explanation: the condition is never reached because of", out);
	for (int i = 0; i < k; i++)
		if (in_core[idx[i]])
			fprintf(out, " %s", axiom_name(m, idx[i]));
	fputc('\n', out);

	int ok = 1;
	struct expl ex = {.enc = enc, .m = m};
	for (int i = 0; i < k; i++) {
		int a = idx[i];
		if (!in_core[a])
			continue;
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
		if (r != Z3_L_TRUE) {
			fprintf(out, "  %s: no execution found violating only it\n",
				axiom_name(m, a));
			ok = 0;
			continue;
		}
		Z3_model model = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, model);
		ex.x = execution_new(enc, model);
		ok &= m->ncat_axioms ? explain_cat_axiom(&ex, a, out)
				     : explain_axiom(&ex, (enum lkmm_axiom)a, out);
		fputs("  in this execution (which reaches the condition):\n", out);
		execution_print(ex.x, out);
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
	return ok;
}
