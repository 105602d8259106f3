/*
 * catval.c - the cat compiler's values: making them, the environment of
 * names, type conversions and errors, closures, and the binary operators.
 * What a value is and what its over/under/contains marks mean: struct val
 * and enum contains in catcomp_int.h, and catcomp.c's first comment.
 */
#include "models/cat/catcomp_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"

uint64_t cc_site_bit(int site) { return site >= 0 && site < 64 ? 1ull << site : 0; }
int cc_site_exact(const struct comp *c, int site)
{
	return site >= 64 || (c->exact & cc_site_bit(site));
}

struct val *cc_vnew(struct comp *c, enum vk k)
{
	struct val *v = arena_alloc(c->a, sizeof *v);
	v->k = k;
	return v;
}
/* A new value of kind k with the marks over and under. */
static struct val *vmarked(struct comp *c, enum vk k, uint64_t over, uint64_t under)
{
	struct val *v = cc_vnew(c, k);
	v->over = over;
	v->under = under;
	return v;
}
struct val *cc_vset(struct comp *c, set_t s, uint64_t over, uint64_t under)
{
	struct val *v = vmarked(c, VK_SET, over, under);
	v->s = s;
	return v;
}
struct val *cc_vrel(struct comp *c, rel_t r, uint64_t over, uint64_t under)
{
	struct val *v = vmarked(c, VK_REL, over, under);
	v->r = r;
	return v;
}

/* What "a ; b" contains, given what a and b do (enum contains). */
unsigned cc_seq_contains(unsigned a, unsigned b)
{
	return ((a & HAS_RF_INV) && (b & HAS_CO) ? HAS_FR : 0) |
	       ((a & (HAS_FR | HAS_FRE)) && (b & (HAS_CO | HAS_COE)) ? HAS_FRE_COE : 0);
}

/* What the relation "a & b" contains. */
unsigned cc_inter_contains(unsigned a, unsigned b)
{
	unsigned both = a & b;
	if (((a & HAS_RMW) && (b & HAS_FRE_COE)) || ((b & HAS_RMW) && (a & HAS_FRE_COE)))
		both |= HAS_ATOMIC;
	if (((a & HAS_FR) && (b & HAS_EXT)) || ((b & HAS_FR) && (a & HAS_EXT)))
		both |= HAS_FRE;
	if (((a & HAS_CO) && (b & HAS_EXT)) || ((b & HAS_CO) && (a & HAS_EXT)))
		both |= HAS_COE;
	return both;
}

/* v with the contains bits bits (v may be NULL). */
struct val *cc_containing(struct val *v, unsigned bits)
{
	if (v)
		v->contains = bits;
	return v;
}

/* A copy of v that claims nothing (a shortcut's result standing for an
 * expression whose other operand was never evaluated). */
struct val *cc_unknown_contents(struct comp *c, const struct val *v)
{
	struct val *x = cc_vnew(c, v->k);
	*x = *v;
	x->contains = 0;
	return x;
}

void cc_bind(struct comp *c, const char *name, struct val *v)
{
	struct env *e = arena_alloc(c->a, sizeof *e);
	e->name = name;
	e->v = v;
	e->next = c->env;
	c->env = e;
}

struct val *cc_lookup(const struct env *e, const char *name)
{
	for (; e; e = e->next)
		if (strcmp(e->name, name) == 0)
			return e->v;
	return NULL;
}

const char *cc_kind_name(enum vk k)
{
	switch (k) {
	case VK_SET: return "an event set";
	case VK_REL: return "a relation";
	case VK_EMPTY: return "an empty set";
	case VK_TAG: return "a tag";
	case VK_FUN: case VK_BUILTIN: return "a function";
	case VK_TUPLE: return "a tuple";
	case VK_COLL: return "a collection";
	case VK_CHOICE: return "a set of candidate relations";
	case VK_LAZY: return "a definition";
	}
	return "?";
}

int cc_err(struct comp *c, const struct cat_expr *e, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return diag_error(c->d, c->file, e ? e->line : 0, e ? e->col : 0, "%s", msg);
}

/* v's formulas if it is of kind k, an event set or a relation (VK_EMPTY
 * converts to an empty one); NULL and an error if not. */
