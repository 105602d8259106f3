/*
 * circuit.c - an encoding's formulas evaluated on one execution, with
 * reasons (circuit.h).
 *
 * Nodes are the distinct Boolean terms reached from the roots, found by
 * Z3 AST id: connectives (and, or, not, =>, =, xor, ite), defined
 * variables (a named relation's entry: its definition is its one child; a
 * closure's or let rec's entry: its clauses' lhs are its children, an or
 * taken as a least fixpoint), acyclicity checks (their children are the
 * entries of their relations) and atoms (anything else: a term of the
 * program, valued by the model).  The strongly connected components of
 * the child graph are found once (Tarjan), children first, so that an
 * evaluation is one pass: a node outside a cycle from its children, a
 * cycle of and/or nodes (a closure's clauses) by unit propagation from
 * false (Dowling and Gallier), which also leaves each true or the child
 * that made it true first: a well-founded derivation for justify.
 *
 * This file compiles the formulas into nodes (circuit_eval.c evaluates
 * them, circuit_why.c justifies their values) and answers for the
 * model's definitions (the model fixed, the definitions of a cone).  It
 * asserts nothing and knows no relation's meaning.
 */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/scc.h"
#include "common/xalloc.h"
#include "encoder/circuit_int.h"

static struct circuit_id *id_info(struct circuit *c, Z3_ast a)
{
	unsigned id = Z3_get_ast_id(c->z, a);
	if (id >= c->id_cap) {
		size_t cap = xgrow_cap(c->id_cap, (size_t)id + 1, 4096);
		c->id = xrealloc_array(c->id, cap, sizeof *c->id);
		memset(c->id + c->id_cap, 0, sizeof *c->id * (cap - c->id_cap));
		c->id_cap = cap;
	}
	return &c->id[id];
}

/* "v = e" with v a Boolean constant: rel_name's definitions. */
static void index_named(struct circuit *c, unsigned i)
{
	Z3_context z = c->z;
	Z3_ast d = Z3_ast_vector_get(z, c->rc->defs, i);
	if (Z3_get_ast_kind(z, d) != Z3_APP_AST)
		return;
	Z3_app app = Z3_to_app(z, d);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_EQ ||
	    Z3_get_app_num_args(z, app) != 2)
		return;
	Z3_ast v = Z3_get_app_arg(z, app, 0);
	if (Z3_get_ast_kind(z, v) != Z3_APP_AST ||
	    Z3_get_app_num_args(z, Z3_to_app(z, v)) != 0 ||
	    Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, v))) != Z3_OP_UNINTERPRETED ||
	    Z3_get_sort_kind(z, Z3_get_sort(z, v)) != Z3_BOOL_SORT)
		return;
	struct circuit_id *info = id_info(c, v);
	if (!info->named)
		info->named = (int)i + 1;
}

static int cmp_pair(const void *pa, const void *pb)
{
	const unsigned *a = pa, *b = pb;
	if (a[0] != b[0])
		return (a[0] > b[0]) - (a[0] < b[0]);
	return (a[1] > b[1]) - (a[1] < b[1]);
}

struct circuit *circuit_new(const struct rel_ctx *rc)
{
	struct circuit *c = xcalloc(1, sizeof *c);
	c->z = rc->z;
	c->rc = rc;
	unsigned ndefs = Z3_ast_vector_size(rc->z, rc->defs);
	for (unsigned i = 0; i < ndefs; i++)
		index_named(c, i);
	int nh = rc->nhorn;
	/* the clauses by variable: sort (variable id, clause index) */
	unsigned *key = xmalloc_array(2 * (size_t)nh + 2, sizeof(unsigned));
	for (int i = 0; i < nh; i++) {
		key[2 * i] = Z3_get_ast_id(rc->z, rc->horn_var[i]);
		key[2 * i + 1] = (unsigned)i;
	}
	qsort(key, (size_t)nh, 2 * sizeof(unsigned), cmp_pair);
	c->horn_by_var = xmalloc_array(nh ? (size_t)nh : 1, sizeof(int));
	for (int i = 0; i < nh; i++)
		c->horn_by_var[i] = (int)key[2 * i + 1];
	for (int i = 0; i < nh;) {
		int j = i;
		while (j < nh && key[2 * j] == key[2 * i])
			j++;
		struct circuit_id *info = id_info(c, rc->horn_var[c->horn_by_var[i]]);
		info->horn = i + 1;
		info->nhorn = j - i;
		i = j;
	}
	free(key);
	for (int k = 0; k < rc->nacyc; k++)
		id_info(c, rc->acyc[k].holds)->acyc = k + 1;
	return c;
}

