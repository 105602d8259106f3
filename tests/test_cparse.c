/*
 * test_cparse.c - unit tests of the process-body lowering (libclang AST ->
 * IR): each primitive family, flattening of expressions with several
 * accesses, short-circuit and ?: lowering, if and loop lowering,
 * dependencies through registers, casts, implicit registers, positions and
 * source text, and located errors inside bodies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "frontend/frontend.h"
#include "tests/testutil.h"

/* A one-process test with the given parameters and body (body starts on
 * line 4, column 1 of the file). */
static struct ir_program *body(const char *params, const char *code)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "C t\n{}\nP0(%s) {\n%s\n}\nexists (x=0)\n",
		 params, code);
	return tu_parse_ok(buf);
}

static void body_bad(const char *params, const char *code, int line, int col,
		     const char *part)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "C t\n{}\nP0(%s) {\n%s\n}\nexists (x=0)\n",
		 params, code);
	tu_parse_bad(buf, line, col, part);
}

#define XY "int *x, int *y"

static const struct ir_instr *in0(const struct ir_program *p, int i)
{
	assert_true(i < p->threads[0].body.count);
	return &p->threads[0].body.items[i];
}

static int reg(const struct ir_program *p, const char *name)
{
	const struct ir_thread *t = &p->threads[0];
	for (int i = 0; i < t->nregs; i++)
		if (strcmp(t->regs[i].name, name) == 0)
			return i;
	fail_msg("no register %s", name);
	return -1;
}

static void assert_loc(const struct ir_program *p, const struct ir_expr *e,
		       const char *name)
{
	assert_non_null(e);
	assert_int_equal(e->kind, IR_E_LOC);
	assert_int_equal(e->loc, ir_find_loc(p, name));
}

static void assert_reg(const struct ir_program *p, const struct ir_expr *e,
		       const char *name)
{
	assert_non_null(e);
	assert_int_equal(e->kind, IR_E_REG);
	assert_int_equal(e->reg, reg(p, name));
}

static void assert_const(const struct ir_expr *e, long v)
{
	assert_non_null(e);
	assert_int_equal(e->kind, IR_E_CONST);
	assert_int_equal(e->num, v);
}

static void test_accesses(void **state)
{
	(void)state;
	struct ir_program *p = body(XY ", int **p",
		"\tint r0 = READ_ONCE(*x);\n"
		"\tWRITE_ONCE(*y, 2);\n"
		"\tr1 = smp_load_acquire(y);\n"
		"\tsmp_store_release(x, 3);\n"
		"\tr2 = *x;\n"
		"\t*y = r2;\n"
		"\tr3 = rcu_dereference(*p);\n"
		"\trcu_assign_pointer(*p, y);\n"
		"\tr4 = atomic_read(x); atomic_set_release(y, 5);");
	static const struct { enum ir_op op; enum ir_order ord; const char *l; }
	want[] = {
		{ IR_LOAD, IR_ORD_ONCE, "x" }, { IR_STORE, IR_ORD_ONCE, "y" },
		{ IR_LOAD, IR_ORD_ACQUIRE, "y" },
		{ IR_STORE, IR_ORD_RELEASE, "x" },
		{ IR_LOAD, IR_ORD_PLAIN, "x" }, { IR_STORE, IR_ORD_PLAIN, "y" },
		{ IR_LOAD, IR_ORD_ONCE, "p" }, { IR_STORE, IR_ORD_RELEASE, "p" },
		{ IR_LOAD, IR_ORD_ONCE, "x" }, { IR_STORE, IR_ORD_RELEASE, "y" },
	};
	assert_int_equal(p->threads[0].body.count, 10);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(in0(p, i)->op, want[i].op);
		assert_int_equal(in0(p, i)->order, want[i].ord);
		assert_loc(p, in0(p, i)->a, want[i].l);
	}
	assert_int_equal(in0(p, 0)->dst, reg(p, "r0"));
	assert_const(in0(p, 1)->b, 2);
	assert_reg(p, in0(p, 5)->b, "r2");
	assert_loc(p, in0(p, 7)->b, "y"); /* a pointer value */
	/* Position and text of the statement. */
	assert_int_equal(in0(p, 0)->pos.line, 4);
	assert_int_equal(in0(p, 0)->pos.col, 6);
	assert_string_equal(in0(p, 0)->text, "r0 = READ_ONCE(*x)");
	assert_string_equal(in0(p, 1)->text, "WRITE_ONCE(*y, 2)");
	assert_int_equal(in0(p, 1)->pos.line, 5);
	assert_int_equal(in0(p, 1)->pos.col, 2);
	/* Implicit registers are ints; declared ones keep their type. */
	assert_string_equal(p->threads[0].regs[reg(p, "r1")].ctype, "int");
	assert_int_equal(p->threads[0].regs[reg(p, "r1")].is_temp, 0);
	ir_program_free(p);
}

