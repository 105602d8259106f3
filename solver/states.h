/*
 * states.h - the final states of a test, as herd7 lists them.
 *
 * The observed values are the registers and locations named in the final
 * condition and in the "locations" clause.  A state set enumerates every
 * distinct combination that some consistent execution reaches, records
 * whether it satisfies the condition's proposition, and prints the list in
 * herd7's order.  It does not decide the verdict.
 */
#ifndef LKMMC_STATES_H
#define LKMMC_STATES_H

#include <stdio.h>
#include <z3.h>

#include "frontend/ir.h"
#include "solver/result.h"

struct encoding;
struct state_set;

struct state_set *state_set_new(const struct encoding *enc);
void state_set_free(struct state_set *ss);

/* Enumerate all states reachable in s (s is restored afterwards), one
 * query per state.  deadline is a CLOCK_MONOTONIC time in seconds after
 * which no new query starts (0: none).  Returns 1, 0 if Z3 gave up or the
 * deadline passed, or STATES_OUT_OF_RANGE when a final value does not fit
 * in a C long (the test's arithmetic goes beyond 64 bits: its states
 * cannot be listed).  (solver/cubes.h finds whole regions at once.) */
enum { STATES_OUT_OF_RANGE = -2 };
struct lazy;
/* (lz: the lazy core that owns s, NULL: none) */
int state_set_enumerate(struct state_set *ss, Z3_solver s, struct lazy *lz,
			double deadline);

/* The observed columns, in herd7's order. */
int state_set_ncols(const struct state_set *ss);
struct ir_observable state_set_column(const struct state_set *ss, int i);
/* The column showing o, -1 if none (every observable of the final
 * condition has one). */
int state_set_column_index(const struct state_set *ss, struct ir_observable o);
/* The columns' values in a model of the encoding (val: one per column).
 * Returns 0 when one does not fit in a long (it is then 0), else 1. */
int state_set_eval(const struct state_set *ss, Z3_model m, long *val);
/* Record a state (one value per column), found by whatever means; the
 * proposition is evaluated on it here. */
void state_set_add(struct state_set *ss, const long *val);

long state_set_size(const struct state_set *ss);
/* States satisfying (positive = 1) or not satisfying the proposition. */
long state_set_count(const struct state_set *ss, int positive);
/* herd7's order of values in a column: symbols, then numbers, then
 * location names (by name).  <0, 0, >0 as strcmp. */
int state_value_cmp(const struct encoding *enc, long x, long y);
/* The states, in herd7's order, moved into st (result.h): ss is left
 * empty (a 2^19-state list is not copied). */
void state_set_take(struct state_set *ss, struct check_states *st);
/* One line per state: "0:r0=0; 1:r0=1; [x]=1;" (ss is sorted). */
void state_set_print(struct state_set *ss, FILE *out);

#endif
