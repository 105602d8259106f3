/*
 * test_litmus.c - unit tests of the litmus-level front end: header, init
 * block forms, process headers and parameter kinds, comments, the final
 * clauses and how cond_text prints them, and located errors.  Bodies are
 * kept trivial here (test_cparse.c covers them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "frontend/frontend.h"
#include "tests/testutil.h"

static const struct ir_location *loc(const struct ir_program *p, const char *n)
{
	int i = ir_find_loc(p, n);
	assert_true(i >= 0);
	return &p->locs[i];
}

/* What a location must be: its kind, C type (NULL: not checked) and
 * initial number (ANY: not checked). */
struct want_loc {
	const char *name;      /* the location */
	enum ir_loc_kind kind; /* its kind */
	const char *ctype;     /* its C type, or NULL */
	long init;             /* its initial number, or ANY */
};
#define ANY LONG_MIN

static void locs_are(const struct ir_program *p, const struct want_loc *w, int n)
{
	for (int i = 0; i < n; i++) {
		const struct ir_location *l = loc(p, w[i].name);
		if (l->kind != w[i].kind)
			fail_msg("%s: kind %d, want %d", w[i].name, l->kind, w[i].kind);
		if (w[i].ctype && strcmp(l->ctype, w[i].ctype))
			fail_msg("%s: type '%s', want '%s'", w[i].name, l->ctype, w[i].ctype);
		if (w[i].init != ANY && l->init.num != w[i].init)
			fail_msg("%s: initial %ld, want %ld", w[i].name, l->init.num, w[i].init);
	}
}

static void test_header(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C MP+foo-[bar]+baz.1\n"
		"\"Some doc string {with braces}\"\n"
		"Cycle=Rfe PodRR Fre\n"
		"(* Result: Never (* nested *) *)\n"
		"{}\n"
		"P0(int *x) { WRITE_ONCE(*x, 1); }\n"
		"exists (x=1)\n");
	assert_string_equal(p->name, "MP+foo-[bar]+baz.1");
	assert_string_equal(p->file, "t.litmus");
	assert_int_equal(p->nthreads, 1);
	assert_int_equal(p->quant, IR_Q_EXISTS);
	assert_string_equal(p->cond_text, "([x]=1)");
	ir_program_free(p);
}

static void test_init_forms(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C init\n"
		"{\n"
		"  int x = 1; int *p = &x; int *q = y; (* pointer: &y *)\n"
		"  atomic_t a = ATOMIC_INIT(3); spinlock_t l;\n"
		"  intptr_t i = -2; unsigned long u = 0x10;\n"
		"  z = 5; w=y; [v] = 7;\n"
		"  0:r1 = 2; int 0:r2 = x; int *0:r3;\n"
		"}\n"
		"P0(int *x, atomic_t *a, spinlock_t *l) { WRITE_ONCE(*x, r1); }\n"
		"exists (0:r2=x)\n");
	static const struct want_loc want[] = {
		{"x", IR_LOC_INT, NULL, 1},
		{"p", IR_LOC_PTR, "int *", ANY},
		{"q", IR_LOC_PTR, NULL, ANY},
		{"y", IR_LOC_INT, NULL, ANY}, /* only named */
		{"a", IR_LOC_ATOMIC, NULL, 3},
		{"l", IR_LOC_SPINLOCK, NULL, ANY},
		{"i", IR_LOC_INT, NULL, -2},
		{"u", IR_LOC_INT, "unsigned long", 16},
		{"z", IR_LOC_INT, NULL, 5},
		{"w", IR_LOC_PTR, NULL, ANY}, /* "w=y" holds an address */
		{"v", IR_LOC_INT, NULL, 7},
	};
	locs_are(p, want, sizeof want / sizeof *want);
	assert_int_equal(loc(p, "p")->init.kind, IR_VAL_LOC);
	assert_int_equal(loc(p, "p")->init.loc, ir_find_loc(p, "x"));
	assert_int_equal(loc(p, "q")->init.kind, IR_VAL_LOC);
	assert_int_equal(loc(p, "q")->init.loc, ir_find_loc(p, "y"));
	const struct ir_thread *t = &p->threads[0];
	assert_int_equal(t->nregs, 3);
	assert_string_equal(t->regs[0].name, "r1");
	assert_int_equal(t->regs[0].has_init, 1);
	assert_int_equal(t->regs[0].init.num, 2);
	assert_string_equal(t->regs[1].name, "r2");
	assert_int_equal(t->regs[1].init.kind, IR_VAL_LOC);
	assert_int_equal(t->regs[1].init.loc, ir_find_loc(p, "x"));
	assert_string_equal(t->regs[2].ctype, "int *");
	assert_int_equal(t->regs[2].has_init, 0);
	assert_string_equal(p->cond_text, "(0:r2=x)");
	ir_program_free(p);
}