static void test_fences(void **state)
{
	(void)state;
	struct ir_program *p = body(XY,
		"\tsmp_mb(); smp_rmb(); smp_wmb(); barrier();\n"
		"\tsmp_mb__before_atomic(); smp_mb__after_atomic();\n"
		"\tsmp_mb__after_spinlock(); smp_mb__after_unlock_lock();\n"
		"\trcu_read_lock(); rcu_read_unlock();\n"
		"\tsynchronize_rcu(); synchronize_rcu_expedited();\n"
		"\tsmp_store_mb(*x, 1);");
	static const enum ir_fence want[] = {
		IR_F_MB, IR_F_RMB, IR_F_WMB, IR_F_BARRIER, IR_F_BEFORE_ATOMIC,
		IR_F_AFTER_ATOMIC, IR_F_AFTER_SPINLOCK, IR_F_AFTER_UNLOCK_LOCK,
		IR_F_RCU_LOCK, IR_F_RCU_UNLOCK, IR_F_SYNC_RCU, IR_F_SYNC_RCU,
	};
	assert_int_equal(p->threads[0].body.count, 14);
	for (int i = 0; i < 12; i++) {
		assert_int_equal(in0(p, i)->op, IR_FENCE);
		assert_int_equal(in0(p, i)->fence, want[i]);
	}
	/* smp_store_mb: a once store, then F[mb]. */
	assert_int_equal(in0(p, 12)->op, IR_STORE);
	assert_int_equal(in0(p, 12)->order, IR_ORD_ONCE);
	assert_int_equal(in0(p, 13)->op, IR_FENCE);
	assert_int_equal(in0(p, 13)->fence, IR_F_MB);
	ir_program_free(p);
}

static void test_rmw(void **state)
{
	(void)state;
	struct ir_program *p = body("atomic_t *a, int *x",
		"\tr0 = xchg(x, 1); r1 = xchg_relaxed(x, 2);\n"
		"\tr2 = cmpxchg_acquire(x, 1, 2); xchg_release(x, 3);\n"
		"\tatomic_add(4, a); atomic_dec(a);\n"
		"\tr3 = atomic_inc_return_acquire(a);\n"
		"\tr4 = atomic_fetch_sub_release(5, a);\n"
		"\tr5 = atomic_dec_and_test(a);\n"
		"\tr6 = atomic_add_negative(6, a);\n"
		"\tr7 = atomic_add_unless(a, 7, 8);\n"
		"\tr8 = atomic_cmpxchg_relaxed(a, 0, 9);");
	const struct ir_instr *i;
	i = in0(p, 0);
	assert_int_equal(i->op, IR_RMW);
	assert_int_equal(i->rmw, IR_RMW_XCHG);
	assert_int_equal(i->order, IR_ORD_MB);
	assert_loc(p, i->a, "x");
	assert_const(i->b, 1);
	assert_int_equal(i->dst, reg(p, "r0"));
	assert_int_equal(in0(p, 1)->order, IR_ORD_ONCE);
	i = in0(p, 2);
	assert_int_equal(i->rmw, IR_RMW_CMPXCHG);
	assert_int_equal(i->order, IR_ORD_ACQUIRE);
	assert_const(i->b, 1);
	assert_const(i->c, 2);
	i = in0(p, 3);
	assert_int_equal(i->order, IR_ORD_RELEASE);
	assert_int_equal(i->dst, -1);
	i = in0(p, 4); /* atomic_add(V, X): address is X */
	assert_int_equal(i->rmw, IR_RMW_OP);
	assert_int_equal(i->arith, IR_ADD);
	assert_int_equal(i->dst, -1);
	assert_loc(p, i->a, "a");
	assert_const(i->b, 4);
	i = in0(p, 5);
	assert_int_equal(i->rmw, IR_RMW_OP);
	assert_int_equal(i->arith, IR_SUB);
	assert_const(i->b, 1);
	i = in0(p, 6);
	assert_int_equal(i->rmw, IR_RMW_OP_RETURN);
	assert_int_equal(i->order, IR_ORD_ACQUIRE);
	assert_const(i->b, 1);
	i = in0(p, 7);
	assert_int_equal(i->rmw, IR_RMW_FETCH_OP);
	assert_int_equal(i->arith, IR_SUB);
	assert_int_equal(i->order, IR_ORD_RELEASE);
	assert_const(i->b, 5);
	/* dec_and_test: op_return into a temporary, then == 0. */
	i = in0(p, 8);
	assert_int_equal(i->rmw, IR_RMW_OP_RETURN);
	assert_int_equal(i->order, IR_ORD_MB);
	assert_int_equal(p->threads[0].regs[i->dst].is_temp, 1);
	int t = i->dst;
	i = in0(p, 9);
	assert_int_equal(i->op, IR_ASSIGN);
	assert_int_equal(i->dst, reg(p, "r5"));
	assert_int_equal(i->a->kind, IR_E_BINARY);
	assert_int_equal(i->a->op, IR_EQ);
	assert_int_equal(i->a->a->reg, t);
	assert_const(i->a->b, 0);
	assert_int_equal(in0(p, 11)->a->op, IR_LT); /* add_negative */
	i = in0(p, 12); /* add_unless(X, a, u): b = a, c = u */
	assert_int_equal(i->rmw, IR_RMW_ADD_UNLESS);
	assert_const(i->b, 7);
	assert_const(i->c, 8);
	assert_int_equal(i->dst, reg(p, "r7"));
	assert_int_equal(in0(p, 13)->rmw, IR_RMW_CMPXCHG);
	assert_int_equal(in0(p, 13)->order, IR_ORD_ONCE);
	ir_program_free(p);
}

