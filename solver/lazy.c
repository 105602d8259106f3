/*
 * lazy.c - the model's axioms checked on the executions Z3's search
 * builds, outside Z3 (lazy.h).
 *
 * Z3 holds the program alone.  Its user propagator (Z3 4.8.12: fixed,
 * final, push and pop callbacks) tells the core the values the search
 * gives the axioms' atoms (each registered through a Boolean proxy, see
 * start_propagator).  Each value goes into the circuit's incremental
 * bounds (circuit_inc_fix), and an axiom they break is a conflict at
 * once, whose premises are the atoms of its justification (a cycle's
 * edges back to the rf, co and guard choices that made them); what the
 * axioms force (an edge that would close a cycle is false) goes back to
 * the search as propagations, with their premises as reasons.  Pop
 * callbacks undo the bounds with the search.  At a complete assignment
 * the circuit evaluates everything once (a negated closure waits for
 * that).  lazy_check then evaluates the model the search returns once
 * more, in Z3's model: a question that names the model's relations gets
 * their definitions asserted beside it, and an execution that still
 * breaks something is ruled out by an asserted clause.
 *
 * The model's flags (a data race) are followed the same way: each has a
 * Boolean proxy registered with the search, and a question that names a
 * flag where it can only help the question to hold (under "and" and "or")
 * names its proxy instead.  The core reports a conflict when a proxy is
 * true and the flag's upper bound has fallen (every pair of the race
 * ordered by the closures the atoms fixed so far), and the final checks
 * when the complete execution raises no such flag.  A proxy promises
 * nothing when false, which only such occurrences allow.  Before, the
 * flag's definitions (xbstar's, hundreds of thousands on the lock
 * programs) were asserted beside the question: Z3 taking them in was
 * most of the time (37.6 of the 38.7 s of the 6-thread per-index MCS
 * lock).
 *
 * Tried before: checking partial assignments by walking the whole
 * circuit every k atoms fixed cost more than the earlier conflicts saved
 * (docs/benchmarks.md); the incremental bounds replaced it.
 */
#include "solver/lazy.h"

#include <stdlib.h>

#include "common/check.h"
#include "common/clock.h"
#include "common/xalloc.h"
#include "encoder/circuit.h"
#include "solver/problem.h"

struct lazy {
	Z3_context z;
	struct circuit *c;
	int *axiom;          /* the axioms' nodes */
	int naxioms;
	Z3_solver s;         /* the solver it owns, NULL: none yet */
	/* the propagator inside s's search: the atoms of the axioms,
	 * registered with s, and their values on the search's trail */
	int natoms;          /* atoms registered (circuit_atom 0 .. natoms) */
	int nnodes;          /* the axioms' nodes: circuit_nodes then */
	int *atom_of_id;     /* per registered id: its atom */
	unsigned *id_of_atom;
	unsigned nids;
	signed char *val;    /* per atom: 1, 0, -1 not fixed */
	Z3_ast *proxy;       /* per atom: the Boolean registered for it */
	int *trail;          /* atoms fixed, in order */
	size_t ntrail, trail_cap;
	size_t *mark;        /* per open scope: the trail's length */
	size_t nmark, mark_cap;
	unsigned *premise;   /* a conflict's ids */
	size_t premise_cap;
	unsigned def_scope;  /* the deepest scope definitions were
			      * asserted in */
	signed char *before; /* per axiom: its value before an atom's
			      * propagation */
	/* the model's flags: per flag its node (-1: not compiled, its
	 * definitions go to Z3 as before), its term, and its proxy, which
	 * is registered after the atoms: its value is val[natoms + k] */
	int nflags;
	int *flag_node;
	Z3_ast *flag_term;
	Z3_ast *flag_proxy;
	signed char *flag_before; /* per flag: its node's value before an
				   * atom's propagation */
	struct lazy_stats st;
};

