/*
 * lazy.h - the memory model checked outside Z3: a solver given the
 * program alone, and each execution it finds checked against the model's
 * axioms by a circuit (encoder/circuit.h); a violated axiom adds the
 * clause that rules out every execution sharing the few rf, co and guard
 * choices of its cycle, and the search goes on (lazy clause generation,
 * after Dartagnan's CAAT: consistency as a theory).
 *
 * --lazy selects it (problem.c); the eager encoding stays the default
 * and is its cross-check.  Questions naming the model's relations (a
 * flag, a data race) get the definitions they reach asserted beside them,
 * as the eager encoding has them.  It does not decide which questions
 * are asked: the callers' problem_ask does.
 */
#ifndef LKMMC_LAZY_H
#define LKMMC_LAZY_H

#include <z3.h>

struct circuit;
struct problem;
struct lazy;

/* The nodes in c of p's axioms (malloc'ed, *n of them), NULL when one
 * cannot be evaluated (negated, or a negation inside a recursive
 * definition).  Also for --first-error's interleavings (firsterr.c). */
int *lazy_axiom_nodes(struct circuit *c, const struct problem *p, int *n);

/* The lazy core of p's model; NULL when the model cannot be checked
 * this way (an axiom that is negated, a negation inside a recursive
 * definition): the eager encoding is used. */
struct lazy *lazy_new(const struct problem *p);
void lazy_free(struct lazy *lz);

/* Take s, a solver of the program alone, as the lazy solver: 1 when
 * taken (a lazy core has one).  s must hold the program's constraints
 * already (Z3 sets its theories up when the propagator starts). */
int lazy_adopt(struct lazy *lz, Z3_solver s);
/* It has taken a solver. */
int lazy_owner(const struct lazy *lz);
/* s is the lazy solver. */
int lazy_owns(const struct lazy *lz, Z3_solver s);

/* problem_ask_until for the lazy solver: Z3_L_TRUE only for an
 * execution consistent with the model where the assumptions a[0..n)
 * hold; its model (Z3_solver_get_model) then gives the model's relations
 * their values in it. */
Z3_lbool lazy_check(struct lazy *lz, Z3_solver s, unsigned n, const Z3_ast *a,
		    double deadline);

/* For --stats. */
struct lazy_stats {
	long rounds;    /* executions found that broke an axiom after
			 * the search (their clauses asserted) */
	long conflicts; /* broken axioms the propagator reported inside
			 * the search */
	long implied;   /* atoms the propagator set (an edge closing a
			 * cycle is false) */
	long clauses;   /* clauses added */
	long lits;      /* their literals */
	double eval_s;  /* seconds in the circuit's full evaluations */
	double inc_s;   /* seconds keeping its bounds during the search */
	double solve_s; /* seconds in Z3 */
	long changes;   /* bounds changed during the search */
	int nodes, atoms;
};
void lazy_get_stats(const struct lazy *lz, struct lazy_stats *st);

#endif
