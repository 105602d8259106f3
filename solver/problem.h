/*
 * problem.h - one test ready for the solver: its encoding, its model, the
 * named groups of constraints they make, and solvers over chosen groups.
 *
 * Every query site (check.c's verdict, bounds.c, cubes.c, the explanation)
 * opens its solver here, so that what each one asserts is said by the
 * groups it names.  A problem asks nothing itself and prints nothing.
 */
#ifndef LKMMC_PROBLEM_H
#define LKMMC_PROBLEM_H

#include <z3.h>

#include "common/diag.h"
#include "encoder/encoder.h"
#include "frontend/ir.h"
#include "models/lkmm.h"

struct check_options;
struct memlimit;

/* A test of this many events or more is large: final states are listed
 * one at a time, not by cubes (whose second, exact copy of the model costs
 * more than it saves when there are few states, as in big programs).
 * (Which difference-logic solver a test gets is problem.c's
 * DENSE_DIFF_MAX_EVENTS.) */
#define LARGE_TEST_EVENTS 200

/* The groups of constraints of a problem (bits), asserted in this order. */
enum problem_group {
	PG_FACTS = 1,        /* the program's constraints (enc->facts) */
	PG_CUT = 2,          /* herd7's cut: no path past a loop bound
			      * (enc->drop) */
	PG_PROGRAM_DEFS = 4, /* the encoder's definitions (rc.defs up to
			      * enc->ndefs_program) */
	PG_MODEL_DEFS = 8,   /* the model's definitions (the rest of rc.defs) */
	PG_AXIOMS = 16,      /* the model's axioms, built-in or read */
	PG_FILTER = 32,      /* the test's filter, if it has one */
	PG_LAZY = 64,        /* with --lazy (p->lazy), the model's groups are
			      * checked by the lazy core (lazy.h) instead;
			      * only for a solver queried through
			      * problem_ask (and states.c), one a problem */
};
/* Both kinds of definitions. */
#define PG_DEFS (PG_PROGRAM_DEFS | PG_MODEL_DEFS)
/* The consistent executions that pass the filter, loop bounds not cut:
 * what the assertion and unwinding checks ask about. */
#define PG_CONSISTENT (PG_FACTS | PG_DEFS | PG_AXIOMS | PG_FILTER)

struct problem {
	Z3_context z;                  /* where every term lives */
	const struct ir_program *prog; /* the test */
	struct encoding *enc;          /* its events and facts (owned) */
	struct cat_model *model;       /* the model read from cat files
					* (models/cat/cat.h), NULL: the built-in
					* one; not owned */
	struct lkmm m;                 /* the model over enc */
	int unroll;                    /* the loop bound enc was built with */
	int locks_fixed;               /* threads whose lock rf was fixed
					* before the model (symmetry.h's
					* symmetry_fix_locks) */
	double deadline;               /* no query past it (CLOCK_MONOTONIC
					* seconds, 0: none) */
	enum enc_arith arith;         /* how the solvers' arithmetic is set */
	Z3_params params;              /* the solvers' parameters: Z3's time
					* limit and the arithmetic's set-up */
	struct lazy *lazy;             /* --lazy: the model checked outside
					* Z3 for the solver of the consistent
					* executions (lazy.h); NULL: eager */
};

/* What problem_open makes of a test. */
enum problem_status {
	PROBLEM_READY,    /* encoded and modelled */
	PROBLEM_FAILED,   /* cannot be checked: d says why */
	PROBLEM_EXPIRED,  /* the deadline (or the memory limit) came
			   * while it was built: nothing to ask */
};

/* A fresh Z3 context for one problem (with models when models is set),
 * whose errors abort: a Z3 error is a bug in lkmmc, not in the test. */
Z3_context problem_context(int models);

/* Encode prog with loop bound unroll and build the model of opt (its
 * separate mode with --explain) over it, for solvers set up for arith.
 * limit: the check's memory limit (common/memlimit.h; NULL: none).
 * Anything but PROBLEM_READY leaves nothing to close. */
enum problem_status problem_open(struct problem *p, Z3_context z,
				 const struct ir_program *prog,
				 const struct check_options *opt, int unroll,
				 double deadline, enum enc_arith arith,
				 struct memlimit *limit, struct diag *d);
void problem_close(struct problem *p);

/* problem_open in two steps: the encoding alone (p->m empty: solvers of
 * the program only, PG_FACTS | PG_CUT | PG_PROGRAM_DEFS | PG_FILTER), and
 * the model over it.  problem_add_model closes p unless it returns
 * PROBLEM_READY. */
enum problem_status problem_open_program(struct problem *p, Z3_context z,
					 const struct ir_program *prog,
					 const struct check_options *opt, int unroll,
					 double deadline, enum enc_arith arith,
					 struct memlimit *limit, struct diag *d);
enum problem_status problem_add_model(struct problem *p, const struct check_options *opt,
				      struct diag *d);

/* ip: p's model built over the execution m of p's program alone, every
 * choice of m a constant (encoder.h's enc_instance): its axioms and flags
 * are m's, decided as they are built.  p (encoded, with or without its
 * model) must outlive ip; ip's params are p's.  Returns 0 when the model
 * cannot be built (d filled) or was not finished by p's deadline or
 * memory limit.  Close with problem_close_instance. */
int problem_open_instance(struct problem *ip, const struct problem *p, Z3_model m,
			  struct diag *d);
void problem_close_instance(struct problem *ip);

/* Ask s under the n assumptions a (none: n 0), with no time limit of
 * its own; an "unknown" for memory is recorded for the check's memory
 * limit (memlimit_note_unknown).  Every query of a check goes through it
 * or problem_ask_until. */
Z3_lbool problem_check(Z3_context z, Z3_solver s, unsigned n, const Z3_ast *a);

/* Assert p's groups (PG_* bits) in s, in enum problem_group's order. */
void problem_assert(const struct problem *p, Z3_solver s, unsigned groups);

/* Assert v's entries from .. to-1 in s (for constraints beside the
 * groups, e.g. cubes.c's second model). */
void problem_assert_range(Z3_context z, Z3_solver s, Z3_ast_vector v,
			  unsigned from, unsigned to);

/* A new solver (one reference, for Z3_solver_dec_ref) holding groups,
 * with p->params when tuned (1), else with Z3's defaults (0).
 * PROBLEM_TUNED_RELEVANT: p->params but Z3's relevancy filter left on, for
 * a solver of the program alone asked under many assumptions
 * (firsterr.c's schedules): with the filter off, the per-index MCS lock
 * of 8 threads took 3.0 s to give its first schedule's execution, 0.06 s
 * with it; the model's solvers are faster without it. */
#define PROBLEM_TUNED_RELEVANT 2
Z3_solver problem_solver(const struct problem *p, unsigned groups, int tuned);

/* Ask s whether it is satisfiable under the n assumptions a, ending by
 * deadline (0: none); past it, unknown without asking. */
Z3_lbool problem_ask_until(Z3_context z, Z3_solver s, unsigned n, const Z3_ast *a,
			   double deadline);

/* Ask s under one assumption a (NULL: none), by p's deadline. */
Z3_lbool problem_ask(const struct problem *p, Z3_solver s, Z3_ast a);

/* herd7's cut (PG_CUT) as one formula: no path runs past a loop bound. */
Z3_ast problem_cut(const struct problem *p);

#endif
