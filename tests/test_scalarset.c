/*
 * test_scalarset.c - unit tests of solver/scalarset.c: which threads that
 * differ only by an index join a class, on litmus tests whose threads set
 * "me" to their number.  The index copied, stored, exchanged, plus or
 * minus a constant, compared with == (or with a bound all indices are on
 * one side of) and used as an array subscript joins them, but for the
 * thread whose index is a constant the index meets (an initial 0 that may
 * be read, a constant compared with, a slot named outright; an initial
 * value read only after the thread's own write is none under coherence);
 * arithmetic on it, an
 * RMW adding to a location holding it, two offsets in one location, a
 * bound that splits the indices, an array without a slot for each, a
 * final condition that reads such a location, a thread of other code that
 * compares it with a value of another kind, or two threads given the same
 * index: no class.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frontend/ir.h"
#include "solver/scalarset.h"
#include "tests/testutil.h"

/* A test of n threads "me = i; body" (%d in body and extra: nothing),
 * more: other threads' text, cond: its condition. */
static struct ir_program *indexed(int n, const char *body, const char *more,
				  const char *cond, int same_index)
{
	char text[4096];
	int k = snprintf(text, sizeof text,
			 "C indexed\n{ int next[4]; int locked[4]; int two[2]; }\n");
	for (int t = 0; t < n; t++)
		k += snprintf(text + k, sizeof text - (size_t)k,
			      "P%d(int *who, int *n, int *c, int *next, int *locked, int *two) "
			      "{ int me; int r0; int r1; me = %d; %s }\n",
			      t, same_index ? 1 : t, body);
	k += snprintf(text + k, sizeof text - (size_t)k, "%s\nexists (%s)\n", more, cond);
	return tu_parse_ok(text);
}

/* scalarset_join on p with no thread pinned, under a model coherent or
 * not: the classes, into rep. */
static int join_in(struct ir_program *p, int coherent, int *rep)
{
	char pinned[16] = {0};
	for (int t = 0; t < p->nthreads; t++)
		rep[t] = t;
	return scalarset_join(p, pinned, coherent, rep);
}

static int join(struct ir_program *p, int *rep)
{
	return join_in(p, 1, rep);
}

static const char *const holder =
	"WRITE_ONCE(*who, me); r0 = READ_ONCE(*who); if (r0 != me) WRITE_ONCE(*n, 1);";

static void test_index_joins(void **state)
{
	(void)state;
	int rep[16];
	struct ir_program *p = indexed(4, holder, "", "n=1", 0);
	/* who's initial 0 is P0's index, but each thread reads who only
	 * after writing it: coherence hides the initial value, all join */
	assert_int_equal(join(p, rep), 4);
	for (int t = 0; t < 4; t++)
		assert_int_equal(rep[t], 0);
	/* without coherence P0 could see it: it keeps its place */
	assert_int_equal(join_in(p, 0, rep), 3);
	assert_int_equal(rep[0], 0);
	assert_int_equal(rep[1], 1);
	assert_int_equal(rep[2], 1);
	assert_int_equal(rep[3], 1);
	ir_program_free(p);
	/* read before written (on one path): P0 keeps its place */
	p = indexed(4, "if (me != 7) WRITE_ONCE(*who, me); r0 = READ_ONCE(*who); "
		    "if (r0 != me) WRITE_ONCE(*n, 1);", "", "n=1", 0);
	assert_int_equal(join(p, rep), 3);
	assert_int_equal(rep[0], 0);
	assert_int_equal(rep[3], 1);
	ir_program_free(p);
	/* a register read before it is set: its initial 0 is met */
	p = indexed(4, "r1 = r0; r0 = me; WRITE_ONCE(*who, r0); WRITE_ONCE(*c, r1); "
		    "r1 = READ_ONCE(*who); if (r1 != me) WRITE_ONCE(*n, 1);", "", "n=1", 0);
	assert_int_equal(join(p, rep), 3);
	assert_int_equal(rep[0], 0);
	assert_int_equal(rep[2], 1);
	ir_program_free(p);
}

static void test_constant_met(void **state)
{
	(void)state;
	int rep[16];
	struct ir_program *p = indexed(4, "WRITE_ONCE(*who, me); if (me == 2) WRITE_ONCE(*n, 1);",
				       "", "n=1", 0);
	assert_int_equal(join(p, rep), 3);
	assert_int_equal(rep[2], 2);
	assert_int_equal(rep[3], 0);
	ir_program_free(p);
}

