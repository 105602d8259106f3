/*
 * test_repair.c - unit tests of --repair's parts that do not run the
 * checker: the cost file reader (good and bad files, located errors), the
 * unified diff, and the menu read off a parsed test (which changes, in
 * which slots, the edits' text, a brace-less if body left alone, a //
 * comment between statements, locks as reads and writes, the
 * removals --prune tries), and the text with every change under a choice
 * that the search asks of one encoding.  The search itself is tested end
 * to end (tests/e2e-repair.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "frontend/frontend.h"
#include "repair/repair_cost.h"
#include "repair/repair_enc.h"
#include "repair/repair_menu.h"
#include "repair/udiff.h"

/* Write text to a temporary file; its path into path. */
static void temp_file(const char *text, char *path, size_t size)
{
	snprintf(path, size, "/tmp/test_repair_XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
}

static void test_costs_good(void **state)
{
	(void)state;
	struct repair_costs c;
	repair_costs_default(&c);
	assert_int_equal(c.cost[RK_MB], 4);
	assert_int_equal(c.cost[RK_LOAD_ACQUIRE], 1);
	char path[64];
	temp_file("# comment\n\nsmp_mb 7   # full\n  rmw-mb\t9\n", path, sizeof path);
	struct diag d = {0};
	assert_int_equal(repair_costs_read(&c, path, &d), 1);
	assert_int_equal(c.cost[RK_MB], 7);
	assert_int_equal(c.cost[RK_RMW_MB], 9);
	assert_int_equal(c.cost[RK_WMB], 2);
	unlink(path);
}

static void bad_costs(const char *text, int line, int col, const char *part)
{
	char path[64];
	temp_file(text, path, sizeof path);
	struct repair_costs c;
	repair_costs_default(&c);
	struct diag d = {0};
	assert_int_equal(repair_costs_read(&c, path, &d), 0);
	assert_int_equal(d.line, line);
	assert_int_equal(d.col, col);
	assert_non_null(strstr(d.msg, part));
	unlink(path);
}

static void test_costs_bad(void **state)
{
	(void)state;
	bad_costs("smp_mb 4\nfoo 1\n", 2, 1, "unknown change 'foo'");
	bad_costs("smp_mb -1\n", 1, 8, "whole number from 1 to 1000");
	bad_costs("smp_mb 1001\n", 1, 8, "whole number from 1 to 1000");
	bad_costs("smp_mb\n", 1, 7, "needs a cost");
	bad_costs("smp_mb 1\nsmp_mb 2\n", 2, 1, "priced twice");
	bad_costs("smp_mb 1 x\n", 1, 10, "unexpected 'x'");
}

static char *diff_of(const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	udiff_print(a, b, "a/t", "b/t", f);
	fclose(f);
	return buf;
}

static void test_udiff(void **state)
{
	(void)state;
	char *d = diff_of("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\nx\n5\n6\n7\n8\n9\nten\n");
	assert_string_equal(d,
		"--- a/t\n+++ b/t\n"
		"@@ -2,9 +2,10 @@\n 2\n 3\n 4\n+x\n 5\n 6\n 7\n 8\n 9\n-10\n+ten\n");
	free(d);
	d = diff_of("same\n", "same\n");
	assert_string_equal(d, "");
	free(d);
	d = diff_of("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n");
	assert_string_equal(d,
		"--- a/t\n+++ b/t\n"
		"@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n"
		"@@ -9,4 +10,3 @@\n 9\n 10\n 11\n-12\n");
	free(d);
}

static const char mp[] =
	"C mp\n{}\n"
	"P0(int *x, int *y)\n{\n\tWRITE_ONCE(*x, 1);\n\tWRITE_ONCE(*y, 1);\n}\n"
	"P1(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = READ_ONCE(*y);\n"
	"\tif (r0)\n\t\tr1 = READ_ONCE(*x);\n}\n"
	"exists (1:r0=1 /\\ 1:r1=0)\n";

static int has(const struct repair_menu *m, const char *what)
{
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->ch[i].what, what) == 0)
			return i;
	return -1;
}