static void test_locks_srcu(void **state)
{
	(void)state;
	struct ir_program *p = body("spinlock_t *l, struct srcu_struct *s, int *x",
		"\tspin_lock(l); r0 = spin_trylock(l); r1 = spin_is_locked(l);\n"
		"\tspin_unlock(l);\n"
		"\tr2 = srcu_read_lock(s); srcu_read_unlock(s, r2);\n"
		"\tsynchronize_srcu(s); synchronize_srcu_expedited(s);");
	static const enum ir_op want[] = {
		IR_LOCK, IR_TRYLOCK, IR_ISLOCKED, IR_UNLOCK, IR_SRCU_LOCK,
		IR_SRCU_UNLOCK, IR_SRCU_SYNC, IR_SRCU_SYNC,
	};
	for (int i = 0; i < 8; i++)
		assert_int_equal(in0(p, i)->op, want[i]);
	assert_loc(p, in0(p, 0)->a, "l");
	assert_int_equal(in0(p, 1)->dst, reg(p, "r0"));
	assert_loc(p, in0(p, 4)->a, "s");
	assert_reg(p, in0(p, 5)->b, "r2");
	ir_program_free(p);
}

static void test_flattening(void **state)
{
	(void)state;
	struct ir_program *p = body(XY ", int *z",
		"\tWRITE_ONCE(*x, READ_ONCE(*y) + READ_ONCE(*z) * 2);\n"
		"\t*x = *y;");
	assert_int_equal(p->threads[0].body.count, 5);
	const struct ir_instr *a = in0(p, 0), *b = in0(p, 1), *s = in0(p, 2);
	assert_int_equal(a->op, IR_LOAD);
	assert_loc(p, a->a, "y");
	assert_string_equal(a->text, "READ_ONCE(*y)");
	assert_int_equal(a->pos.col, 17);
	assert_int_equal(b->op, IR_LOAD);
	assert_loc(p, b->a, "z");
	assert_int_equal(s->op, IR_STORE);
	assert_int_equal(s->b->kind, IR_E_BINARY);
	assert_int_equal(s->b->op, IR_ADD);
	assert_int_equal(s->b->a->reg, a->dst);
	assert_int_equal(s->b->b->op, IR_MUL);
	assert_int_equal(s->b->b->a->reg, b->dst);
	assert_string_equal(s->text,
			    "WRITE_ONCE(*x, READ_ONCE(*y) + READ_ONCE(*z) * 2)");
	/* *x = *y: a plain load into a temporary, then a plain store. */
	assert_int_equal(in0(p, 3)->op, IR_LOAD);
	assert_int_equal(in0(p, 3)->order, IR_ORD_PLAIN);
	assert_int_equal(in0(p, 4)->op, IR_STORE);
	assert_int_equal(in0(p, 4)->b->reg, in0(p, 3)->dst);
	ir_program_free(p);
}

