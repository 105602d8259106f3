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

struct problem;
/*
 * Fill ss with every reachable state.  s holds p's problem with herd7's
 * cut (as for state_set_enumerate); a second solver made here, with p's
 * settings, builds p's model again on its encoding (lkmm_build_exact or
 * the read model's).  symmetric: the checker added symmetry-breaking
 * constraints to s (the cubes cannot use them).  Returns
 * CUBES_NOT_APPLICABLE (nothing done), 0 if Z3 gave up or p's deadline
 * passed, 1 when done.
 */
int cubes_enumerate(struct state_set *ss, const struct problem *p, Z3_solver s,
		    int symmetric, struct cubes_stats *stats);

#endif
