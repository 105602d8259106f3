/*
 * rel.c - relation algebra over Z3 with static pruning; see rel.h.
 */
#include "rel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/clock.h"
#include "common/memlimit.h"
#include "common/scc.h"
#include "common/xalloc.h"
#include "encoder/pattern.h"
#include "encoder/rel_int.h"
#include "encoder/z3util.h"

#define AT(r, a, b) REL_AT(r, rc->n, a, b)

void rel_ctx_init(struct rel_ctx *rc, Z3_context z, int n, const Z3_ast *guard,
		  struct arena *arena)
{
	memset(rc, 0, sizeof *rc);
	rc->z = z;
	rc->n = n;
	rc->guard = guard;
	rc->arena = arena;
	rc->t = Z3_mk_true(z);
	rc->defs = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, rc->defs);
}

void rel_ctx_fini(struct rel_ctx *rc)
{
	Z3_ast_vector_dec_ref(rc->z, rc->defs);
	free(rc->horn_lhs);
	free(rc->horn_var);
	free(rc->acyc);
}

int rel_is_true(const struct rel_ctx *rc, Z3_ast a)
{
	return a && (a == rc->t || Z3_is_eq_ast(rc->z, a, rc->t));
}

static int is_false_lit(struct rel_ctx *rc, Z3_ast a)
{
	return Z3_get_bool_value(rc->z, a) == Z3_L_FALSE;
}

Z3_ast rel_and2(struct rel_ctx *rc, Z3_ast a, Z3_ast b)
{
	if (!a || !b || is_false_lit(rc, a) || is_false_lit(rc, b))
		return NULL;
	if (rel_is_true(rc, a))
		return b;
	if (rel_is_true(rc, b))
		return a;
	if (Z3_is_eq_ast(rc->z, a, b))
		return a;
	Z3_ast args[2] = {a, b};
	return Z3_mk_and(rc->z, 2, args);
}

Z3_ast rel_or2(struct rel_ctx *rc, Z3_ast a, Z3_ast b)
{
	if (a && is_false_lit(rc, a))
		a = NULL;
	if (b && is_false_lit(rc, b))
		b = NULL;
	if (!a)
		return b;
	if (!b)
		return a;
	if (rel_is_true(rc, a) || rel_is_true(rc, b))
		return rc->t;
	if (Z3_is_eq_ast(rc->z, a, b))
		return a;
	Z3_ast args[2] = {a, b};
	return Z3_mk_or(rc->z, 2, args);
}

Z3_ast rel_not(struct rel_ctx *rc, Z3_ast a)
{
	if (!a)
		return rc->t;
	return Z3_mk_not(rc->z, a);
}

static Z3_ast fresh_const(struct rel_ctx *rc, const char *prefix, Z3_sort s)
{
	char name[96];
	snprintf(name, sizeof name, "%s!%d", prefix, rc->fresh++);
	return Z3_mk_const(rc->z, Z3_mk_string_symbol(rc->z, name), s);
}

Z3_ast rel_fresh_bool(struct rel_ctx *rc, const char *prefix)
{
	return fresh_const(rc, prefix, Z3_mk_bool_sort(rc->z));
}

Z3_ast rel_fresh_int(struct rel_ctx *rc, const char *prefix)
{
	return fresh_const(rc, prefix, Z3_mk_int_sort(rc->z));
}

void rel_define(struct rel_ctx *rc, Z3_ast fact)
{
	if (!rel_is_true(rc, fact))
		Z3_ast_vector_push(rc->z, rc->defs, fact);
}

