/*
 * cateval.c - evaluation of cat expressions over one encoding: variables
 * (lazy bindings forced on first use), the operators, closures, let,
 * try, if and fun, and "a ; b" building of b only what a can reach.
 * Function application and the library are catlib.c's.
 */
#include "models/cat/catcomp_int.h"

#include <string.h>

#include "common/arena.h"

static int has_variant(const struct comp *c, const char *name)
{
	for (int i = 0; i < c->m->nvariants; i++)
		if (strcmp(c->m->variants[i], name) == 0)
			return 1;
	return 0;
}


/* [S] ; E for a let binding "name = E" not evaluated yet, where S holds
 * the events x can end at: x ; name is then x ; ([S] ; E), and only the
 * rows of S are built.  A later use needing other rows adds just those
 * ([S1 | S2] ; E = [S1] ; E | [S2] ; E); a first use needing every row
 * evaluates the binding whole, for all its uses. */
static struct val *rows_of(struct comp *c, struct val *binding, rel_t x)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n, nwant = 0;
	set_t want = set_new(rc);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n && !want[j]; i++)
			if (REL_AT(x, n, i, j))
				want[j] = rc->t;
	struct rows *old = NULL;
	for (int k = 0; k < c->nrows && !old; k++)
		if (c->rows[k].binding == binding)
			old = &c->rows[k];
	for (int j = 0; j < n; j++) {
		if (old && old->from[j])
			want[j] = NULL; /* built already */
		nwant += want[j] != NULL;
	}
	if (!nwant)
		return old->value;
	if (!old && nwant == n)
		return cc_force(c, binding);
	struct env *saved = c->env;
	const char *file = c->file;
	c->env = binding->lenv;
	c->file = binding->lfile;
	struct val *v = cc_seq_with(c, binding->lazy, cc_vrel(c, rel_id(rc, want), 0, 0),
				 binding->lazy);
	c->env = saved;
	c->file = file;
	if (!v || v->k != VK_REL)
		return v;
	if (!old) {
		c->rows = arena_grow(c->a, c->rows, sizeof *c->rows, (size_t)c->nrows,
				     (size_t)c->nrows + 1);
		old = &c->rows[c->nrows++];
		*old = (struct rows){.binding = binding, .from = want, .value = v};
		return v;
	}
	for (int j = 0; j < n; j++)
		if (want[j])
			old->from[j] = rc->t;
	old->value = cc_vrel(c, rel_union(rc, old->value->r, v->r), old->value->over | v->over,
			  old->value->under | v->under);
	return old->value;
}

/*
 * x ; b, building of b only what x can reach (after the model's eager
 * compilation, see struct comp): b* only the rows of x's range
 * (cc_seq_star), b1 ; b2 as (x ; b1) ; b2 (with two closures in a row
 * folded by cc_seq_stars), and a let-bound sequence only the
 * rows of the events x can end at (rows_of: the LKMM's rcu-link, entered
 * only from grace periods and critical-section ends).  Each is the same
 * relation as x ; b built whole.  at: an "a ; b" expression, for errors.
 */
struct val *cc_seq_with(struct comp *c, const struct cat_expr *at, struct val *x,
			    const struct cat_expr *b)
{
	struct rel_ctx *rc = c->rc;
	if (c->lazy && cc_static_empty(c, x))
		/* (b is not built) */
		return x->k == VK_REL ? cc_vrel(c, rel_new(rc), 0, 0) : cc_unknown_contents(c, x);
	if (b->kind == CE_STAR && !cc_site_exact(c, b->site))
		return cc_seq_star(c, at, x, b);
	if (c->lazy && x->k == VK_REL && b->kind == CE_SEQ) {
		if (b->b->kind == CE_STAR && b->a->kind == CE_STAR)
			return cc_seq_stars(c, b, x, b->a, b->b);
		if (b->b->kind == CE_STAR && b->a->kind == CE_SEQ && b->a->b->kind == CE_STAR) {
			struct val *xk = cc_seq_with(c, b->a, x, b->a->a);
			return xk ? cc_seq_stars(c, b, xk, b->a->b, b->b) : NULL;
		}
		struct val *xa = cc_seq_with(c, b, x, b->a);
		return xa ? cc_seq_with(c, b, xa, b->b) : NULL;
	}
	if (c->lazy && x->k == VK_REL && b->kind == CE_VAR) {
		struct val *v = cc_lookup(c->env, b->name);
		if (v && v->k == VK_LAZY && v->lazy->kind == CE_SEQ) {
			struct val *r = rows_of(c, v, x->r);
			if (!r || r->k != VK_REL)
				return r ? cc_binop(c, at, x, r) : NULL;
			return cc_vrel(c, rel_seq(rc, x->r, r->r), x->over | r->over,
				    x->under | r->under);
		}
	}
	struct val *y = cc_eval(c, b);
	return y ? cc_binop(c, at, x, y) : NULL;
}

