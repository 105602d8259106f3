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
 * It asserts nothing and knows no relation's meaning.
 */
#include "encoder/circuit.h"

#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/xalloc.h"
#include "encoder/rel.h"

enum circuit_kind {
	CK_TRUE, CK_FALSE, CK_ATOM, CK_AND, CK_OR, CK_NOT, CK_IMPLIES, CK_IFF,
	CK_XOR, CK_ITE,
	CK_NAMED, /* a defined variable: = its one child */
	CK_HORN,  /* a closure's variable: the or of its clauses' lhs, least */
	CK_ACYC,  /* an acyclicity check: its children are its edges */
};

/* What is known of one AST id. */
struct circuit_id {
	int node;     /* 1 + its node, 0: none yet */
	int named;    /* 1 + the index in rc->defs of "it = e" */
	int horn;     /* 1 + the first of its clauses in horn_by_var */
	int nhorn;    /* how many */
	int acyc;     /* 1 + the index in rc->acyc of the check it is */
};

struct circuit {
	Z3_context z;
	const struct rel_ctx *rc;
	struct circuit_id *id;  /* per AST id */
	size_t id_cap;
	int *horn_by_var;       /* rc's clause indices sorted by variable */
	/* the nodes */
	int n, cap;
	unsigned char *kind;
	Z3_ast *ast;
	int *first, *nkid;      /* children: pool[first .. first + nkid) */
	int *pool;              /* children of every node */
	int *edge;              /* per pool slot of an acyclicity check's
				 * child: (i * events + j) * 2 + strict */
	size_t npool, pool_cap;
	int natoms;
	int *atom_of;           /* per node: its atom index, -1: no atom */
	int *atom_node;         /* per atom: its node */
	size_t atom_cap;
	const signed char *given; /* circuit_eval_given's atom values */
	int broken;             /* a negation inside a recursive definition */
	/* the components, children first */
	int prepared;           /* nodes whose component is known */
	int *comp;              /* per node: its component */
	int *comp_nodes;        /* the nodes, component by component */
	size_t comp_nodes_cap;
	int *comp_start;        /* per component: first in comp_nodes */
	unsigned char *comp_cyclic;
	size_t comps_cap;
	int ncomp;
	int *rev_first;         /* per node: parents in its own (cyclic)
				 * component, rev[rev_first[u] .. [u + 1]) */
	int *rev;
	/* the last evaluation */
	unsigned char *lo, *hi; /* surely true, possibly true */
	int *reason;            /* a true or-like node: the child that made it
				 * true (-1: none needed) */
	int *need;              /* and nodes in a cycle: children not true */
	unsigned char *asserted;/* circuit_cone_defs walked it */
	/* scratch */
	unsigned *stamp;
	unsigned cur;
	int *stack;
	size_t stack_cap;
	Z3_ast *lits;
	int *lit_atoms;         /* the atoms of lits */
	size_t nlits, lits_cap;
};

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

static void push_stack(struct circuit *c, size_t *sp, int v)
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
		push_stack(c, sp, u);
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

/* The component on top of the Tarjan stack, down to u, as the next. */
static void pop_component(struct circuit *c, int u, int *tstack, int *tsp,
			  unsigned char *on, int from)
{
	if ((size_t)c->ncomp + 1 >= c->comps_cap) {
		c->comps_cap = xgrow_cap(c->comps_cap, (size_t)c->ncomp + 2, 1024);
		c->comp_start = xrealloc_array(c->comp_start, c->comps_cap, sizeof(int));
		c->comp_cyclic = xrealloc(c->comp_cyclic, c->comps_cap);
	}
	int start = c->prepared, v, self = 0;
	do {
		v = tstack[--*tsp];
		on[v - from] = 0;
		c->comp[v] = c->ncomp;
		c->comp_nodes[c->prepared++] = v;
	} while (v != u);
	for (int k = 0; k < c->nkid[u]; k++)
		self |= c->pool[c->first[u] + k] == u;
	int cyclic = c->prepared - start > 1 || self;
	c->comp_start[c->ncomp] = start;
	c->comp_cyclic[c->ncomp] = (unsigned char)cyclic;
	c->ncomp++;
	c->comp_start[c->ncomp] = c->prepared;
	for (int i = start; cyclic && i < c->prepared; i++) {
		int k = c->kind[c->comp_nodes[i]];
		if (k != CK_AND && k != CK_OR && k != CK_NAMED && k != CK_HORN)
			c->broken = 1; /* not monotone: no least fixpoint */
	}
}

