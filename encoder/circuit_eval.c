/*
 * circuit_eval.c - the circuit's nodes evaluated on one execution
 * (circuit.h): atoms from a Z3 model or given values, connectives, closures
 * as least fixpoints of their components, acyclicity checks by a search
 * for a cycle; two bounds a node for a partial assignment.  It compiles
 * and justifies nothing (circuit.c, circuit_why.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/scc.h"
#include "common/xalloc.h"
#include "encoder/circuit_int.h"
/* ---- evaluating ---- */

/*
 * Each node gets two bounds: lo, it is true whatever the atoms not known
 * yet turn out to be; hi, it can still be true.  With every atom known
 * they agree (lo == hi is the value); with some unknown (a partial
 * assignment, in the middle of Z3's search) hi == 0 on an axiom already
 * says every completion breaks it.
 */

/* Atom u's bounds: from the given values, else from m. */
static void atom_bounds(struct circuit *c, Z3_model m, int u, int *ok)
{
	int lo = 0, hi = 1;
	if (c->given) {
		signed char g = c->given[c->atom_of[u]];
		if (g >= 0)
			lo = hi = g;
		else
			*ok = 0; /* the bounds still hold */
	} else {
		Z3_ast v = NULL;
		Z3_lbool b = Z3_L_UNDEF;
		if (Z3_model_eval(c->z, m, c->ast[u], 1, &v))
			b = Z3_get_bool_value(c->z, v);
		if (b == Z3_L_UNDEF)
			*ok = 0;
		else
			lo = hi = b == Z3_L_TRUE;
	}
	c->lo[u] = (unsigned char)lo;
	c->hi[u] = (unsigned char)hi;
}

/* The events' graph of an acyclicity check's surely true edges: per
 * event, its out-edges as pool slots, in out[first[i] .. first[i + 1]). */
struct acyc_graph {
	int n;
	int *first, *out;
};

static void acyc_graph(const struct circuit *c, int u, struct acyc_graph *g)
{
	int n = c->rc->n;
	g->n = n;
	g->first = xcalloc((size_t)n + 1, sizeof(int));
	g->out = xmalloc_array((size_t)c->nkid[u] + 1, sizeof(int));
	for (int k = 0; k < c->nkid[u]; k++)
		if (c->lo[circuit_kid(c, u, k)])
			g->first[c->edge[c->first[u] + k] / 2 / n + 1]++;
	for (int i = 0; i < n; i++)
		g->first[i + 1] += g->first[i];
	int *fill = xmalloc_array((size_t)n + 1, sizeof(int));
	memcpy(fill, g->first, sizeof(int) * ((size_t)n + 1));
	for (int k = 0; k < c->nkid[u]; k++)
		if (c->lo[circuit_kid(c, u, k)])
			g->out[fill[c->edge[c->first[u] + k] / 2 / n]++] = c->first[u] + k;
	free(fill);
}

/* A shortest path of g's edges from a to b (a == b: the empty one) into
 * path (pool slots); its length, -1 when none. */
static int acyc_path(const struct circuit *c, const struct acyc_graph *g, int a, int b,
		     int *path)
{
	int n = g->n;
	int *via = xmalloc_array((size_t)n, sizeof(int)); /* slot reaching it */
	int *queue = xmalloc_array((size_t)n, sizeof(int));
	for (int i = 0; i < n; i++)
		via[i] = -2;
	via[a] = -1;
	int head = 0, tail = 0, len = -1;
	queue[tail++] = a;
	while (head < tail && via[b] == -2) {
		int i = queue[head++];
		for (int e = g->first[i]; e < g->first[i + 1]; e++) {
			int j = c->edge[g->out[e]] / 2 % n;
			if (via[j] == -2) {
				via[j] = g->out[e];
				queue[tail++] = j;
			}
		}
	}
	if (via[b] != -2) {
		len = 0;
		for (int j = b; j != a; j = c->edge[via[j]] / 2 / n)
			path[len++] = via[j];
	}
	free(via);
	free(queue);
	return len;
}

/* The strongly connected components of g into comp[]: an edge lies on
 * a cycle exactly when its ends share one. */
