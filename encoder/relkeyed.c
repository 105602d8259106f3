/*
 * relkeyed.c - co, fr and rf by their timestamps in the relation algebra
 * (rel.h: rel_keyed): a sequence's terms folded into one comparison
 * (rel_keyed_fold, for rel_seq) and acyclicity of coherence's shape by
 * comparisons instead of ranks (rel_keyed_acyclic, for rel_acyclic).
 * Each is an equivalence in every solution of the program's
 * constraints; it makes no variable and leaves any other shape alone.
 */
#include "rel.h"

#include <stdlib.h>

#include "common/check.h"
#include "common/xalloc.h"
#include "encoder/pattern.h"
#include "encoder/rel_int.h"
#include "encoder/z3util.h"

#define AT(r, a, b) REL_AT(r, rc->n, a, b)

/*
 * The terms of (a ; b)(i, j) that rc->keyed folds (rel_keyed): those whose
 * a entry is lt's (or rlt's) own formula and whose b entry is pick's.  The
 * others go to buf as they are, and so does a lone term of a side (its
 * fold would be no smaller).  picks: room for 2 * n formulas.  Returns
 * the number of disjuncts in buf.
 */
int rel_keyed_fold(struct rel_ctx *rc, rel_t a, rel_t b, int i, int j,
		      const int *mid, int k, Z3_ast *buf, Z3_ast *picks)
{
	const struct rel_keyed *kd = rc->keyed;
	int n = rc->n, m = 0, np[2] = {0, 0};
	Z3_ast lone[2] = {NULL, NULL};
	for (int q = 0; q < k; q++) {
		int c = mid[q];
		Z3_ast x = AT(a, i, c), y = AT(b, c, j);
		if (!y)
			continue;
		int side = y != AT(kd->pick, c, j) ? -1
			: x == AT(kd->lt, i, c) ? 0 : x == AT(kd->rlt, i, c) ? 1 : -1;
		if (side < 0) {
			buf[m++] = rel_and2(rc, x, y);
			continue;
		}
		if (!np[side])
			lone[side] = rel_and2(rc, x, y);
		picks[side * n + np[side]++] = y;
	}
	for (int side = 0; side < 2; side++) {
		if (np[side] < 2) {
			if (np[side])
				buf[m++] = lone[side];
			continue;
		}
		Z3_ast same = kd->same(kd->ctx, i, j);
		if (!same)
			continue; /* i and j never share an address: all false */
		const Z3_ast *key = side ? kd->rkey : kd->key;
		CHECK(key[i] && kd->rkey[j], "rel_seq: keyed terms of %d, %d without keys",
		      i, j);
		Z3_ast any = rel_or_n(rc, picks + side * n, np[side]);
		Z3_ast before = Z3_mk_lt(rc->z, key[i], kd->rkey[j]);
		buf[m++] = rel_and2(rc, rel_and2(rc, rc->guard[i], same),
				    rel_and2(rc, before, any));
	}
	return m;
}

/* Is x the keyed entry e, true, or an or with e among its arguments? */
static int holds_entry(struct rel_ctx *rc, Z3_ast x, Z3_ast e)
{
	Z3_context z = rc->z;
	if (x == e || rel_is_true(rc, x))
		return 1;
	if (Z3_get_ast_kind(z, x) != Z3_APP_AST)
		return 0;
	Z3_app app = Z3_to_app(z, x);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_OR)
		return 0;
	for (unsigned k = 0; k < Z3_get_app_num_args(z, app); k++)
		if (Z3_get_app_arg(z, app, k) == e)
			return 1;
	return 0;
}

/* The entry of lt, rlt or pick at (i, j) (at most one has one), NULL. */
static Z3_ast keyed_entry(const struct rel_ctx *rc, int i, int j)
{
	const struct rel_keyed *kd = rc->keyed;
	return AT(kd->lt, i, j) ? AT(kd->lt, i, j) : AT(kd->rlt, i, j) ? AT(kd->rlt, i, j)
		: AT(kd->pick, i, j);
}