static Z3_ast *as_kind(struct comp *c, const struct cat_expr *e, const struct val *v,
		       enum vk k)
{
	if (v->k == k)
		return k == VK_SET ? v->s : v->r;
	if (v->k == VK_EMPTY)
		return k == VK_SET ? set_new(c->rc) : rel_new(c->rc);
	cc_err(c, e, "type error: expected %s, found %s", cc_kind_name(k), cc_kind_name(v->k));
	return NULL;
}
set_t cc_as_set(struct comp *c, const struct cat_expr *e, const struct val *v)
{
	return as_kind(c, e, v, VK_SET);
}
rel_t cc_as_rel(struct comp *c, const struct cat_expr *e, const struct val *v)
{
	return as_kind(c, e, v, VK_REL);
}

/* Exact r+ by repeated squaring over the events r can relate. */
static rel_t exact_plus(struct comp *c, rel_t r)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n, k = 0;
	for (int e = 0; e < n; e++) {
		int in = 0;
		for (int f = 0; f < n && !in; f++)
			in = REL_AT(r, n, e, f) || REL_AT(r, n, f, e);
		k += in;
	}
	rel_t p = r;
	for (int len = 1; len < k; len *= 2)
		p = rel_name(rc, rel_union(rc, p, rel_seq(rc, p, p)), "closure");
	return p;
}

int cc_same_rel(const struct comp *c, rel_t a, rel_t b)
{
	/* Z3 shares equal terms, so the same entries are the same pointers */
	size_t nn = (size_t)c->rc->n * (size_t)c->rc->n;
	return a == b || (a && b && memcmp(a, b, nn * sizeof *a) == 0);
}

rel_t cc_merge_built(struct comp *c, rel_t old, rel_t more, set_t now, set_t built,
		     int by_column)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n;
	rel_t r = rel_new(rc); /* a new array: values handed out stay */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			REL_AT(r, n, i, j) = now[by_column ? j : i] ? REL_AT(more, n, i, j)
								  : REL_AT(old, n, i, j);
	for (int e = 0; e < n; e++)
		if (now[e])
			built[e] = rc->t;
	return r;
}

/* r+ (exactly or as Horn variables, approximation site site): once per
 * relation and way, however often the model writes it (6.1's hb* appears
 * in pb, rcu-link and rb, all the same relation).  *over gets the site
 * whose Horn variables the result has. */
rel_t cc_closure(struct comp *c, rel_t r, int exact, int site, uint64_t *over)
{
	for (int i = 0; i < c->nclos; i++)
		if (c->clos[i].exact == exact && cc_same_rel(c, c->clos[i].r, r)) {
			*over |= c->clos[i].over;
			return c->clos[i].plus;
		}
	rel_t p = exact ? exact_plus(c, r) : rel_plus(c->rc, r, "cat-closure");
	uint64_t o = exact ? 0 : cc_site_bit(site);
	c->clos = arena_grow(c->a, c->clos, sizeof *c->clos, (size_t)c->nclos,
			     (size_t)c->nclos + 1);
	c->clos[c->nclos++] = (struct closure){.r = r, .exact = exact, .plus = p, .over = o};
	*over |= o;
	return p;
}

