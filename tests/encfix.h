/*
 * encfix.h - for unit tests: a hand-built program (irb.h) encoded in a Z3
 * context of its own, with the built-in model and a solver that holds the
 * program and the model's axioms, as the checker sets it up for listing
 * final states; and a state list as printed.  It asks nothing itself.
 */
#ifndef LKMMC_TESTS_ENCFIX_H
#define LKMMC_TESTS_ENCFIX_H

#include <z3.h>

#include "solver/problem.h"
#include "tests/irb.h"

struct encfix {
	struct irb b;          /* the program (owned) */
	Z3_context z;          /* its context */
	struct problem pr;     /* its encoding (--unroll 2 unless told) and the built-in
				* model on it (solver/problem.h) */
	struct encoding *enc;  /* pr.enc */
	Z3_solver s;           /* program, axioms and herd7's cut, with Z3's
				* default settings */
};

/* Encode b (taking it over) at --unroll 2, or at unroll; fails the test
 * when that fails. */
void encfix_open(struct encfix *f, struct irb b);
void encfix_open_unroll(struct encfix *f, struct irb b, int unroll);
void encfix_close(struct encfix *f);

struct state_set;
/* The states of ss as state_set_print prints them (caller frees). */
char *encfix_printed(struct state_set *ss);

#endif
