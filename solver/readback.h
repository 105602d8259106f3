/*
 * readback.h - one candidate execution, read off a Z3 model, and printed
 * in the terms of the litmus file (threads, source lines, locations,
 * values), not of internal event numbers.
 *
 * The model's closure variables are first brought back to their least
 * fixpoint (rel_least_model), so that every relation evaluated here is the
 * execution's own.  This file prints and evaluates; it does not search.
 */
#ifndef LKMMC_READBACK_H
#define LKMMC_READBACK_H

#include <stdio.h>
#include <z3.h>

#include "encoder/rel.h"
#include "solver/execdata.h"

struct encoding;

struct execution {
	const struct encoding *enc; /* the test's encoding */
	Z3_model m;                 /* the model, least-fixpoint corrected */
	unsigned char *on;          /* per event: executed */
	long *val;                  /* per event: value read/written */
	int *loc;                   /* per event: location, -1 if none */
	int *rf_src;                /* per read: the write it reads from */
};

/* Read an execution off m (m is modified: see above; the caller keeps its
 * reference). */
struct execution *execution_new(const struct encoding *enc, Z3_model m);
/* The same without the least fixpoint (m is not modified): only the
 * execution's choices and what follows from them alone may be read (events,
 * values, locations, rf, co, fr, the final state: execution_print,
 * execution_assert_choices), no relation of the model, whose closure
 * variables may exceed the execution's own.  For a litmus witness, where
 * the fixpoint cost most of the witness's time. */
struct execution *execution_choices(const struct encoding *enc, Z3_model m);
void execution_free(struct execution *x);

/* Whether a formula (e.g. one entry of a relation) holds in the execution. */
int execution_holds(const struct execution *x, Z3_ast f);
/* Whether (a, b) is in relation r. */
int execution_in(const struct execution *x, rel_t r, int a, int b);

/* Event e as data (execdata.h), without its source. */
void execution_record_event(const struct execution *x, int e, struct check_event *d);
/* "P1:27 R y=1  r0 = READ_ONCE(*y)" */
void execution_print_event(const struct execution *x, int e, FILE *out);
/* Events a and b, sep between them (a pair of a relation). */
void execution_print_pair(const struct execution *x, int a, const char *sep,
			  int b, FILE *out);
/* The value of an Int term (a final value, an event's value) in x. */
long execution_eval(const struct execution *x, Z3_ast t);
/* A value as herd7 prints it: a number or a location name. */
void execution_print_value(const struct execution *x, long v, FILE *out);

/* Assert in s that an execution makes the same choices as x: the same
 * events happen, each read reads from the same write, and the writes to each
 * location are in the same coherence order. */
void execution_assert_choices(const struct execution *x, Z3_solver s);

/* The whole execution as data (execdata.h): each thread's events in
 * program order with values and sources, the co order of each location,
 * the fr edges between threads, the final state. */
void execution_record(const struct execution *x, struct check_execution *d);
/* It printed (check_execution_print). */
void execution_print(const struct execution *x, FILE *out);

#endif