/* The value of a binding, evaluated on first use when it was bound
 * lazily (in its own environment and file), then kept. */
struct val *cc_force(struct comp *c, struct val *v)
{
	if (v->k != VK_LAZY)
		return v;
	struct env *saved = c->env;
	const char *file = c->file;
	c->env = v->lenv;
	c->file = v->lfile;
	struct val *x = cc_eval(c, v->lazy);
	c->env = saved;
	c->file = file;
	if (!x)
		return NULL;
	*v = *x;
	return v;
}

/* Statically empty: no pair or event can be in it. */
int cc_static_empty(const struct comp *c, const struct val *v)
{
	size_t n = v->k == VK_REL ? (size_t)c->rc->n * (size_t)c->rc->n
		 : v->k == VK_SET ? (size_t)c->rc->n : 0;
	const Z3_ast *a = v->k == VK_REL ? v->r : v->s;
	if (v->k == VK_EMPTY)
		return 1;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (a[i])
			return 0;
	return 1;
}

/* ~x: the complement of an event set or a relation (its marks swap). */
static struct val *eval_compl(struct comp *c, const struct cat_expr *e)
{
	struct rel_ctx *rc = c->rc;
	struct val *x = cc_eval(c, e->a);
	if (!x)
		return NULL;
	if (x->k == VK_SET || x->k == VK_EMPTY) {
		set_t s = cc_as_set(c, e->a, x);
		return cc_vset(c, set_diff(rc, set_all(rc), s), x->under, x->over);
	}
	if (x->k == VK_REL)
		return cc_vrel(c, rel_diff(rc, rel_cross(rc, set_all(rc), set_all(rc)), x->r),
			       x->under, x->over);
	return cc_err(c, e, "type error: ~ needs an event set or a relation, found %s",
		      cc_kind_name(x->k)), NULL;
}

/* r^-1, r?, r*, r+ */
static struct val *eval_postfix(struct comp *c, const struct cat_expr *e)
{
	struct rel_ctx *rc = c->rc;
	int failed = 0;
	struct val *x = NULL;
	if ((e->kind == CE_STAR || e->kind == CE_PLUS) && (x = cc_plus_over_order(c, e, &failed)))
		return x;
	x = failed ? NULL : cc_eval(c, e->a);
	if (!x)
		return NULL;
	if (x->k == VK_EMPTY && (e->kind == CE_INV || e->kind == CE_PLUS))
		return x;
	rel_t r = cc_as_rel(c, e->a, x);
	if (!r)
		return NULL;
	uint64_t over = x->over, under = x->under;
	/* r? r* r+ contain r; r^-1 contains rf^-1 when r contains rf */
	unsigned has = x->contains;
	switch (e->kind) {
	case CE_INV:
		r = rel_inv(rc, r);
		has = (x->contains & HAS_RF ? HAS_RF_INV : 0) |
		      (x->contains & HAS_RF_INV ? HAS_RF : 0);
		break;
	case CE_OPT: r = rel_opt(rc, r); break;
	default:
		if (x->transitive) {
			/* already its own closure */
		} else {
			int exact = cc_site_exact(c, e->site);
			/* (walks through the factors' middle events: catstar.c) */
			r = !exact && x->nfac ? cc_plus_walks(c, x, cc_site_bit(e->site), &over)
					      : cc_closure(c, r, exact, e->site, &over);
		}
		if (e->kind == CE_STAR)
			r = rel_opt(rc, r);
	}
	struct val *v = cc_containing(cc_vrel(c, r, over, under), has);
	/* r^-1 swaps where its pairs lie, r+ keeps it (r? and r* hold
	 * every event's pair with itself) */
	v->dom = e->kind == CE_INV ? x->rng : e->kind == CE_PLUS ? x->dom : NULL;
	v->rng = e->kind == CE_INV ? x->dom : e->kind == CE_PLUS ? x->rng : NULL;
	return v;
}