static int cmp_id_pos(const void *pa, const void *pb)
{
	const unsigned *a = pa, *b = pb; /* {ast id, position} */
	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Drop repeated terms from terms[0..m), keeping the first of each (the
 * same disjunct reached through several middle events of a sequence):
 * equal entries stay equal terms, which rank_edges() relies on. */
static int unique_terms(Z3_context z, Z3_ast *terms, int m)
{
	if (m <= 8) {
		int u = 0;
		for (int i = 0; i < m; i++) {
			int dup = 0;
			for (int j = 0; j < u && !dup; j++)
				dup = terms[j] == terms[i] || Z3_is_eq_ast(z, terms[j], terms[i]);
			if (!dup)
				terms[u++] = terms[i];
		}
		return u;
	}
	unsigned *key = xmalloc(sizeof(unsigned) * 2 * (size_t)m);
	for (int i = 0; i < m; i++) {
		key[2 * i] = Z3_get_ast_id(z, terms[i]);
		key[2 * i + 1] = (unsigned)i;
	}
	qsort(key, (size_t)m, 2 * sizeof(unsigned), cmp_id_pos);
	unsigned char *drop = xcalloc((size_t)m, 1);
	for (int i = 1; i < m; i++)
		if (key[2 * i] == key[2 * i - 2])
			drop[key[2 * i + 1]] = 1;
	int u = 0;
	for (int i = 0; i < m; i++)
		if (!drop[i])
			terms[u++] = terms[i];
	free(drop);
	free(key);
	return u;
}

Z3_ast rel_or_n(struct rel_ctx *rc, Z3_ast *terms, int k)
{
	int m = 0;
	for (int i = 0; i < k; i++) {
		if (!terms[i])
			continue;
		if (rel_is_true(rc, terms[i]))
			return rc->t;
		terms[m++] = terms[i];
	}
	m = unique_terms(rc->z, terms, m);
	if (m == 0)
		return NULL;
	if (m == 1)
		return terms[0];
	return Z3_mk_or(rc->z, (unsigned)m, terms);
}

/* ---- sets ---- */

set_t set_new(struct rel_ctx *rc)
{
	return arena_alloc(rc->arena, sizeof(Z3_ast) * (size_t)rc->n);
}

set_t set_all(struct rel_ctx *rc)
{
	set_t s = set_new(rc);
	for (int e = 0; e < rc->n; e++)
		s[e] = rc->guard[e];
	return s;
}

/* r[i] = a[i] && b[i] (and) or a[i] || b[i] for n entries: union and
 * intersection of sets and of relations. */
static Z3_ast *pointwise(struct rel_ctx *rc, Z3_ast *r, const Z3_ast *a,
			 const Z3_ast *b, size_t n, int and)
{
	for (size_t i = 0; i < n; i++)
		r[i] = and ? rel_and2(rc, a[i], b[i]) : rel_or2(rc, a[i], b[i]);
	return r;
}

set_t set_union(struct rel_ctx *rc, set_t a, set_t b)
{
	return pointwise(rc, set_new(rc), a, b, (size_t)rc->n, 0);
}

set_t set_inter(struct rel_ctx *rc, set_t a, set_t b)
{
	return pointwise(rc, set_new(rc), a, b, (size_t)rc->n, 1);
}

/* Does b hold whenever a does, as the terms show: b is a, or a disjunction
 * with a among its (nested) disjuncts?  a \ b is then statically empty,
 * e.g. an event's guard minus a set that holds it by one of its classes
 * (Plain = M \ Marked for a READ_ONCE, whose Marked is "not M, or IW, or
 * Once, ..." with Once its guard).  depth bounds the descent. */
static int or_contains(struct rel_ctx *rc, Z3_ast b, Z3_ast a, int depth)
{
	Z3_context z = rc->z;
	if (b == a || Z3_is_eq_ast(z, b, a))
		return 1;
	if (depth == 0 || Z3_get_ast_kind(z, b) != Z3_APP_AST)
		return 0;
	Z3_app app = Z3_to_app(z, b);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_OR)
		return 0;
	unsigned k = Z3_get_app_num_args(z, app);
	for (unsigned i = 0; i < k; i++)
		if (or_contains(rc, Z3_get_app_arg(z, app, i), a, depth - 1))
			return 1;
	return 0;
}

