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

#include "common/arena.h"
#include "frontend/ir.h"
#include "solver/check.h"

/* ---- a tiny IR builder ---- */

struct builder {
	struct ir_program *p;
	struct arena *a;
};

static struct builder prog(const char *name, int nlocs, int nthreads)
{
	struct builder b;
	b.a = arena_new();
	b.p = arena_alloc(b.a, sizeof *b.p);
	b.p->arena = b.a;
	b.p->file = "hand-built.litmus";
	b.p->name = name;
	b.p->nlocs = nlocs;
	b.p->locs = arena_alloc(b.a, sizeof *b.p->locs * (size_t)nlocs);
	static const char *names[] = {"x", "y", "z", "l"};
	for (int i = 0; i < nlocs; i++) {
		b.p->locs[i].name = names[i];
		b.p->locs[i].ctype = "int";
	}
	b.p->nthreads = nthreads;
	b.p->threads = arena_alloc(b.a, sizeof *b.p->threads * (size_t)nthreads);
	for (int t = 0; t < nthreads; t++) {
		struct ir_thread *th = &b.p->threads[t];
		th->id = t;
		th->nregs = 2;
		th->regs = arena_alloc(b.a, sizeof *th->regs * 2);
		th->regs[0].name = "r0";
		th->regs[1].name = "r1";
		th->body.items = arena_alloc(b.a, sizeof(struct ir_instr) * 16);
	}
	return b;
}

static struct ir_expr *loc(struct builder *b, int l)
{
	struct ir_expr *e = arena_alloc(b->a, sizeof *e);
	e->kind = IR_E_LOC;
	e->loc = l;
	return e;
}

static struct ir_expr *num(struct builder *b, long v)
{
	struct ir_expr *e = arena_alloc(b->a, sizeof *e);
	e->kind = IR_E_CONST;
	e->num = v;
	return e;
}

static struct ir_instr *emit(struct builder *b, int t, enum ir_op op)
{
	struct ir_block *blk = &b->p->threads[t].body;
	struct ir_instr *in = &blk->items[blk->count++];
	in->op = op;
	in->dst = -1;
	in->text = "";
	return in;
}

static void store(struct builder *b, int t, int l, long v, enum ir_order o)
{
	struct ir_instr *in = emit(b, t, IR_STORE);
	in->a = loc(b, l);
	in->b = num(b, v);
	in->order = o;
}

static void load(struct builder *b, int t, int reg, int l, enum ir_order o)
{
	struct ir_instr *in = emit(b, t, IR_LOAD);
	in->dst = reg;
	in->a = loc(b, l);
	in->order = o;
}

static void fence(struct builder *b, int t, enum ir_fence f)
{
	emit(b, t, IR_FENCE)->fence = f;
}

static void lock_op(struct builder *b, int t, enum ir_op op, int l)
{
	emit(b, t, op)->a = loc(b, l);
}

static struct ir_cond *atom(struct builder *b, int t, int reg, long v)
{
	struct ir_cond *c = arena_alloc(b->a, sizeof *c);
	c->kind = IR_C_ATOM;
	c->lhs.thread = t;
	c->lhs.index = reg;
	c->rhs.kind = IR_VAL_INT;
	c->rhs.num = v;
	return c;
}

static struct ir_cond *and2(struct builder *b, struct ir_cond *x, struct ir_cond *y)
{
	struct ir_cond *c = arena_alloc(b->a, sizeof *c);
	c->kind = IR_C_AND;
	c->a = x;
	c->b = y;
	return c;
}

/* Run the checker; return its output (caller frees). */
static char *run(struct builder *b)
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
	struct builder b = prog("SB", 2, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	if (with_mb)
		fence(&b, 0, IR_F_MB);
	load(&b, 0, 0, 1, IR_ORD_ONCE);
	store(&b, 1, 1, 1, IR_ORD_ONCE);
	if (with_mb)
		fence(&b, 1, IR_F_MB);
	load(&b, 1, 0, 0, IR_ORD_ONCE);
	b.p->cond = and2(&b, atom(&b, 0, 0, 0), atom(&b, 1, 0, 0));
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
	struct builder b = prog("MP", 2, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	if (fences)
		fence(&b, 0, IR_F_WMB);
	store(&b, 0, 1, 1, IR_ORD_ONCE);
	load(&b, 1, 0, 1, IR_ORD_ONCE);
	if (fences)
		fence(&b, 1, IR_F_RMB);
	load(&b, 1, 1, 0, IR_ORD_ONCE);
	b.p->cond = and2(&b, atom(&b, 1, 0, 1), atom(&b, 1, 1, 0));
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
	struct builder b = prog("CoRR", 1, 2);
	store(&b, 0, 0, 1, IR_ORD_ONCE);
	load(&b, 1, 0, 0, IR_ORD_ONCE);
	load(&b, 1, 1, 0, IR_ORD_ONCE);
	b.p->cond = and2(&b, atom(&b, 1, 0, 1), atom(&b, 1, 1, 0));
	expect(run(&b), "Never 0 3", 3);
}

/* Critical sections of one lock are ordered: MP inside locks is Never. */
static void test_lock_mp(void **state)
{
	(void)state;
	struct builder b = prog("MP+locks", 3, 2);
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
	b.p->cond = and2(&b, atom(&b, 1, 0, 1), atom(&b, 1, 1, 0));
	expect(run(&b), "Never 0 2", 2);
}

/* A lock taken twice without unlock deadlocks: no execution at all. */
static void test_lock_deadlock(void **state)
{
	(void)state;
	struct builder b = prog("deadlock", 4, 1);
	b.p->locs[3].kind = IR_LOC_SPINLOCK;
	lock_op(&b, 0, IR_LOCK, 3);
	lock_op(&b, 0, IR_LOCK, 3);
	b.p->cond = atom(&b, 0, 0, 0);
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