int *lazy_axiom_nodes(struct circuit *c, const struct problem *p, int *n)
{
	int *node = xmalloc_array((size_t)p->m.naxioms + 1, sizeof(int));
	*n = 0;
	for (int a = 0; a < p->m.naxioms; a++) {
		const struct model_axiom *ax = &p->m.axiom[a];
		if (!ax->holds)
			continue;
		int u = ax->negated ? -1 : circuit_root(c, ax->holds);
		if (u < 0) {
			free(node);
			return NULL;
		}
		node[(*n)++] = u;
	}
	return node;
}

struct lazy *lazy_new(const struct problem *p)
{
	struct lazy *lz = xcalloc(1, sizeof *lz);
	lz->z = p->z;
	lz->c = circuit_new(&p->enc->rc);
	lz->axiom = lazy_axiom_nodes(lz->c, p, &lz->naxioms);
	if (!lz->axiom) {
		lazy_free(lz);
		return NULL;
	}
	/* before the incremental core starts: it follows the nodes there
	 * are then */
	lz->nflags = p->m.nflags;
	lz->flag_node = xmalloc_array((size_t)lz->nflags + 1, sizeof(int));
	lz->flag_term = xcalloc((size_t)lz->nflags + 1, sizeof(Z3_ast));
	lz->flag_proxy = xcalloc((size_t)lz->nflags + 1, sizeof(Z3_ast));
	lz->flag_before = xmalloc((size_t)lz->nflags + 1);
	for (int k = 0; k < lz->nflags; k++) {
		Z3_ast t = p->m.flag[k].raised;
		int never = Z3_get_bool_value(lz->z, t) == Z3_L_FALSE;
		lz->flag_term[k] = t;
		lz->flag_node[k] = never ? -1 : circuit_root(lz->c, t);
	}
	return lz;
}

void lazy_free(struct lazy *lz)
{
	if (!lz)
		return;
	circuit_free(lz->c);
	free(lz->axiom);
	free(lz->atom_of_id);
	free(lz->id_of_atom);
	free(lz->val);
	free(lz->trail);
	free(lz->mark);
	free(lz->premise);
	free(lz->before);
	free(lz->proxy);
	free(lz->flag_node);
	free(lz->flag_term);
	free(lz->flag_proxy);
	free(lz->flag_before);
	free(lz);
}

/* ---- the propagator: Z3's callbacks ---- */

static void on_push(void *ctx)
{
	struct lazy *lz = ctx;
	XGROW(lz->mark, lz->mark_cap, lz->nmark + 2, 64);
	lz->mark[lz->nmark++] = lz->ntrail;
	lz->mark[lz->nmark++] = circuit_inc_level(lz->c);
}

static void on_pop(void *ctx, unsigned n)
{
	struct lazy *lz = ctx;
	CHECK(2 * (size_t)n <= lz->nmark, "lazy: pop of %u scopes, %zu open", n, lz->nmark / 2);
	lz->nmark -= 2 * (size_t)n;
	size_t keep = lz->mark[lz->nmark];
	while (lz->ntrail > keep)
		lz->val[lz->trail[--lz->ntrail]] = -1;
	circuit_inc_undo(lz->c, lz->mark[lz->nmark + 1]);
}

/* Z3 copies a solver only for tactics and parallel search, which the
 * lazy solver never runs: the same core serves the copy. */
static void *on_fresh(void *ctx, Z3_context z)
{
	(void)z;
	return ctx;
}

/* A conflict: the atoms of node's justification (its value, 0), and
 * the registered id `also` when it is not ~0u. */
static void conflict_on(struct lazy *lz, Z3_solver_callback cb, int node, unsigned also)
{
	Z3_ast *lits;
	int k = circuit_justify(lz->c, node, &lits);
	const int *atoms = circuit_justified_atoms(lz->c);
	XGROW(lz->premise, lz->premise_cap, (size_t)k + 2, 64);
	for (int j = 0; j < k; j++)
		lz->premise[j] = lz->id_of_atom[atoms[j]];
	if (also != ~0u)
		lz->premise[k++] = also;
	Z3_solver_propagate_consequence(lz->z, cb, (unsigned)k, lz->premise, 0, NULL,
					NULL, Z3_mk_false(lz->z));
	lz->st.conflicts++;
	lz->st.lits += k;
}