void circuit_free(struct circuit *c)
{
	if (!c)
		return;
	circuit_inc_free(c);
	free(c->id);
	free(c->horn_by_var);
	free(c->kind);
	free(c->ast);
	free(c->first);
	free(c->nkid);
	free(c->pool);
	free(c->edge);
	free(c->comp);
	free(c->comp_start);
	free(c->comp_cyclic);
	free(c->comp_nodes);
	free(c->rev_first);
	free(c->rev);
	free(c->lo);
	free(c->hi);
	free(c->reason);
	free(c->need);
	free(c->asserted);
	free(c->stamp);
	free(c->atom_of);
	free(c->atom_node);
	free(c->lit_atoms);
	free(c->stack);
	free(c->lits);
	free(c);
}

int circuit_nodes(const struct circuit *c)
{
	return c->n;
}

int circuit_atoms(const struct circuit *c)
{
	return c->natoms;
}

/* ---- compiling ---- */

static enum circuit_kind kind_of(struct circuit *c, Z3_ast a, const struct circuit_id *info)
{
	Z3_context z = c->z;
	if (info->acyc)
		return CK_ACYC;
	if (info->named)
		return CK_NAMED;
	if (info->horn)
		return CK_HORN;
	if (Z3_get_ast_kind(z, a) != Z3_APP_AST)
		return CK_ATOM;
	Z3_app app = Z3_to_app(z, a);
	switch (Z3_get_decl_kind(z, Z3_get_app_decl(z, app))) {
	case Z3_OP_TRUE: return CK_TRUE;
	case Z3_OP_FALSE: return CK_FALSE;
	case Z3_OP_AND: return CK_AND;
	case Z3_OP_OR: return CK_OR;
	case Z3_OP_NOT: return CK_NOT;
	case Z3_OP_IMPLIES: return CK_IMPLIES;
	case Z3_OP_IFF: return CK_IFF;
	case Z3_OP_XOR: return CK_XOR;
	case Z3_OP_EQ:
		return Z3_get_sort_kind(z, Z3_get_sort(z, Z3_get_app_arg(z, app, 0))) ==
			Z3_BOOL_SORT ? CK_IFF : CK_ATOM;
	case Z3_OP_ITE:
		return Z3_get_sort_kind(z, Z3_get_sort(z, a)) == Z3_BOOL_SORT ? CK_ITE : CK_ATOM;
	default:
		return CK_ATOM;
	}
}