static int surely_implies(struct rel_ctx *rc, Z3_ast a, Z3_ast b)
{
	return rel_is_true(rc, b) || or_contains(rc, b, a, 8);
}

set_t set_diff(struct rel_ctx *rc, set_t a, set_t b)
{
	set_t s = set_new(rc);
	for (int e = 0; e < rc->n; e++)
		s[e] = !a[e] || !b[e] ? a[e] : surely_implies(rc, a[e], b[e]) ? NULL
					  : rel_and2(rc, a[e], rel_not(rc, b[e]));
	return s;
}

/* The events with an r-edge out (domain) or in (range). */
static set_t set_ends(struct rel_ctx *rc, rel_t r, int domain)
{
	set_t s = set_new(rc);
	Z3_ast *buf = xmalloc(sizeof(Z3_ast) * (size_t)rc->n);
	for (int a = 0; a < rc->n; a++) {
		for (int b = 0; b < rc->n; b++)
			buf[b] = domain ? AT(r, a, b) : AT(r, b, a);
		s[a] = rel_or_n(rc, buf, rc->n);
	}
	free(buf);
	return s;
}

set_t set_domain(struct rel_ctx *rc, rel_t r)
{
	return set_ends(rc, r, 1);
}

set_t set_range(struct rel_ctx *rc, rel_t r)
{
	return set_ends(rc, r, 0);
}

/* ---- relations ---- */

rel_t rel_new(struct rel_ctx *rc)
{
	return arena_alloc(rc->arena, sizeof(Z3_ast) * (size_t)rc->n * (size_t)rc->n);
}

rel_t rel_id(struct rel_ctx *rc, set_t s)
{
	rel_t r = rel_new(rc);
	for (int e = 0; e < rc->n; e++)
		AT(r, e, e) = s[e];
	return r;
}

rel_t rel_cross(struct rel_ctx *rc, set_t a, set_t b)
{
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	for (int i = 0; i < rc->n; i++)
		if (a[i])
			for (int j = 0; j < rc->n; j++)
				AT(r, i, j) = rel_and2(rc, a[i], b[j]);
	return r;
}

rel_t rel_union(struct rel_ctx *rc, rel_t a, rel_t b)
{
	if (rel_gave_up(rc))
		return rel_new(rc);
	return pointwise(rc, rel_new(rc), a, b, (size_t)rc->n * (size_t)rc->n, 0);
}

rel_t rel_union3(struct rel_ctx *rc, rel_t a, rel_t b, rel_t c)
{
	return rel_union(rc, rel_union(rc, a, b), c);
}

rel_t rel_inter(struct rel_ctx *rc, rel_t a, rel_t b)
{
	if (rel_gave_up(rc))
		return rel_new(rc);
	return pointwise(rc, rel_new(rc), a, b, (size_t)rc->n * (size_t)rc->n, 1);
}

rel_t rel_diff(struct rel_ctx *rc, rel_t a, rel_t b)
{
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	size_t nn = (size_t)rc->n * (size_t)rc->n;
	for (size_t i = 0; i < nn; i++) {
		if (!a[i] || !b[i])
			r[i] = a[i];
		else if (surely_implies(rc, a[i], b[i]))
			r[i] = NULL;
		else
			r[i] = rel_and2(rc, a[i], rel_not(rc, b[i]));
	}
	return r;
}

/* Past the deadline (--timeout) or over the memory limit: the
 * costly operations (every one that makes terms) stop early and the caller reports a time-out or the
 * limit instead of asking anything. */
int rel_gave_up(struct rel_ctx *rc)
{
	if (!rc->expired && (clock_past(rc->deadline) || memlimit_over(rc->limit, arena_bytes(rc->arena))))
		rc->expired = 1;
	return rc->expired;
}