/* Each axiom the atoms fixed so far break is a conflict whose premises
 * are the atoms of its justification; so is each flag whose proxy is
 * true and which can no longer be raised, with the proxy among them.
 * before, bflag: the values before the last atom's propagation (only
 * what changed is reported; NULL: all). */
static void conflicts(struct lazy *lz, Z3_solver_callback cb, const signed char *before,
		      const signed char *bflag)
{
	for (int i = 0; i < lz->naxioms; i++) {
		if (circuit_value(lz->c, lz->axiom[i]) != 0 || (before && before[i] == 0))
			continue;
		conflict_on(lz, cb, lz->axiom[i], ~0u);
	}
	for (int k = 0; k < lz->nflags; k++) {
		int u = lz->flag_node[k];
		if (!lz->flag_proxy[k] || lz->val[lz->natoms + k] != 1 ||
		    circuit_value(lz->c, u) != 0 || (bflag && bflag[k] == 0))
			continue;
		conflict_on(lz, cb, u, lz->id_of_atom[lz->natoms + k]);
	}
}

/* What the atoms fixed so far imply (an edge that would close a cycle
 * is false), each with the atoms that imply it. */
static void implied(struct lazy *lz, Z3_solver_callback cb)
{
	int n = circuit_inc_implied(lz->c);
	for (int k = 0; k < n; k++) {
		const int *prem;
		int np, lit = circuit_inc_implied_lit(lz->c, k, &prem, &np);
		int atom = lit / 2;
		if (lz->val[atom] >= 0)
			continue; /* fixed already (its callback comes later) */
		XGROW(lz->premise, lz->premise_cap, (size_t)np + 1, 64);
		for (int j = 0; j < np; j++)
			lz->premise[j] = lz->id_of_atom[prem[j]];
		Z3_ast conseq = lit & 1 ? lz->proxy[atom] : Z3_mk_not(lz->z, lz->proxy[atom]);
		Z3_solver_propagate_consequence(lz->z, cb, (unsigned)np, lz->premise, 0, NULL, NULL,
						conseq);
		lz->st.implied++;
	}
}

static void on_fixed(void *ctx, Z3_solver_callback cb, unsigned id, Z3_ast value)
{
	struct lazy *lz = ctx;
	if (id >= lz->nids || lz->atom_of_id[id] < 0)
		return; /* fixed while registered: the final check has it */
	int a = lz->atom_of_id[id];
	if (lz->val[a] >= 0)
		return;
	lz->val[a] = Z3_get_bool_value(lz->z, value) == Z3_L_TRUE;
	XGROW(lz->trail, lz->trail_cap, lz->ntrail + 1, 1024);
	lz->trail[lz->ntrail++] = a;
	double t0 = clock_now();
	if (a >= lz->natoms) {
		/* a flag's proxy: true when the flag is already out of reach */
		int u = lz->flag_node[a - lz->natoms];
		if (lz->val[a] == 1 && circuit_value(lz->c, u) == 0)
			conflict_on(lz, cb, u, id);
		lz->st.inc_s += clock_now() - t0;
		return;
	}
	/* the axioms the atoms fixed so far break, as soon as they do */
	for (int i = 0; i < lz->naxioms; i++)
		lz->before[i] = (signed char)circuit_value(lz->c, lz->axiom[i]);
	for (int k = 0; k < lz->nflags; k++)
		lz->flag_before[k] = lz->flag_proxy[k] ?
			(signed char)circuit_value(lz->c, lz->flag_node[k]) : -1;
	circuit_inc_fix(lz->c, a, lz->val[a]);
	long before = lz->st.conflicts;
	conflicts(lz, cb, lz->before, lz->flag_before);
	if (lz->st.conflicts == before)
		implied(lz, cb);
	lz->st.inc_s += clock_now() - t0;
}

