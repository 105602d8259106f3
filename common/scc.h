/*
 * scc.h - strongly connected components of a graph given as adjacency
 * lists (Tarjan's algorithm, iterative: long chains do not grow the C
 * stack).  It knows nothing of events or relations: the callers build
 * the lists (encoder/rel.c from a relation's may-graph, encoder/
 * circuit_eval.c from an acyclicity check's surely true edges).
 */
#ifndef LKMMC_SCC_H
#define LKMMC_SCC_H

/* The component of each of the n vertices into comp[0 .. n), numbered
 * from 0 in the order Tarjan closes them (a component before those it
 * is reached from); returns their number.  Vertex v's successors are
 * adj[first[v] .. first[v + 1]).  order (NULL: not wanted) gets the
 * vertices as the components close, each component's together. */
int scc_components(int n, const int *first, const int *adj, int *comp, int *order);

#endif
