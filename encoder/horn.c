/*
 * horn.c - the Horn clauses lhs => var that define closures and monotone
 * let recs (made by rel.c's closures, models/lkmm_cat.c's rcu-order and
 * models/catlet.c's let rec): recording them, the least model of a solver
 * model (so that a printed or drawn execution shows the closures' true
 * values), and their converse with ranks (rel_exact_defs, for questions
 * that need the variables exact).  It builds no relation; see rel.h.
 */
#include "rel.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void rel_horn(struct rel_ctx *rc, Z3_ast lhs, Z3_ast var)
{
	if (!lhs)
		return;
	if (rc->nhorn == rc->horn_cap) {
		rc->horn_cap = (int)xgrow_cap((size_t)rc->horn_cap, (size_t)rc->nhorn + 1, 256);
		rc->horn_lhs = xrealloc_array(rc->horn_lhs, (size_t)rc->horn_cap, sizeof(Z3_ast));
		rc->horn_var = xrealloc_array(rc->horn_var, (size_t)rc->horn_cap, sizeof(Z3_ast));
	}
	rc->horn_lhs[rc->nhorn] = lhs;
	rc->horn_var[rc->nhorn] = var;
	rc->nhorn++;
	rel_define(rc, Z3_mk_implies(rc->z, lhs, var));
}

static Z3_func_decl decl_of(Z3_context z, Z3_ast v)
{
	return Z3_get_app_decl(z, Z3_to_app(z, v));
}

int rel_horn_count(const struct rel_ctx *rc)
{
	return rc->nhorn;
}

static int cmp_ast_id(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	return (a > b) - (a < b);
}

/* Per AST id: which Horn variable it is, and whether one occurs below. */
struct horn_index {
	Z3_context z;
	int *var;               /* 1 + index into rank, 0: not a Horn variable */
	unsigned char *below;   /* 0 unknown, 1 no Horn variable below, 2 some */
	unsigned *seen;         /* stamp of the last walk that visited it */
	unsigned char *value;   /* rel_least_model's value of a term: 0 not
				 * asked, 1 false, 2 true; for a term with
				 * Horn variables below, valid only in the
				 * evaluation stamped evaluated[id] */
	unsigned *evaluated;    /* stamp of the lhs evaluation that last set
				 * value[] of a term with Horn variables */
	unsigned stamp;         /* the current lhs evaluation's stamp */
	long z3_evals;          /* terms with Horn variables below that
				 * rel_least_model left to Z3_model_eval */
	unsigned cap;           /* entries of these arrays */
	Z3_ast *rank;           /* rank of each Horn variable (Int) */
};

static void horn_index_grow(struct horn_index *hi, unsigned id)
{
	if (id < hi->cap)
		return;
	unsigned cap = (unsigned)xgrow_cap(hi->cap, (size_t)id + 1, 1024);
	hi->var = xrealloc_array(hi->var, cap, sizeof(int));
	hi->below = xrealloc(hi->below, cap);
	hi->seen = xrealloc_array(hi->seen, cap, sizeof(unsigned));
	hi->value = xrealloc(hi->value, cap);
	hi->evaluated = xrealloc_array(hi->evaluated, cap, sizeof(unsigned));
	memset(hi->var + hi->cap, 0, sizeof(int) * (cap - hi->cap));
	memset(hi->below + hi->cap, 0, cap - hi->cap);
	memset(hi->seen + hi->cap, 0, sizeof(unsigned) * (cap - hi->cap));
	memset(hi->value + hi->cap, 0, cap - hi->cap);
	memset(hi->evaluated + hi->cap, 0, sizeof(unsigned) * (cap - hi->cap));
	hi->cap = cap;
}

static void horn_index_free(struct horn_index *hi)
{
	free(hi->var);
	free(hi->below);
	free(hi->seen);
	free(hi->value);
	free(hi->evaluated);
}

static int horn_below(struct horn_index *hi, Z3_ast a)
{
	unsigned id = Z3_get_ast_id(hi->z, a);
	horn_index_grow(hi, id);
	if (hi->below[id])
		return hi->below[id] == 2;
	int found = hi->var[id] != 0;
	if (!found && Z3_get_ast_kind(hi->z, a) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(hi->z, a);
		unsigned k = Z3_get_app_num_args(hi->z, app);
		for (unsigned i = 0; i < k; i++)
			found |= horn_below(hi, Z3_get_app_arg(hi->z, app, i));
	}
	hi->below[id] = found ? 2 : 1;
	return found;
}