static void test_short_circuit(void **state)
{
	(void)state;
	struct ir_program *p = body(XY,
		"\tr1 = READ_ONCE(*x) && READ_ONCE(*y);\n"
		"\tr2 = r1 || r1;\n"
		"\tr3 = r1 ? READ_ONCE(*y) : 5;");
	/* load x; if (t) { load y; t2 = (y != 0) } else { t2 = 0 }; r1 = t2 */
	const struct ir_instr *i = in0(p, 1);
	assert_int_equal(in0(p, 0)->op, IR_LOAD);
	assert_int_equal(i->op, IR_IF);
	assert_int_equal(i->then_b.count, 2);
	assert_int_equal(i->then_b.items[0].op, IR_LOAD);
	assert_loc(p, i->then_b.items[0].a, "y");
	assert_int_equal(i->else_b.count, 1);
	assert_const(i->else_b.items[0].a, 0);
	assert_int_equal(in0(p, 2)->op, IR_ASSIGN);
	assert_int_equal(in0(p, 2)->dst, reg(p, "r1"));
	/* Pure operands stay a pure expression. */
	i = in0(p, 3);
	assert_int_equal(i->op, IR_ASSIGN);
	assert_int_equal(i->a->op, IR_LOR);
	/* ?: with an access in a branch. */
	i = in0(p, 4);
	assert_int_equal(i->op, IR_IF);
	assert_reg(p, i->a, "r1");
	assert_int_equal(i->then_b.items[0].op, IR_LOAD);
	assert_const(i->else_b.items[0].a, 5);
	ir_program_free(p);
}

static void test_if(void **state)
{
	(void)state;
	struct ir_program *p = body(XY ", int *z",
		"\tint r1 = READ_ONCE(*x);\n"
		"\tif (r1 == 1)\n"
		"\t\tWRITE_ONCE(*y, 1);\n"
		"\telse {\n"
		"\t\tWRITE_ONCE(*z, r1);\n"
		"\t}\n"
		"\tif (READ_ONCE(*y)) { smp_mb(); }");
	const struct ir_instr *i = in0(p, 1);
	assert_int_equal(i->op, IR_IF);
	assert_int_equal(i->a->op, IR_EQ);
	assert_reg(p, i->a->a, "r1");
	assert_int_equal(i->then_b.count, 1);
	assert_loc(p, i->then_b.items[0].a, "y");
	assert_int_equal(i->else_b.count, 1);
	assert_reg(p, i->else_b.items[0].b, "r1"); /* data dependency */
	assert_string_equal(i->text, "if (r1 == 1)");
	assert_int_equal(i->pos.line, 5);
	/* An access in the condition goes first; the IF tests a register. */
	assert_int_equal(in0(p, 2)->op, IR_LOAD);
	assert_int_equal(in0(p, 3)->op, IR_IF);
	assert_int_equal(in0(p, 3)->a->kind, IR_E_REG);
	assert_int_equal(in0(p, 3)->a->reg, in0(p, 2)->dst);
	ir_program_free(p);
}

/* Is b = [IF (!c) { BREAK }, ...]? */
static void assert_break_unless(const struct ir_block *b)
{
	assert_true(b->count >= 1);
	assert_int_equal(b->items[0].op, IR_IF);
	assert_int_equal(b->items[0].a->kind, IR_E_UNARY);
	assert_int_equal(b->items[0].a->op, IR_LNOT);
	assert_int_equal(b->items[0].then_b.count, 1);
	assert_int_equal(b->items[0].then_b.items[0].op, IR_BREAK);
}

