/*
 * circuit.h - the formulas of an encoding evaluated on one candidate
 * execution, outside Z3, with the reasons for their values.
 *
 * A lazy core (solver/lazy.h) gives Z3 the program alone and checks the
 * memory model itself on each execution Z3 proposes.  The model is the
 * formulas rel.c made: definitions of named relations (v = e, rel_name),
 * Horn clauses of closures and let recs (lhs => v, whose least fixpoint is
 * the relation) and acyclicity checks (rel.h's rel_acyclic_check).  A
 * circuit compiles the formulas asked of it (its roots) and everything
 * they reach into nodes once; circuit_eval() then computes every node's
 * value from the values a Z3 model gives the atoms (the terms that are no
 * connective and no defined variable: the program's variables, rf and co
 * choices, address equalities), closures as least fixpoints, acyclicity
 * by a search for a cycle; circuit_justify() gives atoms whose values
 * alone force a node's value (a cycle's edges back to the rf and co
 * choices that made them), which negated are the clause that rules the
 * execution out.
 *
 * It asserts nothing and builds no relation.  Negation inside a
 * recursive definition is refused (circuit_root returns -1): the least
 * fixpoint is defined for monotone recursion only.
 */
#ifndef LKMMC_CIRCUIT_H
#define LKMMC_CIRCUIT_H

#include <stddef.h>
#include <z3.h>

struct rel_ctx;
struct circuit;

/* A circuit over rc's definitions (all of rc->defs and its Horn clauses,
 * as made so far; rc must outlive it). */
struct circuit *circuit_new(const struct rel_ctx *rc);
void circuit_free(struct circuit *c);

/* The node of formula f (compiled with all it reaches on first sight);
 * -1 when f reaches a negation inside a recursive definition. */
int circuit_root(struct circuit *c, Z3_ast f);

/* Evaluate every node in m (atoms by Z3_model_eval with completion).
 * Returns 0 when an atom has no Boolean value in m. */
int circuit_eval(struct circuit *c, Z3_model m);
/* circuit_eval of the first nodes nodes (those circuit_nodes counted
 * then: what later roots added is left) with the atoms' values given:
 * atom_val[i] (1 true, 0 false, -1 unknown: returns 0) for atom i
 * (circuit_atom). */
int circuit_eval_given(struct circuit *c, const signed char *atom_val, int nodes);
/* The atoms so far, numbered from 0 as they were met: their count, one
 * by its number. */
int circuit_atom_count(const struct circuit *c);
Z3_ast circuit_atom(const struct circuit *c, int atom);

/* A node's value in the last evaluation: 1, 0, or -1 when it depends
 * on atoms not given (circuit_eval_given). */
int circuit_value(const struct circuit *c, int node);

/* Atoms whose values (as in the last evaluation) force node's value (1
 * or 0, never -1):
 * into *lits as literals (the atom, or its negation when false); returns
 * their number.  *lits is the circuit's buffer, valid until the next
 * call. */
int circuit_justify(struct circuit *c, int node, Z3_ast **lits);
/* The atoms' numbers of the last circuit_justify's literals. */
const int *circuit_justified_atoms(const struct circuit *c);
/* The clause "not all of node's justification" (with extra, when not
 * NULL, as one more disjunct): what rules out an execution that gave
 * node its value.  *nlits (may be NULL): its literals. */
Z3_ast circuit_clause(struct circuit *c, int node, Z3_ast extra, int *nlits);

/* Give m the last evaluation's value of every defined variable (named
 * relations, closures): a model of the program alone then shows the
 * relations of the execution it describes. */
void circuit_fix_model(const struct circuit *c, Z3_model m);

/* The definitions of the defined variables that node reaches and that
 * no earlier call returned, appended to out (v = e, lhs => v): asserted
 * beside a question that names the model's relations, they make those
 * exact in the solver as they are in the eager encoding. */
void circuit_cone_defs(struct circuit *c, int node, Z3_ast_vector out);
/* Forget what circuit_cone_defs returned (a pop took it). */
void circuit_forget_cone(struct circuit *c);

/*
 * The bounds kept up to date during a search (circuit_inc.c): started
 * on the nodes there are (with every atom unknown), circuit_inc_fix
 * gives one atom its value and re-evaluates what it reaches, so that
 * circuit_value() on an axiom says 0 as soon as the atoms fixed break it
 * (a closure's upper bound and an acyclicity check's lower bound wait
 * for circuit_eval).  circuit_inc_level is a point to come back to with
 * circuit_inc_undo.  A full evaluation (circuit_eval, _given) overwrites
 * the bounds: circuit_inc_save before it, circuit_inc_restore after.
 */
void circuit_inc_start(struct circuit *c);
void circuit_inc_free(struct circuit *c);
void circuit_inc_fix(struct circuit *c, int atom, int value);
size_t circuit_inc_level(const struct circuit *c);
void circuit_inc_undo(struct circuit *c, size_t level);
void circuit_inc_save(struct circuit *c);
void circuit_inc_restore(struct circuit *c);
/* An axiom's node: the axioms need it true.  An acyclicity check they
 * need then implies atoms: after circuit_inc_fix, circuit_inc_implied
 * of them, each a literal (2 * atom + value) with the atoms whose
 * current values force it (premises, *n of them, valid until the next
 * circuit_inc_fix): an edge still open that would close a cycle of
 * surely true edges is false, and so are the atoms that would make it
 * true. */
void circuit_inc_require(struct circuit *c, int node);
/* Node's bounds are read (circuit_value): kept up to date.  A node
 * neither followed nor reached by what is required keeps its bounds of
 * the start (or what was needed of them). */
void circuit_inc_follow(struct circuit *c, int node);
/* Only whether node can still be true (its upper bound) is kept up to
 * date: circuit_value says 0 as soon as it cannot (a flag that the
 * atoms fixed so far rule out: its lower bound would need the closures'
 * upper bounds, which the search does not keep). */
void circuit_inc_follow_upper(struct circuit *c, int node);
int circuit_inc_implied(const struct circuit *c);
int circuit_inc_implied_lit(const struct circuit *c, int k, const int **premises, int *n);
/* Bounds changed so far (for --stats). */
long circuit_inc_changes(const struct circuit *c);

/* Nodes, atoms (for --stats). */
int circuit_nodes(const struct circuit *c);
int circuit_atoms(const struct circuit *c);

#endif
