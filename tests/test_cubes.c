/*
 * test_cubes.c - unit tests of solver/cubes.c on IR built by hand: where
 * the cubes apply they list exactly the states the one-query-per-state
 * enumeration lists (SB with and without fences, a three-process ring),
 * settling whole cubes; with a lock they do not apply and do nothing;
 * past their deadline they give up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "solver/cubes.h"
#include "solver/states.h"
#include "tests/encfix.h"
#include "tests/irb.h"

/* A ring of n processes: Pi stores 1 to location i, (a fence f if given,)
 * then reads location i+1 mod n into r0; exists (every r0 = 0). */
static struct irb ring(int n, int fenced, enum ir_fence f)
{
	struct irb b = irb_new("ring", n, n);
	struct ir_cond *c = NULL;
	for (int i = 0; i < n; i++) {
		irb_store(&b, irb_body(&b, i), i, irb_num(&b, 1), IR_ORD_ONCE);
		if (fenced)
			irb_fence(&b, irb_body(&b, i), f);
		irb_load(&b, irb_body(&b, i), 0, (i + 1) % n, IR_ORD_ONCE);
		struct ir_cond *a = irb_reg_is(&b, i, 0, 0);
		c = c ? irb_and(&b, c, a) : a;
	}
	irb_exists(&b, c);
	return b;
}

/* List b's states by cubes and one by one; both lists must be the same
 * nstates states, npos of them satisfying the condition. */
static void same_as_one_by_one(struct irb b, long nstates, long npos)
{
	struct encfix f;
	encfix_open(&f, b);
	struct state_set *by_cubes = state_set_new(f.enc);
	struct cubes_stats st = {0};
	assert_int_equal(cubes_enumerate(by_cubes, &f.pr, f.s, 0, &st), 1);
	assert_true(st.consistent_queries > 0);
	assert_true(st.whole_cubes > 0);
	assert_true(st.states_in_cubes > 0 && st.states_in_cubes <= nstates);
	struct state_set *one_by_one = state_set_new(f.enc);
	assert_true(state_set_enumerate(one_by_one, f.s, NULL, 0));
	assert_int_equal(state_set_size(by_cubes), nstates);
	assert_int_equal(state_set_count(by_cubes, 1), npos);
	char *a = encfix_printed(by_cubes), *o = encfix_printed(one_by_one);
	assert_string_equal(a, o);
	free(a);
	free(o);
	state_set_free(by_cubes);
	state_set_free(one_by_one);
	encfix_close(&f);
}

static void test_sb(void **state)
{
	(void)state;
	same_as_one_by_one(ring(2, 0, IR_F_MB), 4, 1);
}

static void test_sb_mb(void **state)
{
	(void)state;
	same_as_one_by_one(ring(2, 1, IR_F_MB), 3, 0); /* propagation */
}

static void test_ring3(void **state)
{
	(void)state;
	same_as_one_by_one(ring(3, 0, IR_F_MB), 8, 1);
	same_as_one_by_one(ring(3, 1, IR_F_MB), 7, 0);
}

/* Locks shape rf and co: not for the cubes, which leave ss alone. */
static void test_lock_not_applicable(void **state)
{
	(void)state;
	struct irb b = irb_new("lock", 2, 1);
	b.p->locs[1].kind = IR_LOC_SPINLOCK;
	b.p->locs[1].ctype = "spinlock_t";
	struct ir_block *p0 = irb_body(&b, 0);
	irb_add(&b, p0, IR_LOCK)->a = irb_loc(&b, 1);
	irb_store(&b, p0, 0, irb_num(&b, 1), IR_ORD_ONCE);
	irb_add(&b, p0, IR_UNLOCK)->a = irb_loc(&b, 1);
	irb_exists(&b, irb_loc_is(&b, 0, 1));
	struct encfix f;
	encfix_open(&f, b);
	struct state_set *ss = state_set_new(f.enc);
	struct cubes_stats st = {0};
	assert_int_equal(cubes_enumerate(ss, &f.pr, f.s, 0, &st),
			 CUBES_NOT_APPLICABLE);
	assert_int_equal(state_set_size(ss), 0);
	state_set_free(ss);
	encfix_close(&f);
}

/* A deadline already passed: the cubes give up (0), not done. */
static void test_deadline(void **state)
{
	(void)state;
	struct encfix f;
	encfix_open(&f, ring(3, 0, IR_F_MB));
	struct state_set *ss = state_set_new(f.enc);
	struct cubes_stats st = {0};
	f.pr.deadline = 1.0; /* CLOCK_MONOTONIC's second 1: long past */
	assert_int_equal(cubes_enumerate(ss, &f.pr, f.s, 0, &st), 0);
	assert_true(state_set_size(ss) < 8);
	state_set_free(ss);
	encfix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sb),
		cmocka_unit_test(test_sb_mb),
		cmocka_unit_test(test_ring3),
		cmocka_unit_test(test_lock_not_applicable),
		cmocka_unit_test(test_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