/* Components of the nodes made since the last call (Tarjan, iterative;
 * older nodes never reach newer ones), children first. */
static void find_components(struct circuit *c)
{
	int from = c->prepared, n = c->n, m = n - from;
	if (m == 0)
		return;
	XGROW(c->comp_nodes, c->comp_nodes_cap, (size_t)n, 1024);
	int *index = xmalloc_array((size_t)m, sizeof(int));
	int *low = xmalloc_array((size_t)m, sizeof(int));
	int *pos = xmalloc_array((size_t)m, sizeof(int));
	int *tstack = xmalloc_array((size_t)m, sizeof(int));
	int *call = xmalloc_array((size_t)m, sizeof(int));
	unsigned char *on = xcalloc((size_t)m, 1);
	for (int i = 0; i < m; i++)
		index[i] = -1;
	int counter = 0, tsp = 0;
	for (int root = from; root < n; root++) {
		if (index[root - from] >= 0)
			continue;
		int csp = 0;
		call[csp++] = root;
		index[root - from] = low[root - from] = counter++;
		pos[root - from] = 0;
		tstack[tsp++] = root;
		on[root - from] = 1;
		while (csp) {
			int u = call[csp - 1], ui = u - from;
			if (pos[ui] < c->nkid[u]) {
				int v = c->pool[c->first[u] + pos[ui]++];
				if (v < from)
					continue; /* an older, finished component */
				int vi = v - from;
				if (index[vi] < 0) {
					index[vi] = low[vi] = counter++;
					pos[vi] = 0;
					tstack[tsp++] = v;
					on[vi] = 1;
					call[csp++] = v;
				} else if (on[vi] && index[vi] < low[ui]) {
					low[ui] = index[vi];
				}
				continue;
			}
			csp--;
			if (csp) {
				int p = call[csp - 1] - from;
				if (low[ui] < low[p])
					low[p] = low[ui];
			}
			if (low[ui] == index[ui])
				pop_component(c, u, tstack, &tsp, on, from);
		}
	}
	CHECK(c->prepared == n, "circuit: %d of %d nodes placed", c->prepared, n);
	free(index);
	free(low);
	free(pos);
	free(tstack);
	free(call);
	free(on);
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

static int kid(const struct circuit *c, int u, int k)
{
	return c->pool[c->first[u] + k];
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
		if (c->lo[kid(c, u, k)])
			g->first[c->edge[c->first[u] + k] / 2 / n + 1]++;
	for (int i = 0; i < n; i++)
		g->first[i + 1] += g->first[i];
	int *fill = xmalloc_array((size_t)n + 1, sizeof(int));
	memcpy(fill, g->first, sizeof(int) * ((size_t)n + 1));
	for (int k = 0; k < c->nkid[u]; k++)
		if (c->lo[kid(c, u, k)])
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

/* A cycle of check u's surely true edges through a strict one, shortest
 * among the first few tried, into cyc (pool slots); its length, 0 when
 * there is none. */
static int acyc_cycle(const struct circuit *c, int u, int *cyc)
{
	int n = c->rc->n;
	struct acyc_graph g;
	acyc_graph(c, u, &g);
	int *path = xmalloc_array((size_t)n + 1, sizeof(int));
	int best = 0, tried = 0;
	for (int k = 0; k < c->nkid[u] && tried < 8; k++) {
		int slot = c->first[u] + k, e = c->edge[slot];
		if (!(e & 1) || !c->lo[c->pool[slot]])
			continue;
		int i = e / 2 / n, j = e / 2 % n;
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
	free(g.first);
	free(g.out);
	return best;
}

/* Both bounds of an and (and = 1) or an or over u's children. */
static void junction(struct circuit *c, int u, int and)
{
	int lo = and, hi = and;
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = kid(c, u, k);
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
static void node_bounds(struct circuit *c, Z3_model m, int u, int *ok)
{
	int a = c->nkid[u] > 0 ? kid(c, u, 0) : -1;
	int b = c->nkid[u] > 1 ? kid(c, u, 1) : -1;
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
		int t = kid(c, u, 1), e = kid(c, u, 2);
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
		hi = acyc_cycle(c, u, cyc) == 0;
		free(cyc);
		/* surely acyclic only when every edge is known */
		lo = hi;
		for (int k = 0; k < c->nkid[u] && lo; k++)
			lo = c->lo[kid(c, u, k)] == c->hi[kid(c, u, k)];
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
				int v = kid(c, u, k);
				if (c->comp[v] == comp)
					c->need[u]++;
				else if (!bound[v])
					c->need[u] = -1 - nk; /* false for good */
			}
			if (c->need[u] == 0)
				bound[u] = 1;
		} else {
			for (int k = 0; k < nk && !bound[u]; k++) {
				int v = kid(c, u, k);
				if (c->comp[v] != comp && bound[v]) {
					bound[u] = 1;
					if (is_lo)
						c->reason[u] = v;
				}
			}
		}
		if (bound[u])
			push_stack(c, &sp, u);
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
			push_stack(c, &sp, p);
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
		node_bounds(c, m, u, &ok);
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

/* ---- justifying ---- */

static void add_lit(struct circuit *c, int u, int want)
{
	if (c->nlits == c->lits_cap) {
		c->lits_cap = xgrow_cap(c->lits_cap, c->nlits + 1, 64);
		c->lits = xrealloc_array(c->lits, c->lits_cap, sizeof *c->lits);
		c->lit_atoms = xrealloc_array(c->lit_atoms, c->lits_cap, sizeof(int));
	}
	c->lit_atoms[c->nlits] = c->atom_of[u];
	c->lits[c->nlits++] = want ? c->ast[u] : Z3_mk_not(c->z, c->ast[u]);
}

/* Node v wanted surely true (want 1) or surely false (0), on the stack
 * as 2 * v + want. */
static void want(struct circuit *c, size_t *sp, int v, int w)
{
	CHECK(w ? c->lo[v] : !c->hi[v], "circuit: node %d is not surely %d", v, w);
	push_stack(c, sp, 2 * v + w);
}

/* Want every child of u as it surely is. */
static void want_all(struct circuit *c, int u, size_t *sp)
{
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = kid(c, u, k);
		if (c->lo[v] || !c->hi[v])
			want(c, sp, v, c->lo[v]);
	}
}

/* A child of u that is surely false, outside u's cycle if any. */
static int false_kid(const struct circuit *c, int u)
{
	int pick = -1;
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = kid(c, u, k);
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
	int a = c->nkid[u] > 0 ? kid(c, u, 0) : -1;
	int b = c->nkid[u] > 1 ? kid(c, u, 1) : -1;
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
			want(c, sp, c->lo[a] ? b : kid(c, u, 2), w);
		} else {
			want(c, sp, b, w);
			want(c, sp, kid(c, u, 2), w);
		}
		return;
	case CK_ACYC:
		if (!w) {
			int *cyc = xmalloc_array((size_t)c->rc->n + 1, sizeof(int));
			int len = acyc_cycle(c, u, cyc);
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
int circuit_justify(struct circuit *c, int node, Z3_ast **lits)
{
	c->nlits = 0;
	if (++c->cur == 0) { /* the stamps wrapped around */
		memset(c->stamp, 0, sizeof(unsigned) * (size_t)c->n);
		c->cur = 1;
	}
	size_t sp = 0;
	want(c, &sp, node, c->lo[node]);
	while (sp) {
		int x = c->stack[--sp], u = x / 2;
		if (c->stamp[u] == c->cur)
			continue;
		c->stamp[u] = c->cur;
		justify_node(c, u, x & 1, &sp);
	}
	*lits = c->lits;
	return (int)c->nlits;
}

const int *circuit_justified_atoms(const struct circuit *c)
{
	return c->lit_atoms;
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
	push_stack(c, &sp, node);
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
			push_stack(c, &sp, kid(c, u, k));
	}
}

void circuit_forget_cone(struct circuit *c)
{
	memset(c->asserted, 0, (size_t)c->n);
}