rel_t rel_seq(struct rel_ctx *rc, rel_t a, rel_t b)
{
	int n = rc->n;
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	int *mid = xmalloc(sizeof(int) * (size_t)n);
	Z3_ast *buf = xmalloc(sizeof(Z3_ast) * (size_t)n);
	Z3_ast *picks = rc->keyed ? xmalloc(sizeof(Z3_ast) * 2 * (size_t)n) : NULL;
	for (int i = 0; i < n && !(i % 16 == 15 && rel_gave_up(rc)); i++) {
		int k = 0;
		for (int c = 0; c < n; c++)
			if (AT(a, i, c))
				mid[k++] = c;
		if (k == 0)
			continue;
		for (int j = 0; j < n; j++) {
			int m = 0;
			if (picks) {
				m = rel_keyed_fold(rc, a, b, i, j, mid, k, buf, picks);
			} else {
				for (int q = 0; q < k; q++) {
					Z3_ast y = AT(b, mid[q], j);
					if (y)
						buf[m++] = rel_and2(rc, AT(a, i, mid[q]), y);
				}
			}
			if (m)
				AT(r, i, j) = rel_or_n(rc, buf, m);
		}
	}
	free(picks);
	free(mid);
	free(buf);
	return r;
}

rel_t rel_seq3(struct rel_ctx *rc, rel_t a, rel_t b, rel_t c)
{
	return rel_seq(rc, rel_seq(rc, a, b), c);
}

rel_t rel_inv(struct rel_ctx *rc, rel_t a)
{
	rel_t r = rel_new(rc);
	for (int i = 0; i < rc->n; i++)
		for (int j = 0; j < rc->n; j++)
			AT(r, j, i) = AT(a, i, j);
	return r;
}

rel_t rel_opt(struct rel_ctx *rc, rel_t a)
{
	rel_t r = rel_new(rc);
	memcpy(r, a, sizeof(Z3_ast) * (size_t)rc->n * (size_t)rc->n);
	for (int e = 0; e < rc->n; e++)
		AT(r, e, e) = rel_or2(rc, AT(r, e, e), rc->guard[e]);
	return r;
}

rel_t rel_restrict(struct rel_ctx *rc, set_t s1, rel_t a, set_t s2)
{
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	for (int i = 0; i < rc->n; i++) {
		if (s1 && !s1[i])
			continue;
		for (int j = 0; j < rc->n; j++) {
			Z3_ast x = AT(a, i, j);
			if (!x || (s2 && !s2[j]))
				continue;
			/* The entry already implies both guards; only the class
			 * part of the set can add information (and a set entry
			 * that is the guard adds none: the entry stays the
			 * same formula, which rel_seq's folding looks for). */
			if (s1 && s1[i] != rc->guard[i])
				x = rel_and2(rc, s1[i], x);
			if (s2 && s2[j] != rc->guard[j])
				x = rel_and2(rc, x, s2[j]);
			AT(r, i, j) = x;
		}
	}
	return r;
}

rel_t rel_name(struct rel_ctx *rc, rel_t a, const char *name)
{
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	size_t nn = (size_t)rc->n * (size_t)rc->n;
	for (size_t i = 0; i < nn; i++) {
		if (!a[i] || rel_is_true(rc, a[i]) ||
		    (Z3_is_app(rc->z, a[i]) &&
		     Z3_get_app_num_args(rc->z, Z3_to_app(rc->z, a[i])) == 0)) {
			r[i] = a[i];
			continue;
		}
		Z3_ast v = rel_fresh_bool(rc, name);
		rel_define(rc, Z3_mk_eq(rc->z, v, a[i]));
		r[i] = v;
	}
	return r;
}

/* The shape of a: its non-NULL entries (sure = 0) or its true-literal
 * ones (sure = 1). */
static struct pattern *shape(struct rel_ctx *rc, rel_t a, int sure)
{
	struct pattern *p = pattern_new(rc->n);
	for (int i = 0; i < rc->n; i++)
		for (int j = 0; j < rc->n; j++)
			if (sure ? rel_is_true(rc, AT(a, i, j)) : AT(a, i, j) != NULL)
				pattern_set(p, i, j);
	return p;
}

