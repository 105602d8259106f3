/*
 * testutil.h - what several unit tests set up the same way: one front end
 * shared by a file's tests, litmus text it must accept or reject (failing
 * the test otherwise), a check of it with its printed answer and result,
 * and a relation context over a few events in a Z3 context of its own.
 */
#ifndef LKMMC_TESTS_TESTUTIL_H
#define LKMMC_TESTS_TESTUTIL_H

#include <z3.h>

#include "encoder/rel.h"

#include "solver/check.h"

struct arena;
struct frontend;
struct ir_program;

/* The front end of this test program, made on first use; tu_frontend_free
 * is the cmocka group teardown that frees it. */
struct frontend *tu_frontend(void);
int tu_frontend_free(void **state);
/* The program of text (file "t.litmus"), which must parse; the caller
 * frees it. */
struct ir_program *tu_parse_ok(const char *text);
/* text must be rejected at line:col with a message containing part. */
void tu_parse_bad(const char *text, int line, int col, const char *part);

/* The checker's output on p at --unroll 2 (caller frees); fails the test
 * when the checker cannot check it.  Frees p. */
char *tu_check(struct ir_program *p);
/* The checker's output on text (which must parse) with opt, its
 * warnings dropped; *r receives its result (the caller frees both),
 * whether or not it could check it. */
char *tu_check_opt(const char *text, struct check_options opt, struct check_result *r);

/* n events, each with guard true, and their relation context. */
struct tu_rel {
	Z3_context z;         /* the context everything lives in */
	struct arena *arena;  /* the relations' allocations */
	struct rel_ctx rc;    /* the relation context over the n events */
	Z3_ast *guard;        /* the n guards (all true) */
};

/* For cmocka: *state becomes a tu_rel over n events; freed by
 * tu_rel_close (a test's teardown). */
int tu_rel_open(void **state, int n);
int tu_rel_close(void **state);

/* reach (n x n, row-major): a path of one edge or more from i to j in
 * edge (n x n, nonzero: an edge); Warshall's algorithm. */
void tu_reachability(int n, const int *edge, int *reach);

#endif