static int new_node(struct circuit *c, Z3_ast a, enum circuit_kind k)
{
	if (c->n == c->cap) {
		c->cap = (int)xgrow_cap((size_t)c->cap, (size_t)c->n + 1, 1024);
		size_t cap = (size_t)c->cap;
		c->kind = xrealloc(c->kind, cap);
		c->ast = xrealloc_array(c->ast, cap, sizeof *c->ast);
		c->first = xrealloc_array(c->first, cap, sizeof(int));
		c->nkid = xrealloc_array(c->nkid, cap, sizeof(int));
		c->comp = xrealloc_array(c->comp, cap, sizeof(int));
		c->lo = xrealloc(c->lo, cap);
		c->hi = xrealloc(c->hi, cap);
		c->reason = xrealloc_array(c->reason, cap, sizeof(int));
		c->need = xrealloc_array(c->need, cap, sizeof(int));
		c->asserted = xrealloc(c->asserted, cap);
		c->stamp = xrealloc_array(c->stamp, cap, sizeof(unsigned));
		c->atom_of = xrealloc_array(c->atom_of, cap, sizeof(int));
	}
	int u = c->n++;
	c->kind[u] = (unsigned char)k;
	c->ast[u] = a;
	c->first[u] = (int)c->npool;
	c->nkid[u] = 0;
	c->comp[u] = -1;
	c->lo[u] = 0;
	c->hi[u] = 1;
	c->reason[u] = -1;
	c->asserted[u] = 0;
	c->stamp[u] = 0;
	c->atom_of[u] = -1;
	if (k == CK_ATOM) {
		XGROW(c->atom_node, c->atom_cap, (size_t)c->natoms + 1, 256);
		c->atom_node[c->natoms] = u;
		c->atom_of[u] = c->natoms++;
	}
	return u;
}

void circuit_push(struct circuit *c, size_t *sp, int v)
{
	XGROW(c->stack, c->stack_cap, *sp + 1, 1024);
	c->stack[(*sp)++] = v;
}

/* The node of a, made (without its children) when new; new ones go on
 * the stack for their children. */
static int node_of(struct circuit *c, Z3_ast a, size_t *sp)
{
	struct circuit_id *info = id_info(c, a);
	if (info->node)
		return info->node - 1;
	enum circuit_kind k = kind_of(c, a, info);
	int u = new_node(c, a, k);
	c->id[Z3_get_ast_id(c->z, a)].node = u + 1; /* id_info may have moved */
	if (k != CK_ATOM && k != CK_TRUE && k != CK_FALSE)
		circuit_push(c, sp, u);
	return u;
}

static void add_kid(struct circuit *c, int edge, int v)
{
	if (c->npool == c->pool_cap) {
		c->pool_cap = xgrow_cap(c->pool_cap, c->npool + 1, 4096);
		c->pool = xrealloc_array(c->pool, c->pool_cap, sizeof(int));
		c->edge = xrealloc_array(c->edge, c->pool_cap, sizeof(int));
	}
	c->edge[c->npool] = edge;
	c->pool[c->npool++] = v;
}

/* The entries of r (strict or not) as children of an acyclicity check:
 * made as nodes first, then added in one run. */
static void acyc_kids(struct circuit *c, rel_t r, int strict, size_t *sp,
		      int **tmp, size_t *ntmp, size_t *cap)
{
	int n = c->rc->n;
	if (!r)
		return;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			Z3_ast x = REL_AT(r, n, i, j);
			if (!x)
				continue;
			XGROW(*tmp, *cap, *ntmp + 2, 256);
			(*tmp)[(*ntmp)++] = node_of(c, x, sp);
			(*tmp)[(*ntmp)++] = (i * n + j) * 2 + strict;
		}
}

