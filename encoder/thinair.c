/*
 * thinair.c - values out of thin air: whether a test can have them, and
 * the "defined" encoding that gives them herd7's symbolic value when it
 * can (encoder.h: enc->defined).
 *
 * herd7 computes an execution's values by solving its equations; a value
 * on a cycle of data flow (a read, a write that depends on it, a read
 * that reads from that write, ... back to the first read) stays a symbol.
 * The encoding mirrors that with one Boolean per read and ranks on
 * values, which cost the search: on the per-thread-index ticket lock of 6
 * threads (bench/), whose fetch_add chain makes the static value-flow
 * graph cyclic, 4.1 s against 3.2 s without them.
 *
 * A cycle whose every data edge goes from a read to a write of the same
 * thread, po-after it (or the write of its own RMW), to the same fixed
 * location, never happens in a coherent execution: with w_i depending on
 * r_i and r_{i+1} reading from w_i, coherence puts the write r_i reads
 * from co-before w_i (else fr ; po-loc or po-loc ; rf closes a cycle), so
 * the writes of the cycle would be co-before themselves.  So with
 * encoder_options.coherent the machinery is built only when some cycle
 * of the static graph has another data edge (a value carried to another
 * location, as r = x; y = r).  Without coherence (--explain lists
 * incoherent candidates too) any cycle builds it.
 */
#include <stdlib.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "encoder/internal.h"
#include "encoder/z3util.h"

Z3_ast enc_write_defined(struct encoding *enc, int w)
{
	const struct event *x = &enc->ev[w];
	Z3_ast d = enc->rc.t;
	for (int i = 0; i < x->ndata_dep; i++) {
		Z3_ast c = x->data_dep_cond ? x->data_dep_cond[i] : NULL;
		Z3_ast def = enc->defined[x->data_dep[i]];
		d = rel_and2(&enc->rc, d, c ? Z3_mk_implies(enc->z, c, def) : def);
	}
	return d;
}

/* The static value-flow graph over reads: r -> r2 when a write w depends
 * on r and r2 may read from w (its address may be w's); "local" edges are
 * those whose w is a po-later write of r's thread to r's fixed location. */
struct flow {
	int n;
	int *start;   /* per read: its first edge in to[] (n + 1 entries) */
	int *to;      /* edge targets */
	char *local;  /* per edge */
};

static int local_edge(const struct encoding *enc, int r, int w)
{
	const struct event *x = &enc->ev[r], *y = &enc->ev[w];
	return enc->coherent && enc_fixed_access(x) && enc_fixed_access(y) &&
	       x->thread == y->thread && x->loc == y->loc && r < w;
}

static void flow_build(struct encoding *enc, struct flow *g)
{
	int n = enc->n, cap = 16, k = 0;
	g->n = n;
	g->start = xcalloc((size_t)n + 1, sizeof(int));
	g->to = xmalloc(sizeof(int) * (size_t)cap);
	g->local = xmalloc((size_t)cap);
	for (int r = 0; r < n; r++) {
		g->start[r] = k;
		if (!ev_has(&enc->ev[r], EVC_R))
			continue;
		for (int w = 0; w < n; w++) {
			const struct event *x = &enc->ev[w];
			int dep = 0;
			for (int i = 0; i < x->ndata_dep && !dep; i++)
				dep = x->data_dep[i] == r;
			if (!dep || !ev_has(x, EVC_W))
				continue;
			for (int r2 = 0; r2 < n; r2++) {
				if (!ev_has(&enc->ev[r2], EVC_R) || !enc_same_addr(enc, w, r2))
					continue;
				if (k == cap) {
					cap *= 2;
					g->to = xrealloc(g->to, sizeof(int) * (size_t)cap);
					g->local = xrealloc(g->local, (size_t)cap);
				}
				g->to[k] = r2;
				g->local[k++] = (char)local_edge(enc, r, w);
			}
		}
	}
	g->start[n] = k;
}

