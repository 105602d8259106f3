/*
 * test_values.c - unit tests of encoder/values.c, the value sets of a
 * program's registers and locations: a flags word closed under | and &,
 * thin air's value where a write depends on a read (and not otherwise),
 * what is "not known" (a counter, a write at an unknown address, no
 * bitwise operator), and the encoding's arithmetic on values; then the
 * tables symex_eval.c builds from them, through the checker's answers on
 * a test with ENC_SYMBOLIC in its sets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "encoder/encoder.h"
#include "encoder/values.h"
#include "frontend/frontend.h"
#include "tests/testutil.h"

/* The values register name of thread t can hold: how many (or -1), into
 * out. */
static int reg_values(const struct value_sets *vs, const struct ir_program *p,
		      int t, const char *name, long *out)
{
	const struct ir_thread *th = &p->threads[t];
	for (int r = 0; r < th->nregs; r++)
		if (!strcmp(th->regs[r].name, name)) {
			struct ir_expr e = {.kind = IR_E_REG, .reg = r};
			return values_of(vs, t, &e, out);
		}
	fail_msg("no register %s in P%d", name, t);
	return -1;
}

/* The register's values must be exactly want (sorted). */
static void values_are(const struct value_sets *vs, const struct ir_program *p,
		       int t, const char *name, const long *want, int n)
{
	long got[VALUES_MAX];
	int k = reg_values(vs, p, t, name, got);
	if (k != n)
		fail_msg("%d:%s has %d values (first %ld, last %ld), want %d", t, name, k, got[0], got[k > 0 ? k - 1 : 0], n);
	for (int i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("%d:%s value %d is %ld, want %ld", t, name, i, got[i], want[i]);
}

/* irq_work's flags: 0x23 initially, one thread clears bit 0 from what it
 * read, the other sets 0x23 in what it read.  A write depends on a read,
 * so a read may also be thin air's symbol, and the operators apply to it
 * too. */
static void test_flags_closed(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C flags\n{ x = 0x23; }\n"
		"P0(int *x) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 & ~1); }\n"
		"P1(int *x) { int r1; r1 = READ_ONCE(*x); WRITE_ONCE(*x, r1 | 0x23); }\n"
		"exists (0:r0=0)\n");
	struct value_sets *vs = values_analyse(p);
	assert_non_null(vs);
	/* a register starts at 0 */
	const long want[] = {0, 0x22, 0x23, ENC_SYMBOLIC - 1, ENC_SYMBOLIC};
	values_are(vs, p, 0, "r0", want, 5);
	values_are(vs, p, 1, "r1", want, 5);
	values_free(vs);
	ir_program_free(p);
}

/* Without a write that depends on a read, no value is thin air's. */
static void test_no_thin_air(void **state)
{
	(void)state;
	struct ir_program *p = tu_parse_ok(
		"C consts\n{}\n"
		"P0(int *x) { WRITE_ONCE(*x, 6); }\n"
		"P1(int *x) { int r0; int r1; r0 = READ_ONCE(*x); r1 = r0 & 2; }\n"
		"exists (1:r1=2)\n");
	struct value_sets *vs = values_analyse(p);
	const long r0[] = {0, 6}, r1[] = {0, 2};
	values_are(vs, p, 1, "r0", r0, 2);
	values_are(vs, p, 1, "r1", r1, 2);
	values_free(vs);
	ir_program_free(p);
}

/* A counter has too many values; a write at an address computed from it
 * may write anything anywhere; a program without a bitwise operator is
 * not analysed at all. */
static void test_not_known(void **state)
{
	(void)state;
	long v[VALUES_MAX];
	struct ir_program *p = tu_parse_ok(
		"C counter\n{}\n"
		"P0(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*x);\n"
		"  WRITE_ONCE(*x, r0 + 1); r1 = READ_ONCE(*y); r1 = r1 & 1; }\n"
		"exists (0:r0=0)\n");
	struct value_sets *vs = values_analyse(p);
	assert_int_equal(reg_values(vs, p, 0, "r0", v), -1);
	const long r1[] = {0, 1, ENC_SYMBOLIC};
	values_are(vs, p, 0, "r1", r1, 3); /* y is only ever 0 */
	values_free(vs);
	ir_program_free(p);

	p = tu_parse_ok(
		"C wild\n{ int *p = x; }\n"
		"P0(int *x, int *y, int **p) { int r0; int *r1; r0 = READ_ONCE(*x);\n"
		"  r1 = READ_ONCE(*p); WRITE_ONCE(*r1, r0 + 1); WRITE_ONCE(*p, r0); }\n"
		"P1(int *y) { int r2; r2 = READ_ONCE(*y); r2 = r2 & 1; }\n"
		"exists (0:r0=0)\n");
	vs = values_analyse(p);
	assert_int_equal(reg_values(vs, p, 1, "r2", v), -1);
	values_free(vs);
	ir_program_free(p);

	p = tu_parse_ok("C plain\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(*x) + 1; }\n"
			"exists (0:r0=1)\n");
	assert_null(values_analyse(p));
	assert_int_equal(values_of(NULL, 0, p->threads[0].body.items[0].a, v), -1);
	ir_program_free(p);
}

