/*
 * ctu.c - the parsed test's offset map and cursor children; see ctu.h.
 */
#include "ctu.h"

#include "fe.h"

size_t ctu_lit_off(const struct ctu *t, size_t buf_off)
{
	for (int i = 0; i < t->nchunks; i++) {
		const struct ctu_chunk *c = &t->chunks[i];
		if (buf_off >= c->buf_off && buf_off <= c->buf_off + c->len)
			return c->lit_off + (c->fixed ? 0 : buf_off - c->buf_off);
	}
	return (size_t)-1;
}

/* Children of a cursor, collected into a growing scratch array. */
struct kids {
	CXCursor *v;           /* the children */
	int n, cap;            /* count, room */
	struct arena *arena;   /* where v lives */
};

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent,
				       CXClientData data)
{
	(void)parent;
	struct kids *k = data;
	k->v = fe_reserve(k->arena, k->v, sizeof *k->v, k->n, &k->cap);
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

int ctu_kids(struct ctu *t, CXCursor c, CXCursor **out)
{
	struct kids k = { .arena = t->scratch };
	clang_visitChildren(c, collect, &k);
	*out = k.v;
	return k.n;
}