/* A complete assignment (every atom fixed). */
static void on_final(void *ctx, Z3_solver_callback cb)
{
	struct lazy *lz = ctx;
	double t0 = clock_now();
	/* what only a complete assignment decides (a negated closure) */
	circuit_inc_save(lz->c);
	if (circuit_eval_given(lz->c, lz->val, lz->nnodes))
		conflicts(lz, cb, NULL, NULL);
	/* else an atom is not fixed: lazy_check's own check decides */
	circuit_inc_restore(lz->c);
	lz->st.eval_s += clock_now() - t0;
}

/* Register the axioms' atoms with s and the callbacks that follow them. */
static void start_propagator(struct lazy *lz, Z3_solver s)
{
	Z3_context z = lz->z;
	Z3_solver_propagate_init(z, s, lz, on_push, on_pop, on_fresh);
	Z3_solver_propagate_fixed(z, s, on_fixed);
	Z3_solver_propagate_final(z, s, on_final);
	lz->natoms = circuit_atom_count(lz->c);
	lz->nnodes = circuit_nodes(lz->c);
	/* atoms 0 .. natoms, then the flags' proxies */
	size_t nvals = (size_t)lz->natoms + (size_t)lz->nflags + 1;
	lz->id_of_atom = xmalloc_array(nvals, sizeof(unsigned));
	lz->val = xmalloc_array(nvals, 1);
	lz->proxy = xmalloc_array(nvals, sizeof(Z3_ast));
	for (size_t a = 0; a < nvals; a++)
		lz->val[a] = -1;
	/* ready before the first callback: registering a term calls push
	 * for each scope the solver has open */
	lz->before = xmalloc((size_t)lz->naxioms + 1);
	circuit_inc_start(lz->c);
	for (int i = 0; i < lz->naxioms; i++)
		circuit_inc_require(lz->c, lz->axiom[i]);
	for (int k = 0; k < lz->nflags; k++)
		if (lz->flag_node[k] >= 0)
			circuit_inc_follow_upper(lz->c, lz->flag_node[k]);
	for (int a = 0; a < lz->natoms + lz->nflags; a++) {
		Z3_ast proxy;
		if (a < lz->natoms) {
			/* A proxy: an atom registered itself would be the
			 * user theory's term, no longer arithmetic's (its
			 * integers got no values in Z3 4.8.12). */
			proxy = Z3_mk_fresh_const(z, "lazy", Z3_mk_bool_sort(z));
			Z3_solver_assert(z, s, Z3_mk_eq(z, proxy, circuit_atom(lz->c, a)));
		} else if (lz->flag_node[a - lz->natoms] >= 0) {
			/* a flag's: nothing ties it in Z3, the core does */
			proxy = Z3_mk_fresh_const(z, "flag", Z3_mk_bool_sort(z));
			lz->flag_proxy[a - lz->natoms] = proxy;
		} else {
			continue;
		}
		unsigned id = Z3_solver_propagate_register(z, s, proxy);
		lz->proxy[a] = proxy;
		lz->id_of_atom[a] = id;
		if (id >= lz->nids) {
			unsigned cap = id + 1;
			lz->atom_of_id = xrealloc_array(lz->atom_of_id, cap, sizeof(int));
			for (unsigned k = lz->nids; k < cap; k++)
				lz->atom_of_id[k] = -1;
			lz->nids = cap;
		}
		lz->atom_of_id[id] = a;
	}
	/* every registered atom is given a value before the final check */
	Z3_params prm = Z3_mk_params(z);
	Z3_params_inc_ref(z, prm);
	Z3_params_set_uint(z, prm, Z3_mk_string_symbol(z, "relevancy"), 0);
	Z3_solver_set_params(z, s, prm);
	Z3_params_dec_ref(z, prm);
}

int lazy_adopt(struct lazy *lz, Z3_solver s)
{
	if (lz->s)
		return 0;
	lz->s = s;
	start_propagator(lz, s);
	return 1;
}

int lazy_owner(const struct lazy *lz)
{
	return lz->s != NULL;
}