/* Does from reach to in g?  (seen: n bytes, cleared here) */
static int reaches(const struct flow *g, int from, int to, char *seen, int *queue)
{
	int head = 0, tail = 0;
	for (int i = 0; i < g->n; i++)
		seen[i] = 0;
	queue[tail++] = from;
	seen[from] = 1;
	while (head < tail) {
		int v = queue[head++];
		if (v == to)
			return 1;
		for (int e = g->start[v]; e < g->start[v + 1]; e++)
			if (!seen[g->to[e]]) {
				seen[g->to[e]] = 1;
				queue[tail++] = g->to[e];
			}
	}
	return 0;
}

/* Is some cycle of the value-flow graph possible: one through an edge
 * that is not local (all edges are not, without coherence)? */
static int thin_air_possible(struct encoding *enc)
{
	struct flow g;
	flow_build(enc, &g);
	char *seen = xmalloc((size_t)g.n + 1);
	int *queue = xmalloc(sizeof(int) * ((size_t)g.n + 1));
	int found = 0;
	for (int r = 0; r < g.n && !found; r++)
		for (int e = g.start[r]; e < g.start[r + 1] && !found; e++)
			found = !g.local[e] && reaches(&g, g.to[e], r, seen, queue);
	free(seen);
	free(queue);
	free(g.start);
	free(g.to);
	free(g.local);
	return found;
}

void thin_air_prepare(struct encoding *enc)
{
	if (!thin_air_possible(enc))
		return;
	enc->defined = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)enc->n);
	for (int e = 0; e < enc->n; e++)
		enc->defined[e] = ev_has(&enc->ev[e], EVC_R)
			? rel_fresh_bool(&enc->rc, "defined") : enc->rc.t;
}

/*
 * Values out of thin air.  herd7 computes values by solving the equations
 * of one execution; a value on a cycle of data flow (read -> write that
 * depends on it -> read) stays a symbol.  We mirror that with "defined":
 * exactly the least fixpoint of "a read is defined if it reads from a write
 * whose data dependencies are all defined" (Horn rules force at least the
 * fixpoint, ranks on a well-founded justification force at most it), and an
 * undefined read takes the value ENC_SYMBOLIC.  Only built when some
 * consistent execution may have such a cycle (thin_air_prepare).
 */
static void build(struct encoding *enc)
{
	Z3_context z = enc->z;
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	Z3_ast *vrank = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)n);
	for (int e = 0; e < n; e++)
		if (enc->ev[e].val)
			vrank[e] = rel_fresh_int(rc, "vrank");
	for (int w = 0; w < n; w++) {
		const struct event *x = &enc->ev[w];
		if (!ev_has(x, EVC_W))
			continue;
		for (int i = 0; i < x->ndata_dep; i++) {
			int d = x->data_dep[i];
			enc_fact(enc, Z3_mk_implies(z, enc_write_defined(enc, w),
						Z3_mk_lt(z, vrank[d], vrank[w])));
		}
	}
	for (int r = 0; r < n; r++) {
		if (!ev_has(&enc->ev[r], EVC_R))
			continue;
		Z3_ast def = enc->defined[r];
		/* A read that does not happen constrains nothing. */
		enc_fact(enc, Z3_mk_implies(z, Z3_mk_not(z, enc->guard[r]), def));
		enc_fact(enc, Z3_mk_implies(z, Z3_mk_not(z, def),
			Z3_mk_eq(z, enc->ev[r].val, z3u_int(z, ENC_SYMBOLIC))));
		for (int w = 0; w < n; w++) {
			Z3_ast v = REL_AT(enc->rf_var, n, w, r);
			if (!v)
				continue;
			Z3_ast wd = enc_write_defined(enc, w);
			enc_fact(enc, Z3_mk_implies(z, rel_and2(rc, v, wd), def));
			Z3_ast just[2] = {wd, Z3_mk_lt(z, vrank[w], vrank[r])};
			enc_fact(enc, Z3_mk_implies(z, rel_and2(rc, v, def), Z3_mk_and(z, 2, just)));
		}
	}
}


void thin_air_build(struct encoding *enc)
{
	if (enc->defined)
		build(enc);
}
