/*
 * rel.h - a small relation algebra over Z3, for writing cat models in C.
 *
 * Over the n events of one candidate-execution encoding, a set is an array
 * of n formulas (event e is in the set iff set[e] holds) and a relation is an
 * n x n matrix of formulas.  NULL stands for "statically false": most pairs of
 * most relations can never be related, and no formula or variable is ever
 * made for them.  Constant folding keeps statically true entries as the true
 * literal.  Every set and relation already includes the guards of its events
 * (an event that is not executed is in no set and no relation), so that the
 * identity [S] and cross product S1*S2 need no extra care.
 *
 * Closures (R+, R*) and let-rec definitions introduce fresh variables with
 * Horn constraints "definition => variable" (see rel_plus): the variable may
 * be larger than the least fixpoint.  That is exact as long as every closure
 * is used with negative polarity only (wanted small: inside acyclic, empty,
 * irreflexive axioms, or subtracted in a flag); models/lkmm.c documents why
 * this holds for the LKMM.  Acyclicity uses integer ranks, only inside the
 * strongly connected components of the relation's may-graph (or, for
 * coherence's shape, the timestamps of rel_keyed).  Both first
 * work out what the program alone decides (pattern.h): closure pairs joined
 * by a path of true-literal ("sure") edges are true without a variable, and
 * rank constraints implied by sure paths are left out.
 *
 * This file does not know about events' meaning, the program or the model.
 */
#ifndef LKMMC_REL_H
#define LKMMC_REL_H

#include <z3.h>

struct memlimit;
struct rel_acyclic_check;
struct rel_keyed;

struct arena;

/* The context of one encoding: Z3 context, event count, and the side
 * constraints (definitions of fresh variables) collected so far. */
struct rel_ctx {
	Z3_context z;           /* Z3 context */
	int n;                  /* number of events */
	const Z3_ast *guard;    /* guard[e]: event e is executed (n entries) */
	struct arena *arena;    /* all sets/relations are allocated here */
	Z3_ast t;               /* the true literal */
	Z3_ast_vector defs;     /* definitional constraints, always asserted */
	int fresh;              /* counter for fresh variable names */
	Z3_ast *horn_lhs;       /* Horn clauses lhs => var defining closures */
	Z3_ast *horn_var;       /* (their variables, in creation order) */
	int nhorn, horn_cap;    /* count, capacity */
	double deadline;        /* CLOCK_MONOTONIC seconds (common/clock.h)
				 * after which sequence and closure give up
				 * with partial results; 0: never */
	struct memlimit *limit; /* the check's memory limit
				 * (common/memlimit.h), asked as the deadline
				 * is; NULL: none */
	int expired;            /* 1 once one did (deadline or stop): what
				 * was built since is incomplete and must not
				 * be asked */
	struct rel_acyclic_check *acyc; /* the acyclicity checks made */
	int nacyc, acyc_cap;    /* count, capacity */
	const struct rel_keyed *keyed; /* orders rel_seq may fold, NULL:
					* none (rel_keyed) */
};


typedef Z3_ast *set_t; /* n formulas, NULL = false */
typedef Z3_ast *rel_t; /* n*n formulas (row-major), NULL = false */

/* An acyclicity check as rel_acyclic() or rel_acyclic_through() made it:
 * holds is its formula, strict and weak (NULL for rel_acyclic) its
 * relations.  The lazy core (encoder/circuit.h) checks them on a
 * candidate execution instead of asserting their ranks. */
struct rel_acyclic_check {
	Z3_ast holds;
	rel_t strict, weak;
};

/*
 * Two orders decided by integer keys and a choice of one key, which
 * rel_seq may fold (the encoder's co, fr and rf).  In every solution:
 *  - an entry of lt (i, k) holds iff i and k execute, same(i, k) and
 *    key[i] < key[k];
 *  - an entry of rlt (i, k) likewise with rkey[i] < key[k];
 *  - an entry of pick (k, j) implies that k and j execute, same(k, j)
 *    and rkey[j] = key[k];
 *  - same(i, j) (a formula, NULL: never) is an equivalence.
 * Then the terms lt(i, k) & pick(k, j) of a ; b, over any set K of k, are
 * together "i executes, same(i, j), key[i] < rkey[j] and pick(k, j) for
 * some k in K": one comparison where there were |K| conjunctions
 * (rlt with rkey[i] alike).  A sequence whose entries are other formulas
 * (even equivalent ones) is left as it is.
 */
