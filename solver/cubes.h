/*
 * cubes.h - final states by regions: many states per solver query.
 *
 * states.c asks the solver once per final state.  For tests whose state
 * count grows as 2^N (the corpus's auto/ chains of 8 to 19 processes),
 * cubes_enumerate() splits the state space column by column into cubes and
 * settles most cubes whole, with one question about the model's axioms and
 * one about their negation.  It applies to tests where every combination of
 * column values is some candidate execution's (see cubes.c for the exact
 * condition); for the others it says so and states.c does the work.
 */
#ifndef LKMMC_CUBES_H
#define LKMMC_CUBES_H

#include <z3.h>

struct encoding;
struct state_set;

/* What the enumeration did, for --stats. */
struct cubes_stats {
	long consistent_queries; /* "is some state of the cube reachable?" */
	long violation_queries;  /* "does some candidate in it break an axiom?" */
	long whole_cubes;        /* cubes settled as reachable without a split */
	long states_in_cubes;    /* states those cubes held */
	int rcu_stages;          /* rcu-order stages the last question used */
};

enum { CUBES_NOT_APPLICABLE = -1 };

/*
 * Fill ss with every reachable state.  s holds the program, the model and
 * its axioms (as for state_set_enumerate); params are its solver settings,
 * given to the second solver made here (which builds the model again on
 * enc, see lkmm_build_exact).  symmetric: the checker added
 * symmetry-breaking constraints to s (the cubes cannot use them).  Returns
 * CUBES_NOT_APPLICABLE (nothing done), 0 if Z3 gave up or the deadline
 * (CLOCK_MONOTONIC seconds, 0: none) passed, 1 when done.
 */
struct cat_model;
/* model: the model read from cat files (models/cat.h), or NULL for the
 * built-in one; the violation question is built from the same model. */
int cubes_enumerate(struct state_set *ss, struct encoding *enc, Z3_solver s,
		    Z3_params params, int symmetric, double deadline,
		    struct cat_model *model, struct cubes_stats *stats);

#endif