/* Children of node u (already a node, its children not yet made). */
static void make_kids(struct circuit *c, int u, size_t *sp)
{
	Z3_context z = c->z;
	const struct rel_ctx *rc = c->rc;
	Z3_ast a = c->ast[u];
	const struct circuit_id info = c->id[Z3_get_ast_id(z, a)];
	int *tmp = NULL;
	size_t ntmp = 0, cap = 0;
	switch ((enum circuit_kind)c->kind[u]) {
	case CK_NAMED: {
		Z3_app d = Z3_to_app(z, Z3_ast_vector_get(z, rc->defs, (unsigned)info.named - 1));
		XGROW(tmp, cap, 2, 2);
		tmp[ntmp++] = node_of(c, Z3_get_app_arg(z, d, 1), sp);
		tmp[ntmp++] = -1;
		break;
	}
	case CK_HORN:
		XGROW(tmp, cap, 2 * (size_t)info.nhorn, 16);
		for (int k = 0; k < info.nhorn; k++) {
			tmp[ntmp++] = node_of(c, rc->horn_lhs[c->horn_by_var[info.horn - 1 + k]], sp);
			tmp[ntmp++] = -1;
		}
		break;
	case CK_ACYC: {
		const struct rel_acyclic_check *chk = &rc->acyc[info.acyc - 1];
		acyc_kids(c, chk->strict, 1, sp, &tmp, &ntmp, &cap);
		acyc_kids(c, chk->weak, 0, sp, &tmp, &ntmp, &cap);
		break;
	}
	default: {
		Z3_app app = Z3_to_app(z, a);
		unsigned k = Z3_get_app_num_args(z, app);
		XGROW(tmp, cap, 2 * (size_t)k + 2, 16);
		for (unsigned i = 0; i < k; i++) {
			tmp[ntmp++] = node_of(c, Z3_get_app_arg(z, app, i), sp);
			tmp[ntmp++] = -1;
		}
	}
	}
	c->first[u] = (int)c->npool;
	c->nkid[u] = (int)(ntmp / 2);
	for (size_t i = 0; i < ntmp; i += 2)
		add_kid(c, tmp[i + 1], tmp[i]);
	free(tmp);
}

/* The next component: nodes node[0 .. k) (made since `from`). */
static void add_component(struct circuit *c, const int *node, int k)
{
	if ((size_t)c->ncomp + 1 >= c->comps_cap) {
		c->comps_cap = xgrow_cap(c->comps_cap, (size_t)c->ncomp + 2, 1024);
		c->comp_start = xrealloc_array(c->comp_start, c->comps_cap, sizeof(int));
		c->comp_cyclic = xrealloc(c->comp_cyclic, c->comps_cap);
	}
	int start = c->prepared, self = 0;
	for (int i = 0; i < k; i++) {
		c->comp[node[i]] = c->ncomp;
		c->comp_nodes[c->prepared++] = node[i];
	}
	for (int i = 0; k == 1 && i < c->nkid[node[0]]; i++)
		self |= c->pool[c->first[node[0]] + i] == node[0];
	int cyclic = k > 1 || self;
	c->comp_start[c->ncomp] = start;
	c->comp_cyclic[c->ncomp] = (unsigned char)cyclic;
	c->ncomp++;
	c->comp_start[c->ncomp] = c->prepared;
	for (int i = start; cyclic && i < c->prepared; i++) {
		int kind = c->kind[c->comp_nodes[i]];
		if (kind != CK_AND && kind != CK_OR && kind != CK_NAMED && kind != CK_HORN)
			c->broken = 1; /* not monotone: no least fixpoint */
	}
}

/* Components of the nodes made since the last call (older nodes never
 * reach newer ones, and their components are done), children first. */
static void find_components(struct circuit *c)
{
	int from = c->prepared, n = c->n, m = n - from;
	if (m == 0)
		return;
	XGROW(c->comp_nodes, c->comp_nodes_cap, (size_t)n, 1024);
	int *first = xmalloc_array((size_t)m + 1, sizeof(int));
	size_t nadj = 0;
	for (int u = from; u < n; u++)
		nadj += (size_t)c->nkid[u];
	int *adj = xmalloc_array(nadj + 1, sizeof(int));
	int k = 0;
	for (int u = from; u < n; u++) {
		first[u - from] = k;
		for (int i = 0; i < c->nkid[u]; i++) {
			int v = c->pool[c->first[u] + i];
			if (v >= from)
				adj[k++] = v - from;
		}
	}
	first[m] = k;
	int *comp = xmalloc_array((size_t)m + 1, sizeof(int));
	int *order = xmalloc_array((size_t)m + 1, sizeof(int));
	scc_components(m, first, adj, comp, order);
	for (int i = 0; i < m; i++)
		order[i] += from;
	for (int i = 0; i < m;) {
		int j = i;
		while (j < m && comp[order[j] - from] == comp[order[i] - from])
			j++;
		add_component(c, order + i, j - i);
		i = j;
	}
	CHECK(c->prepared == n, "circuit: %d of %d nodes placed", c->prepared, n);
	free(first);
	free(adj);
	free(comp);
	free(order);
}

