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
#include "tests/testutil.h"

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
	return tu_check(b->p);
}

static void expect(char *out, const char *verdict, int nstates)
{
	char want[128];
	snprintf(want, sizeof want, "States %d\n", nstates);
	if (!strstr(out, want) || !strstr(out, verdict))
		fail_msg("expected '%s' and %d states, got:\n%s", verdict, nstates, out);
	free(out);
}

/* One step of a thread in two_threads: 'W' stores 1 to location arg, 'R'
 * loads location arg into register reg, 'F' the fence arg (only in the
 * fenced variant); op 0 ends the thread. */
struct step {
	char op;  /* 'W', 'R', 'F' or 0 */
	int arg;  /* the location, or the fence */
	int reg;  /* 'R': the register */
};
/* One conjunct of the condition: thread t's register reg = v. */
struct atom {
	int t, reg; /* the register */
	long v;     /* its value */
};

/* A test of two threads of steps, exists (cond[0] /\ cond[1]), and the
 * checker's verdict and state count. */
struct two_threads {
	const char *name;              /* the test's name */
	const struct step (*steps)[4]; /* each thread's steps */
	int fenced;                    /* 1: with the 'F' steps */
	const struct atom *cond;       /* the two conjuncts */
	const char *verdict;           /* part of the Observation line */
	int nstates;                   /* how many states */
};

/* *state: a struct two_threads (the test's initial state). */
static void test_two_threads(void **state)
{
	const struct two_threads *c = *state;
	struct irb b = irb_new(c->name, 2, 2);
	for (int t = 0; t < 2; t++)
		for (const struct step *s = c->steps[t]; s->op; s++) {
			if (s->op == 'W')
				store(&b, t, s->arg, 1, IR_ORD_ONCE);
			else if (s->op == 'R')
				load(&b, t, s->reg, s->arg, IR_ORD_ONCE);
			else if (c->fenced)
				fence(&b, t, (enum ir_fence)s->arg);
		}
	const struct atom *x = &c->cond[0], *y = &c->cond[1];
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, x->t, x->reg, x->v),
			       irb_reg_is(&b, y->t, y->reg, y->v)));
	expect(run(&b), c->verdict, c->nstates);
}

/* SB: without fences both reads may miss the other thread's store; with
 * smp_mb the propagation axiom forbids it. */
static const struct step sb_steps[2][4] = {
	{{'W', 0, 0}, {'F', IR_F_MB, 0}, {'R', 1, 0}},
	{{'W', 1, 0}, {'F', IR_F_MB, 0}, {'R', 0, 0}},
};
static const struct atom sb_cond[2] = {{0, 0, 0}, {1, 0, 0}};
/* MP with smp_wmb / smp_rmb: happens-before forbids r0=1, r1=0. */
static const struct step mp_steps[2][4] = {
	{{'W', 0, 0}, {'F', IR_F_WMB, 0}, {'W', 1, 0}},
	{{'R', 1, 0}, {'F', IR_F_RMB, 0}, {'R', 0, 1}},
};
static const struct atom mp_cond[2] = {{1, 0, 1}, {1, 1, 0}};
static const struct two_threads two_thread_tests[] = {
	{"SB", sb_steps, 0, sb_cond, "Sometimes 1 3", 4},
	{"SB", sb_steps, 1, sb_cond, "Never 0 3", 3},
	{"MP", mp_steps, 0, mp_cond, "Sometimes 1 3", 4},
	{"MP", mp_steps, 1, mp_cond, "Never 0 3", 3},
};

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
		/* name, test, setup, teardown, initial state */
		{"test_sb", test_two_threads, NULL, NULL, (void *)&two_thread_tests[0]},
		{"test_sb_mb", test_two_threads, NULL, NULL, (void *)&two_thread_tests[1]},
		{"test_mp", test_two_threads, NULL, NULL, (void *)&two_thread_tests[2]},
		{"test_mp_fences", test_two_threads, NULL, NULL, (void *)&two_thread_tests[3]},
		cmocka_unit_test(test_corr),
		cmocka_unit_test(test_lock_mp),
		cmocka_unit_test(test_lock_deadlock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