static void test_loops(void **state)
{
	(void)state;
	struct ir_program *p = body(XY,
		"\twhile (READ_ONCE(*x) == 0) {\n"
		"\t\tif (x) break;\n"
		"\t\tcontinue;\n"
		"\t}\n"
		"\tfor (r1 = 0; r1 < 2; r1++)\n"
		"\t\tWRITE_ONCE(*y, r1);\n"
		"\tdo { r2 = READ_ONCE(*y); } while (r2 != 1);\n"
		"\twhile (1) { break; }");
	/* while: LOOP { load; IF(!c) BREAK; body } */
	const struct ir_instr *w = in0(p, 0);
	assert_int_equal(w->op, IR_LOOP);
	assert_int_equal(w->then_b.items[0].op, IR_LOAD);
	const struct ir_block rest = { w->then_b.items + 1, w->then_b.count - 1 };
	assert_break_unless(&rest);
	assert_int_equal(w->then_b.items[2].op, IR_IF);
	assert_int_equal(w->then_b.items[2].then_b.items[0].op, IR_BREAK);
	assert_int_equal(w->then_b.items[3].op, IR_CONTINUE);
	/* for: init; LOOP { IF(!c) BREAK; body; inc } */
	assert_int_equal(in0(p, 1)->op, IR_ASSIGN);
	const struct ir_instr *f = in0(p, 2);
	assert_int_equal(f->op, IR_LOOP);
	assert_break_unless(&f->then_b);
	assert_int_equal(f->then_b.items[1].op, IR_STORE);
	assert_int_equal(f->then_b.items[2].op, IR_ASSIGN);
	assert_int_equal(f->then_b.items[2].dst, reg(p, "r1"));
	/* do-while: LOOP { body; IF(!c) BREAK } */
	const struct ir_instr *d = in0(p, 3);
	assert_int_equal(d->then_b.items[0].op, IR_LOAD);
	const struct ir_block tail = { d->then_b.items + 1, 1 };
	assert_break_unless(&tail);
	/* while (1): no test at all. */
	assert_int_equal(in0(p, 4)->then_b.count, 1);
	assert_int_equal(in0(p, 4)->then_b.items[0].op, IR_BREAK);
	ir_program_free(p);
}

static void test_dependencies_and_casts(void **state)
{
	(void)state;
	struct ir_program *p = body("intptr_t *x1, intptr_t *y",
		"\tintptr_t r1 = (intptr_t)rcu_dereference(*(intptr_t **)x1);\n"
		"\tsmp_store_release((intptr_t *)r1, 1);\n"
		"\tintptr_t r2 = READ_ONCE(*(intptr_t *)r1);\n"
		"\tr3 = y + (r2 ^ r2);\n"
		"\tWRITE_ONCE(*r3, 2);");
	assert_int_equal(in0(p, 0)->op, IR_LOAD);
	assert_loc(p, in0(p, 0)->a, "x1");
	assert_int_equal(in0(p, 0)->dst, reg(p, "r1"));
	assert_string_equal(p->threads[0].regs[reg(p, "r1")].ctype, "intptr_t");
	assert_reg(p, in0(p, 1)->a, "r1"); /* address dependency */
	assert_reg(p, in0(p, 2)->a, "r1");
	const struct ir_expr *e = in0(p, 3)->a;
	assert_int_equal(e->op, IR_ADD);
	assert_loc(p, e->a, "y");
	assert_int_equal(e->b->op, IR_BXOR);
	assert_reg(p, in0(p, 4)->a, "r3");
	ir_program_free(p);
}

static void test_untyped_registers(void **state)
{
	(void)state;
	/* herd7 registers are untyped: an int register may be dereferenced
	 * and added to a parameter. */
	struct ir_program *p = body(XY,
		"\tint r1;\n"
		"\tint r2;\n"
		"\tr1 = READ_ONCE(*x);\n"
		"\tr2 = READ_ONCE(*r1);\n"
		"\tr1 = y + r1;\n"
		"\t*r1 = r2;");
	assert_reg(p, in0(p, 1)->a, "r1");
	assert_int_equal(in0(p, 2)->op, IR_ASSIGN);
	assert_int_equal(in0(p, 3)->op, IR_STORE);
	assert_int_equal(in0(p, 3)->order, IR_ORD_PLAIN);
	assert_reg(p, in0(p, 3)->a, "r1");
	assert_string_equal(p->threads[0].regs[reg(p, "r1")].ctype, "int");
	ir_program_free(p);
}

static void test_body_errors(void **state)
{
	(void)state;
	body_bad(XY, "\tfoo(x);", 4, 2, "unknown kernel primitive 'foo'");
	body_bad(XY, "\tr1 = READ_ONCE(*x, 1);", 4, 7,
		 "'READ_ONCE' takes 1 argument but 2 are given");
	body_bad(XY, "\tr1 = smp_mb();", 4, 7, "has no value");
	body_bad(XY, "\tr1 = (*x = 1);", 4, 8, "store inside an expression");
	body_bad(XY, "\tWRITE_ONCE(*z, 1);", 4, 14, "undeclared location");
	body_bad(XY, "\tr1 = READ_ONCE(*x)", 4, 20, "expected ';'");
	body_bad(XY, "\tkmalloc(4);", 4, 2, "dynamic allocation ('kmalloc')");
	body_bad(XY, "\tif (1) goto l; { l: ; }", 4, 9, "unsupported goto");
}