/* x op y as the encoding computes it: 64-bit words for the bitwise
 * operators, a shift by a negative amount or one of 64 or more as
 * bvshl/bvashr give it, C's division with 0 for a zero divisor, no
 * answer on overflow. */
static void test_apply(void **state)
{
	(void)state;
	static const struct { enum ir_binop op; long x, y, r; } ok[] = {
		{IR_BAND, -5, 3, 3}, {IR_BOR, 0x20, 0x3, 0x23}, {IR_BXOR, 6, 3, 5},
		{IR_SHL, 1, 62, 1L << 62}, {IR_SHL, 1, 64, 0}, {IR_SHL, 3, -1, 0},
		{IR_SHL, 3, 63, LONG_MIN}, {IR_SHR, -5, 1, -3}, {IR_SHR, -5, 70, -1},
		{IR_SHR, 5, -1, 0}, {IR_DIV, -7, 2, -3}, {IR_MOD, -7, 2, -1},
		{IR_DIV, 7, 0, 0}, {IR_MOD, 7, 0, 0}, {IR_LT, -1, 0, 1},
		{IR_LAND, 2, 0, 0}, {IR_LOR, 0, -3, 1},
	};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		long r = 12345;
		if (!values_apply(ok[i].op, ok[i].x, ok[i].y, &r) || r != ok[i].r)
			fail_msg("case %zu: %ld op %d %ld gave %ld, want %ld", i, ok[i].x,
				 ok[i].op, ok[i].y, r, ok[i].r);
	}
	long r;
	assert_false(values_apply(IR_ADD, LONG_MAX, 1, &r));
	assert_false(values_apply(IR_MUL, LONG_MAX, 2, &r));
	assert_false(values_apply(IR_DIV, LONG_MIN, -1, &r));
}

/* The checker's output for a litmus text (caller frees). */
static char *check(const char *text)
{
	return tu_check(tu_parse_ok(text));
}

/* The tables on values read from memory, thin air's symbol among them:
 * C-JO-OOTA-4 of the corpus (plain reads; herd7: Never, these three
 * states), which timed out with 64-bit words; and a value only thin air
 * gives, through & and |: r0 = S & 3 = 3 where the read of x is out of
 * thin air (the 64-bit encoding's value too).  A value the sets missed
 * would lose or invent states. */
static void test_tables_answer(void **state)
{
	(void)state;
	char *out = check(
		"C oota-and\n{}\n"
		"P0(int *a, int *b, int *x, int *y) { int r1; int r2; int r3;\n"
		"  r1 = READ_ONCE(*x); smp_rmb(); r2 = *b; r3 = r1 == 0;\n"
		"  WRITE_ONCE(*a, (r3 + 1) & r2); smp_wmb(); WRITE_ONCE(*y, 1); }\n"
		"P1(int *a, int *b, int *x, int *y) { int r1; int r2; int r3;\n"
		"  r1 = READ_ONCE(*y); smp_rmb(); r2 = *a; r3 = r1 == 0;\n"
		"  WRITE_ONCE(*b, (r3 + 1) & r2); smp_wmb(); WRITE_ONCE(*x, 1); }\n"
		"exists (0:r1=1 /\\ 1:r1=1)\n");
	const char *want[] = {"States 3\n", "0:r1=0; 1:r1=0;\n", "0:r1=0; 1:r1=1;\n",
			      "0:r1=1; 1:r1=0;\n", "Observation oota-and Never 0 3\n"};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!strstr(out, want[i]))
			fail_msg("no '%s' in:\n%s", want[i], out);
	free(out);
	out = check(
		"C thin-and\n{}\n"
		"P0(int *x, int *y) { int r0; int r1; r1 = *x; r0 = r1 & 3; *y = r1 | 0; }\n"
		"P1(int *x, int *y) { int r2; r2 = *y; *x = r2; }\n"
		"exists (0:r0=3)\n");
	if (!strstr(out, "States 2\n0:r0=0;\n0:r0=3;\n") ||
	    !strstr(out, "Observation thin-and Sometimes 1 1"))
		fail_msg("thin air's S & 3 lost:\n%s", out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_closed),
		cmocka_unit_test(test_no_thin_air),
		cmocka_unit_test(test_not_known),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_tables_answer),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