/* a with every positive occurrence of a Horn variable u (under and, or,
 * not) replaced by "u and rank(u) < rank": the premises of a derivation
 * must be derived earlier. */
static Z3_ast horn_guard(struct horn_index *hi, Z3_ast a, int positive, Z3_ast rank)
{
	Z3_context z = hi->z;
	if (!horn_below(hi, a))
		return a;
	int v = hi->var[Z3_get_ast_id(z, a)];
	if (v) {
		if (!positive)
			return a;
		Z3_ast both[2] = {a, Z3_mk_lt(z, hi->rank[v - 1], rank)};
		return Z3_mk_and(z, 2, both);
	}
	Z3_app app = Z3_to_app(z, a);
	Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
	unsigned nargs = Z3_get_app_num_args(z, app);
	if (k == Z3_OP_NOT)
		return Z3_mk_not(z, horn_guard(hi, Z3_get_app_arg(z, app, 0), !positive, rank));
	if (k != Z3_OP_AND && k != Z3_OP_OR)
		return a; /* not built by rel.c: left as it is (still complete) */
	Z3_ast *args = xmalloc(sizeof(Z3_ast) * (nargs ? nargs : 1));
	for (unsigned i = 0; i < nargs; i++)
		args[i] = horn_guard(hi, Z3_get_app_arg(z, app, i), positive, rank);
	Z3_ast r = k == Z3_OP_AND ? Z3_mk_and(z, nargs, args) : Z3_mk_or(z, nargs, args);
	free(args);
	return r;
}

/*
 * With the Horn clauses alone, a closure variable may be true without a
 * derivation (a cycle of clauses supporting itself), which a question about
 * broken axioms would take for a real edge.  Here every Horn variable gets
 * an integer rank and "var => some lhs of var, whose Horn variables all have
 * smaller ranks": a true variable has a well-founded derivation, so the
 * variables are exactly the least fixpoint (the Kleene stage at which each
 * becomes true is a rank that satisfies this).
 */
void rel_exact_defs(struct rel_ctx *rc, int from, Z3_ast_vector out)
{
	Z3_context z = rc->z;
	/* Group the clauses by variable: sort (variable id, clause index). */
	int nh = rc->nhorn - from;
	if (nh <= 0)
		return;
	unsigned *key = xmalloc(sizeof(unsigned) * 2 * (size_t)nh);
	for (int i = 0; i < nh; i++) {
		key[2 * i] = Z3_get_ast_id(z, rc->horn_var[from + i]);
		key[2 * i + 1] = (unsigned)(from + i);
	}
	qsort(key, (size_t)nh, 2 * sizeof(unsigned), cmp_ast_id);
	struct horn_index hi = {.z = z};
	hi.rank = xmalloc(sizeof(Z3_ast) * (size_t)nh);
	int nvar = 0;
	for (int i = 0; i < nh; i++) {
		if (i && key[2 * i] == key[2 * i - 2])
			continue;
		horn_index_grow(&hi, key[2 * i]);
		hi.rank[nvar] = rel_fresh_int(rc, "horn-rank");
		hi.var[key[2 * i]] = ++nvar;
	}
	Z3_ast *buf = xmalloc(sizeof(Z3_ast) * (size_t)nh);
	for (int i = 0; i < nh;) {
		Z3_ast var = rc->horn_var[key[2 * i + 1]];
		Z3_ast rank = hi.rank[hi.var[key[2 * i]] - 1];
		int k = 0, j = i;
		for (; j < nh && key[2 * j] == key[2 * i]; j++)
			buf[k++] = horn_guard(&hi, rc->horn_lhs[key[2 * j + 1]], 1, rank);
		Z3_ast any = k == 1 ? buf[0] : Z3_mk_or(z, (unsigned)k, buf);
		Z3_ast_vector_push(z, out, Z3_mk_implies(z, var, any));
		i = j;
	}
	free(buf);
	free(hi.rank);
	horn_index_free(&hi);
	free(key);
}


/* Appends to *deps (growing *cap) the slot of every Horn variable in a not
 * yet visited by the walk stamped stamp. */
