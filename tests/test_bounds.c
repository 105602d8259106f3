/*
 * test_bounds.c - unit tests of solver/bounds.c on IR built by hand: which
 * loops the unwinding check calls cut off (a non-stuttering path at the
 * bound), which ones spin forever (stuttering on final values in an
 * execution where nothing else is cut short), and failing assertions.  The
 * answers follow from the programs: see each test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "encoder/encoder.h"
#include "frontend/ir.h"
#include "models/lkmm.h"
#include "solver/bounds.h"
#include "solver/check.h"
#include "solver/problem.h"
#include "tests/irb.h"

static void store(struct irb *b, struct ir_block *blk, int l, struct ir_expr *v)
{
	irb_store(b, blk, l, v, IR_ORD_ONCE);
}

/* P0: loop { r0 = x; if (r0) break; }  -- a spin-wait on x */
static struct ir_block *spin_on_x(struct irb *b)
{
	struct ir_instr *loop = irb_add(b, &b->p->threads[0].body, IR_LOOP);
	struct ir_instr *ld = irb_add(b, &loop->then_b, IR_LOAD);
	ld->dst = 0;
	ld->a = irb_expr(b, IR_E_LOC, 0);
	irb_break_if(b, &loop->then_b, irb_expr(b, IR_E_REG, 0));
	return &b->p->threads[0].body;
}

/* Encode at unroll and return bounds_report's bits. */
static int report(struct irb *b, int unroll)
{
	Z3_config cfg = Z3_mk_config();
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	struct diag d = {0};
	struct check_options opt = {.unroll = unroll};
	struct problem p;
	assert_int_equal(problem_open(&p, z, b->p, &opt, unroll, 0, ENC_ARITH_GENERAL,
				      NULL, &d), PROBLEM_READY);
	FILE *null = fopen("/dev/null", "w");
	Z3_solver s = problem_solver(&p, PG_CONSISTENT, 0);
	int found = bounds_report(&opt, &p, s, 0, null, null, null);
	Z3_solver_dec_ref(z, s);
	fclose(null);
	problem_close(&p);
	Z3_del_context(z);
	return found;
}

/* A spin-wait whose flag is always set: stuttering on 0 is not progress
 * and 0 is not x's final value, so neither a cut-off nor a hang. */
static void test_spin_flag_set(void **state)
{
	(void)state;
	struct irb b = irb_new("bounds", 2, 2);
	spin_on_x(&b);
	store(&b, &b.p->threads[1].body, 0, irb_expr(&b, IR_E_CONST, 1));
	assert_int_equal(report(&b, 2), 0);
	ir_program_free(b.p);
}

/* Nobody sets the flag: P0 spins forever (on x's final value 0). */
static void test_spin_forever(void **state)
{
	(void)state;
	struct irb b = irb_new("bounds", 2, 1);
	spin_on_x(&b);
	assert_int_equal(report(&b, 2), BOUNDS_SPINS);
	ir_program_free(b.p);
}

/* P0: loop { if (r1 == 3) break; x = r1; r1 = r1 + 1; }: every iteration
 * changes r1, so a path at the bound is cut off until the bound lets the
 * exit test run a fourth time. */
static void counter(int unroll, int want)
{
	struct irb b = irb_new("bounds", 2, 1);
	struct ir_instr *loop = irb_add(&b, &b.p->threads[0].body, IR_LOOP);
	struct ir_block *body = &loop->then_b;
	irb_break_if(&b, body, irb_bin(&b, IR_EQ, irb_expr(&b, IR_E_REG, 1), irb_expr(&b, IR_E_CONST, 3)));
	store(&b, body, 0, irb_expr(&b, IR_E_REG, 1));
	struct ir_instr *inc = irb_add(&b, body, IR_ASSIGN);
	inc->dst = 1;
	inc->a = irb_bin(&b, IR_ADD, irb_expr(&b, IR_E_REG, 1), irb_expr(&b, IR_E_CONST, 1));
	assert_int_equal(report(&b, unroll), want);
	ir_program_free(b.p);
}

static void test_counter_cut(void **state)
{
	(void)state;
	counter(2, BOUNDS_REACHED);
	counter(3, BOUNDS_REACHED);
}

static void test_counter_enough(void **state)
{
	(void)state;
	counter(4, 0);
}

/* P0: x = 1; P1: r0 = x; assert(r0 == 1) fails (r0 may be 0); an
 * assertion on a register that is always 0 does not. */
static void test_assert(void **state)
{
	(void)state;
	for (int holds = 0; holds < 2; holds++) {
		struct irb b = irb_new("bounds", 2, 2);
		store(&b, &b.p->threads[0].body, 0, irb_expr(&b, IR_E_CONST, 1));
		struct ir_block *t1 = &b.p->threads[1].body;
		struct ir_instr *ld = irb_add(&b, t1, IR_LOAD);
		ld->dst = 0;
		ld->a = irb_expr(&b, IR_E_LOC, 0);
		irb_add(&b, t1, IR_ASSERT)->a = irb_bin(&b, IR_EQ, irb_expr(&b, IR_E_REG, holds),
						irb_expr(&b, IR_E_CONST, holds ? 0 : 1));
		assert_int_equal(report(&b, 2), holds ? 0 : BOUNDS_ASSERT_FAILS);
		ir_program_free(b.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spin_flag_set),
		cmocka_unit_test(test_spin_forever),
		cmocka_unit_test(test_counter_cut),
		cmocka_unit_test(test_counter_enough),
		cmocka_unit_test(test_assert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