struct rel_keyed {
	rel_t lt, rlt, pick;
	const Z3_ast *key, *rkey;
	Z3_ast (*same)(void *ctx, int i, int j);
	void *ctx;
};

#define REL_AT(r, n, a, b) ((r)[(size_t)(a) * (size_t)(n) + (size_t)(b)])

void rel_ctx_init(struct rel_ctx *rc, Z3_context z, int n, const Z3_ast *guard,
		  struct arena *arena);
void rel_ctx_fini(struct rel_ctx *rc);
/* Past the deadline, or over the memory limit (rc->limit): sets rc->expired and
 * returns 1; the long loops of the encoder ask this every few rows. */
int rel_gave_up(struct rel_ctx *rc);

/* Boolean helpers with NULL = false and folding of the true literal. */
Z3_ast rel_and2(struct rel_ctx *rc, Z3_ast a, Z3_ast b);
Z3_ast rel_or2(struct rel_ctx *rc, Z3_ast a, Z3_ast b);
Z3_ast rel_not(struct rel_ctx *rc, Z3_ast a); /* never NULL */
int rel_is_true(const struct rel_ctx *rc, Z3_ast a);
Z3_ast rel_fresh_bool(struct rel_ctx *rc, const char *prefix);
Z3_ast rel_fresh_int(struct rel_ctx *rc, const char *prefix);
/* Add a definitional constraint (always asserted). */
void rel_define(struct rel_ctx *rc, Z3_ast fact);

/* Record and assert the Horn clause lhs => var (var a fresh Boolean of a
 * closure or let rec).  Such variables may exceed the least fixpoint in a
 * solver model; rel_least_model() brings them back to it. */
void rel_horn(struct rel_ctx *rc, Z3_ast lhs, Z3_ast var);
/* Overwrite, in m, every Horn variable with its least-fixpoint value given
 * the model's values of everything else.  Relations evaluated in m are then
 * exactly those of the execution m describes.  Returns how many times a
 * term with Horn variables below was left to Z3's evaluator (0 when the
 * clauses' lhs are and, or and not over Horn variables and other terms). */
long rel_least_model(const struct rel_ctx *rc, Z3_model m);

/* Sets. */
set_t set_new(struct rel_ctx *rc);                   /* empty */
set_t set_all(struct rel_ctx *rc);                   /* every executed event */
set_t set_union(struct rel_ctx *rc, set_t a, set_t b);
set_t set_inter(struct rel_ctx *rc, set_t a, set_t b);
set_t set_diff(struct rel_ctx *rc, set_t a, set_t b);
set_t set_domain(struct rel_ctx *rc, rel_t r);
set_t set_range(struct rel_ctx *rc, rel_t r);

/* Relations. */
rel_t rel_new(struct rel_ctx *rc);                   /* empty */
rel_t rel_id(struct rel_ctx *rc, set_t s);           /* [S] */
rel_t rel_cross(struct rel_ctx *rc, set_t a, set_t b); /* S1 * S2 */
rel_t rel_union(struct rel_ctx *rc, rel_t a, rel_t b);
rel_t rel_union3(struct rel_ctx *rc, rel_t a, rel_t b, rel_t c);
rel_t rel_inter(struct rel_ctx *rc, rel_t a, rel_t b);
rel_t rel_diff(struct rel_ctx *rc, rel_t a, rel_t b);
rel_t rel_seq(struct rel_ctx *rc, rel_t a, rel_t b); /* a ; b */
rel_t rel_seq3(struct rel_ctx *rc, rel_t a, rel_t b, rel_t c);
rel_t rel_inv(struct rel_ctx *rc, rel_t a);          /* a^-1 */
rel_t rel_opt(struct rel_ctx *rc, rel_t a);          /* a? = a | id */
rel_t rel_plus(struct rel_ctx *rc, rel_t a, const char *name); /* a+ */
rel_t rel_star(struct rel_ctx *rc, rel_t a, const char *name); /* a* */
/* [from] ; a* — only the rows of the events in from (fewer variables). */
rel_t rel_star_from(struct rel_ctx *rc, set_t from, rel_t a, const char *name);
/* init ; a* as one closure over the rows of init: fewer variables than
 * init ; rel_star_from(range of init) when init has fewer rows than its
 * range has events. */
