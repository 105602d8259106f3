/*
 * test_scc.c - unit tests of common/scc.c: on random graphs, two
 * vertices share a component exactly when each reaches the other, an
 * edge between components goes from a later-closed component to an
 * earlier one, and the order lists every vertex once, each component's
 * together.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/scc.h"
#include "tests/testutil.h"

#define N 9

static void test_random_graphs(void **state)
{
	(void)state;
	srand(7);
	for (int round = 0; round < 300; round++) {
		int edge[N][N], reach[N][N], first[N + 1], adj[N * N], comp[N], order[N];
		int m = 0, density = 1 + round % 5;
		for (int i = 0; i < N; i++) {
			first[i] = m;
			for (int j = 0; j < N; j++) {
				edge[i][j] = rand() % 12 < density;
				if (edge[i][j])
					adj[m++] = j;
			}
		}
		first[N] = m;
		tu_reachability(N, &edge[0][0], &reach[0][0]);
		int ncomp = scc_components(N, first, adj, comp, order);
		assert_true(ncomp >= 1 && ncomp <= N);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				int mutual = i == j || (reach[i][j] && reach[j][i]);
				assert_int_equal(comp[i] == comp[j], mutual);
				if (edge[i][j] && comp[i] != comp[j])
					assert_true(comp[i] > comp[j]);
			}
		int seen[N] = {0};
		for (int k = 0; k < N; k++) {
			assert_false(seen[order[k]]);
			seen[order[k]] = 1;
			if (k > 0 && comp[order[k]] != comp[order[k - 1]])
				assert_int_equal(comp[order[k]], comp[order[k - 1]] + 1);
		}
		assert_int_equal(comp[order[0]], 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_graphs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
