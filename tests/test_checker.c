/*
 * test_checker.c - unit tests of encoder + model + solver on IR built by
 * hand (no front end): classic shapes whose LKMM answers follow directly
 * from linux-kernel.cat, checked through the printed Observation line and
 * state count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/ir.h"
#include "solver/check.h"
#include "tests/irb.h"

/* Shorthands over tests/irb.h for thread t's body. */
static void store(struct irb *b, int t, int l, long v, enum ir_order o)
{
	irb_store(b, irb_body(b, t), l, irb_num(b, v), o);
}

static void load(struct irb *b, int t, int reg, int l, enum ir_order o)
{
	irb_load(b, irb_body(b, t), reg, l, o);
}

static void fence(struct irb *b, int t, enum ir_fence f)
{
	irb_fence(b, irb_body(b, t), f);
}

static void lock_op(struct irb *b, int t, enum ir_op op, int l)
{
	irb_add(b, irb_body(b, t), op)->a = irb_loc(b, l);
}

/* Run the checker; return its output (caller frees). */
static char *run(struct irb *b)
{
	struct check_options opt = {.unroll = 2};
	struct checker *c = checker_new(&opt);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct diag d = {0};
	int ok = checker_run(c, b->p, out, &d);
	fclose(out);
	if (!ok)
		diag_print(&d, stderr);
	assert_true(ok);
	checker_free(c);
	ir_program_free(b->p);
	return buf;
}

static void expect(char *out, const char *verdict, int nstates)
{
	char want[128];
	snprintf(want, sizeof want, "States %d\n", nstates);
	if (!strstr(out, want) || !strstr(out, verdict))
		fail_msg("expected '%s' and %d states, got:\n%s", verdict, nstates, out);
	free(out);
}

/* SB: without fences both reads may miss the other thread's store. */
static void sb(int with_mb, const char *verdict, int nstates)
{
	struct irb b = irb_new("SB", 2, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	if (with_mb)
		fence(&b, 0, IR_F_MB);
	load(&b, 0, 0, 1, IR_ORD_ONCE);
	store(&b, 1, 1, 1, IR_ORD_ONCE);
	if (with_mb)
		fence(&b, 1, IR_F_MB);
	load(&b, 1, 0, 0, IR_ORD_ONCE);
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 0, 0, 0), irb_reg_is(&b, 1, 0, 0)));
	expect(run(&b), verdict, nstates);
}

static void test_sb(void **state)
{
	(void)state;
	sb(0, "Sometimes 1 3", 4);
}

static void test_sb_mb(void **state)
{
	(void)state;
	sb(1, "Never 0 3", 3); /* propagation axiom */
}

/* MP with smp_wmb / smp_rmb: happens-before forbids r0=1, r1=0. */
static void mp(int fences, const char *verdict, int nstates)
{
	struct irb b = irb_new("MP", 2, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	if (fences)
		fence(&b, 0, IR_F_WMB);
	store(&b, 0, 1, 1, IR_ORD_ONCE);
	load(&b, 1, 0, 1, IR_ORD_ONCE);
	if (fences)
		fence(&b, 1, IR_F_RMB);
	load(&b, 1, 1, 0, IR_ORD_ONCE);
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 1, 0, 1), irb_reg_is(&b, 1, 1, 0)));
	expect(run(&b), verdict, nstates);
}

static void test_mp(void **state)
{
	(void)state;
	mp(0, "Sometimes 1 3", 4);
}

static void test_mp_fences(void **state)
{
	(void)state;
	mp(1, "Never 0 3", 3);
}

/* CoRR: two reads of x in one thread cannot see x go backwards. */
static void test_corr(void **state)
{
	(void)state;
	struct irb b = irb_new("CoRR", 1, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	load(&b, 1, 0, 0, IR_ORD_ONCE);
	load(&b, 1, 1, 0, IR_ORD_ONCE);
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 1, 0, 1), irb_reg_is(&b, 1, 1, 0)));
	expect(run(&b), "Never 0 3", 3);
}

/* Critical sections of one lock are ordered: MP inside locks is Never. */
static void test_lock_mp(void **state)
{
	(void)state;
	struct irb b = irb_new("MP+locks", 3, 2);
	b.p->locs[2].kind = IR_LOC_SPINLOCK;
	b.p->locs[2].ctype = "spinlock_t";
	lock_op(&b, 0, IR_LOCK, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	store(&b, 0, 1, 1, IR_ORD_ONCE);
	lock_op(&b, 0, IR_UNLOCK, 2);
	lock_op(&b, 1, IR_LOCK, 2);
	load(&b, 1, 0, 1, IR_ORD_ONCE);
	load(&b, 1, 1, 0, IR_ORD_ONCE);
	lock_op(&b, 1, IR_UNLOCK, 2);
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 1, 0, 1), irb_reg_is(&b, 1, 1, 0)));
	expect(run(&b), "Never 0 2", 2);
}

/* A lock taken twice without unlock deadlocks: no execution at all. */
static void test_lock_deadlock(void **state)
{
	(void)state;
	struct irb b = irb_new("deadlock", 4, 1);
	b.p->locs[3].kind = IR_LOC_SPINLOCK;
	lock_op(&b, 0, IR_LOCK, 3);
	lock_op(&b, 0, IR_LOCK, 3);
	irb_exists(&b, irb_reg_is(&b, 0, 0, 0));
	expect(run(&b), "Never 0 0", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sb),
		cmocka_unit_test(test_sb_mb),
		cmocka_unit_test(test_mp),
		cmocka_unit_test(test_mp_fences),
		cmocka_unit_test(test_corr),
		cmocka_unit_test(test_lock_mp),
		cmocka_unit_test(test_lock_deadlock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