/* A test with a C preamble between the init block and P0. */
static struct ir_program *with_preamble(const char *init, const char *pre,
					const char *params, const char *code)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "C t\n{%s}\n%s\nP0(%s) {\n%s\n}\n"
		 "exists (x=0)\n", init, pre, params, code);
	return tu_parse_ok(buf);
}

/* Helpers are inlined: a parameter given an address stands for it, a
 * value parameter is a register, a non-tail return leaves a one-pass
 * loop, and the call's value lands in the destination. */
static void test_helpers(void **state)
{
	(void)state;
	struct ir_program *p = with_preamble("",
		"#define TWO 2\n"
		"static inline int get(int *a, int k)\n"
		"{\n\tif (k)\n\t\treturn READ_ONCE(*a);\n\treturn TWO;\n}\n",
		"int *x", "int r0; r0 = get(x, r0 + 1);");
	const struct ir_block *b = &p->threads[0].body;
	/* k = r0 + 1; loop { if k { t = load(x); break } t = 2; break };
	 * r0 = t */
	assert_int_equal(b->count, 3);
	assert_int_equal(b->items[0].op, IR_ASSIGN);
	assert_string_equal(p->threads[0].regs[b->items[0].dst].name, "get:k");
	assert_int_equal(b->items[1].op, IR_LOOP);
	const struct ir_block *lb = &b->items[1].then_b;
	assert_int_equal(lb->items[0].op, IR_IF);
	const struct ir_instr *ld = &lb->items[0].then_b.items[0];
	assert_int_equal(ld->op, IR_LOAD);
	assert_int_equal(ld->a->kind, IR_E_LOC);
	assert_string_equal(p->locs[ld->a->loc].name, "x");
	assert_int_equal(lb->items[0].then_b.items[1].op, IR_BREAK);
	assert_int_equal(lb->items[1].op, IR_ASSIGN);
	assert_int_equal(lb->items[1].a->kind, IR_E_CONST);
	assert_int_equal(lb->items[1].a->num, 2);
	assert_int_equal(b->items[2].op, IR_ASSIGN);
	assert_string_equal(p->threads[0].regs[b->items[2].dst].name, "r0");
	ir_program_free(p);
}

/* Struct fields are locations; p->f through a loaded pointer chooses
 * among the structs of that type. */
static void test_struct_fields(void **state)
{
	(void)state;
	struct ir_program *p = with_preamble("struct s a; struct s b; a.f[1] = 3;",
		"struct s { int g; int f[2]; };",
		"struct s **x",
		"struct s *q; int r1; q = READ_ONCE(*x); r1 = READ_ONCE(q->f[1]);");
	assert_true(ir_find_loc(p, "a.f[1]") >= 0);
	assert_true(ir_find_loc(p, "b.g") >= 0);
	assert_int_equal(p->locs[ir_find_loc(p, "a.f[1]")].init.num, 3);
	const struct ir_block *b = &p->threads[0].body;
	assert_int_equal(b->count, 2);
	const struct ir_expr *a = b->items[1].a;
	/* (q == &b) ? &b.f[1] : ((q == &a) ? &a.f[1] : q) */
	assert_int_equal(a->kind, IR_E_COND);
	assert_int_equal(a->b->kind, IR_E_LOC);
	assert_int_equal(a->c->kind, IR_E_COND);
	assert_int_equal(a->c->c->kind, IR_E_REG);
	const char *n1 = p->locs[a->b->loc].name, *n2 = p->locs[a->c->b->loc].name;
	assert_true((!strcmp(n1, "a.f[1]") && !strcmp(n2, "b.f[1]")) ||
		    (!strcmp(n1, "b.f[1]") && !strcmp(n2, "a.f[1]")));
	ir_program_free(p);
}

/* A union field is laid out as a struct's, one location per member,
 * which is right while every access goes through one member: through a
 * second one is an error at that access. */
