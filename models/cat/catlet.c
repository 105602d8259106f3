/*
 * catlet.c - let and let rec bindings of the cat compiler.  A plain let
 * binds each value (lazily after the model's eager compilation); a let rec
 * is the least fixpoint of its bodies, as Horn variables over the may-
 * pattern of the fixpoint when the bodies are monotone and the site need
 * not be exact, else as Kleene stages from the empty relation (see
 * catcomp.c's first comment for when each is exact).
 */
#include "models/cat/catcomp_int.h"

#include <string.h>

#include "common/arena.h"

/* A plain let: each value (a lazy binding after the model's eager
 * compilation, see struct comp), then the names bound together. */
static int let_plain(struct comp *c, const struct cat_binding *b, int n)
{
	struct val **vals = arena_alloc(c->a, sizeof *vals * (size_t)n);
	for (int i = 0; i < n; i++) {
		if (c->lazy && b[i].e->kind != CE_FUN) {
			vals[i] = cc_vnew(c, VK_LAZY);
			vals[i]->lazy = b[i].e;
			vals[i]->lenv = c->env;
			vals[i]->lfile = c->file;
		} else if (!(vals[i] = cc_eval(c, b[i].e))) {
			return 0;
		}
	}
	for (int i = 0; i < n; i++)
		cc_bind(c, b[i].name, vals[i]);
	return 1;
}

/* A let rec being solved: its bindings and two stages of their values. */
struct letrec {
	const struct cat_binding *b; /* the bindings */
	int n;                       /* how many */
	struct env *outer;           /* the environment around the let rec */
	struct val **cur;            /* this stage's values, one per binding */
	struct val **nxt;            /* the next stage's */
	uint64_t bit;                /* the let rec's approximation site */
};

static void swap_stages(struct letrec *lr)
{
	struct val **t = lr->cur;
	lr->cur = lr->nxt;
	lr->nxt = t;
}

/* The outer environment with the names bound to this stage's values. */
static void bind_cur(struct comp *c, const struct letrec *lr)
{
	c->env = lr->outer;
	for (int i = 0; i < lr->n; i++)
		cc_bind(c, lr->b[i].name, lr->cur[i]);
}

/* The bodies evaluated with the names bound to cur, into nxt (0 after
 * an error, with the outer environment back). */
static int jacobi_stage(struct comp *c, struct letrec *lr)
{
	bind_cur(c, lr);
	for (int i = 0; i < lr->n; i++)
		if (!(lr->nxt[i] = cc_eval(c, lr->b[i].e))) {
			c->env = lr->outer;
			return 0;
		}
	return 1;
}

/* Whether no body of the next stage may be smaller than its true value
 * through this let rec (then it is monotone in it). */
static int monotone(const struct letrec *lr)
{
	int m = 1;
	for (int i = 0; i < lr->n; i++)
		m &= !(lr->nxt[i]->under & lr->bit);
	return m;
}

/* Fresh Horn variables on every entry binding i's next stage or this
 * one can have; *grew is set when the next stage has an entry this one
 * has not.  NULL and an error when the binding is not an event set or
 * a relation, or changes kind. */