/*
 * The Horn encoding of a closure, init ; a* over the rows where init has
 * entries (init NULL: a+, every row):
 *   r(i,j) <= init(i,j)
 *   r(i,j) <= r(i,k) /\ a(k,j)     for k, j with r(i,k) and a(k,j) possible
 * rel_star_from's init is [from]; rel_seq_star's any relation.
 * Three shortcuts keep it small where the program alone decides:
 *  - pairs joined by a sure path are fixed and get no variable: r(i,j) is
 *    true when some true init(i,k) reaches j by a path of true-literal
 *    edges of a (or k = j), and is init(i,k) itself when k is the only
 *    entry of i's row (so [from] ; a* fixes them to from[i]);
 *  - pairs init ; a* cannot reach get nothing (NULL);
 *  - the rules use only a basis of a: every edge that is not true, and the
 *    true edges of the transitive reduction of a's sure shape when that
 *    shape is acyclic.  A sure edge left out is implied in every execution
 *    by a sure path of basis edges, so a ; basis* = a+ and the least model
 *    of the rules is still exactly the closure.
 */
static void horn_closure(struct rel_ctx *rc, rel_t a, rel_t r, rel_t init,
			 const char *name)
{
	int n = rc->n;
	int plus = !init;
	if (plus)
		init = a;
	struct pattern *may = shape(rc, a, 0);
	pattern_close(may);
	struct pattern *sure_edges = shape(rc, a, 1);
	struct pattern *reduced = pattern_reduction(sure_edges);
	struct pattern *sure = sure_edges;
	pattern_close(sure); /* sure_edges is not needed past the reduction */
	sure_edges = NULL;
	unsigned char *fixed = xcalloc((size_t)n * (size_t)n, 1);
	int *entry = xmalloc(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; i++) {
		int entries = 0; /* init's row i: entry[0 .. entries-1] */
		for (int k = 0; k < n && !plus; k++)
			if (AT(init, i, k))
				entry[entries++] = k;
		for (int j = 0; j < n && (plus || entries); j++) {
			Z3_ast fix = NULL;
			int reach = 0;
			if (plus) { /* a+: a's own sure and possible paths */
				fix = pattern_get(sure, i, j) ? rc->t : NULL;
				reach = pattern_get(may, i, j);
			}
			for (int e = 0; e < entries && !(fix && rel_is_true(rc, fix)); e++) {
				int k = entry[e];
				Z3_ast x = AT(init, i, k);
				reach |= k == j || pattern_get(may, k, j);
				if (k == j || pattern_get(sure, k, j)) {
					if (rel_is_true(rc, x))
						fix = rc->t;
					else if (entries == 1)
						fix = x;
				}
			}
			if (fix) {
				AT(r, i, j) = fix;
				fixed[(size_t)i * n + j] = 1;
			} else if (reach) {
				AT(r, i, j) = rel_fresh_bool(rc, name);
			}
		}
	}
	free(entry);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < n; k++) { /* init => r */
			Z3_ast x = AT(init, i, k);
			if (x && !fixed[(size_t)i * n + k])
				rel_horn(rc, x, AT(r, i, k));
		}
		for (int k = 0; k < n; k++) {
			Z3_ast rik = AT(r, i, k);
			if (!rik)
				continue;
			for (int j = 0; j < n; j++) {
				Z3_ast x = AT(a, k, j);
				if (!x || fixed[(size_t)i * n + j])
					continue;
				if (reduced && rel_is_true(rc, x) && !pattern_get(reduced, k, j))
					continue; /* implied by a sure path of the basis */
				rel_horn(rc, rel_and2(rc, rik, x), AT(r, i, j));
			}
		}
	}
	free(fixed);
	pattern_free(reduced);
	pattern_free(sure);
	pattern_free(may);
}

