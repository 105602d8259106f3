/*
 * reltally.c - where an encoding's definitions go, by relation name, for
 * --stats: each definition in rc->defs is charged to the fresh variable it
 * defines, whose name is the relation's name that made it (rel_name,
 * closures, ranks: "NAME!K", see fresh_const in rel.c).  It reads the
 * definitions only; it changes nothing and is not used to encode.
 */
#include "encoder/rel.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

/* The fresh constant a definition is about: the left side of v = f, the
 * right side of f => v, else the first uninterpreted constant found
 * within a few levels (rank constraints: r!1 < r!2), or NULL. */
static Z3_ast defined(Z3_context z, Z3_ast a, int depth)
{
	if (Z3_get_ast_kind(z, a) != Z3_APP_AST)
		return NULL;
	Z3_app app = Z3_to_app(z, a);
	Z3_func_decl d = Z3_get_app_decl(z, app);
	unsigned k = Z3_get_app_num_args(z, app);
	if (k == 0)
		return Z3_get_decl_kind(z, d) == Z3_OP_UNINTERPRETED ? a : NULL;
	if (depth == 0)
		return NULL;
	if (Z3_get_decl_kind(z, d) == Z3_OP_IMPLIES) {
		Z3_ast v = defined(z, Z3_get_app_arg(z, app, 1), 0);
		if (v)
			return v;
	}
	for (unsigned i = 0; i < k; i++) {
		Z3_ast v = defined(z, Z3_get_app_arg(z, app, i), depth - 1);
		if (v)
			return v;
	}
	return NULL;
}

static int by_count(const void *pa, const void *pb)
{
	const struct rel_tally *a = pa, *b = pb;
	if (a->defs != b->defs)
		return a->defs < b->defs ? 1 : -1;
	return strcmp(a->name, b->name);
}

int rel_defs_by_name(const struct rel_ctx *rc, struct rel_tally **out)
{
	Z3_context z = rc->z;
	unsigned n = Z3_ast_vector_size(z, rc->defs);
	struct rel_tally *t = NULL;
	int nt = 0, cap = 0;
	for (unsigned i = 0; i < n; i++) {
		Z3_ast v = defined(z, Z3_ast_vector_get(z, rc->defs, i), 3);
		char name[96] = "(unnamed)";
		if (v) {
			Z3_symbol s = Z3_get_decl_name(z, Z3_get_app_decl(z, Z3_to_app(z, v)));
			if (Z3_get_symbol_kind(z, s) == Z3_STRING_SYMBOL) {
				snprintf(name, sizeof name, "%s", Z3_get_symbol_string(z, s));
				char *bang = strrchr(name, '!');
				if (bang && bang != name)
					*bang = 0;
			}
		}
		int j = 0;
		while (j < nt && strcmp(t[j].name, name) != 0)
			j++;
		if (j == nt) {
			if (nt == cap)
				t = xrealloc_array(t, (size_t)(cap = cap ? 2 * cap : 32), sizeof *t);
			t[nt++] = (struct rel_tally){xstrdup(name), 0};
		}
		t[j].defs++;
	}
	if (nt)
		qsort(t, (size_t)nt, sizeof *t, by_count);
	*out = t;
	return nt;
}

void rel_tally_free(struct rel_tally *t, int n)
{
	for (int i = 0; i < n; i++)
		free(t[i].name);
	free(t);
}
