/*
 * circuit_why.c - the atoms that force a node's value in the last
 * evaluation (circuit.h's circuit_justify): the clause that rules out an
 * execution is their negation.  It evaluates nothing (circuit_eval.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/xalloc.h"
#include "encoder/circuit_int.h"
/* ---- justifying ---- */

static void add_lit(struct circuit *c, int u, int want)
{
	if (c->nlits == c->lits_cap) {
		c->lits_cap = xgrow_cap(c->lits_cap, c->nlits + 1, 64);
		c->lits = xrealloc_array(c->lits, c->lits_cap, sizeof *c->lits);
		c->lit_atoms = xrealloc_array(c->lit_atoms, c->lits_cap, sizeof(int));
	}
	c->lit_atoms[c->nlits] = c->atom_of[u];
	c->lits[c->nlits++] = !c->make_lits ? NULL : want ? c->ast[u] : Z3_mk_not(c->z, c->ast[u]);
}

/* Node v wanted surely true (want 1) or surely false (0), on the stack
 * as 2 * v + want. */
static void want(struct circuit *c, size_t *sp, int v, int w)
{
	CHECK(w ? c->lo[v] : !c->hi[v], "circuit: node %d is not surely %d", v, w);
	circuit_push(c, sp, 2 * v + w);
}

/* Want every child of u as it surely is. */
static void want_all(struct circuit *c, int u, size_t *sp)
{
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = circuit_kid(c, u, k);
		if (c->lo[v] || !c->hi[v])
			want(c, sp, v, c->lo[v]);
	}
}

/* A child of u that is surely false, outside u's cycle if any. */
static int false_kid(const struct circuit *c, int u)
{
	int pick = -1;
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = circuit_kid(c, u, k);
		if (c->hi[v])
			continue;
		if (pick < 0 || c->comp[v] != c->comp[u])
			pick = v;
		if (c->comp[v] != c->comp[u])
			break;
	}
	return pick;
}

/* Push what makes u surely w. */
static void justify_node(struct circuit *c, int u, int w, size_t *sp)
{
	int a = c->nkid[u] > 0 ? circuit_kid(c, u, 0) : -1;
	int b = c->nkid[u] > 1 ? circuit_kid(c, u, 1) : -1;
	switch ((enum circuit_kind)c->kind[u]) {
	case CK_TRUE:
	case CK_FALSE:
		return;
	case CK_ATOM:
		add_lit(c, u, w);
		return;
	case CK_AND:
		if (w)
			want_all(c, u, sp);
		else
			want(c, sp, false_kid(c, u), 0);
		return;
	case CK_OR:
	case CK_NAMED:
	case CK_HORN:
		if (w) {
			CHECK(c->reason[u] >= 0, "circuit: true node %d without a reason", u);
			want(c, sp, c->reason[u], 1);
		} else {
			want_all(c, u, sp);
		}
		return;
	case CK_NOT:
		want(c, sp, a, !w);
		return;
	case CK_IMPLIES:
		if (w && !c->hi[a])
			want(c, sp, a, 0);
		else if (w)
			want(c, sp, b, 1);
		else {
			want(c, sp, a, 1);
			want(c, sp, b, 0);
		}
		return;
	case CK_IFF:
	case CK_XOR:
		want(c, sp, a, c->lo[a]);
		want(c, sp, b, c->lo[b]);
		return;
	case CK_ITE:
		if (c->lo[a] || !c->hi[a]) {
			want(c, sp, a, c->lo[a]);
			want(c, sp, c->lo[a] ? b : circuit_kid(c, u, 2), w);
		} else {
			want(c, sp, b, w);
			want(c, sp, circuit_kid(c, u, 2), w);
		}
		return;
	case CK_ACYC:
		if (!w) {
			int *cyc = xmalloc_array((size_t)c->rc->n + 1, sizeof(int));
			int len = circuit_acyc_cycle(c, u, cyc);
			CHECK(len > 0, "circuit: violated check %d without a cycle", u);
			for (int k = 0; k < len; k++)
				want(c, sp, c->pool[cyc[k]], 1);
			free(cyc);
		} else {
			want_all(c, u, sp);
		}
		return;
	}
}

/*
 * A closure's false entry is justified by all its clauses' lhs being
 * false, which may lead back to itself: each node is walked once, and a
 * node met again adds nothing.  That is sound: the false nodes walked form
 * an unfounded set, which the least fixpoint leaves false as long as the
 * atoms found keep their values.  A true or-like node in a cycle follows
 * the child that made it true, which became true before it: no loop.
 */
/* Justify each of wanted[0..n) (2 * node + value), together. */
static int justify_walk(struct circuit *c, const int *wanted, int n, int make_lits)
{
	c->nlits = 0;
	c->make_lits = make_lits;
	if (++c->cur == 0) { /* the stamps wrapped around */
		memset(c->stamp, 0, sizeof(unsigned) * (size_t)c->n);
		c->cur = 1;
	}
	size_t sp = 0;
	for (int i = 0; i < n; i++)
		want(c, &sp, wanted[i] / 2, wanted[i] & 1);
	while (sp) {
		int x = c->stack[--sp], u = x / 2;
		if (c->stamp[u] == c->cur)
			continue;
		c->stamp[u] = c->cur;
		justify_node(c, u, x & 1, &sp);
	}
	return (int)c->nlits;
}

int circuit_justify(struct circuit *c, int node, Z3_ast **lits)
{
	int wanted = 2 * node + c->lo[node];
	int k = justify_walk(c, &wanted, 1, 1);
	*lits = c->lits;
	return k;
}

int circuit_justify_atoms(struct circuit *c, const int *wanted, int n)
{
	return justify_walk(c, wanted, n, 0);
}

const int *circuit_justified_atoms(const struct circuit *c)
{
	return c->lit_atoms;
}

Z3_ast circuit_clause(struct circuit *c, int node, Z3_ast extra, int *nlits)
{
	Z3_ast *lits;
	int k = circuit_justify(c, node, &lits);
	Z3_ast *neg = xmalloc_array((size_t)k + 1, sizeof(Z3_ast));
	for (int i = 0; i < k; i++)
		neg[i] = Z3_mk_not(c->z, lits[i]);
	if (extra)
		neg[k++] = extra;
	Z3_ast clause = k ? Z3_mk_or(c->z, (unsigned)k, neg) : Z3_mk_false(c->z);
	free(neg);
	if (nlits)
		*nlits = k;
	return clause;
}