/* The MCS lock's shapes: a node named by its index + 1, exchanged into a
 * tail, an array slot per index, reached through an index or through
 * index + 1 - 1. */
static void test_offsets_and_slots(void **state)
{
	(void)state;
	int rep[16];
	struct ir_program *p = indexed(4,
		"r0 = xchg(who, me + 1); if (r0) WRITE_ONCE(next[r0 - 1], me + 1); "
		"r1 = smp_load_acquire(&next[me]); if (r1 == me + 1) WRITE_ONCE(*n, 1); "
		"if (!r1) WRITE_ONCE(locked[me], 1);", "", "n=1", 0);
	/* who's and next's initial 0 is index -1: no thread keeps its place */
	assert_int_equal(join(p, rep), 4);
	for (int t = 1; t < 4; t++)
		assert_int_equal(rep[t], 0);
	ir_program_free(p);
	/* a slot named outright: its thread keeps its place */
	p = indexed(4, "WRITE_ONCE(next[me], 1); r0 = READ_ONCE(next[2]); "
		    "if (r0) WRITE_ONCE(*n, 1);", "", "n=1", 0);
	assert_int_equal(join(p, rep), 3);
	assert_int_equal(rep[2], 2);
	assert_int_equal(rep[3], 0);
	ir_program_free(p);
	/* a slot a pointer starts at: unknown targets may reach it */
	char text[2048];
	int k = snprintf(text, sizeof text, "C pointed\n{ int next[4]; int *p = &next[2]; }\n");
	for (int t = 0; t < 4; t++)
		k += snprintf(text + k, sizeof text - (size_t)k,
			      "P%d(int *n, int *next, int **p) { int me; int r0; me = %d; "
			      "WRITE_ONCE(next[me], 1); r0 = READ_ONCE(*n); }\n", t, t);
	snprintf(text + k, sizeof text - (size_t)k, "exists (n=1)\n");
	p = tu_parse_ok(text);
	assert_int_equal(join(p, rep), 3);
	assert_int_equal(rep[2], 2);
	assert_int_equal(rep[3], 0);
	ir_program_free(p);
	/* a bound every index is on one side of */
	p = indexed(4, "WRITE_ONCE(*who, me); if (me < 9) WRITE_ONCE(*n, 1);", "", "n=1", 0);
	assert_int_equal(join(p, rep), 4);
	ir_program_free(p);
}

static void test_refused(void **state)
{
	(void)state;
	int rep[16];
	const char *bodies[] = {
		"WRITE_ONCE(*who, me * 2);",                      /* arithmetic */
		"WRITE_ONCE(*who, me); r0 = READ_ONCE(*who); WRITE_ONCE(*c, r0 + *n);",
		"WRITE_ONCE(*who, me); atomic_add(1, who);",      /* an RMW adding */
		"r0 = cmpxchg(who, me, me + 1);",                 /* two offsets */
		"WRITE_ONCE(*who, me); r0 = READ_ONCE(*who); if (r0 < me) WRITE_ONCE(*n, 1);",
		"WRITE_ONCE(two[me], 1);",                        /* slots for 0, 1 only */
		"WRITE_ONCE(*who, me); if (me < 2) WRITE_ONCE(*n, 1);", /* 1 < 2, 2 >= 2 */
	};
	for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
		struct ir_program *p = indexed(3, bodies[i], "", "n=1", 0);
		assert_int_equal(join(p, rep), 0);
		ir_program_free(p);
	}
	/* the final condition reads who */
	struct ir_program *p = indexed(3, holder, "", "who=2", 0);
	assert_int_equal(join(p, rep), 0);
	ir_program_free(p);
	/* another thread compares who with a counter */
	p = indexed(3, holder, "P3(int *who, int *c) { int r0; int r1; r0 = READ_ONCE(*who); "
		    "r1 = READ_ONCE(*c); if (r0 == r1) WRITE_ONCE(*c, 5); }", "c=5", 0);
	assert_int_equal(join(p, rep), 0);
	ir_program_free(p);
	/* the same index twice */
	p = indexed(3, holder, "", "n=1", 1);
	assert_int_equal(join(p, rep), 0);
	ir_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_joins),
		cmocka_unit_test(test_constant_met),
		cmocka_unit_test(test_offsets_and_slots),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