/* Binary set/relation operators. */
struct val *cc_binop(struct comp *c, const struct cat_expr *e, struct val *x,
			 struct val *y)
{
	struct rel_ctx *rc = c->rc;
	uint64_t over = x->over | y->over, under = x->under | y->under;
	if (e->kind == CE_DIFF) {
		over = x->over | y->under;
		under = x->under | y->over;
	}
	if (e->kind == CE_CROSS) {
		set_t a = cc_as_set(c, e->a, x), b = a ? cc_as_set(c, e->b, y) : NULL;
		return b ? cc_vrel(c, rel_cross(rc, a, b), over, under) : NULL;
	}
	if (e->kind == CE_SEQ) {
		rel_t a = cc_as_rel(c, e->a, x), b = a ? cc_as_rel(c, e->b, y) : NULL;
		if (!b)
			return NULL;
		struct val *v = cc_containing(cc_vrel(c, rel_seq(rc, a, b), over, under),
					      cc_seq_contains(x->contains, y->contains));
		cc_seq_shape(c, v, x, y, a, b);
		return v;
	}
	if (x->k == VK_COLL || y->k == VK_COLL) {
		/* ++ or | of collections: the union of their members */
		if (e->kind != CE_ADD && e->kind != CE_UNION)
			return cc_err(c, e, "unsupported: this operator on collections"), NULL;
		struct val *ux = x->k == VK_COLL ? x->u : x, *uy = y->k == VK_COLL ? y->u : y;
		struct cat_expr fake = *e;
		fake.kind = CE_UNION;
		struct val *u = cc_binop(c, &fake, ux, uy);
		if (!u)
			return NULL;
		struct val *v = cc_vnew(c, VK_COLL);
		v->u = u;
		return v;
	}
	enum vk k = x->k == VK_EMPTY ? y->k : x->k;
	if (k == VK_EMPTY) {
		struct val *v = cc_vnew(c, VK_EMPTY);
		return v;
	}
	if (k == VK_SET) {
		set_t a = cc_as_set(c, e->a, x), b = a ? cc_as_set(c, e->b, y) : NULL;
		if (!b)
			return NULL;
		switch (e->kind) {
		case CE_UNION: case CE_ADD: return cc_containing(cc_vset(c, set_union(rc, a, b), over, under),
							  x->contains | y->contains);
		case CE_INTER: return cc_containing(cc_vset(c, set_inter(rc, a, b), over, under),
						 x->contains & y->contains);
		default: return cc_vset(c, set_diff(rc, a, b), over, under);
		}
	}
	if (k == VK_REL) {
		rel_t a = cc_as_rel(c, e->a, x), b = a ? cc_as_rel(c, e->b, y) : NULL;
		if (!b)
			return NULL;
		switch (e->kind) {
		case CE_UNION: case CE_ADD: {
			struct val *v = cc_vrel(c, rel_union(rc, a, b), over, under);
			/* (not in the eager compilation: there the closures of
			 * such unions are built, so that their sites learn
			 * what a test where the other operand is not empty
			 * needs, as lock.cat's co | critical does) */
			v->transitive = c->lazy && ((x->transitive && rel_count(rc, b) == 0) ||
						    (y->transitive && rel_count(rc, a) == 0));
			v->contains = x->contains | y->contains;
			v->dom = x->dom == y->dom ? x->dom : NULL;
			v->rng = x->rng == y->rng ? x->rng : NULL;
			cc_union_shape(c, v, x, y, a, b);
			return v;
		}
		case CE_INTER: {
			struct val *v = cc_containing(cc_vrel(c, rel_inter(rc, a, b), over, under),
						      cc_inter_contains(x->contains, y->contains));
			v->dom = x->dom ? x->dom : y->dom;
			v->rng = x->rng ? x->rng : y->rng;
			return v;
		}
		default: {
			struct val *v = cc_vrel(c, rel_diff(rc, a, b), over, under);
			v->dom = x->dom;
			v->rng = x->rng;
			return v;
		}
		}
	}
	cc_err(c, e, "type error: this operator needs event sets or relations, found %s",
	    cc_kind_name(k));
	return NULL;
}

/* A formula: sets or relations x and y differ (NULL: never). */
Z3_ast cc_val_differs(struct comp *c, const struct val *x, const struct val *y)
{
	struct rel_ctx *rc = c->rc;
	size_t n = x->k == VK_REL || y->k == VK_REL ? (size_t)rc->n * (size_t)rc->n
						     : (size_t)rc->n;
	const Z3_ast *a = x->k == VK_REL ? x->r : x->k == VK_SET ? x->s : NULL;
	const Z3_ast *b = y->k == VK_REL ? y->r : y->k == VK_SET ? y->s : NULL;
	Z3_ast d = NULL;
	for (size_t i = 0; i < n; i++) {
		Z3_ast p = a ? a[i] : NULL, q = b ? b[i] : NULL;
		if (p == q)
			continue;
		Z3_ast e = !p ? q : !q ? p : Z3_mk_xor(rc->z, p, q);
		d = rel_or2(rc, d, e);
	}
	return d;
}