static void test_param_kinds(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C kinds\n{}\n"
		"P0(volatile int* x, spinlock_t *l, struct srcu_struct *s,\n"
		"   int **pp, atomic_t *a, intptr_t *ip)\n"
		"{ WRITE_ONCE(*x, 1); }\n"
		"P1(int *x, int *s) { WRITE_ONCE(*s, 1); }\n"
		"exists (x=1 /\\ u=0)\n");
	static const struct want_loc want[] = {
		{"x", IR_LOC_INT, "volatile int", ANY},
		{"l", IR_LOC_SPINLOCK, NULL, ANY},
		/* herd7 accepts int *s beside struct srcu_struct *s: srcu wins. */
		{"s", IR_LOC_SRCU, NULL, ANY},
		{"pp", IR_LOC_PTR, "int *", ANY},
		{"a", IR_LOC_ATOMIC, NULL, ANY},
		{"ip", IR_LOC_INT, NULL, ANY},
		/* u is only in the condition: an int initialised to 0. */
		{"u", IR_LOC_INT, NULL, 0},
	};
	locs_are(p, want, sizeof want / sizeof *want);
	const struct ir_thread *t0 = &p->threads[0], *t1 = &p->threads[1];
	assert_int_equal(t0->nparams, 6);
	assert_int_equal(t0->params[1], ir_find_loc(p, "l"));
	assert_int_equal(t1->nparams, 2);
	assert_int_equal(t1->params[0], ir_find_loc(p, "x"));
	ir_program_free(p);
}

static void test_process_order_and_comments(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C order\n{ }\n"
		"P1(int *y) // second\n"
		"{\n"
		"\t/* a C comment with { braces */ WRITE_ONCE(*y, 1); // }\n"
		"}\n"
		"(* between (* nested *) processes *)\n"
		"P0(int *x)\n{\n\tWRITE_ONCE(*x, (1));\n}\n"
		"exists (x=1) (* trailing *)\n");
	assert_int_equal(p->nthreads, 2);
	assert_int_equal(p->threads[0].id, 0);
	assert_int_equal(p->threads[1].id, 1);
	assert_int_equal(p->threads[0].pos.line, 8);
	assert_int_equal(p->threads[1].pos.line, 3);
	assert_int_equal(p->threads[0].body.count, 1);
	assert_int_equal(p->threads[1].body.count, 1);
	assert_int_equal(p->threads[1].body.items[0].pos.line, 5);
	assert_int_equal(p->threads[1].body.items[0].pos.col, 34);
	ir_program_free(p);
}

/* cond_text of a test whose condition is cond. */
static void check_cond(const char *cond, enum ir_quant q, const char *text)
{
	char buf[1024];
	snprintf(buf, sizeof buf,
		 "C c\n{}\nP0(int *x, int *y) { int r1; int r2;\n"
		 "r1 = READ_ONCE(*x); r2 = READ_ONCE(*y); }\n"
		 "P1(int *y) { int r1; r1 = READ_ONCE(*y); }\n%s\n", cond);
	struct ir_program *p = tu_parse_ok(buf);
	assert_int_equal(p->quant, q);
	assert_string_equal(p->cond_text, text);
	ir_program_free(p);
}