int lazy_owns(const struct lazy *lz, Z3_solver s)
{
	return lz && lz->s == s;
}

void lazy_get_stats(const struct lazy *lz, struct lazy_stats *st)
{
	*st = lz->st;
	st->nodes = circuit_nodes(lz->c);
	st->atoms = circuit_atoms(lz->c);
	st->changes = circuit_inc_changes(lz->c);
}

/* "Not all of the justification of node", or with extra (NULL: none)
 * as one more disjunct, into out. */
static void add_clause(struct lazy *lz, Z3_ast_vector out, int node, Z3_ast extra)
{
	int k;
	Z3_ast_vector_push(lz->z, out, circuit_clause(lz->c, node, extra, &k));
	lz->st.clauses++;
	lz->st.lits += k;
}

/* f with each flag the core follows named by its proxy where it occurs
 * under "and" and "or" only (where a proxy, which promises nothing when
 * false, is exact: f can hold only through the flag being raised); the
 * other occurrences are left, their definitions asserted as before.
 * memo: what each shared subterm became (a guard's conjunctions are
 * shared between many formulas). */
static Z3_ast by_proxies_in(struct lazy *lz, Z3_ast f, Z3_ast_map memo)
{
	Z3_context z = lz->z;
	for (int k = 0; k < lz->nflags; k++)
		if (lz->flag_proxy[k] && Z3_is_eq_ast(z, f, lz->flag_term[k]))
			return lz->flag_proxy[k];
	if (Z3_get_ast_kind(z, f) != Z3_APP_AST)
		return f;
	Z3_app app = Z3_to_app(z, f);
	Z3_decl_kind kind = Z3_get_decl_kind(z, Z3_get_app_decl(z, app));
	if (kind != Z3_OP_AND && kind != Z3_OP_OR)
		return f;
	if (Z3_ast_map_contains(z, memo, f))
		return Z3_ast_map_find(z, memo, f);
	unsigned n = Z3_get_app_num_args(z, app);
	Z3_ast *arg = xmalloc_array((size_t)n + 1, sizeof(Z3_ast));
	int changed = 0;
	for (unsigned i = 0; i < n; i++) {
		Z3_ast x = Z3_get_app_arg(z, app, i);
		arg[i] = by_proxies_in(lz, x, memo);
		changed |= !Z3_is_eq_ast(z, arg[i], x);
	}
	Z3_ast g = !changed ? f : kind == Z3_OP_AND ? Z3_mk_and(z, n, arg) : Z3_mk_or(z, n, arg);
	free(arg);
	Z3_ast_map_insert(z, memo, f, g);
	return g;
}

static Z3_ast by_proxies(struct lazy *lz, Z3_ast f)
{
	Z3_context z = lz->z;
	/* most assumptions are literals (a state's column values): no walk */
	int any = 0;
	for (int k = 0; k < lz->nflags; k++)
		any |= lz->flag_proxy[k] != NULL;
	if (!any || Z3_get_ast_kind(z, f) != Z3_APP_AST)
		return f;
	Z3_decl_kind kind = Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, f)));
	if (kind != Z3_OP_AND && kind != Z3_OP_OR)
		return by_proxies_in(lz, f, NULL); /* a flag itself or left: no memo read */
	Z3_ast_map memo = Z3_mk_ast_map(lz->z);
	Z3_ast_map_inc_ref(lz->z, memo);
	Z3_ast g = by_proxies_in(lz, f, memo);
	Z3_ast_map_dec_ref(lz->z, memo);
	return g;
}

/* The nodes of the assumptions, with the definitions they reach
 * asserted in s (again after a pop took them); -1 for one that cannot be
 * evaluated. */