/* Event i's key in rel_keyed_acyclic: 1 a write's, 2 a read's, 0 none. */
static int key_kind(const struct rel_keyed *kd, int i)
{
	return kd->key[i] ? 1 : kd->rkey[i] ? 2 : 0;
}

/*
 * acyclic(a) without ranks, for coherence's shape: a holds every entry
 * of rc->keyed's lt, rlt and pick, and each other entry (i, j) joins a
 * write or a read i to a write or a read j > i of the same static
 * location.  Every event then sorts by K = (key, 0) for a write and
 * (rkey, 1) for a read: lt, rlt and pick raise K, and each other entry
 * is asked to, strictly unless both are reads:
 *   W -> W  key[i] < key[j]      W -> R  key[i] <= rkey[j]
 *   R -> W  rkey[i] < key[j]     R -> R  rkey[i] <= rkey[j]
 * A cycle would then be of reads only, on other entries, which all go
 * forward (j > i): there is none.  Conversely an execution where such an
 * entry lowers K has a cycle in a through the lt, rlt and pick entries
 * of its writes (co totally orders a location's executed writes by key,
 * fr follows from rf and co): W -> W with key[j] < key[i] closes by
 * lt (j, i); W -> R reading a write w below i by rlt (j, i); R -> W
 * reading j or a write above it by pick, or lt then pick; R -> R where
 * j reads below i's write w by rlt (j, w) and pick (w, i).  Where an
 * entry is a sure path's consequence (transitive reduction of the sure
 * other entries), it is left out: the chain implies it.  Returns NULL when
 * a has another shape, or some event is both a read and a write (then
 * ranks decide).
 */
Z3_ast rel_keyed_acyclic(struct rel_ctx *rc, rel_t a)
{
	const struct rel_keyed *kd = rc->keyed;
	Z3_context z = rc->z;
	int n = rc->n;
	if (!kd)
		return NULL;
	for (int i = 0; i < n; i++)
		if (kd->key[i] && kd->rkey[i])
			return NULL; /* an event both read and write has no one K */
	struct pattern *sure = pattern_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			Z3_ast x = AT(a, i, j);
			Z3_ast e = keyed_entry(rc, i, j);
			if (e && (!x || !holds_entry(rc, x, e)))
				goto other_shape; /* a misses a keyed entry */
			if (!x || x == e)
				continue;
			if (j <= i || !key_kind(kd, i) || !key_kind(kd, j) ||
			    !rel_is_true(rc, kd->same(kd->ctx, i, j)))
				goto other_shape;
			if (rel_is_true(rc, x))
				pattern_set(sure, i, j);
		}
	struct pattern *basis = pattern_reduction(sure);
	CHECK(basis != NULL, "keyed_acyclic: forward entries with a cycle");
	Z3_ast_vector parts = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, parts);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			Z3_ast x = AT(a, i, j);
			Z3_ast e = keyed_entry(rc, i, j);
			if (!x || x == e || (rel_is_true(rc, x) && !pattern_get(basis, i, j)))
				continue;
			int wi = key_kind(kd, i) == 1, wj = key_kind(kd, j) == 1;
			Z3_ast ki = wi ? kd->key[i] : kd->rkey[i];
			Z3_ast kj = wj ? kd->key[j] : kd->rkey[j];
			/* strictly below a write, at most a read's key */
			Z3_ast up = wj ? Z3_mk_lt(z, ki, kj) : Z3_mk_le(z, ki, kj);
			if (rel_is_true(rc, x))
				Z3_ast_vector_push(z, parts, up);
			else
				Z3_ast_vector_push(z, parts, Z3_mk_implies(z, x, up));
		}
	pattern_free(basis);
	pattern_free(sure);
	unsigned k = Z3_ast_vector_size(z, parts);
	Z3_ast res = z3u_and_vector(z, parts);
	Z3_ast_vector_dec_ref(z, parts);
	if (k)
		rel_record_acyclic(rc, res, a, NULL);
	return res;
other_shape:
	pattern_free(sure);
	return NULL;
}
