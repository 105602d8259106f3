/*
 * catstar.c - closures inside sequences, for the cat compiler: "x ; b*"
 * builds only the rows of b* that x reaches, each row once per relation
 * however often the model writes b*, and "x ; p* ; q*" is built as one
 * closure when q is known to be a sequence ending in p*; the closure of a
 * union with an order in it is built over fewer events ((3) below), and
 * that of a relation known to pass through few events as walks ((5)).
 * What it does not do: other whole closures r+ and r* (catval.c's
 * cc_closure), their columns (catwithin.c), let rec
 * (catlet.c), and it knows no relation of any model by name: everything
 * below is recognised from the shapes of the values.
 *
 * The identities used, true of any relations X, H, A and event set S (the
 * closures here are the true ones; how their Horn variables approximate
 * them is tracked by the values' marks, which the rewritten value carries
 * for every closure the model wrote, so the exactness of each site is
 * learnt as before: see catcomp.c's first comment):
 *  (1) X* ; (H ; X*)* = (X | H)*.  A path of X | H edges is a run of X
 *      edges followed by groups, each an H edge and a run of X edges; and
 *      each side is made of X | H edges.
 *  (2) A ; X* ; [S] = (A ; [S]) ; X* when every pair of X has both its
 *      events in S: X* = id | X+, X+ ; [S] = X+ and A ; X+ = A ; [S] ; X+.
 *  (3) (A | B)+ = A | A? ; X+ with X = B ; A?, when A is transitive: a
 *      path of A | B edges is A edges alone (one A edge, A being
 *      transitive) or an optional A edge and groups, each a B edge and
 *      an optional A edge.  And X+ = X | (X ; [H])+ ; X for H the events
 *      X starts at: every event inside a path of X edges starts one.
 *  (5) (P | L ; R)+ is the walks of an automaton with two states: P
 *      from the first to itself, L from it to the second, R back.  A
 *      sequence a ; b whose middle events (a's range and b's domain) are
 *      few (an eighth of the events at most) and whose pairs outnumber
 *      twice the pairs of [a's part ; [middle]] and [[middle] ; b] is
 *      kept as those two factors (struct val.nfac, fl, fr), and the
 *      factors are kept through a sequence with a relation that has none
 *      ((P | L ; R) ; b = P ; b | L ; (R ; b)) and through unions (up to
 *      CC_MAX_FACTORS).  Its closure is then walks (encoder/relwalk.c):
 *      Horn rules over the factors' pairs instead of over every pair:
 *      linux-kernel.cat's cumul-fence* through po-unlock-lock-po = po ;
 *      [UL] ; (po | rf) ; [LKR] ; po, whose middle events are the
 *      unlocks (what models/lkmm_cat.c's cumul_fence_star does by hand).
 *      Only for Horn closures: an exact site is squared as written.
 * By (3), a closure whose operand is a union with a member known to be an
 * order (herd7's co from generate_orders, struct val.transitive) is closed
 * over H only: lock.cat's co = (co | critical | (critical^-1 ; co))+ over
 * the lock and unlock events, where closing all of co took the queued
 * rwlock of 4 threads 47 s of its 51 (exactly, as its site must be: by
 * squaring over every write of the lock) and takes 4 s now.
 * A value v known to equal head ; base* (v->head, v->base) is made by
 * "x ; b*" (head x) and kept through "; [S]" by (2); then "x ; p* ; q*"
 * whose q is such a value with base p is x ; (p | q's head)*, by (1):
 * one closure of a relation about as sparse as p, where the model's way
 * builds p*'s rows and then the closure of q, which holds every pair of
 * q's head ; p*.  (Linux's linux-kernel.cat writes hb* ; pb* with
 * pb = prop ; strong-fence ; hb* ; [Marked] and hb = [Marked] ; ... ;
 * [Marked], in rcu-link and rb.)  Which events a relation's pairs lie
 * within (v->dom, v->rng) is known from the expression: [S] is within S,
 * a ; b starts where a does and ends where b does (catval.c).
 */
#include "models/cat/catcomp_int.h"

#include "common/arena.h"

/* The members of a union expression e (nested unions flattened), at
 * most cap; how many, or -1 past cap. */
static int union_members(const struct cat_expr *e, const struct cat_expr **m, int k, int cap)
{
	if (k < 0)
		return k;
	if (e->kind == CE_UNION)
		return union_members(e->b, m, union_members(e->a, m, k, cap), cap);
	if (k == cap)
		return -1;
	m[k] = e;
	return k + 1;
}

