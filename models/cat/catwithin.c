/*
 * catwithin.c - the right operand of "a & b" and "a \ b" built only where
 * a can hold: b is needed only at the pairs of a (for & and \ alike), so
 * it is evaluated "within" a's rows R and columns C, with the demand
 * passed down through union, intersection, difference, inverse, sequence
 * and let-bound names to the closures, which then build only the rows or
 * columns asked for.  A closure's columns are the rows of its inverse's
 * closure (Horn variables: columns x edges instead of events x edges),
 * or read from the rows that "x ; b*" built of the same closure
 * (catstar.c) once every event with an edge has its row, when fewer rows
 * than columns are missing (6.1's cumul-fence*: prop builds its rows,
 * vis wants its columns).
 * Linux's linux-kernel.cat asks for xbstar = (hb | pb | rb)* only through
 * pre-race & (rf | co | fr ...) & (... ; xbstar ; w-pre-bounded)^-1 and
 * the like, so only the columns that reach a race's end are built (what
 * models/lkmm_cat.c's xbstar_to_races does by hand for the built-in
 * model).  What it does not do: anything outside the lazy compilation of
 * a test (struct comp.lazy), other operators (they are built whole, as
 * cc_eval does), and rows or columns of an exact closure (squaring builds
 * them all).
 *
 * The contract: cc_eval_within(c, e, R, C) is a value that agrees with e
 * on every pair of R x C (NULL: every event); elsewhere it may have fewer
 * or more pairs.  Its marks (over, under) and contains bits are those of
 * e's value whole, so a check's detection (catcomp.c) and exactness
 * learning see the same thing: "a & b" with b within a's pairs is a & b.
 * Why each case keeps the contract:
 *  - a | b: each side agrees on R x C;
 *  - a & b, a \ b: a agrees on R x C, and b on the pairs a can hold;
 *  - a^-1: a within C x R;
 *  - a ; b with C given: b within all x C, then a within R x (the events
 *    b can start at): (a ; b)(x, z) for z in C only reads b(y, z) and,
 *    for the y where b can hold, a(x, y); with only R: a within R x all,
 *    then the rows of b that a reaches (cc_seq_with);
 *  - b*: the closure's columns in C (or rows in R), each with its
 *    diagonal (the event executes);
 *  - a name: its expression within a superset of R x C, kept per
 *    binding (the union of what was asked) and widened when asked for
 *    more.  The binding itself stays unevaluated: a use that needs it
 *    whole still builds it whole.
 */
#include "models/cat/catcomp_int.h"

#include "common/arena.h"

/* A closure's columns built so far (struct comp.cols). */
struct star_cols {
	rel_t base;      /* the closure's operand */
	rel_t inv;       /* its inverse */
	set_t built;     /* the columns built: non-NULL per event */
	rel_t cols;      /* those columns of base*; NULL elsewhere */
};

/* A let binding evaluated within some rows and columns (struct comp.within). */
struct within {
	struct val *binding;    /* the binding, not evaluated whole */
	set_t rows, cols;       /* the demand it was built for (NULL: all) */
	struct val *value;      /* agrees with it on rows x cols */
};

/* How many events s holds (n for NULL: all). */
static int count(const struct comp *c, set_t s)
{
	int k = 0;
	for (int i = 0; s && i < c->rc->n; i++)
		k += s[i] != NULL;
	return s ? k : c->rc->n;
}

/* s, or NULL when it holds every event (no restriction). */
static set_t or_all(const struct comp *c, set_t s)
{
	return s && count(c, s) == c->rc->n ? NULL : s;
}

/* The events where r can have a pair starting (starts = 1) or ending,
 * as their guards (NULL: none), within the events of lim (NULL: all). */
static set_t ends(struct comp *c, rel_t r, int starts, set_t lim)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n;
	set_t s = set_new(rc);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int e = starts ? i : j;
			if (REL_AT(r, n, i, j) && !s[e] && (!lim || lim[e]))
				s[e] = rc->guard[e];
		}
	return s;
}

/* a | b of two demands (NULL: all). */
static set_t demand_union(struct comp *c, set_t a, set_t b)
{
	if (!a || !b)
		return NULL;
	set_t s = set_new(c->rc);
	for (int i = 0; i < c->rc->n; i++)
		s[i] = a[i] ? a[i] : b[i];
	return s;
}

/* Demand big covers demand small. */
static int covers(const struct comp *c, set_t big, set_t small)
{
	if (!big)
		return 1;
	if (!small)
		return 0;
	for (int i = 0; i < c->rc->n; i++)
		if (small[i] && !big[i])
			return 0;
	return 1;
}