static int *assumption_nodes(struct lazy *lz, Z3_solver s, unsigned n, const Z3_ast *a)
{
	Z3_context z = lz->z;
	unsigned scope = Z3_solver_get_num_scopes(z, s);
	if (scope < lz->def_scope)
		circuit_forget_cone(lz->c);
	lz->def_scope = scope;
	int *node = xmalloc_array((size_t)n + 1, sizeof(int));
	Z3_ast_vector defs = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, defs);
	for (unsigned i = 0; i < n; i++) {
		node[i] = circuit_root(lz->c, a[i]);
		if (node[i] >= 0)
			circuit_cone_defs(lz->c, node[i], defs);
	}
	for (unsigned i = 0; i < Z3_ast_vector_size(z, defs); i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, defs, i));
	Z3_ast_vector_dec_ref(z, defs);
	return node;
}

/* A clause into out for each axiom m breaks, or else for each
 * assumption the model's exact relations make false; how many. */
static int refine(struct lazy *lz, Z3_ast_vector out, Z3_model m, unsigned n,
		  const Z3_ast *a, const int *anode)
{
	int added = 0;
	for (int i = 0; i < lz->naxioms; i++)
		if (circuit_value(lz->c, lz->axiom[i]) == 0) {
			add_clause(lz, out, lz->axiom[i], NULL);
			added++;
		}
	for (int k = 0; k < lz->nflags; k++) {
		Z3_ast v = NULL;
		if (!lz->flag_proxy[k] || circuit_value(lz->c, lz->flag_node[k]) != 0 ||
		    !Z3_model_eval(lz->z, m, lz->flag_proxy[k], 1, &v) ||
		    Z3_get_bool_value(lz->z, v) != Z3_L_TRUE)
			continue;
		/* a proxy true in an execution that raises no such flag */
		add_clause(lz, out, lz->flag_node[k], Z3_mk_not(lz->z, lz->flag_proxy[k]));
		added++;
	}
	for (unsigned i = 0; i < n && !added; i++)
		if (circuit_value(lz->c, anode[i]) == 0) {
			add_clause(lz, out, anode[i], Z3_mk_not(lz->z, a[i]));
			added++;
		}
	return added;
}

Z3_lbool lazy_check(struct lazy *lz, Z3_solver s, unsigned n, const Z3_ast *a,
		    double deadline)
{
	Z3_context z = lz->z;
	Z3_ast *named = xmalloc_array((size_t)n + 1, sizeof(Z3_ast));
	for (unsigned i = 0; i < n; i++)
		named[i] = by_proxies(lz, a[i]);
	a = named;
	int *anode = assumption_nodes(lz, s, n, a);
	Z3_lbool r = Z3_L_UNDEF;
	for (unsigned i = 0; i < n; i++)
		if (anode[i] < 0)
			goto out; /* cannot be evaluated: no answer */
	for (;;) {
		double t0 = clock_now();
		r = problem_ask_until(z, s, n, a, deadline);
		double t1 = clock_now();
		lz->st.solve_s += t1 - t0;
		if (r != Z3_L_TRUE)
			break;
		Z3_model m = Z3_solver_get_model(z, s);
		Z3_model_inc_ref(z, m);
		/* the full evaluation beside the search's bounds, which must be
		 * back before anything is asserted: an assertion takes Z3 back
		 * to its base level, through the pop callback */
		Z3_ast_vector clauses = Z3_mk_ast_vector(z);
		Z3_ast_vector_inc_ref(z, clauses);
		circuit_inc_save(lz->c);
		int ok = circuit_eval(lz->c, m);
		int added = ok ? refine(lz, clauses, m, n, a, anode) : 0;
		if (ok && !added)
			circuit_fix_model(lz->c, m);
		circuit_inc_restore(lz->c);
		for (unsigned i = 0; i < Z3_ast_vector_size(z, clauses); i++)
			Z3_solver_assert(z, s, Z3_ast_vector_get(z, clauses, i));
		Z3_ast_vector_dec_ref(z, clauses);
		Z3_model_dec_ref(z, m);
		lz->st.eval_s += clock_now() - t1;
		if (!ok)
			r = Z3_L_UNDEF;
		if (!ok || !added)
			break;
		lz->st.rounds++;
	}
out:
	free(anode);
	free(named);
	return r;
}