/* a+ as fresh variables with the Horn rules of horn_closure(): every model
 * of the rules contains the true closure; the least model is the closure
 * itself. */
rel_t rel_plus(struct rel_ctx *rc, rel_t a, const char *name)
{
	rel_t r = rel_new(rc);
	if (!rel_gave_up(rc))
		horn_closure(rc, a, r, NULL, name);
	return r;
}

/* Rows of a* for the events of from only: Y ⊇ [from] and Y ; a ⊆ Y. */
/* init ; a* as one closure over init's rows: Y ⊇ init and Y ; a ⊆ Y. */
rel_t rel_seq_star(struct rel_ctx *rc, rel_t init, rel_t a, const char *name)
{
	rel_t r = rel_new(rc);
	if (!rel_gave_up(rc))
		horn_closure(rc, a, r, init, name);
	return r;
}

rel_t rel_star_from(struct rel_ctx *rc, set_t from, rel_t a, const char *name)
{
	return rel_seq_star(rc, rel_id(rc, from), a, name);
}

rel_t rel_star(struct rel_ctx *rc, rel_t a, const char *name)
{
	return rel_opt(rc, rel_plus(rc, a, name));
}

/* The strongly connected component of each event in a's may-graph
 * (malloc'ed, n entries). */
static int *scc_of(struct rel_ctx *rc, rel_t a)
{
	int n = rc->n, m = 0;
	int *first = xmalloc_array((size_t)n + 1, sizeof(int));
	int *adj = xmalloc_array((size_t)n * (size_t)n + 1, sizeof(int));
	for (int u = 0; u < n; u++) {
		first[u] = m;
		for (int w = 0; w < n; w++)
			if (REL_AT(a, n, u, w))
				adj[m++] = w;
	}
	first[n] = m;
	int *comp = xmalloc_array((size_t)n + 1, sizeof(int));
	scc_components(n, first, adj, comp, NULL);
	free(first);
	free(adj);
	return comp;
}

void rel_record_acyclic(struct rel_ctx *rc, Z3_ast holds, rel_t strict, rel_t weak)
{
	if (rc->nacyc == rc->acyc_cap) {
		rc->acyc_cap = (int)xgrow_cap((size_t)rc->acyc_cap, (size_t)rc->nacyc + 1, 8);
		rc->acyc = xrealloc_array(rc->acyc, (size_t)rc->acyc_cap, sizeof *rc->acyc);
	}
	rc->acyc[rc->nacyc++] = (struct rel_acyclic_check){holds, strict, weak};
}

/* Ranks over the SCCs of strict | weak: strict edges must increase the
 * rank, weak ones must not decrease it. */