/* A copy of relation value v with only its pairs in rows x cols: what it
 * claims (marks, contains bits, where its pairs lie) stays true of the
 * whole; that it is [S], an order or head ; base* does not. */
static struct val *narrowed(struct comp *c, struct val *v, set_t rows, set_t cols)
{
	if (v->k != VK_REL || (!rows && !cols))
		return v;
	struct val *w = cc_vnew(c, VK_REL);
	*w = *v;
	w->r = rel_restrict(c->rc, rows, v->r, cols);
	w->transitive = 0;
	w->nfac = 0;
	w->ident = NULL;
	w->base = NULL;
	w->head = NULL;
	return w;
}

/* The columns cols of y* (y not transitive, its closure's site not
 * exact), built once per column and relation, with site's mark. */
static struct val *star_cols(struct comp *c, const struct val *y, set_t cols, int site)
{
	struct rel_ctx *rc = c->rc;
	int n = rc->n;
	struct star_cols *s = NULL;
	for (int i = 0; i < c->ncols && !s; i++)
		if (cc_same_rel(c, c->cols[i].base, y->r))
			s = &c->cols[i];
	if (!s) {
		c->cols = arena_grow(c->a, c->cols, sizeof *c->cols, (size_t)c->ncols,
				     (size_t)c->ncols + 1);
		s = &c->cols[c->ncols++];
		*s = (struct star_cols){.base = y->r, .inv = rel_inv(rc, y->r),
					.built = set_new(rc), .cols = rel_new(rc)};
	}
	if (y->nfac) {
		/* walks through its factors' middle events, whole (catstar.c) */
		uint64_t over = y->over;
		rel_t star = rel_opt(rc, cc_plus_walks(c, y, cc_site_bit(site), &over));
		return cc_containing(cc_vrel(c, rel_restrict(rc, NULL, star, cols), over, y->under),
				     y->contains);
	}
	set_t to = set_new(rc);
	int nnew = 0;
	for (int j = 0; j < n; j++)
		if (cols[j] && !s->built[j] && rc->guard[j]) {
			to[j] = rc->guard[j];
			nnew++;
		}
	/* The rows of y* built for "x ; y*" (catstar.c) give these columns
	 * once every event with a y edge has its row: build those missing
	 * instead when they are fewer. */
	set_t missing = set_new(rc);
	int nmissing = 0;
	for (int i = 0; i < n && nnew; i++)
		for (int j = 0; j < n && !missing[i]; j++)
			if (REL_AT(y->r, n, i, j) && !cc_star_row_built(c, y->r, i)) {
				missing[i] = rc->guard[i];
				nmissing++;
			}
	rel_t more = NULL;
	if (nnew && nmissing <= nnew) {
		rel_t rows = cc_star_rows(c, y->r, nmissing ? missing : NULL);
		more = rel_new(rc);
		for (int j = 0; j < n; j++)
			for (int i = 0; i < n && to[j]; i++)
				REL_AT(more, n, i, j) = i == j ? rc->guard[j]
					: rows && cc_star_row_built(c, y->r, i) ? REL_AT(rows, n, i, j)
					: NULL;
	} else if (nnew) {
		/* rows of (y^-1)* from to, inverted: the columns of y* */
		more = rel_inv(rc, rel_star_from(rc, to, s->inv, "cat-closure"));
	}
	if (more)
		s->cols = cc_merge_built(c, s->cols, more, to, s->built, 1);
	struct val *v = cc_containing(cc_vrel(c, s->cols, y->over | cc_site_bit(site), y->under),
				      y->contains);
	return v;
}

/* e = b* within rows x cols */
static struct val *star_within(struct comp *c, const struct cat_expr *e, set_t rows,
			       set_t cols)
{
	struct rel_ctx *rc = c->rc;
	struct val *y = cc_eval(c, e->a);
	if (!y)
		return NULL;
	if (y->k != VK_REL || y->transitive || cc_site_exact(c, e->site))
		return cc_eval(c, e); /* whole, as cc_eval builds it */
	if (rows && (!cols || count(c, rows) < count(c, cols))) {
		/* the rows: "[R] ; b*" (the diagonal is R's guards) */
		struct val *id = cc_vrel(c, rel_id(rc, rows), 0, 0);
		return cc_seq_star(c, e, id, e);
	}
	return star_cols(c, y, cols, e->site);
}