static void horn_deps(struct horn_index *hi, Z3_ast a, unsigned stamp,
		      int **deps, size_t *ndeps, size_t *cap)
{
	if (!horn_below(hi, a))
		return;
	unsigned id = Z3_get_ast_id(hi->z, a);
	if (hi->seen[id] == stamp)
		return;
	hi->seen[id] = stamp;
	if (hi->var[id]) {
		if (*ndeps == *cap) {
			*cap = xgrow_cap(*cap, *ndeps + 1, 64);
			*deps = xrealloc_array(*deps, *cap, sizeof(int));
		}
		(*deps)[(*ndeps)++] = hi->var[id] - 1;
		return;
	}
	Z3_app app = Z3_to_app(hi->z, a);
	unsigned k = Z3_get_app_num_args(hi->z, app);
	for (unsigned i = 0; i < k; i++)
		horn_deps(hi, Z3_get_app_arg(hi->z, app, i), stamp, deps, ndeps, cap);
}

/* lhs is a conjunction with a Horn variable as a direct argument: it cannot
 * hold before that variable does. */
static int needs_a_variable(struct horn_index *hi, Z3_ast lhs)
{
	Z3_context z = hi->z;
	if (Z3_get_ast_kind(z, lhs) != Z3_APP_AST)
		return 0;
	Z3_app app = Z3_to_app(z, lhs);
	if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_AND)
		return 0;
	unsigned k = Z3_get_app_num_args(z, app);
	for (unsigned i = 0; i < k; i++) {
		unsigned id = Z3_get_ast_id(z, Z3_get_app_arg(z, app, i));
		if (id < hi->cap && hi->var[id])
			return 1;
	}
	return 0;
}

static int holds(Z3_context z, Z3_model m, Z3_ast a)
{
	Z3_ast v = NULL;
	return Z3_model_eval(z, m, a, 1, &v) && Z3_get_bool_value(z, v) == Z3_L_TRUE;
}

/* Does a, a term without Horn variables, hold in m?  Evaluated once: an
 * edge of a closure's clauses is an argument of one clause per row. */
static int fixed_holds(struct horn_index *hi, Z3_model m, Z3_ast a)
{
	unsigned id = Z3_get_ast_id(hi->z, a);
	horn_index_grow(hi, id);
	if (!hi->value[id])
		hi->value[id] = holds(hi->z, m, a) ? 2 : 1;
	return hi->value[id] == 2;
}

/* Does a hold in m, where val[] are the Horn variables' current values?
 * A term without Horn variables keeps its value through the worklist and
 * is evaluated once (closure clauses r(i,j) <= r(i,k) /\ a(k,j) share the
 * edge a(k,j) across every row i); a Horn variable is read from val[]; and,
 * or and not above them are evaluated here, each shared subterm once per
 * evaluation (hi->stamp), so that a clause whose lhs is a large formula
 * over Horn variables (rcu-order's, thousands of nodes) costs a walk of
 * its changing part, not a Z3_model_eval of all of it each time one of its
 * variables becomes true.  Any other term with Horn variables below is
 * left to Z3: their values are in m too. */
static int lhs_holds(struct horn_index *hi, Z3_model m, const unsigned char *val,
		     Z3_ast a)
{
	Z3_context z = hi->z;
	unsigned id = Z3_get_ast_id(z, a);
	horn_index_grow(hi, id);
	if (hi->var[id])
		return val[hi->var[id] - 1];
	if (!horn_below(hi, a))
		return fixed_holds(hi, m, a);
	if (hi->evaluated[id] == hi->stamp)
		return hi->value[id] == 2;
	int r;
	Z3_app app = Z3_to_app(z, a); /* an application: a Horn variable is below */
	Z3_decl_kind k = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
	unsigned nargs = Z3_get_app_num_args(z, app);
	if (k == Z3_OP_AND || k == Z3_OP_OR) {
		int and = k == Z3_OP_AND;
		r = and;
		for (unsigned i = 0; i < nargs && r == and; i++)
			r = lhs_holds(hi, m, val, Z3_get_app_arg(z, app, i));
	} else if (k == Z3_OP_NOT) {
		r = !lhs_holds(hi, m, val, Z3_get_app_arg(z, app, 0));
	} else {
		r = holds(z, m, a);
		hi->z3_evals++;
	}
	hi->evaluated[id] = hi->stamp;
	hi->value[id] = r ? 2 : 1;
	return r;
}