/* (e1, ..., ek) */
static struct val *eval_tuple(struct comp *c, const struct cat_expr *e)
{
	struct val *v = cc_vnew(c, VK_TUPLE);
	v->nitems = e->nitems;
	v->items = arena_alloc(c->a, sizeof *v->items * (size_t)(e->nitems + 1));
	for (int i = 0; i < e->nitems; i++)
		if (!(v->items[i] = cc_eval(c, e->items[i])))
			return NULL;
	return v;
}

/* {e1, ..., ek} of events (each represented by its set): the union; of
 * tags: tags (only in instructions) */
static struct val *eval_setlit(struct comp *c, const struct cat_expr *e)
{
	struct rel_ctx *rc = c->rc;
	struct val *u = NULL, *x;
	for (int i = 0; i < e->nitems; i++) {
		if (!(x = cc_eval(c, e->items[i])))
			return NULL;
		if (x->k == VK_TAG)
			return x;
		if (x->k != VK_SET)
			return cc_err(c, e->items[i], "unsupported: a set literal of %s",
				      cc_kind_name(x->k)), NULL;
		u = u ? cc_vset(c, set_union(rc, u->s, x->s), u->over | x->over,
				u->under | x->under) : x;
	}
	return u;
}

struct val *cc_eval(struct comp *c, const struct cat_expr *e)
{
	struct rel_ctx *rc = c->rc;
	struct val *x, *y;
	switch (e->kind) {
	case CE_VAR:
		x = cc_lookup(c->env, e->name);
		if (!x)
			cc_err(c, e, "unknown name '%s'", e->name);
		return x ? cc_force(c, x) : NULL;
	case CE_EMPTY: case CE_EMPTYSET:
		return cc_vnew(c, VK_EMPTY);
	case CE_UNIV:
		return cc_vset(c, set_all(rc), 0, 0);
	case CE_TAG:
		x = cc_vnew(c, VK_TAG);
		return x;
	case CE_STRING:
		return cc_err(c, e, "unsupported: a string as a value"), NULL;
	case CE_SEQ:
		if (e->b->kind == CE_STAR && e->a->kind == CE_SEQ && e->a->b->kind == CE_STAR) {
			/* k ; p* ; q* */
			x = cc_eval(c, e->a->a);
			return x ? cc_seq_stars(c, e, x, e->a->b, e->b) : NULL;
		}
		x = cc_eval(c, e->a);
		return x ? cc_seq_with(c, e, x, e->b) : NULL;
	case CE_INTER: case CE_DIFF:
		/* b only where a can hold (catwithin.c); nothing of it when
		 * a is statically empty */
		return cc_eval_and_within(c, e, NULL, NULL);
	case CE_UNION: case CE_CROSS: case CE_ADD:
		if (!(x = cc_eval(c, e->a)))
			return NULL;
		if (!(y = cc_eval(c, e->b)))
			return NULL;
		return cc_binop(c, e, x, y);
	case CE_COMPL:
		return eval_compl(c, e);
	case CE_INV: case CE_OPT: case CE_STAR: case CE_PLUS:
		return eval_postfix(c, e);
	case CE_BRACKET: {
		if (!(x = cc_eval(c, e->a)))
			return NULL;
		set_t s = cc_as_set(c, e->a, x);
		if (!s)
			return NULL;
		y = cc_vrel(c, rel_id(rc, s), x->over, x->under);
		y->ident = y->dom = y->rng = s;
		return y;
	}
	case CE_APP:
		if (!(x = cc_eval(c, e->a)) || !(y = cc_eval(c, e->b)))
			return NULL;
		return cc_apply(c, e, x, y);
	case CE_TUPLE:
		return eval_tuple(c, e);
	case CE_SETLIT:
		return eval_setlit(c, e);
	case CE_LET: {
		struct env *saved = c->env;
		if (!cc_let_bindings(c, e->binds, e->nbinds, e->rec, e->site, e))
			return NULL;
		x = cc_eval(c, e->a);
		c->env = saved;
		return x;
	}
	case CE_TRY: {
		struct diag *d = c->d, d2 = {0};
		c->d = &d2;
		x = cc_eval(c, e->a);
		c->d = d;
		return x ? x : cc_eval(c, e->b);
	}
	case CE_IF:
		return cc_eval(c, has_variant(c, e->name) ? e->a : e->b);
	case CE_FUN:
		x = cc_vnew(c, VK_FUN);
		x->fun = e;
		x->fenv = c->env;
		return x;
	}
	return cc_err(c, e, "internal error: unknown expression"), NULL;
}
