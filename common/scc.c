/*
 * scc.c - strongly connected components by Tarjan's algorithm, iterative
 * (scc.h).  It builds no graph: the caller's adjacency lists are read
 * as given.
 */
#include "common/scc.h"

#include <stdlib.h>

#include "common/check.h"
#include "common/xalloc.h"

int scc_components(int n, const int *first, const int *adj, int *comp, int *order)
{
	int counter = 0, ncomp = 0, tsp = 0, csp = 0, nordered = 0;
	int *index = xmalloc_array((size_t)n + 1, sizeof(int));
	int *low = xmalloc_array((size_t)n + 1, sizeof(int));
	int *pos = xmalloc_array((size_t)n + 1, sizeof(int)); /* next successor */
	int *tstack = xmalloc_array((size_t)n + 1, sizeof(int));
	int *call = xmalloc_array((size_t)n + 1, sizeof(int));
	unsigned char *on = xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++)
		index[i] = -1;
	for (int root = 0; root < n; root++) {
		if (index[root] >= 0)
			continue;
		index[root] = low[root] = counter++;
		pos[root] = first[root];
		tstack[tsp++] = root;
		on[root] = 1;
		call[csp++] = root;
		while (csp) {
			int v = call[csp - 1];
			if (pos[v] < first[v + 1]) {
				int w = adj[pos[v]++];
				CHECK(w >= 0 && w < n, "scc: successor %d of %d vertices", w, n);
				if (index[w] < 0) {
					index[w] = low[w] = counter++;
					pos[w] = first[w];
					tstack[tsp++] = w;
					on[w] = 1;
					call[csp++] = w;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			csp--;
			if (csp && low[v] < low[call[csp - 1]])
				low[call[csp - 1]] = low[v];
			if (low[v] == index[v]) {
				int w;
				do {
					w = tstack[--tsp];
					on[w] = 0;
					comp[w] = ncomp;
					if (order)
						order[nordered++] = w;
				} while (w != v);
				ncomp++;
			}
		}
	}
	free(index);
	free(low);
	free(pos);
	free(tstack);
	free(call);
	free(on);
	return ncomp;
}