/*
 * The least fixpoint by unit propagation over the terms (Dowling and
 * Gallier's linear-time Horn satisfiability), when every lhs is and/or
 * over Horn variables and terms without one: each distinct term with a
 * Horn variable below is one node, true once an argument of an or (or a
 * clause of a variable) is, or once every argument of an and is; a term
 * without Horn variables is evaluated in m once.  The work is the number
 * of distinct nodes and argument links.  rel_least_model's worklist below
 * walks each clause's lhs again for every clause (shared subterms once per
 * clause): on a 125-event lock program, 216,000 clauses over 268,000
 * distinct terms made 32 million links and 6.7 s of a 17 s check.
 */
struct horn_prop {
	struct horn_index *hi;
	Z3_model m;
	int *node;              /* per AST id: 1 + its node, 0: none yet */
	size_t node_cap;        /* entries of node */
	unsigned char *kind;    /* per node: HP_VAR, HP_AND, HP_OR */
	unsigned char *truth;   /* per node: 1 once true */
	int *need;              /* an and: arguments not yet true; -1: one is
				 * false for good */
	int n, cap;             /* nodes, their capacity */
	int *link_from, *link_to; /* argument -> the node it is an argument of */
	size_t nlink, link_cap;
	int unsupported;        /* a lhs has another operator above a Horn
				 * variable (a not): left to the worklist */
};

enum { HP_VAR = 1, HP_AND, HP_OR };

static int hp_new(struct horn_prop *hp, unsigned id, int kind)
{
	if (hp->n == hp->cap) {
		hp->cap = (int)xgrow_cap((size_t)hp->cap, (size_t)hp->n + 1, 1024);
		hp->kind = xrealloc(hp->kind, (size_t)hp->cap);
		hp->truth = xrealloc(hp->truth, (size_t)hp->cap);
		hp->need = xrealloc_array(hp->need, (size_t)hp->cap, sizeof(int));
	}
	int k = hp->n++;
	hp->kind[k] = (unsigned char)kind;
	hp->truth[k] = 0;
	hp->need[k] = 0;
	hp->node[id] = k + 1;
	return k;
}

static void hp_link(struct horn_prop *hp, int from, int to)
{
	if (hp->nlink == hp->link_cap) {
		hp->link_cap = xgrow_cap(hp->link_cap, hp->nlink + 1, 4096);
		hp->link_from = xrealloc_array(hp->link_from, hp->link_cap, sizeof(int));
		hp->link_to = xrealloc_array(hp->link_to, hp->link_cap, sizeof(int));
	}
	hp->link_from[hp->nlink] = from;
	hp->link_to[hp->nlink] = to;
	hp->nlink++;
}

/* The node of a (a term with a Horn variable below), made with its
 * arguments' nodes and links on first sight. */
static int hp_node(struct horn_prop *hp, Z3_ast a)
{
	struct horn_index *hi = hp->hi;
	Z3_context z = hi->z;
	unsigned id = Z3_get_ast_id(z, a);
	horn_index_grow(hi, id);
	if (id >= hp->node_cap) {
		size_t cap = xgrow_cap(hp->node_cap, (size_t)id + 1, 1024);
		hp->node = xrealloc_array(hp->node, cap, sizeof(int));
		memset(hp->node + hp->node_cap, 0, sizeof(int) * (cap - hp->node_cap));
		hp->node_cap = cap;
	}
	if (hp->node[id])
		return hp->node[id] - 1;
	if (hi->var[id])
		return hp_new(hp, id, HP_VAR);
	Z3_app app = Z3_to_app(z, a);
	Z3_decl_kind dk = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
	if (dk != Z3_OP_AND && dk != Z3_OP_OR) {
		hp->unsupported = 1;
		return hp_new(hp, id, HP_OR);
	}
	int and = dk == Z3_OP_AND;
	int k = hp_new(hp, id, and ? HP_AND : HP_OR);
	unsigned nargs = Z3_get_app_num_args(z, app);
	for (unsigned i = 0; i < nargs; i++) {
		Z3_ast c = Z3_get_app_arg(z, app, i);
		if (!horn_below(hi, c)) {
			int t = fixed_holds(hi, hp->m, c);
			if (and && !t)
				hp->need[k] = -1;
			else if (!and && t)
				hp->truth[k] = 1;
			continue;
		}
		int ck = hp_node(hp, c);
		hp_link(hp, ck, k);
		if (and && hp->need[k] >= 0)
			hp->need[k]++;
	}
	if (and && hp->need[k] == 0)
		hp->truth[k] = 1;
	return k;
}

