/*
 * circuit_int.h - the circuit's nodes, shared by its files (not for
 * other users: circuit.h is the interface).  circuit.c compiles
 * formulas into nodes and their components and answers for the model's
 * definitions; circuit_eval.c evaluates them; circuit_inc.c keeps their
 * bounds during a search, circuit_imply.c what the axioms force then;
 * circuit_why.c justifies a
 * value.
 */
#ifndef LKMMC_CIRCUIT_INT_H
#define LKMMC_CIRCUIT_INT_H

#include <stddef.h>
#include <z3.h>

#include "encoder/circuit.h"
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
	int make_lits;          /* the justification's Z3 literals too */
	struct circuit_inc *inc; /* the bounds kept during a search
				  * (circuit_inc.c), NULL: none */
};

/* Push v on c's scratch stack (*sp entries). */
void circuit_push(struct circuit *c, size_t *sp, int v);

/* Child k of node u. */
static inline int circuit_kid(const struct circuit *c, int u, int k)
{
	return c->pool[c->first[u] + k];
}

/* A cycle of acyclicity check u's surely true edges through a strict one
 * into cyc (pool slots, room for the events); its length, 0: none
 * (circuit_eval.c). */
int circuit_acyc_cycle(const struct circuit *c, int u, int *cyc);

/* The atoms (circuit_justified_atoms) whose values force each of
 * wanted[0 .. n) (2 * node + value, each surely so), together; their
 * number.  No Z3 literal is made (circuit_why.c). */
int circuit_justify_atoms(struct circuit *c, const int *wanted, int n);

/* An acyclicity check's possible edges by source event: pool slots in
 * out[first[i] .. first[i + 1]). */
struct inc_acyc {
	int node;
	int *first, *out;
	int *in_first, *in;     /* by target event, the same way */
	/* the surely true ones, kept as they come and go: from source
	 * event i, lo_out[first[i] .. first[i] + nlo_out[i]); into j,
	 * lo_in[in_first[j] .. in_first[j] + nlo_in[j]) */
	int *lo_out, *nlo_out, *lo_in, *nlo_in;
};

enum { NEED_LO = 1, NEED_HI = 2 };
enum { OWNER_KIND = 0xff, OWNER_CYCLIC = 0x100 };

struct circuit_inc {
	int nodes;              /* the nodes it follows: 0 .. nodes */
	int *par_first, *par;   /* per node: where it is a child of a
				 * followed node that reads its bounds:
				 * pool slot * 4 + the bounds read */
	int *owner;             /* per pool slot of a followed node: it,
				 * the child there, and its kind with
				 * OWNER_CYCLIC when its component is
				 * (side by side: one memory access where
				 * the node's kind and component were
				 * two more, a third of the updates'
				 * time on the MCS lock) */
	int prepared;           /* the parents' lists are up to date */
	struct inc_acyc *acyc;
	int nacyc;
	int *acyc_of;           /* per node: 1 + its inc_acyc, 0: none */
	int *trail;             /* per change: node * 4 + old lo * 2 + old hi */
	size_t ntrail, trail_cap;
	int *atrail;            /* per surely true edge listed: its check,
				 * its slot, the trail's length then */
	size_t natrail, atrail_cap;
	int *queue;             /* pool slots whose child changed */
	size_t queue_cap;
	/* the state circuit_inc_save put aside */
	unsigned char *save_lo, *save_hi;
	int *save_reason;
	/* breadth-first search of a cycle: (event, strict seen) states */
	int *seen, *bfs;
	unsigned seen_cur;
	long changes;
	unsigned char *need;     /* per node: which of its bounds anyone
				  * reads (NEED_LO, NEED_HI); the others
				  * are left as they are, still bounds */
	/* propagation (circuit_imply.c): atoms the axioms force false,
	 * each with the atoms that force it */
	unsigned char *required; /* per node: the axioms need it true */
	unsigned char *req_false; /* per node: the axioms need it false */
	int *bseen, *bbfs;       /* the backward search's states */
	int *fvia, *bvia;        /* per state: slot * 2 + the previous
				  * state's strictness, -1: the start */
	int *imp_lit;            /* per implied atom: 2 * atom + value */
	int *imp_first, *imp_nprem; /* its premises: imp_nprem[k] from
				  * imp_prem[imp_first[k]] */
	int *imp_prem;
	size_t nimp, imp_cap, nprem, prem_cap;
	int *want;               /* scratch: nodes to justify */
	size_t nwant, want_cap;
	unsigned *atom_stamp;    /* per atom: implied in this batch */
	unsigned batch;
	long implied;
};

/* Which bounds of node u are read (NEED_LO, NEED_HI): marked, and what
 * they are made of (circuit_inc.c). */
void circuit_inc_need(struct circuit *c, int u, int need);
/* Breadth-first over (event, strict seen) states along check a's surely
 * true edges, forward (out-edges) or backward (in-edges), from state
 * start (event * 2 + strict); each state reached keeps in fvia or bvia
 * the slot that reached it and the state before's strictness (slot * 2 +
 * strict, -1: the start), and seen / bseen the search's stamp
 * (seen_cur).  Stops when state stop (>= 0) is reached: returns whether
 * it was (circuit_inc.c). */
int circuit_acyc_search(struct circuit *c, const struct inc_acyc *a, int backward, int start,
			int stop);
/* circuit_imply.c: a new fix's implications start empty; node (2 *
 * node + value) joins the premises being gathered; the implications of
 * check a's new surely true edge in slot, and of and node u's child
 * changing. */
void circuit_imply_reset(struct circuit *c);
void circuit_imply_want(struct circuit_inc *in, int node, int value);
void circuit_imply_acyc(struct circuit *c, const struct inc_acyc *a, int slot);
void circuit_imply_and(struct circuit *c, int u);

/* Node u's bounds from its children's (u outside any cycle; an atom's
 * from m or the given values, clearing *ok when unknown). */
void circuit_node_bounds(struct circuit *c, Z3_model m, int u, int *ok);

#endif
