/*
 * circuit_int.h - the circuit's nodes, shared by its three files (not
 * for other users: circuit.h is the interface).  circuit.c compiles
 * formulas into nodes and their components and answers for the model's
 * definitions; circuit_eval.c evaluates them; circuit_why.c justifies a
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

#endif