/* Into val[] (per slot), the least fixpoint; 0 when some lhs is not
 * and/or over Horn variables (nothing is set). */
static int least_by_propagation(const struct rel_ctx *rc, struct horn_index *hi,
				Z3_model m, const int *slot_of, const Z3_ast *slot_var,
				int nslot, unsigned char *val)
{
	Z3_context z = rc->z;
	struct horn_prop hp = {.hi = hi, .m = m};
	hp.node_cap = hi->cap;
	hp.node = xcalloc(hp.node_cap ? hp.node_cap : 1, sizeof(int));
	int *var_node = xmalloc(sizeof(int) * (size_t)nslot);
	for (int s = 0; s < nslot; s++)
		var_node[s] = hp_node(&hp, slot_var[s]);
	for (int i = 0; i < rc->nhorn && !hp.unsupported; i++) {
		Z3_ast lhs = rc->horn_lhs[i];
		int v = var_node[slot_of[i]];
		if (!horn_below(hi, lhs)) {
			if (holds(z, m, lhs))
				hp.truth[v] = 1;
			continue;
		}
		hp_link(&hp, hp_node(&hp, lhs), v);
	}
	int ok = !hp.unsupported;
	if (ok) {
		/* links by their argument: first[u] .. first[u + 1] */
		int *first = xcalloc((size_t)hp.n + 1, sizeof(int));
		for (size_t l = 0; l < hp.nlink; l++)
			first[hp.link_from[l] + 1]++;
		for (int u = 0; u < hp.n; u++)
			first[u + 1] += first[u];
		int *to = xmalloc(sizeof(int) * (hp.nlink ? hp.nlink : 1));
		int *fill = xmalloc(sizeof(int) * ((size_t)hp.n + 1));
		memcpy(fill, first, sizeof(int) * (size_t)hp.n);
		for (size_t l = 0; l < hp.nlink; l++)
			to[fill[hp.link_from[l]]++] = hp.link_to[l];
		int *queue = xmalloc(sizeof(int) * ((size_t)hp.n + 1));
		int nq = 0;
		for (int u = 0; u < hp.n; u++)
			if (hp.truth[u])
				queue[nq++] = u;
		/* each node enters the queue once, when it becomes true */
		for (int qi = 0; qi < nq; qi++) {
			int u = queue[qi];
			for (int l = first[u]; l < first[u + 1]; l++) {
				int p = to[l];
				if (hp.truth[p])
					continue;
				if (hp.kind[p] == HP_AND && (hp.need[p] < 0 || --hp.need[p] > 0))
					continue;
				hp.truth[p] = 1;
				queue[nq++] = p;
			}
		}
		for (int s = 0; s < nslot; s++)
			val[s] = hp.truth[var_node[s]];
		free(queue);
		free(fill);
		free(to);
		free(first);
	}
	free(var_node);
	free(hp.node);
	free(hp.kind);
	free(hp.truth);
	free(hp.need);
	free(hp.link_from);
	free(hp.link_to);
	return ok;
}

/*
 * The least fixpoint, by least_by_propagation when every lhs is and/or
 * over Horn variables, else by a worklist of clauses (the clauses are
 * monotone: closures and monotone let recs only): every variable starts false; a clause is
 * evaluated once at the start (unless it is a conjunction waiting for one
 * of its own Horn variables) and again only when one of the Horn variables
 * in its lhs has just become true; a clause that holds makes its variable
 * true for good.  A Z3_model_eval is asked once per term without Horn
 * variables (lhs_holds), so this costs about one evaluation per edge of
 * each closure, where a Kleene iteration evaluated every clause once per
 * round (4 or more rounds of 60,000 clauses on a 60-event test: seconds).
 * The and/or/not above the Horn variables are lhs_holds' own: left to Z3,
 * rcu-order's clauses (an or of thousands of nodes each, asked again each
 * time one of their variables becomes true) cost 2 of the 3 billion
 * instructions of a 57-event random test's --exists-only run.
 */
