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
 * sub-relations.  Every edge is checked against the execution before it
 * is kept; a failed check is kept as such (printed as an internal error).
 * The answer is data (explanation.h): it prints nothing.
 */
#ifndef LKMMC_EXPLAIN_H
#define LKMMC_EXPLAIN_H

#include <z3.h>

struct encoding;
struct execution;
struct explanation;
struct lkmm;

/* The explanation (the caller's, explanation_free; explanation_print
 * prints it); explanation_complete says whether it could be produced and
 * passed its own check.  When keep is not NULL,
 * *keep receives the first explained execution (the caller frees it with
 * execution_free and releases its model). */
struct explanation *explain_never(const struct encoding *enc, const struct lkmm *m,
				  Z3_solver s, Z3_ast cond, struct execution **keep);

#endif