static void test_menu(void **state)
{
	(void)state;
	struct frontend *fe = frontend_new();
	struct diag d = {0};
	struct ir_program *p = frontend_parse_text(fe, "t.litmus", mp, &d);
	assert_non_null(p);
	struct repair_menu m = {0};
	repair_menu_build(&m, p, mp);
	assert_true(has(&m, "release on line 5 in P0") >= 0);
	assert_true(has(&m, "smp_mb() before line 6 in P0") >= 0);
	assert_true(has(&m, "smp_wmb() before line 6 in P0") >= 0);
	assert_true(has(&m, "acquire on line 13 in P1") >= 0);
	/* P1 has two loads but the second is the only statement of a
	 * brace-less if: no fence may go before it */
	assert_int_equal(has(&m, "smp_mb() before line 15 in P1"), -1);
	assert_true(has(&m, "smp_mb() before line 14 in P1") >= 0);
	/* one slot per gap: mb and wmb share theirs */
	assert_int_equal(m.ch[has(&m, "smp_mb() before line 6 in P0")].slot,
			 m.ch[has(&m, "smp_wmb() before line 6 in P0")].slot);
	int *pick = calloc((size_t)m.n, sizeof *pick);
	pick[has(&m, "release on line 6 in P0")] = 1;
	pick[has(&m, "acquire on line 15 in P1")] = 1;
	pick[has(&m, "smp_wmb() before line 6 in P0")] = 1;
	char *t = repair_apply(&m, pick, mp);
	assert_non_null(strstr(t, "\tWRITE_ONCE(*x, 1);\n\tsmp_wmb();\n\tsmp_store_release(y, 1);\n"));
	assert_non_null(strstr(t, "\t\tr1 = smp_load_acquire(x);\n"));
	free(t);
	free(pick);
	repair_menu_free(&m);
	ir_program_free(p);
	frontend_free(fe);
}

/* A test with a fence, acquire/release and a fully ordered RMW. */
static const char fenced[] =
	"C t\n{}\n"
	"P0(int *x, int *y)\n{\n\tWRITE_ONCE(*x, 1);\n\tsmp_wmb();\n"
	"\tsmp_store_release(y, 1);\n}\n"
	"P1(int *x, int *y, atomic_t *v)\n{\n\tint r0;\n\tint r1;\n\n"
	"\tr0 = smp_load_acquire(y);\n\tr1 = atomic_xchg(v, 1);\n}\n"
	"exists (1:r0=1)\n";

/* t parsed by fe and its menu in *m: the removals with rm, else the
 * changes --repair tries. */
static struct ir_program *menu_of(struct frontend *fe, const char *t, int rm,
				  struct repair_menu *m)
{
	struct diag d = {0};
	struct ir_program *p = frontend_parse_text(fe, "t.litmus", t, &d);
	assert_non_null(p);
	if (rm)
		repair_menu_removals(m, p, t);
	else
		repair_menu_build(m, p, t);
	return p;
}

/* A // comment between two statements leaves their gap; a lock counts as
 * a read and a write (smp_wmb orders a store before spin_lock's write). */
static void test_menu_comment_lock(void **state)
{
	(void)state;
	static const char t[] =
		"C t\n{}\n"
		"P0(int *x, spinlock_t *s)\n{\n\tWRITE_ONCE(*x, 1);\n\t// then the lock\n"
		"\tspin_lock(s);\n\tspin_unlock(s);\n}\n"
		"P1(int *x, spinlock_t *s)\n{\n\tint r0;\n\tint r1;\n\n"
		"\tr0 = spin_trylock(s);\n\tr1 = READ_ONCE(*x);\n\tif (r0)\n\t\tspin_unlock(s);\n}\n"
		"exists (1:r0=0 /\\ 1:r1=0)\n";
	struct frontend *fe = frontend_new();
	struct repair_menu m = {0};
	struct ir_program *p = menu_of(fe, t, 0, &m);
	assert_true(has(&m, "smp_mb() before line 7 in P0") >= 0);
	assert_true(has(&m, "smp_wmb() before line 7 in P0") >= 0);
	assert_true(has(&m, "smp_rmb() before line 16 in P1") >= 0);
	repair_menu_free(&m);
	ir_program_free(p);
	frontend_free(fe);
}