static void acyc_components(const struct circuit *c, const struct acyc_graph *g, int *comp)
{
	int n = g->n, m = g->first[n];
	int *target = xmalloc_array((size_t)m + 1, sizeof(int));
	for (int e = 0; e < m; e++)
		target[e] = c->edge[g->out[e]] / 2 % n;
	scc_components(n, g->first, target, comp, NULL);
	free(target);
}

/* A cycle of check u's surely true edges through a strict one, shortest
 * among the first few tried, into cyc (pool slots); its length, 0 when
 * there is none.  Only strict edges inside a component are tried: the
 * others have no path back. */
int circuit_acyc_cycle(const struct circuit *c, int u, int *cyc)
{
	int n = c->rc->n;
	struct acyc_graph g;
	acyc_graph(c, u, &g);
	int *comp = xmalloc_array((size_t)n + 1, sizeof(int));
	acyc_components(c, &g, comp);
	int *path = xmalloc_array((size_t)n + 1, sizeof(int));
	int best = 0, tried = 0;
	for (int k = 0; k < c->nkid[u] && tried < 8; k++) {
		int slot = c->first[u] + k, e = c->edge[slot];
		if (!(e & 1) || !c->lo[c->pool[slot]])
			continue;
		int i = e / 2 / n, j = e / 2 % n;
		if (comp[i] != comp[j])
			continue;
		int len = acyc_path(c, &g, j, i, path);
		if (len < 0)
			continue;
		tried++;
		if (!best || len + 1 < best) {
			best = len + 1;
			cyc[0] = slot;
			memcpy(cyc + 1, path, sizeof(int) * (size_t)len);
		}
		if (best == 1)
			break;
	}
	free(path);
	free(comp);
	free(g.first);
	free(g.out);
	return best;
}

/* Both bounds of an and (and = 1) or an or over u's children. */
static void junction(struct circuit *c, int u, int and)
{
	int lo = and, hi = and;
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = circuit_kid(c, u, k);
		if (and) {
			lo &= c->lo[v];
			hi &= c->hi[v];
		} else {
			if (c->lo[v] && !lo)
				c->reason[u] = v;
			lo |= c->lo[v];
			hi |= c->hi[v];
		}
	}
	c->lo[u] = (unsigned char)lo;
	c->hi[u] = (unsigned char)hi;
}

/* u's bounds from its children's (u outside any cycle). */
void circuit_node_bounds(struct circuit *c, Z3_model m, int u, int *ok)
{
	int a = c->nkid[u] > 0 ? circuit_kid(c, u, 0) : -1;
	int b = c->nkid[u] > 1 ? circuit_kid(c, u, 1) : -1;
	int lo, hi;
	switch ((enum circuit_kind)c->kind[u]) {
	case CK_TRUE: lo = hi = 1; break;
	case CK_FALSE: lo = hi = 0; break;
	case CK_ATOM: atom_bounds(c, m, u, ok); return;
	case CK_AND: junction(c, u, 1); return;
	case CK_OR:
	case CK_NAMED:
	case CK_HORN: junction(c, u, 0); return;
	case CK_NOT: lo = !c->hi[a]; hi = !c->lo[a]; break;
	case CK_IMPLIES: lo = !c->hi[a] || c->lo[b]; hi = !c->lo[a] || c->hi[b]; break;
	case CK_IFF:
	case CK_XOR: {
		int same = (c->lo[a] && c->lo[b]) || (!c->hi[a] && !c->hi[b]);
		int differ = (c->lo[a] && !c->hi[b]) || (!c->hi[a] && c->lo[b]);
		int iff = c->kind[u] == CK_IFF;
		lo = iff ? same : differ;
		hi = iff ? !differ : !same;
		break;
	}
	case CK_ITE: {
		int t = circuit_kid(c, u, 1), e = circuit_kid(c, u, 2);
		if (c->lo[a] || !c->hi[a]) {
			int v = c->lo[a] ? t : e;
			lo = c->lo[v];
			hi = c->hi[v];
		} else {
			lo = c->lo[t] && c->lo[e];
			hi = c->hi[t] || c->hi[e];
		}
		break;
	}
	case CK_ACYC: {
		int *cyc = xmalloc_array((size_t)c->rc->n + 1, sizeof(int));
		hi = circuit_acyc_cycle(c, u, cyc) == 0;
		free(cyc);
		/* surely acyclic only when every edge is known */
		lo = hi;
		for (int k = 0; k < c->nkid[u] && lo; k++)
			lo = c->lo[circuit_kid(c, u, k)] == c->hi[circuit_kid(c, u, k)];
		break;
	}
	default:
		CHECK_UNREACHABLE("circuit: node kind %d", c->kind[u]);
	}
	c->lo[u] = (unsigned char)lo;
	c->hi[u] = (unsigned char)hi;
}

