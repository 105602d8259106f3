/*
 * relwalk.c - the closure of a relation given as the walks of a small
 * automaton over events (rel_plus_walks, see rel.h), as Horn clauses
 * row by row: a sequence a ; b inside the closed relation gets a
 * variable at its middle event instead of one rule per pair of its edges.
 */
#include "rel.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "encoder/pattern.h"

#define AT(r, a, b) REL_AT(r, rc->n, a, b)

/* One step of the automaton between product nodes (event * nstates +
 * state). */
struct walk_step {
	int to;       /* the product node reached */
	Z3_ast when;  /* the step's formula */
};

/* The steps out of each product node, and the one row being built. */
struct walk_graph {
	int nodes;              /* events * states */
	int *first;             /* steps of node u: step[first[u] .. first[u + 1]) */
	struct walk_step *step; /* all steps, grouped by source node */
	int *queue;             /* per row: the nodes reached, in BFS order */
	unsigned char *mark;    /* per row: 1 reached, 2 reached by sure steps only */
	Z3_ast *var;            /* per row: each reached node's variable */
};

/* The sure steps of a diagonal relation (state to itself) that a path of
 * other sure steps of it implies: left out of the rules, as horn_closure
 * does (its least model is the same).  NULL: keep every step. */
static struct pattern *dropped_steps(struct rel_ctx *rc, rel_t a)
{
	int n = rc->n;
	struct pattern *sure = pattern_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (rel_is_true(rc, AT(a, i, j)))
				pattern_set(sure, i, j);
	struct pattern *reduced = pattern_reduction(sure);
	if (!reduced) {
		pattern_free(sure);
		return NULL;
	}
	for (int i = 0; i < n; i++) { /* sure := sure \ reduced */
		uint64_t *s = pattern_row(sure, i), *r = pattern_row(reduced, i);
		for (int w = 0; w < sure->words; w++)
			s[w] &= ~r[w];
	}
	pattern_free(reduced);
	return sure;
}

static void graph_build(struct rel_ctx *rc, int nstates, const rel_t *edge,
			struct walk_graph *g)
{
	int n = rc->n;
	g->nodes = n * nstates;
	g->first = xcalloc((size_t)g->nodes + 1, sizeof(int));
	struct pattern **drop = xcalloc((size_t)nstates, sizeof *drop);
	for (int p = 0; p < nstates; p++)
		if (edge[p * nstates + p])
			drop[p] = dropped_steps(rc, edge[p * nstates + p]);
	/* two passes: count the steps of each node, then place them */
	for (int pass = 0; pass < 2; pass++) {
		int *fill = pass ? xmalloc(sizeof(int) * (size_t)g->nodes) : NULL;
		if (pass) {
			for (int u = 0; u < g->nodes; u++)
				g->first[u + 1] += g->first[u];
			memcpy(fill, g->first, sizeof(int) * (size_t)g->nodes);
			g->step = xmalloc(sizeof *g->step * (size_t)(g->first[g->nodes] + 1));
		}
		for (int p = 0; p < nstates; p++)
			for (int q = 0; q < nstates; q++) {
				rel_t a = edge[p * nstates + q];
				for (int i = 0; a && i < n; i++)
					for (int j = 0; j < n; j++) {
						if (!AT(a, i, j) ||
						    (p == q && drop[p] && pattern_get(drop[p], i, j)))
							continue;
						int u = i * nstates + p;
						if (!pass) {
							g->first[u + 1]++;
							continue;
						}
						g->step[fill[u]++] = (struct walk_step){
							j * nstates + q, AT(a, i, j)};
					}
			}
		free(fill);
	}
	for (int p = 0; p < nstates; p++)
		pattern_free(drop[p]);
	free(drop);
	g->queue = xmalloc(sizeof(int) * (size_t)(g->nodes + 1));
	g->mark = xcalloc((size_t)g->nodes + 1, 1);
	g->var = xcalloc((size_t)g->nodes + 1, sizeof(Z3_ast));
}

static void graph_free(struct walk_graph *g)
{
	free(g->first);
	free(g->step);
	free(g->queue);
	free(g->mark);
	free(g->var);
}

/* The Horn literal of a step's target in row i: its variable, or for
 * start (a walk back to i: entry (i, i)) the one *back, made on first use. */
static Z3_ast target(struct rel_ctx *rc, struct walk_graph *g, int v, int start,
		     Z3_ast *back, const char *name)
{
	if (v != start)
		return g->var[v];
	if (!*back)
		*back = rel_fresh_bool(rc, name);
	return *back;
}

/* Row i of the closure, walks from node start = (i, state 0): the nodes
 * they may reach (those reached by true-literal steps alone are fixed
 * true, the others get a variable) and one rule per step out of start or
 * of a node with a variable.  start itself stands for the empty walk; a
 * walk back to it is entry (i, i), whose steps onwards add nothing. */
static void walk_row(struct rel_ctx *rc, struct walk_graph *g, int start,
		     int nstates, rel_t r, int i, const char *name)
{
	int nq = 0;
	g->queue[nq++] = start;
	for (int k = 0; k < nq; k++) { /* breadth first */
		int u = g->queue[k];
		for (int s = g->first[u]; s < g->first[u + 1]; s++) {
			int v = g->step[s].to;
			if (v != start && !g->mark[v]) {
				g->mark[v] = 1;
				g->queue[nq++] = v;
			}
		}
	}
	/* the sure nodes: reached from start by true-literal steps only (a
	 * depth-first walk over them; each is pushed once) */
	int *stack = xmalloc(sizeof(int) * (size_t)(nq + 1));
	int top = 0, back_sure = 0;
	stack[top++] = start;
	while (top > 0) {
		int u = stack[--top];
		for (int s = g->first[u]; s < g->first[u + 1]; s++) {
			int v = g->step[s].to;
			if (!rel_is_true(rc, g->step[s].when))
				continue;
			if (v == start) {
				back_sure = 1;
			} else if (g->mark[v] == 1) {
				g->mark[v] = 2;
				stack[top++] = v;
			}
		}
	}
	free(stack);
	for (int q = 1; q < nq; q++) {
		int v = g->queue[q];
		g->var[v] = g->mark[v] == 2 ? rc->t : rel_fresh_bool(rc, name);
	}
	Z3_ast back = back_sure ? rc->t : NULL;
	for (int q = 0; q < nq; q++) {
		int u = g->queue[q];
		for (int s = g->first[u]; s < g->first[u + 1]; s++) {
			int v = g->step[s].to;
			if (v == start ? back_sure : g->mark[v] == 2)
				continue;
			Z3_ast lhs = u == start ? g->step[s].when
				: rel_and2(rc, g->var[u], g->step[s].when);
			rel_horn(rc, lhs, target(rc, g, v, start, &back, name));
		}
	}
	AT(r, i, i) = back;
	/* the row of the result, and the marks cleared for the next row */
	for (int q = 1; q < nq; q++) {
		int v = g->queue[q];
		if (v % nstates == 0)
			AT(r, i, v / nstates) = g->var[v];
		g->mark[v] = 0;
		g->var[v] = NULL;
	}
}

rel_t rel_plus_walks(struct rel_ctx *rc, int nstates, const rel_t *edge,
		     const char *name)
{
	rel_t r = rel_new(rc);
	if (rel_gave_up(rc))
		return r;
	struct walk_graph g;
	graph_build(rc, nstates, edge, &g);
	for (int i = 0; i < rc->n && !(i % 16 == 15 && rel_gave_up(rc)); i++)
		walk_row(rc, &g, i * nstates, nstates, r, i, name);
	graph_free(&g);
	return r;
}