static int cmp_entry_id(const void *pa, const void *pb)
{
	const unsigned *a = pa, *b = pb; /* {ast id, column} */
	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/*
 * The edges of a, inside strongly connected components (comp), whose rank
 * constraint is not implied by others.  With the sure (true-literal) edges
 * of a acyclic, two kinds are left out, both ordered by a path whose
 * constraints are kept (or, recursively, implied):
 *  - a sure edge (i, j) with another sure path from i to j: the
 *    transitive reduction keeps only the others;
 *  - an edge (i, j) with formula f when a sure path leads from k to j and
 *    (i, k) has the same formula f: under f, i is before k before j.
 *  - any edge (i, j) when a sure path leads from i to j.
 * The path stays inside the component of i and j, where the ranks are.
 */
static struct pattern *rank_edges(struct rel_ctx *rc, rel_t a, const int *comp)
{
	int n = rc->n;
	struct pattern *sure = shape(rc, a, 1);
	struct pattern *basis = pattern_reduction(sure);
	struct pattern *plus = basis ? pattern_plus(sure) : NULL;
	pattern_free(sure);
	struct pattern *need = pattern_new(n);
	unsigned *row = xmalloc(sizeof(unsigned) * 2 * (size_t)(n ? n : 1));
	uint64_t *beyond = xmalloc(sizeof(uint64_t) * (size_t)(need->words ? need->words : 1));
	for (int i = 0; i < n; i++) {
		int k = 0;
		for (int j = 0; j < n; j++) {
			Z3_ast x = AT(a, i, j);
			if (!x || i == j || comp[i] != comp[j])
				continue;
			if (rel_is_true(rc, x)) {
				if (!basis || pattern_get(basis, i, j))
					pattern_set(need, i, j);
				continue;
			}
			if (plus && pattern_get(plus, i, j))
				continue; /* a sure path orders i before j anyway */
			row[2 * k] = Z3_get_ast_id(rc->z, x);
			row[2 * k + 1] = (unsigned)j;
			k++;
		}
		qsort(row, (size_t)k, 2 * sizeof(unsigned), cmp_entry_id);
		for (int g = 0; g < k;) {
			int h = g;
			while (h < k && row[2 * h] == row[2 * g])
				h++;
			memset(beyond, 0, sizeof(uint64_t) * (size_t)need->words);
			if (plus && h - g > 1)
				for (int q = g; q < h; q++) {
					const uint64_t *pr = pattern_row(plus, (int)row[2 * q + 1]);
					for (int w = 0; w < need->words; w++)
						beyond[w] |= pr[w];
				}
			for (int q = g; q < h; q++) {
				int j = (int)row[2 * q + 1];
				if (!((beyond[j >> 6] >> (j & 63)) & 1u))
					pattern_set(need, i, j);
			}
			g = h;
		}
	}
	free(beyond);
	free(row);
	pattern_free(plus);
	pattern_free(basis);
	return need;
}

/* Ranks over the SCCs of strict | weak: strict edges must increase the
 * rank, weak ones must not decrease it. */
static Z3_ast ranked(struct rel_ctx *rc, rel_t strict, rel_t weak, const char *name)
{
	int n = rc->n;
	rel_t both = weak ? rel_union(rc, strict, weak) : strict;
	int *comp = scc_of(rc, both);

	Z3_ast *rank = xcalloc((size_t)n, sizeof(Z3_ast));
	Z3_ast_vector parts = Z3_mk_ast_vector(rc->z);
	Z3_ast_vector_inc_ref(rc->z, parts);
	char rname[64];
	snprintf(rname, sizeof rname, "rank-%s", name);
	for (int pass = 0; pass < (weak ? 2 : 1); pass++) {
		rel_t a = pass ? weak : strict;
		struct pattern *need = rank_edges(rc, a, comp);
		for (int i = 0; i < n; i++) {
			if (!pass && AT(a, i, i))
				Z3_ast_vector_push(rc->z, parts, rel_not(rc, AT(a, i, i)));
			for (int j = 0; j < n; j++) {
				if (!pattern_get(need, i, j))
					continue;
				if (!rank[i])
					rank[i] = rel_fresh_int(rc, rname);
				if (!rank[j])
					rank[j] = rel_fresh_int(rc, rname);
				Z3_ast ord = pass ? Z3_mk_le(rc->z, rank[i], rank[j])
						  : Z3_mk_lt(rc->z, rank[i], rank[j]);
				Z3_ast_vector_push(rc->z, parts,
						   Z3_mk_implies(rc->z, AT(a, i, j), ord));
			}
		}
		pattern_free(need);
	}
	unsigned k = Z3_ast_vector_size(rc->z, parts);
	Z3_ast res = z3u_and_vector(rc->z, parts);
	Z3_ast_vector_dec_ref(rc->z, parts);
	free(rank);
	free(comp);
	if (k)
		rel_record_acyclic(rc, res, strict, weak);
	return res;
}

Z3_ast rel_acyclic(struct rel_ctx *rc, rel_t a, const char *name)
{
	Z3_ast keyed = rel_keyed_acyclic(rc, a);
	return keyed ? keyed : ranked(rc, a, NULL, name);
}

Z3_ast rel_acyclic_through(struct rel_ctx *rc, rel_t strict, rel_t weak,
			   const char *name)
{
	return ranked(rc, strict, weak, name);
}

/*
 * a has a cycle iff some set of events is non-empty and each of them has an
 * a-successor in the set (follow successors: a finite walk must repeat an
 * event).  One fresh Boolean per event that may lie on a cycle says it is in
 * the set; the definitions are part of the returned formula, so that it can
 * be asserted in one solver and left out of another.  The result is exact
 * when the entries of a are: use it with rel_exact_defs().
 */
Z3_ast rel_cyclic(struct rel_ctx *rc, rel_t a, const char *name)
{
	int n = rc->n;
	int *comp = scc_of(rc, a);
	int *size = xcalloc((size_t)n, sizeof(int));
	for (int i = 0; i < n; i++)
		size[comp[i]]++;
	Z3_ast *on = xcalloc((size_t)n, sizeof(Z3_ast));
	char oname[64];
	snprintf(oname, sizeof oname, "on-cycle-%s", name);
	for (int i = 0; i < n; i++)
		if (size[comp[i]] > 1 || AT(a, i, i))
			on[i] = rel_fresh_bool(rc, oname);
	Z3_ast_vector parts = Z3_mk_ast_vector(rc->z);
	Z3_ast_vector_inc_ref(rc->z, parts);
	Z3_ast *buf = xmalloc(sizeof(Z3_ast) * (size_t)n);
	Z3_ast *some = xmalloc(sizeof(Z3_ast) * (size_t)n);
	int non = 0;
	for (int i = 0; i < n; i++) {
		if (!on[i])
			continue;
		int k = 0;
		for (int j = 0; j < n; j++)
			if (on[j] && comp[j] == comp[i] && AT(a, i, j))
				buf[k++] = rel_and2(rc, AT(a, i, j), on[j]);
		Z3_ast succ = rel_or_n(rc, buf, k);
		Z3_ast_vector_push(rc->z, parts, Z3_mk_implies(rc->z, on[i],
			succ ? succ : Z3_mk_false(rc->z)));
		some[non++] = on[i];
	}
	Z3_ast res = Z3_mk_false(rc->z);
	if (non) {
		Z3_ast_vector_push(rc->z, parts, Z3_mk_or(rc->z, (unsigned)non, some));
		res = z3u_and_vector(rc->z, parts);
	}
	Z3_ast_vector_dec_ref(rc->z, parts);
	free(some);
	free(buf);
	free(on);
	free(size);
	free(comp);
	return res;
}

static Z3_ast none_of(struct rel_ctx *rc, Z3_ast *xs, size_t k)
{
	Z3_ast *buf = xmalloc(sizeof(Z3_ast) * (k ? k : 1));
	int m = 0;
	for (size_t i = 0; i < k; i++)
		if (xs[i])
			buf[m++] = xs[i];
	Z3_ast any = rel_or_n(rc, buf, m);
	free(buf);
	return rel_not(rc, any);
}

Z3_ast rel_irreflexive(struct rel_ctx *rc, rel_t a)
{
	Z3_ast *diag = xmalloc(sizeof(Z3_ast) * (size_t)rc->n);
	for (int e = 0; e < rc->n; e++)
		diag[e] = AT(a, e, e);
	Z3_ast res = none_of(rc, diag, (size_t)rc->n);
	free(diag);
	return res;
}

Z3_ast rel_is_empty(struct rel_ctx *rc, rel_t a)
{
	return none_of(rc, a, (size_t)rc->n * (size_t)rc->n);
}

Z3_ast set_is_empty(struct rel_ctx *rc, set_t s)
{
	return none_of(rc, s, (size_t)rc->n);
}

int rel_count(const struct rel_ctx *rc, rel_t a)
{
	int k = 0;
	size_t nn = (size_t)rc->n * (size_t)rc->n;
	for (size_t i = 0; i < nn; i++)
		k += a[i] != NULL;
	return k;
}
