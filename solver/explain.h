/*
 * explain.h - why an outcome is never reachable.
 *
 * Given a solver that holds a test's program facts, the model's
 * definitions and the filter (but no axioms), explain_never() finds a
 * minimal set of LKMM axioms (the built-in model's, or those of a model
 * read from cat files) that forbids the condition (assumption
 * literals, Z3's unsat core, then deletion-based minimisation), and for each
 * of them an execution that reaches the condition and violates only that
 * axiom, with the cycle (or forbidden pair) written edge by edge in named
 * sub-relations.  Every printed edge is checked against the execution
 * before printing; a failed check is reported as an internal error.
 */
#ifndef LKMMC_EXPLAIN_H
#define LKMMC_EXPLAIN_H

#include <stdio.h>
#include <z3.h>

struct encoding;
struct lkmm;

/* Returns 0 if the explanation could not be produced or failed its own
 * check (the reason is printed to out). */
struct execution;
/* When keep is not NULL, *keep receives the first explained execution
 * (the caller frees it with execution_free and releases its model). */
int explain_never(const struct encoding *enc, const struct lkmm *m,
		  Z3_solver s, Z3_ast cond, FILE *out, struct execution **keep);

#endif