static void test_conditions(void **state)
{
	(void)state;
	check_cond("exists (0:r1=1 /\\ 1:r1 = 0)", IR_Q_EXISTS,
		   "(0:r1=1 /\\ 1:r1=0)");
	check_cond("~exists (x=1)", IR_Q_NOT_EXISTS, "([x]=1)");
	check_cond("~ exists ([x]==1)", IR_Q_NOT_EXISTS, "([x]=1)");
	check_cond("forall (0:r1=0 \\/ 0:r1=1)", IR_Q_FORALL,
		   "(0:r1=0 \\/ 0:r1=1)");
	check_cond("(0:r1=1)", IR_Q_EXISTS, "(0:r1=1)");
	check_cond("", IR_Q_FORALL, "(true)");
	check_cond("exists (true)", IR_Q_EXISTS, "(true)");
	check_cond("exists (false \\/ x=0)", IR_Q_EXISTS, "(false \\/ [x]=0)");
	/* herd7 parenthesises \/ under /\ only; "not" always. */
	check_cond("exists ((0:r1=1 \\/ 0:r1=2) /\\ (x=1 /\\ y=2))",
		   IR_Q_EXISTS, "((0:r1=1 \\/ 0:r1=2) /\\ [x]=1 /\\ [y]=2)");
	check_cond("exists (0:r1=1 /\\ x=1 \\/ y=2)", IR_Q_EXISTS,
		   "(0:r1=1 /\\ [x]=1 \\/ [y]=2)");
	check_cond("exists (~x=1 /\\ 0:r1!=2)", IR_Q_EXISTS,
		   "(not ([x]=1) /\\ not (0:r1=2))");
	check_cond("exists (~(x=1 \\/ y=1))", IR_Q_EXISTS,
		   "(not ([x]=1 \\/ [y]=1))");
	check_cond("exists (0:r1=x /\\ 0:r2=&y /\\ 1:r1=-3)", IR_Q_EXISTS,
		   "(0:r1=x /\\ 0:r2=y /\\ 1:r1=-3)");
	check_cond("exists (0:r1=1:r1 /\\ x=0:r2)", IR_Q_EXISTS,
		   "(0:r1=1:r1 /\\ [x]=0:r2)");
	check_cond("exists (x=1);", IR_Q_EXISTS, "([x]=1)");
}

static void test_clause_structure(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C s\n{}\n"
		"P0(int *x) { int r1; r1 = READ_ONCE(*x); }\n"
		"P1(int *x) { WRITE_ONCE(*x, 1); }\n"
		"locations [x; 0:r1; 1:r9;]\n"
		"filter (0:r1=0)\n"
		"exists (0:r1=1:r9 /\\ ~x=2)\n");
	assert_int_equal(p->nobserved, 3);
	assert_int_equal(p->observed[0].thread, -1);
	assert_int_equal(p->observed[0].index, ir_find_loc(p, "x"));
	assert_int_equal(p->observed[1].thread, 0);
	assert_string_equal(p->threads[0].regs[p->observed[1].index].name, "r1");
	/* 1:r9 is never mentioned by P1: a register keeping its init, 0. */
	assert_int_equal(p->observed[2].thread, 1);
	const struct ir_reg *r9 = &p->threads[1].regs[p->observed[2].index];
	assert_string_equal(r9->name, "r9");
	assert_string_equal(r9->ctype, "int");
	assert_int_equal(r9->has_init, 0);
	assert_non_null(p->filter);
	assert_int_equal(p->filter->kind, IR_C_ATOM);
	assert_int_equal(p->filter->rhs.num, 0);
	const struct ir_cond *c = p->cond;
	assert_int_equal(c->kind, IR_C_AND);
	assert_int_equal(c->a->kind, IR_C_ATOM);
	assert_int_equal(c->a->rhs_is_obs, 1);
	assert_int_equal(c->a->rhs_obs.thread, 1);
	assert_int_equal(c->b->kind, IR_C_NOT);
	assert_int_equal(c->b->a->lhs.thread, -1);
	assert_int_equal(c->b->a->rhs.num, 2);
	assert_int_equal(c->pos.line, 7);
	ir_program_free(p);
}

static void test_errors(void **state)
{
	(void)state;
	tu_parse_bad("{}\n", 1, 1, "missing header");
	tu_parse_bad("C t\n{ x = 1;\n", 2, 1, "never closed");
	tu_parse_bad("C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1);\n", 3, 12,
		  "unbalanced braces");
	tu_parse_bad("C t\n{}\nP0(int *x) { }\nexists (3:r1=0)\n", 4, 9,
		  "unknown thread 3");
	tu_parse_bad("C t\n{}\nP0(int *x) { }\nexists (0:r1=0 /\\)\n", 4, 18,
		  "expected a condition atom");
	tu_parse_bad("C t\n{ x = ; }\nP0(int *x) { }\nexists (x=0)\n", 2, 5,
		  "bad initial value");
	tu_parse_bad("C t\n{}\nP0(int *x) { }\nP0(int *y) { }\nexists (x=0)\n", 4,
		  1, "duplicate process P0");
	tu_parse_bad("C t\n{}\nP0(spinlock_t *x) { }\nP1(atomic_t *x) { }\n"
		  "exists (x=0)\n", 4, 14, "location 'x'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_init_forms),
		cmocka_unit_test(test_param_kinds),
		cmocka_unit_test(test_process_order_and_comments),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_clause_structure),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