long rel_least_model(const struct rel_ctx *rc, Z3_model m)
{
	Z3_context z = rc->z;
	int nh = rc->nhorn;
	if (nh == 0)
		return 0;
	struct horn_index hi = {.z = z};
	int *slot_of = xmalloc(sizeof(int) * (size_t)nh);     /* clause -> variable */
	Z3_ast *slot_var = xmalloc(sizeof(Z3_ast) * (size_t)nh);
	int nslot = 0;
	for (int i = 0; i < nh; i++) {
		unsigned id = Z3_get_ast_id(z, rc->horn_var[i]);
		horn_index_grow(&hi, id);
		if (!hi.var[id]) {
			slot_var[nslot] = rc->horn_var[i];
			hi.var[id] = ++nslot;
		}
		slot_of[i] = hi.var[id] - 1;
	}
	unsigned char *val = xcalloc((size_t)nslot, 1);
	if (least_by_propagation(rc, &hi, m, slot_of, slot_var, nslot, val)) {
		for (int s = 0; s < nslot; s++)
			Z3_add_const_interp(z, m, decl_of(z, slot_var[s]),
					    val[s] ? rc->t : Z3_mk_false(z));
		free(val);
		free(slot_var);
		free(slot_of);
		horn_index_free(&hi);
		return 0;
	}
	/* Who waits for whom: user[first[s] .. first[s + 1]) are the clauses
	 * whose lhs holds variable s. */
	int *deps = NULL;
	size_t ndeps = 0, cap = 0;
	int *dep_clause = NULL;
	size_t dep_cap = 0;
	for (int i = 0; i < nh; i++) {
		size_t before = ndeps;
		horn_deps(&hi, rc->horn_lhs[i], (unsigned)i + 1, &deps, &ndeps, &cap);
		if (dep_cap < ndeps) {
			dep_cap = cap;
			dep_clause = xrealloc_array(dep_clause, dep_cap, sizeof(int));
		}
		for (size_t d = before; d < ndeps; d++)
			dep_clause[d] = i;
	}
	int *first = xcalloc((size_t)nslot + 1, sizeof(int));
	for (size_t d = 0; d < ndeps; d++)
		first[deps[d] + 1]++;
	for (int s = 0; s < nslot; s++)
		first[s + 1] += first[s];
	int *user = xmalloc(sizeof(int) * (ndeps ? ndeps : 1));
	int *fill = xmalloc(sizeof(int) * (size_t)nslot);
	memcpy(fill, first, sizeof(int) * (size_t)nslot);
	for (size_t d = 0; d < ndeps; d++)
		user[fill[deps[d]]++] = dep_clause[d];

	Z3_ast f = Z3_mk_false(z);
	for (int s = 0; s < nslot; s++)
		Z3_add_const_interp(z, m, decl_of(z, slot_var[s]), f);
	memset(val, 0, (size_t)nslot);
	unsigned char *queued = xcalloc((size_t)nh, 1);
	int *queue = xmalloc(sizeof(int) * (size_t)nh); /* a ring: each clause once at most */
	int head = 0, count = 0;
	hi.stamp = 1;
	for (int i = 0; i < nh; i++)
		if (!needs_a_variable(&hi, rc->horn_lhs[i])) {
			queue[count++] = i;
			queued[i] = 1;
		}
	while (count > 0) {
		int c = queue[head];
		head = (head + 1) % nh;
		count--;
		queued[c] = 0;
		int s = slot_of[c];
		if (val[s] || !lhs_holds(&hi, m, val, rc->horn_lhs[c]))
			continue;
		val[s] = 1;
		hi.stamp++; /* the values memoised with Horn variables below */
		Z3_add_const_interp(z, m, decl_of(z, slot_var[s]), rc->t);
		for (int u = first[s]; u < first[s + 1]; u++) {
			int d = user[u];
			if (!queued[d] && !val[slot_of[d]]) {
				queue[(head + count) % nh] = d;
				count++;
				queued[d] = 1;
			}
		}
	}
	free(queue);
	free(queued);
	free(val);
	free(fill);
	free(user);
	free(first);
	free(dep_clause);
	free(deps);
	free(slot_var);
	free(slot_of);
	horn_index_free(&hi);
	return hi.z3_evals;
}