/* Parents inside each cyclic component, for propagation (all nodes:
 * rebuilt when nodes were added). */
static void find_parents(struct circuit *c)
{
	int n = c->n;
	free(c->rev_first);
	free(c->rev);
	c->rev_first = xcalloc((size_t)n + 1, sizeof(int));
	for (int u = 0; u < n; u++)
		for (int k = 0; k < c->nkid[u]; k++) {
			int v = c->pool[c->first[u] + k];
			if (c->comp[v] == c->comp[u] && c->comp_cyclic[c->comp[u]])
				c->rev_first[v + 1]++;
		}
	for (int u = 0; u < n; u++)
		c->rev_first[u + 1] += c->rev_first[u];
	int *fill = xmalloc_array((size_t)n + 1, sizeof(int));
	memcpy(fill, c->rev_first, sizeof(int) * ((size_t)n + 1));
	c->rev = xmalloc_array((size_t)c->rev_first[n] + 1, sizeof(int));
	for (int u = 0; u < n; u++)
		for (int k = 0; k < c->nkid[u]; k++) {
			int v = c->pool[c->first[u] + k];
			if (c->comp[v] == c->comp[u] && c->comp_cyclic[c->comp[u]])
				c->rev[fill[v]++] = u;
		}
	free(fill);
}

int circuit_root(struct circuit *c, Z3_ast f)
{
	size_t sp = 0;
	int before = c->n;
	int root = node_of(c, f, &sp);
	while (sp)
		make_kids(c, c->stack[--sp], &sp);
	if (c->n != before) {
		find_components(c);
		find_parents(c);
	}
	return c->broken ? -1 : root;
}

/* ---- the model and the definitions ---- */

void circuit_fix_model(const struct circuit *c, Z3_model m)
{
	Z3_context z = c->z;
	Z3_ast t = Z3_mk_true(z), f = Z3_mk_false(z);
	for (int u = 0; u < c->n; u++)
		if (c->kind[u] == CK_NAMED || c->kind[u] == CK_HORN)
			Z3_add_const_interp(z, m, Z3_get_app_decl(z, Z3_to_app(z, c->ast[u])),
					    c->lo[u] ? t : f);
}

void circuit_cone_defs(struct circuit *c, int node, Z3_ast_vector out)
{
	Z3_context z = c->z;
	const struct rel_ctx *rc = c->rc;
	size_t sp = 0;
	circuit_push(c, &sp, node);
	while (sp) {
		int u = c->stack[--sp];
		if (c->asserted[u])
			continue;
		c->asserted[u] = 1;
		const struct circuit_id *info = &c->id[Z3_get_ast_id(z, c->ast[u])];
		if (c->kind[u] == CK_NAMED)
			Z3_ast_vector_push(z, out, Z3_ast_vector_get(z, rc->defs,
								     (unsigned)info->named - 1));
		for (int k = 0; c->kind[u] == CK_HORN && k < info->nhorn; k++) {
			int cl = c->horn_by_var[info->horn - 1 + k];
			Z3_ast_vector_push(z, out, Z3_mk_implies(z, rc->horn_lhs[cl], rc->horn_var[cl]));
		}
		for (int k = 0; k < c->nkid[u]; k++)
			circuit_push(c, &sp, circuit_kid(c, u, k));
	}
}

void circuit_forget_cone(struct circuit *c)
{
	memset(c->asserted, 0, (size_t)c->n);
}