struct val *cc_plus_over_order(struct comp *c, const struct cat_expr *e, int *failed)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n;
	const struct cat_expr *m[16];
	int k = union_members(e->a, m, 0, 16);
	if (!c->lazy || k < 2)
		return NULL;
	struct val *a = NULL;
	rel_t b = rel_new(rc);
	uint64_t over = 0, under = 0;
	unsigned has = 0;
	for (int i = 0; i < k; i++) {
		struct val *v = cc_eval(c, m[i]);
		*failed = !v; /* (cc_eval said what is wrong) */
		if (!v || (v->k != VK_REL && v->k != VK_EMPTY))
			return NULL;
		over |= v->over;
		under |= v->under;
		has |= v->contains;
		if (v->k == VK_REL && v->transitive && !a)
			a = v;
		else if (v->k == VK_REL)
			b = rel_union(rc, b, v->r);
	}
	if (!a)
		return NULL;
	/* X = B ; A?, [H] its rows (the hubs); X+ = X | (X ; [H])+ ; X */
	rel_t x = rel_seq(rc, b, rel_opt(rc, a->r));
	set_t hubs = set_new(rc);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n && !hubs[i]; j++)
			if (REL_AT(x, n, i, j))
				hubs[i] = rc->guard[i];
	rel_t hop = cc_closure(c, rel_restrict(rc, NULL, x, hubs), cc_site_exact(c, e->site), e->site,
			       &over);
	rel_t xplus = rel_union(rc, x, rel_seq(rc, hop, x));
	/* (A | B)+ = A | A? ; X+ */
	rel_t r = rel_union3(rc, a->r, xplus, rel_seq(rc, a->r, xplus));
	if (e->kind == CE_STAR)
		r = rel_opt(rc, r);
	return cc_containing(cc_vrel(c, r, over, under), has);
}

/* Rows of a closure built so far (struct comp.stars). */
struct star_rows {
	rel_t base;      /* the closure's operand, or its first part */
	rel_t with;      /* NULL, or the part joined with base, by (1) */
	rel_t u;         /* base | with: the relation closed */
	set_t built;     /* the rows built: non-NULL per event */
	rel_t rows;      /* those rows of u*; NULL elsewhere */
};

/* The rows of (base | with)* for every event x ends at: built once per
 * event and relation; a row's diagonal is true (x ; rows needs no more:
 * x's pairs already hold only between executed events). */
static rel_t rows_reached(struct comp *c, rel_t base, rel_t with, rel_t x)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n, nnew = 0;
	struct star_rows *s = NULL;
	for (int i = 0; i < c->nstars && !s; i++)
		if (cc_same_rel(c, c->stars[i].base, base) && cc_same_rel(c, c->stars[i].with, with))
			s = &c->stars[i];
	if (!s) {
		c->stars = arena_grow(c->a, c->stars, sizeof *c->stars, (size_t)c->nstars,
				      (size_t)c->nstars + 1);
		s = &c->stars[c->nstars++];
		*s = (struct star_rows){.base = base, .with = with,
					.u = with ? rel_union(rc, base, with) : base,
					.built = set_new(rc), .rows = rel_new(rc)};
	}
	set_t from = set_new(rc);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n && !s->built[j] && !from[j]; i++)
			if (REL_AT(x, n, i, j)) {
				from[j] = rc->t;
				nnew++;
			}
	if (!nnew)
		return s->rows;
	rel_t more = rel_star_from(rc, from, s->u, "cat-closure");
	s->rows = cc_merge_built(c, s->rows, more, from, s->built, 0);
	return s->rows;
}

rel_t cc_star_rows(struct comp *c, rel_t base, set_t rows)
{
	struct rel_ctx *rc = c->rc;
	if (rows)
		(void)rows_reached(c, base, NULL, rel_id(rc, rows));
	for (int i = 0; i < c->nstars; i++)
		if (cc_same_rel(c, c->stars[i].base, base) && !c->stars[i].with)
			return c->stars[i].rows;
	return NULL;
}

int cc_star_row_built(struct comp *c, rel_t base, int e)
{
	for (int i = 0; i < c->nstars; i++)
		if (cc_same_rel(c, c->stars[i].base, base) && !c->stars[i].with)
			return c->stars[i].built[e] != NULL;
	return 0;
}