/* One bound (bound: c->lo or c->hi) of a cycle of and/or nodes: the
 * least fixpoint by unit propagation, reasons kept for lo. */
static void eval_cyclic_bound(struct circuit *c, int comp, unsigned char *bound)
{
	int from = c->comp_start[comp], to = c->comp_start[comp + 1];
	int is_lo = bound == c->lo;
	size_t sp = 0;
	for (int i = from; i < to; i++) {
		int u = c->comp_nodes[i], nk = c->nkid[u];
		bound[u] = 0;
		if (is_lo)
			c->reason[u] = -1;
		if (c->kind[u] == CK_AND) {
			c->need[u] = 0;
			for (int k = 0; k < nk; k++) {
				int v = circuit_kid(c, u, k);
				if (c->comp[v] == comp)
					c->need[u]++;
				else if (!bound[v])
					c->need[u] = -1 - nk; /* false for good */
			}
			if (c->need[u] == 0)
				bound[u] = 1;
		} else {
			for (int k = 0; k < nk && !bound[u]; k++) {
				int v = circuit_kid(c, u, k);
				if (c->comp[v] != comp && bound[v]) {
					bound[u] = 1;
					if (is_lo)
						c->reason[u] = v;
				}
			}
		}
		if (bound[u])
			circuit_push(c, &sp, u);
	}
	/* each node is pushed once, when it becomes true */
	for (size_t qi = 0; qi < sp; qi++) {
		int v = c->stack[qi];
		for (int r = c->rev_first[v]; r < c->rev_first[v + 1]; r++) {
			int p = c->rev[r];
			if (bound[p])
				continue;
			if (c->kind[p] == CK_AND && --c->need[p] != 0)
				continue;
			bound[p] = 1;
			if (is_lo && c->kind[p] != CK_AND)
				c->reason[p] = v;
			circuit_push(c, &sp, p);
		}
	}
}

/* Evaluate the components of the first upto nodes (which come first:
 * later nodes never reach earlier ones' components). */
static int eval_upto(struct circuit *c, Z3_model m, int upto)
{
	CHECK(!c->broken && c->prepared == c->n, "circuit: evaluated unprepared");
	int ok = 1;
	for (int comp = 0; comp < c->ncomp; comp++) {
		if (c->comp_nodes[c->comp_start[comp]] >= upto)
			break;
		if (c->comp_cyclic[comp]) {
			eval_cyclic_bound(c, comp, c->lo);
			eval_cyclic_bound(c, comp, c->hi);
			continue;
		}
		int u = c->comp_nodes[c->comp_start[comp]];
		c->reason[u] = -1;
		circuit_node_bounds(c, m, u, &ok);
	}
	return ok;
}

int circuit_eval(struct circuit *c, Z3_model m)
{
	return eval_upto(c, m, c->n);
}

int circuit_eval_given(struct circuit *c, const signed char *atom_val, int nodes)
{
	c->given = atom_val;
	int ok = eval_upto(c, NULL, nodes);
	c->given = NULL;
	return ok;
}

int circuit_atom_count(const struct circuit *c)
{
	return c->natoms;
}

Z3_ast circuit_atom(const struct circuit *c, int atom)
{
	return c->ast[c->atom_node[atom]];
}

int circuit_value(const struct circuit *c, int node)
{
	return c->lo[node] ? 1 : c->hi[node] ? -1 : 0;
}