static struct val *horn_vars(struct comp *c, struct letrec *lr, int i, int *grew)
{
	struct rel_ctx *rc = c->rc;
	struct val *v = lr->nxt[i], *o = lr->cur[i], *h;
	const char *name = lr->b[i].name;
	if (v->k == VK_SET) {
		h = cc_vset(c, set_new(rc), v->over | lr->bit, v->under);
		for (int x = 0; x < rc->n; x++) {
			int was = o->k == VK_SET && o->s[x];
			if (v->s[x] || was)
				h->s[x] = rel_fresh_bool(rc, name);
			*grew |= v->s[x] && !was;
		}
	} else if (v->k == VK_REL) {
		h = cc_vrel(c, rel_new(rc), v->over | lr->bit, v->under);
		size_t nn = (size_t)rc->n * (size_t)rc->n;
		for (size_t x = 0; x < nn; x++) {
			int was = o->k == VK_REL && o->r[x];
			if (v->r[x] || was)
				h->r[x] = rel_fresh_bool(rc, name);
			*grew |= v->r[x] && !was;
		}
	} else if (v->k == VK_EMPTY) {
		h = v;
	} else {
		c->env = lr->outer;
		cc_err(c, lr->b[i].e, "type error: let rec %s is %s", name, cc_kind_name(v->k));
		return NULL;
	}
	if (o->k != VK_EMPTY && o->k != h->k && h->k != VK_EMPTY) {
		c->env = lr->outer;
		cc_err(c, lr->b[i].e, "type error: let rec %s changes kind", name);
		return NULL;
	}
	return h;
}

/* The let rec as Horn variables: stage until the entries that can be
 * non-false (the may-pattern of the fixpoint) stop growing, with fresh
 * Horn variables on them, then one rule per entry from the bodies.
 * 1: bound; 0: a body is not monotone, Kleene stages needed; -1: error. */
static int letrec_horn(struct comp *c, struct letrec *lr)
{
	struct rel_ctx *rc = c->rc;
	for (int round = 0;; round++) {
		if (!jacobi_stage(c, lr))
			return -1;
		int grew = 0;
		for (int i = 0; i < lr->n; i++)
			if (!(lr->nxt[i] = horn_vars(c, lr, i, &grew)))
				return -1;
		if (round > 0 && !monotone(lr))
			return 0;
		swap_stages(lr);
		if (!grew && round > 0)
			break;
	}
	/* cur: Horn variables on the final pattern */
	if (!jacobi_stage(c, lr))
		return -1;
	if (!monotone(lr))
		return 0;
	for (int i = 0; i < lr->n; i++) {
		struct val *v = lr->nxt[i], *h = lr->cur[i];
		if (v->k == VK_SET) {
			for (int x = 0; x < rc->n; x++)
				if (v->s[x] && h->s[x])
					rel_horn(rc, v->s[x], h->s[x]);
		} else if (v->k == VK_REL) {
			size_t nn = (size_t)rc->n * (size_t)rc->n;
			for (size_t x = 0; x < nn; x++)
				if (v->r[x] && h->r[x])
					rel_horn(rc, v->r[x], h->r[x]);
		}
	}
	bind_cur(c, lr);
	return 1;
}

/* One Kleene stage into nxt, each binding computed from the latest values
 * (the earlier bindings of the same stage), as herd7 does: the bell's
 * non-monotone rcu-rscs needs that order.  With name_rels, a variable per
 * non-constant pair of a relation, so that stages do not nest formulas
 * (constant stages still compare equal).  0 after an error. */
static int kleene_stage(struct comp *c, struct letrec *lr, int name_rels)
{
	bind_cur(c, lr);
	for (int i = 0; i < lr->n; i++) {
		struct val **v = &lr->nxt[i];
		if (!(*v = cc_eval(c, lr->b[i].e))) {
			c->env = lr->outer;
			return 0;
		}
		if (name_rels && (*v)->k == VK_REL)
			*v = cc_vrel(c, rel_name(c->rc, (*v)->r, lr->b[i].name),
				     (*v)->over, (*v)->under);
		cc_bind(c, lr->b[i].name, *v);
	}
	return 1;
}

/* Whether the next stage equals this one (*same), and how many entries it
 * may have (*pairs); clears the let rec's site from the next stage's
 * marks.  0 and an error when a binding is not a set or relation. */