/* x ; y* for y the value of star's operand (not a transitive one), with
 * the marks of both and of star's site; head and base say what it is. */
static struct val *seq_rows(struct comp *c, const struct val *x, struct val *y,
			    rel_t with, uint64_t over, uint64_t under)
{
	struct rel_ctx *rc = c->rc;
	/* a relation with factors: its walks, whole (fewer rules than rows
	 * of its pairs) */
	rel_t rows = !with && y->nfac ? rel_opt(rc, cc_plus_walks(c, y, over, &over))
				      : rows_reached(c, y->r, with, x->r);
	/* y* contains y: x ; y* contains what x ; y does */
	struct val *v = cc_containing(cc_vrel(c, rel_seq(rc, x->r, rows), over, under),
				      cc_seq_contains(x->contains, y->contains));
	v->dom = x->dom;
	v->rng = x->rng && x->rng == y->rng ? x->rng : NULL;
	return v;
}

/* x ; star with y the value of star->a: only the rows of the range of x
 * (far fewer Horn variables when x is sparse, as the LKMM's
 * "prop ; strong-fence ; hb*" is), once per row.  at: the "a ; b". */
static struct val *star_after(struct comp *c, const struct cat_expr *at, struct val *x,
			      struct val *y, const struct cat_expr *star)
{
	if (x->k != VK_REL || y->k != VK_REL || y->transitive) {
		struct val *s = cc_eval(c, star);
		return s ? cc_binop(c, at, x, s) : NULL;
	}
	struct val *v = seq_rows(c, x, y, NULL, x->over | y->over | cc_site_bit(star->site),
				 x->under | y->under);
	v->head = x->r;
	v->base = y;
	return v;
}

struct val *cc_seq_star(struct comp *c, const struct cat_expr *at, struct val *x,
			const struct cat_expr *star)
{
	struct val *y = cc_eval(c, star->a);
	return y ? star_after(c, at, x, y, star) : NULL;
}

/* The model's way of x ; p* ; q*, with p's and q's operands y1, y2
 * evaluated: what cc_seq_with does one closure after the other. */
static struct val *one_then_other(struct comp *c, const struct cat_expr *at, struct val *x,
				  const struct cat_expr *p, struct val *y1,
				  const struct cat_expr *q, struct val *y2)
{
	struct val *v = star_after(c, at, x, y1, p);
	if (!v)
		return NULL;
	if (c->lazy && cc_static_empty(c, v))
		return v->k == VK_REL ? cc_vrel(c, rel_new(c->rc), 0, 0) : cc_unknown_contents(c, v);
	return star_after(c, at, v, y2, q);
}

struct val *cc_seq_stars(struct comp *c, const struct cat_expr *at, struct val *x,
			 const struct cat_expr *p, const struct cat_expr *q)
{
	if (cc_site_exact(c, p->site) || cc_site_exact(c, q->site) ||
	    (c->lazy && cc_static_empty(c, x))) {
		/* closures by squaring, or nothing to build: as written */
		struct val *v = cc_seq_with(c, at, x, p);
		return v ? cc_seq_with(c, at, v, q) : NULL;
	}
	struct val *y1 = cc_eval(c, p->a);
	struct val *y2 = y1 ? cc_eval(c, q->a) : NULL;
	if (!y2)
		return NULL;
	if (x->k != VK_REL || y1->k != VK_REL || y1->transitive || y2->k != VK_REL ||
	    y2->transitive || !y2->base || y2->base->r != y1->r)
		return one_then_other(c, at, x, p, y1, q, y2);
	/* (1): x ; p* ; (head ; p*)* = x ; (p | head)*; the closures of both
	 * sites and everything in q are in it */
	uint64_t over = x->over | y1->over | y2->over | cc_site_bit(p->site) |
			cc_site_bit(q->site);
	struct val *v = seq_rows(c, x, y1, y2->head, over, x->under | y1->under | y2->under);
	/* (as the model's way: x ; p* knows it is fr, x ; p* ; q* nothing) */
	v->contains = 0;
	v->rng = NULL;
	return v;
}