rel_t rel_seq_star(struct rel_ctx *rc, rel_t init, rel_t a, const char *name);
/* a+ where a is the walks of an automaton: edge[p * nstates + q] (NULL:
 * none) are the steps from state p to state q, and a(i, j) holds when a
 * walk of one or more steps goes from event i in state 0 to event j in
 * state 0 (relwalk.c).  So a ; b inside a closure, as states 0 -a-> 1 -b->
 * 0, costs rules for a's edges and b's, not for every pair of them. */
rel_t rel_plus_walks(struct rel_ctx *rc, int nstates, const rel_t *edge,
		     const char *name);
/* [S1] ; a ; [S2] (either set may be NULL for "all"). */
rel_t rel_restrict(struct rel_ctx *rc, set_t s1, rel_t a, set_t s2);
/* Give every non-constant entry of a a fresh variable equivalent to it:
 * keeps formulas small when a relation is used many times. */
rel_t rel_name(struct rel_ctx *rc, rel_t a, const char *name);

/* Axioms: formulas that hold iff the relation is acyclic / irreflexive /
 * empty.  rel_acyclic introduces rank variables, so its result may only be
 * asserted (or implied by an assumption literal), never negated; a
 * relation of coherence's shape (rc->keyed's three relations and other
 * edges forward within a static location, rel.c's keyed_acyclic) gets
 * comparisons of its events' timestamps instead, no variable. */
Z3_ast rel_acyclic(struct rel_ctx *rc, rel_t a, const char *name);
/* No cycle of strict | weak that contains a strict edge: integer ranks,
 * strict edges increasing, weak edges non-decreasing.  That is
 * acyclic(strict ; weak*) when the cycles of weak alone are allowed. */
Z3_ast rel_acyclic_through(struct rel_ctx *rc, rel_t strict, rel_t weak,
			   const char *name);
/* The opposite question, for showing that no execution breaks an axiom:
 * a formula that holds iff a has a cycle.  Unlike rel_acyclic it may be
 * negated or asserted; it is exact only where the entries of a are, so a
 * relation built from closures needs rel_exact_defs() beside it. */
Z3_ast rel_cyclic(struct rel_ctx *rc, rel_t a, const char *name);
/* The converse of the Horn clauses made since rel_horn_count() was from,
 * with integer ranks making derivations well-founded, into out: with them
 * those closure variables are exactly their least fixpoint, also where they
 * are wanted large.  Asserted beside rel_cyclic() formulas to ask whether
 * an execution breaks an axiom; never needed for rel_acyclic(). */
void rel_exact_defs(struct rel_ctx *rc, int from, Z3_ast_vector out);
/* How many Horn clauses have been made so far. */
int rel_horn_count(const struct rel_ctx *rc);
Z3_ast rel_irreflexive(struct rel_ctx *rc, rel_t a);
Z3_ast rel_is_empty(struct rel_ctx *rc, rel_t a);
Z3_ast set_is_empty(struct rel_ctx *rc, set_t s);

/* Number of non-NULL entries (for statistics and tests). */
int rel_count(const struct rel_ctx *rc, rel_t a);

/* The definitions made so far, by the name of the relation whose fresh
 * variable each defines (encoder/reltally.c; for --stats): *out gets a
 * malloc'ed array, most definitions first; returns its length. */
struct rel_tally {
	char *name;             /* the relation's name ("hb", "rcu-order") */
	unsigned defs;          /* definitions charged to it */
};
int rel_defs_by_name(const struct rel_ctx *rc, struct rel_tally **out);
void rel_tally_free(struct rel_tally *t, int n);

#endif