static int compare_stages(struct comp *c, struct letrec *lr, int *same, int *pairs)
{
	struct rel_ctx *rc = c->rc;
	for (int i = 0; i < lr->n; i++) {
		struct val *v = lr->nxt[i], *o = lr->cur[i];
		v->over &= ~lr->bit;
		v->under &= ~lr->bit;
		if (v->k == VK_SET) {
			for (int x = 0; x < rc->n; x++) {
				*pairs += v->s[x] != NULL;
				*same &= o->k == VK_SET ? o->s[x] == v->s[x] : !v->s[x];
			}
		} else if (v->k == VK_REL) {
			size_t nn = (size_t)rc->n * (size_t)rc->n;
			for (size_t x = 0; x < nn; x++) {
				*pairs += v->r[x] != NULL;
				*same &= o->k == VK_REL ? o->r[x] == v->r[x] : !v->r[x];
			}
		} else if (v->k != VK_EMPTY) {
			c->env = lr->outer;
			return cc_err(c, lr->b[i].e, "type error: let rec %s is %s",
				      lr->b[i].name, cc_kind_name(v->k));
		} else {
			*same &= o->k == VK_EMPTY;
		}
	}
	return 1;
}

/* The let rec as Kleene stages from the empty relation: until a stage
 * changes nothing, or as many stages as it has possible pairs (an
 * increasing chain adds one a stage at least); for the violation build
 * (c->stages), that many stages and whether one more would change them
 * (c->unconverged). */
static int letrec_kleene(struct comp *c, struct letrec *lr, const struct cat_expr *at)
{
	int limit = -1;
	for (int stage = 0;; stage++) {
		int same = 1, pairs = 0;
		if (!kleene_stage(c, lr, 1) || !compare_stages(c, lr, &same, &pairs))
			return 0;
		swap_stages(lr);
		if (same)
			break;
		if (c->stages > 0 && stage + 1 >= c->stages) {
			/* would one more stage change anything? */
			struct val **last = arena_alloc(c->a, sizeof *last * (size_t)lr->n);
			memcpy(last, lr->cur, sizeof *last * (size_t)lr->n);
			if (!kleene_stage(c, lr, 0))
				return 0;
			for (int i = 0; i < lr->n; i++)
				c->unconverged = rel_or2(c->rc, c->unconverged,
							 cc_val_differs(c, last[i], lr->nxt[i]));
			break;
		}
		if (limit < 0 || pairs + 1 > limit)
			limit = pairs + 1;
		if (stage >= limit)
			break;
		if (stage > 200) {
			c->env = lr->outer;
			return cc_err(c, at, "unsupported: let rec needs more than 200 stages here");
		}
	}
	bind_cur(c, lr);
	return 1;
}

int cc_let_bindings(struct comp *c, const struct cat_binding *b, int n, int rec,
		    int site, const struct cat_expr *at)
{
	if (!rec)
		return let_plain(c, b, n);
	for (int i = 0; i < n; i++)
		if (b[i].e->kind == CE_FUN)
			return cc_err(c, b[i].e, "unsupported: a recursive function (let rec %s)",
				      b[i].name);
	struct letrec lr = {.b = b, .n = n, .outer = c->env};
	lr.cur = arena_alloc(c->a, sizeof *lr.cur * (size_t)n);
	lr.nxt = arena_alloc(c->a, sizeof *lr.nxt * (size_t)n);
	for (int i = 0; i < n; i++)
		lr.cur[i] = cc_vnew(c, VK_EMPTY);
	lr.bit = cc_site_bit(site);
	if (!cc_site_exact(c, site) && c->stages <= 0) {
		int bound = letrec_horn(c, &lr);
		if (bound != 0)
			return bound > 0;
		for (int i = 0; i < n; i++)
			lr.cur[i] = cc_vnew(c, VK_EMPTY);
		/* Not monotone: Kleene stages whatever the test.  The eager
		 * compilation says so for the tests' (a test's empty sets can
		 * hide the non-monotone part, as no Rcu-lock does the bell's
		 * rcu-rscs; Horn variables then and a second compilation when
		 * a flag finds them too large). */
		if (!c->lazy)
			c->bad |= lr.bit;
	}
	return letrec_kleene(c, &lr, at);
}