/* The events in both the range of a and the domain of b; how many. */
static int middle(struct comp *c, rel_t a, rel_t b, set_t mid)
{
	int n = c->rc->n, k = 0;
	for (int m = 0; m < n; m++) {
		int in = 0, out = 0;
		for (int i = 0; i < n && !in; i++)
			in = REL_AT(a, n, i, m) != NULL;
		for (int j = 0; j < n && in && !out; j++)
			out = REL_AT(b, n, m, j) != NULL;
		mid[m] = in && out ? c->rc->guard[m] : NULL;
		k += in && out;
	}
	return k;
}

void cc_seq_shape(struct comp *c, struct val *v, const struct val *x, const struct val *y,
		  rel_t a, rel_t b)
{
	struct rel_ctx *rc = c->rc;
	v->dom = x->dom;
	v->rng = y->rng;
	/* (2): (head ; base*) ; [S] = (head ; [S]) ; base* */
	if (x->base && y->ident && x->base->dom == y->ident && x->base->rng == y->ident) {
		v->head = rel_seq(rc, x->head, y->r);
		v->base = x->base;
	}
	/* (5): factors through few events, kept through a sequence with a
	 * relation that has none: (P | L ; R) ; b = P ; b | L ; (R ; b) */
	if (!c->lazy || (x->nfac && y->nfac))
		return;
	if (x->nfac || y->nfac) {
		const struct val *f = x->nfac ? x : y;
		v->nfac = f->nfac;
		v->part = !f->part ? NULL : x->nfac ? rel_seq(rc, f->part, b) : rel_seq(rc, a, f->part);
		for (int i = 0; i < f->nfac; i++) {
			v->fl[i] = x->nfac ? f->fl[i] : rel_seq(rc, a, f->fl[i]);
			v->fr[i] = x->nfac ? rel_seq(rc, f->fr[i], b) : f->fr[i];
		}
		return;
	}
	if (x->ident || y->ident)
		return;
	/* a ; b through few events, much sparser as its two factors */
	set_t mid = set_new(rc);
	int k = middle(c, a, b, mid);
	if (k == 0 || 8 * k > rc->n)
		return;
	rel_t l = rel_restrict(rc, NULL, a, mid), r = rel_restrict(rc, mid, b, NULL);
	if (rel_count(rc, v->r) <= 2 * (rel_count(rc, l) + rel_count(rc, r)))
		return;
	v->nfac = 1;
	v->part = NULL;
	v->fl[0] = l;
	v->fr[0] = r;
}

void cc_union_shape(struct comp *c, struct val *v, const struct val *x, const struct val *y,
		    rel_t a, rel_t b)
{
	if (!c->lazy || (!x->nfac && !y->nfac) || x->nfac + y->nfac > CC_MAX_FACTORS)
		return;
	/* (P1 | F1) | (P2 | F2) = (P1 | P2) | F1 | F2 */
	rel_t pa = x->nfac ? x->part : a, pb = y->nfac ? y->part : b;
	v->part = !pa ? pb : !pb ? pa : rel_union(c->rc, pa, pb);
	v->nfac = 0;
	for (int i = 0; i < x->nfac; i++, v->nfac++) {
		v->fl[v->nfac] = x->fl[i];
		v->fr[v->nfac] = x->fr[i];
	}
	for (int i = 0; i < y->nfac; i++, v->nfac++) {
		v->fl[v->nfac] = y->fl[i];
		v->fr[v->nfac] = y->fr[i];
	}
}

rel_t cc_plus_walks(struct comp *c, const struct val *y, uint64_t bits, uint64_t *over)
{
	for (int i = 0; i < c->nclos; i++)
		if (c->clos[i].exact == 2 && cc_same_rel(c, c->clos[i].r, y->r)) {
			*over |= c->clos[i].over;
			return c->clos[i].plus;
		}
	/* states: 0, and one inside each factor, between its two parts */
	int ns = 1 + y->nfac;
	rel_t edge[(1 + CC_MAX_FACTORS) * (1 + CC_MAX_FACTORS)] = {0};
	edge[0] = y->part;
	for (int i = 0; i < y->nfac; i++) {
		edge[0 * ns + 1 + i] = y->fl[i];
		edge[(1 + i) * ns + 0] = y->fr[i];
	}
	rel_t p = rel_plus_walks(c->rc, ns, edge, "cat-closure");
	c->clos = arena_grow(c->a, c->clos, sizeof *c->clos, (size_t)c->nclos,
			     (size_t)c->nclos + 1);
	c->clos[c->nclos++] = (struct closure){.r = y->r, .exact = 2, .plus = p, .over = bits};
	*over |= bits;
	return p;
}
