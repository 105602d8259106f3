/*
 * z3util.c - small Z3 term helpers (z3util.h): no encoder state, no
 * simplification.
 */
#include "encoder/z3util.h"

#include <stdlib.h>

#include "common/xalloc.h"

Z3_ast z3u_int(Z3_context z, long v)
{
	return Z3_mk_int64(z, v, Z3_mk_int_sort(z));
}

Z3_ast z3u_and2(Z3_context z, Z3_ast a, Z3_ast b)
{
	return Z3_mk_and(z, 2, (Z3_ast[]){a, b});
}

Z3_ast z3u_or2(Z3_context z, Z3_ast a, Z3_ast b)
{
	return Z3_mk_or(z, 2, (Z3_ast[]){a, b});
}

Z3_ast z3u_and_vector(Z3_context z, Z3_ast_vector v)
{
	unsigned k = Z3_ast_vector_size(z, v);
	if (!k)
		return Z3_mk_true(z);
	Z3_ast *args = xmalloc_array(k, sizeof(Z3_ast));
	for (unsigned i = 0; i < k; i++)
		args[i] = Z3_ast_vector_get(z, v, i);
	Z3_ast res = Z3_mk_and(z, k, args);
	free(args);
	return res;
}