/* A name within rows x cols: see the top. */
static struct val *var_within(struct comp *c, const struct cat_expr *e, set_t rows,
			      set_t cols)
{
	struct val *b = cc_lookup(c->env, e->name);
	if (!b || b->k != VK_LAZY)
		return cc_eval(c, e);
	struct within *w = NULL;
	for (int i = 0; i < c->nwithin && !w; i++)
		if (c->within[i].binding == b)
			w = &c->within[i];
	if (w && covers(c, w->rows, rows) && covers(c, w->cols, cols))
		return w->value;
	if (w) {
		rows = demand_union(c, w->rows, rows);
		cols = demand_union(c, w->cols, cols);
	}
	if (!rows && !cols)
		return cc_force(c, b);
	struct env *saved = c->env;
	const char *file = c->file;
	c->env = b->lenv;
	c->file = b->lfile;
	struct val *v = cc_eval_within(c, b->lazy, rows, cols);
	c->env = saved;
	c->file = file;
	if (!v)
		return NULL;
	if (!w) {
		c->within = arena_grow(c->a, c->within, sizeof *c->within, (size_t)c->nwithin,
				       (size_t)c->nwithin + 1);
		w = &c->within[c->nwithin++];
		w->binding = b;
	}
	w->rows = rows;
	w->cols = cols;
	w->value = v;
	return v;
}

/* a ; b within rows x cols */
static struct val *seq_within(struct comp *c, const struct cat_expr *e, set_t rows,
			      set_t cols)
{
	if (!cols) {
		/* forward: a's rows in R, then what they reach of b */
		if (e->b->kind == CE_STAR && e->a->kind == CE_SEQ && e->a->b->kind == CE_STAR) {
			struct val *x = cc_eval_within(c, e->a->a, rows, NULL);
			return x ? cc_seq_stars(c, e, narrowed(c, x, rows, NULL), e->a->b, e->b)
				 : NULL;
		}
		struct val *x = cc_eval_within(c, e->a, rows, NULL);
		return x ? cc_seq_with(c, e, narrowed(c, x, rows, NULL), e->b) : NULL;
	}
	/* backward: b's columns in C, then a within the events they start at */
	struct val *y = cc_eval_within(c, e->b, NULL, cols);
	if (!y)
		return NULL;
	if (y->k != VK_REL) {
		struct val *x = cc_eval(c, e->a);
		return x ? cc_binop(c, e, x, y) : NULL;
	}
	y = narrowed(c, y, NULL, cols);
	struct val *x = cc_eval_within(c, e->a, rows, or_all(c, ends(c, y->r, 1, NULL)));
	return x ? cc_binop(c, e, narrowed(c, x, rows, NULL), y) : NULL;
}

/* a & b, a \ b: b within the pairs of a (a within rows x cols, or whole
 * when both are NULL: then this is cc_eval's way). */
struct val *cc_eval_and_within(struct comp *c, const struct cat_expr *e, set_t rows,
			       set_t cols)
{
	struct val *x = cc_eval_within(c, e->a, rows, cols);
	if (!x)
		return NULL;
	/* a & b, a \ b with a statically empty: empty (b is not built) */
	if (c->lazy && cc_static_empty(c, x))
		return cc_unknown_contents(c, x);
	struct val *y;
	if (c->lazy && x->k == VK_REL) {
		set_t r = or_all(c, ends(c, x->r, 1, rows));
		set_t k = or_all(c, ends(c, x->r, 0, cols));
		y = cc_eval_within(c, e->b, r, k);
	} else {
		y = cc_eval(c, e->b);
	}
	return y ? cc_binop(c, e, x, y) : NULL;
}

struct val *cc_eval_within(struct comp *c, const struct cat_expr *e, set_t rows, set_t cols)
{
	if (!c->lazy || (!rows && !cols))
		return cc_eval(c, e);
	struct val *x, *y;
	switch (e->kind) {
	case CE_VAR:
		return var_within(c, e, rows, cols);
	case CE_UNION:
		if (!(x = cc_eval_within(c, e->a, rows, cols)) ||
		    !(y = cc_eval_within(c, e->b, rows, cols)))
			return NULL;
		return cc_binop(c, e, x, y);
	case CE_INTER: case CE_DIFF:
		return cc_eval_and_within(c, e, rows, cols);
	case CE_INV: {
		x = cc_eval_within(c, e->a, cols, rows);
		if (!x || x->k != VK_REL)
			return x ? cc_eval(c, e) : NULL;
		/* x is e->a's value on cols x rows: invert it as cc_eval does */
		struct val *v = cc_containing(cc_vrel(c, rel_inv(c->rc, x->r), x->over, x->under),
					      (x->contains & HAS_RF ? HAS_RF_INV : 0) |
					      (x->contains & HAS_RF_INV ? HAS_RF : 0));
		v->dom = x->rng;
		v->rng = x->dom;
		return v;
	}
	case CE_SEQ:
		return seq_within(c, e, rows, cols);
	case CE_STAR:
		return star_within(c, e, rows, cols);
	default:
		return cc_eval(c, e);
	}
}
