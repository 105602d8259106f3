/*
 * symex_deps.c - the sets of reads a symbolic value depends on (struct
 * deps), path-sensitive: each entry holds under a condition.  Symbolic
 * execution (symex.c) builds addr, data and ctrl from them; this file
 * makes no event.
 */
#include "encoder/symex.h"
#include "common/arena.h"

struct deps sx_deps_union(struct symex *sx, struct deps a, struct deps b)
{
	if (b.n == 0)
		return a;
	if (a.n == 0)
		return b;
	struct deps r;
	r.ids = arena_alloc(sx->enc->arena, sizeof(int) * (size_t)(a.n + b.n));
	r.cond = arena_alloc(sx->enc->arena, sizeof(Z3_ast) * (size_t)(a.n + b.n));
	r.n = 0;
	int i = 0, j = 0;
	while (i < a.n || j < b.n) {
		if (j >= b.n || (i < a.n && a.ids[i] < b.ids[j])) {
			r.cond[r.n] = a.cond ? a.cond[i] : NULL;
			r.ids[r.n++] = a.ids[i++];
		} else if (i >= a.n || b.ids[j] < a.ids[i]) {
			r.cond[r.n] = b.cond ? b.cond[j] : NULL;
			r.ids[r.n++] = b.ids[j++];
		} else {
			Z3_ast ca = a.cond ? a.cond[i] : NULL, cb = b.cond ? b.cond[j] : NULL;
			r.cond[r.n] = !ca || !cb ? NULL : rel_or2(sx->rc, ca, cb);
			r.ids[r.n++] = a.ids[i++];
			j++;
		}
	}
	return r;
}

/* The same dependencies, holding only when g does (a value taken from one
 * branch of an if depends on that branch's reads only on that path). */
struct deps sx_deps_when(struct symex *sx, struct deps a, Z3_ast g)
{
	struct deps r = a;
	if (a.n == 0)
		return r;
	r.cond = arena_alloc(sx->enc->arena, sizeof(Z3_ast) * (size_t)a.n);
	for (int i = 0; i < a.n; i++)
		r.cond[i] = rel_and2(sx->rc, a.cond && a.cond[i] ? a.cond[i] : sx->rc->t, g);
	return r;
}

/* Whether two dependency sets are the same (the same reads, each under
 * the same condition). */
static int deps_same(struct deps a, struct deps b)
{
	if (a.n != b.n)
		return 0;
	if (a.ids == b.ids && a.cond == b.cond)
		return 1;
	for (int i = 0; i < a.n; i++) {
		Z3_ast ca = a.cond ? a.cond[i] : NULL, cb = b.cond ? b.cond[i] : NULL;
		if (a.ids[i] != b.ids[i] || ca != cb)
			return 0;
	}
	return 1;
}

/* a on the paths where g holds, b on the others (a merge after an if). */
struct deps sx_deps_merge(struct symex *sx, struct deps a, struct deps b,
			  Z3_ast g)
{
	if (deps_same(a, b))
		return a;
	return sx_deps_union(sx, sx_deps_when(sx, a, g),
			  sx_deps_when(sx, b, Z3_mk_not(sx->z, g)));
}

struct deps sx_deps_one(struct symex *sx, int e)
{
	struct deps r;
	r.ids = arena_alloc(sx->enc->arena, sizeof(int));
	r.ids[0] = e;
	r.cond = NULL;
	r.n = 1;
	return r;
}