static void test_union_fields(void **state)
{
	(void)state;
	struct ir_program *p = with_preamble("",
		"struct s { union { int n; atomic_t v; } u; int c; };",
		"struct s *x",
		"int r1 = READ_ONCE(x->u.n); WRITE_ONCE(x->u.n, r1 + 1);");
	assert_true(ir_find_loc(p, "x.u.n") >= 0);
	assert_true(ir_find_loc(p, "x.u.v") >= 0);
	const struct ir_block *b = &p->threads[0].body;
	assert_int_equal(b->count, 2);
	assert_int_equal(b->items[0].a->kind, IR_E_LOC);
	assert_string_equal(p->locs[b->items[0].a->loc].name, "x.u.n");
	ir_program_free(p);
	tu_parse_bad("C t\n{}\n"
		     "struct s { union { int n; long l; } u; };\n"
		     "P0(struct s *x) {\n"
		     "\tint r1 = READ_ONCE(x->u.n); WRITE_ONCE(x->u.l, r1);\n"
		     "}\nexists (x=0)\n", 5, 41,
		     "'x->u' is a union accessed through its member 'l' here "
		     "and 'n' at line 5");
	tu_parse_bad("C t\n{}\n"
		     "struct s { union { int n; int f[2]; } u; };\n"
		     "P0(struct s *x) {\n"
		     "\tint r1 = READ_ONCE(x->u.n);\n"
		     "}\nexists (x=0)\n", 4, 14,
		     "union 'x.u': its member 'f' is a struct or an array");
}

/* Assertions: BUG_ON(c) and WARN_ON(c) must keep c false (the IR_ASSERT
 * checks !c), assert(c) keeps c true; WARN_ON's value is c != 0. */
static void test_assertions(void **state)
{
	(void)state;
	struct ir_program *p = body(XY, "int r0 = READ_ONCE(*x);\n"
				    "BUG_ON(r0 == 2);\n"
				    "assert(r0 != 3);\n"
				    "if (WARN_ON(r0 == 1)) WRITE_ONCE(*y, 1);");
	const struct ir_instr *bug = in0(p, 1), *as = in0(p, 2), *warn = in0(p, 3);
	assert_int_equal(bug->op, IR_ASSERT);
	assert_int_equal(bug->a->kind, IR_E_UNARY);
	assert_int_equal(bug->a->op, IR_LNOT);
	assert_int_equal(bug->a->a->op, IR_EQ);
	assert_string_equal(bug->text, "BUG_ON(r0 == 2)");
	assert_int_equal(bug->pos.line, 5);
	assert_int_equal(as->op, IR_ASSERT);
	assert_int_equal(as->a->kind, IR_E_BINARY);
	assert_int_equal(as->a->op, IR_NE);
	assert_int_equal(warn->op, IR_ASSERT);
	assert_int_equal(warn->a->op, IR_LNOT);
	const struct ir_instr *val = in0(p, 4);
	assert_int_equal(val->op, IR_ASSIGN);
	assert_int_equal(val->a->op, IR_NE);
	assert_int_equal(in0(p, 5)->op, IR_IF);
	ir_program_free(p);
	body_bad(XY, "int r0 = BUG_ON(1);", 4, 10, "'BUG_ON' has no value");
}

/* Operators in a macro's body are read where the #define spells them
 * when the macro puts its parameters in parentheses; otherwise they are
 * refused, never misread (a - b in SUB(x, y) is not the comma there). */
static void test_macro_operators(void **state)
{
	(void)state;
	struct ir_program *p = with_preamble("",
		"#define NEXT(v) ((v) + 1)\n#define NEG(v) (-(v))\n", "int *x",
		"int r0 = READ_ONCE(*x); WRITE_ONCE(*x, NEG(NEXT(r0)));");
	const struct ir_expr *v = p->threads[0].body.items[1].b;
	assert_int_equal(v->kind, IR_E_UNARY);
	assert_int_equal(v->op, IR_NEG);
	assert_int_equal(v->a->kind, IR_E_BINARY);
	assert_int_equal(v->a->op, IR_ADD);
	assert_int_equal(v->a->b->num, 1);
	ir_program_free(p);
	/* Unparenthesised parameters: the operator comes from the AST, so
	 * SUB(r0, 1) * 2 is r0 - (1 * 2), as C expands it. */
	p = with_preamble("", "#define SUB(a, b) a - b\n", "int *x",
			  "int r0 = READ_ONCE(*x); r0 = SUB(r0, 1) * 2;");
	v = p->threads[0].body.items[1].a;
	assert_int_equal(v->kind, IR_E_BINARY);
	assert_int_equal(v->op, IR_SUB);
	assert_int_equal(v->b->kind, IR_E_BINARY);
	assert_int_equal(v->b->op, IR_MUL);
	assert_int_equal(v->b->a->num, 1);
	assert_int_equal(v->b->b->num, 2);
	ir_program_free(p);
}