static void test_removals(void **state)
{
	(void)state;
	const char *t = fenced;
	struct frontend *fe = frontend_new();
	struct repair_menu m = {0};
	struct ir_program *p = menu_of(fe, t, 1, &m);
	assert_int_equal(m.n, 4);
	int *pick = calloc((size_t)m.n, sizeof *pick);
	for (int i = 0; i < m.n; i++)
		pick[i] = 1;
	char *s = repair_apply(&m, pick, t);
	assert_non_null(strstr(s, "\tWRITE_ONCE(*x, 1);\n\tWRITE_ONCE(*y, 1);\n"));
	assert_non_null(strstr(s, "\tr0 = READ_ONCE(*y);\n\tr1 = atomic_xchg_relaxed(v, 1);\n"));
	free(s);
	free(pick);
	repair_menu_free(&m);
	ir_program_free(p);
	frontend_free(fe);
}

/* The choice text of t's menu (removals with rm) holds each of the
 * n strings want[] and parses only with choices on. */
static void choice_text(const char *t, int rm, const char *const *want, int n)
{
	struct frontend *fe = frontend_new();
	struct repair_menu m = {0};
	struct ir_program *p = menu_of(fe, t, rm, &m);
	char *c = repair_choice_text(&m, t);
	assert_non_null(c);
	for (int i = 0; i < n; i++) {
		if (!strstr(c, want[i]))
			fail_msg("'%s' not in the choice text:\n%s", want[i], c);
	}
	struct diag d = {0};
	struct ir_program *q = frontend_parse_text(fe, "t.litmus", c, &d);
	assert_null(q);
	assert_non_null(strstr(d.msg, "unknown kernel primitive '__lkmmc_choice'"));
	d = (struct diag){0};
	frontend_set_choices(fe, 1);
	q = frontend_parse_text(fe, "t.litmus", c, &d);
	assert_non_null(q);
	ir_program_free(q);
	free(c);
	repair_menu_free(&m);
	ir_program_free(p);
	frontend_free(fe);
}

static void test_choice_text(void **state)
{
	(void)state;
	/* a statement call, a gap's fences, a call inside an expression */
	static const char *const add[] = {
		"\t{ if (__lkmmc_choice(0)) smp_store_release(x, 1); else WRITE_ONCE(*x, 1); }\n"
		"\tif (__lkmmc_choice(1)) smp_mb();\n\tif (__lkmmc_choice(2)) smp_wmb();\n",
		"\tr0 = (__lkmmc_choice(4) ? smp_load_acquire(y) : READ_ONCE(*y));\n",
		"\tif (r0)\n\t\tr1 = (__lkmmc_choice(7) ? smp_load_acquire(x) : READ_ONCE(*x));\n",
	};
	choice_text(mp, 0, add, 3);
	/* --prune's: a fence that goes, annotations weakened, a suffix */
	static const char *const removed[] = {
		"\tif (!__lkmmc_choice(0)) smp_wmb();\n",
		"{ if (__lkmmc_choice(1)) WRITE_ONCE(*y, 1); else smp_store_release(y, 1); }",
		"(__lkmmc_choice(3) ? atomic_xchg_relaxed(v, 1) : atomic_xchg(v, 1))",
	};
	choice_text(fenced, 1, removed, 3);
	/* two changes in one call: no choice text (checked from scratch) */
	static const char nested[] =
		"C n\n{}\nP0(int *x, int *y)\n{\n\tWRITE_ONCE(*y, READ_ONCE(*x));\n}\n"
		"exists (y=1)\n";
	struct frontend *fe = frontend_new();
	struct repair_menu m = {0};
	struct ir_program *p = menu_of(fe, nested, 0, &m);
	assert_int_equal(m.nslots, 2);
	assert_null(repair_choice_text(&m, nested));
	repair_menu_free(&m);
	ir_program_free(p);
	frontend_free(fe);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_costs_good),
		cmocka_unit_test(test_costs_bad),
		cmocka_unit_test(test_udiff),
		cmocka_unit_test(test_menu),
		cmocka_unit_test(test_menu_comment_lock),
		cmocka_unit_test(test_removals),
		cmocka_unit_test(test_choice_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