/* switch: a one-pass loop; each statement runs under "a label at or
 * before it matched" (m), break leaves the loop. */
static void test_switch(void **state)
{
	(void)state;
	struct ir_program *p = body("int *x",
		"int r0; int r1; r0 = READ_ONCE(*x);\n"
		"switch (r0) { case 1: r1 = 1; break; default: r1 = 2; }");
	const struct ir_block *b = &p->threads[0].body;
	assert_int_equal(b->count, 3);
	assert_int_equal(b->items[1].op, IR_ASSIGN);      /* m = 0 */
	assert_int_equal(b->items[2].op, IR_LOOP);
	const struct ir_block *lb = &b->items[2].then_b;
	/* m |= r0 == 1; if m r1 = 1; if m break; m |= default; if m r1 = 2;
	 * break */
	assert_int_equal(lb->count, 6);
	assert_int_equal(lb->items[0].a->op, IR_LOR);
	assert_int_equal(lb->items[1].op, IR_IF);
	assert_int_equal(lb->items[1].then_b.items[0].a->num, 1);
	assert_int_equal(lb->items[2].then_b.items[0].op, IR_BREAK);
	assert_int_equal(lb->items[3].a->op, IR_LOR);
	assert_int_equal(lb->items[3].a->b->op, IR_LAND); /* no case hit */
	assert_int_equal(lb->items[5].op, IR_BREAK);
	ir_program_free(p);
}

/* A backward goto is the continue of a loop from its label; a forward one
 * the break of a loop that ends at its label. */
static void test_goto(void **state)
{
	(void)state;
	struct ir_program *p = body("int *x",
		"int r0;\nagain: r0 = READ_ONCE(*x); if (!r0) goto again;\n"
		"if (r0 == 2) goto out; WRITE_ONCE(*x, 3);\nout: smp_mb();");
	const struct ir_block *b = &p->threads[0].body;
	assert_int_equal(b->count, 3);
	assert_int_equal(b->items[0].op, IR_LOOP);
	const struct ir_block *l0 = &b->items[0].then_b;
	assert_int_equal(l0->items[1].then_b.items[0].op, IR_CONTINUE);
	assert_int_equal(l0->items[l0->count - 1].op, IR_BREAK);
	assert_int_equal(b->items[1].op, IR_LOOP);
	const struct ir_block *l1 = &b->items[1].then_b;
	assert_int_equal(l1->items[0].then_b.items[0].op, IR_BREAK);
	assert_int_equal(l1->items[1].op, IR_STORE);
	assert_int_equal(b->items[2].op, IR_FENCE);
	ir_program_free(p);
}

/* Arrays of the init block: elements are locations; a[k] and a + k are
 * that element; a[r] asserts r in range and chooses by r. */
static void test_arrays(void **state)
{
	(void)state;
	struct ir_program *p = with_preamble("int a[2]; a[1] = 7;", "",
		"int *a, int *x",
		"int r0; WRITE_ONCE(a[1], 1); WRITE_ONCE(*(a + 0), 2);\n"
		"r0 = READ_ONCE(*x); WRITE_ONCE(a[r0], 3);");
	int a1 = ir_find_loc(p, "a[1]"), a0 = ir_find_loc(p, "a[0]");
	assert_true(a0 >= 0 && a1 >= 0);
	assert_int_equal(p->locs[a1].init.num, 7);
	const struct ir_block *b = &p->threads[0].body;
	assert_int_equal(b->items[0].a->loc, a1);
	assert_int_equal(b->items[1].a->loc, a0);
	assert_int_equal(b->items[3].op, IR_ASSERT);
	const struct ir_expr *c = b->items[4].a;
	assert_int_equal(c->kind, IR_E_COND);
	assert_int_equal(c->b->loc, a0);
	assert_int_equal(c->c->b->loc, a1);
	ir_program_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accesses),
		cmocka_unit_test(test_fences),
		cmocka_unit_test(test_rmw),
		cmocka_unit_test(test_locks_srcu),
		cmocka_unit_test(test_flattening),
		cmocka_unit_test(test_short_circuit),
		cmocka_unit_test(test_if),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_dependencies_and_casts),
		cmocka_unit_test(test_untyped_registers),
		cmocka_unit_test(test_body_errors),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_struct_fields),
		cmocka_unit_test(test_union_fields),
		cmocka_unit_test(test_assertions),
		cmocka_unit_test(test_macro_operators),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_goto),
		cmocka_unit_test(test_arrays),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
