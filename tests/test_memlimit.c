/*
 * test_memlimit.c - unit tests of the memory limit (common/memlimit.c):
 * the limit counts what Z3 and the arenas allocate, so it stops at the
 * same point every time the same work is done (not when a sampler
 * happens to look); Z3's watermark makes a query that would pass it
 * answer "unknown" for memory, which the limit records; and the limit's
 * Z3 parameters are gone once it ends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <z3.h>

#include "common/arena.h"
#include "common/memlimit.h"

/* A limit leaving budget_mb megabytes to count above the process now. */
static void begin_with(struct memlimit *m, long budget_mb)
{
	long limit_kb = memlimit_rss_kb() + MEMLIMIT_RESERVE_MB * 1024L +
			(long)(budget_mb * 1024 * MEMLIMIT_OVERHEAD);
	memlimit_begin(m, "test.litmus", limit_kb, 1, STDERR_FILENO);
}

/* Terms made in z (each a fresh conjunction of fresh constants) before
 * the limit says over, or Z3's hard stop (memory_max_size) refuses one
 * (a single allocation, such as Z3's term table doubling, can jump past
 * the watermark; z has no error handler here, so Z3 only sets its error
 * code), at most cap. */
static long terms_until_over(Z3_context z, struct memlimit *m, struct arena *a, long cap)
{
	Z3_sort b = Z3_mk_bool_sort(z);
	for (long k = 0; k < cap; k++) {
		Z3_ast args[2];
		for (int i = 0; i < 2; i++)
			if (!(args[i] = Z3_mk_fresh_const(z, "p", b)))
				return k; /* Z3_MEMOUT_FAIL */
		if (!Z3_mk_and(z, 2, args))
			return k;
		if (k % 64 == 0)
			arena_alloc(a, 128);
		if (memlimit_over(m, arena_bytes(a)))
			return k;
	}
	return cap;
}

static long one_run(long budget_mb)
{
	Z3_config cfg = Z3_mk_config();
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(z, NULL);
	struct arena *a = arena_new();
	struct memlimit m;
	begin_with(&m, budget_mb);
	long k = terms_until_over(z, &m, a, 10L * 1000 * 1000);
	assert_true(k < 10L * 1000 * 1000);
	memlimit_end(&m);
	arena_free(a);
	Z3_del_context(z);
	return k;
}

/* The same work stops at the same term, run after run (to Z3's counter's
 * granularity: it adds up a thread's allocations 100 kB at a time), and
 * a larger budget stops later. */
static void test_stops_at_the_same_point(void **state)
{
	(void)state;
	long first = one_run(8), second = one_run(8), third = one_run(8);
	assert_true(first > 1000);
	assert_true(labs(second - first) < first / 50);
	assert_true(labs(third - first) < first / 50);
	long larger = one_run(16);
	assert_true(larger > first + first / 2);
}

/* No limit: never over. */
static void test_no_limit(void **state)
{
	(void)state;
	struct memlimit m;
	memlimit_begin(&m, "test.litmus", 0, 1, STDERR_FILENO);
	assert_false(memlimit_over(&m, (size_t)1 << 40));
	assert_false(m.over);
	assert_false(memlimit_stopped());
	memlimit_end(&m);
}

/* The arenas count as Z3's allocations do. */
static void test_arena_bytes_count(void **state)
{
	(void)state;
	struct memlimit m;
	begin_with(&m, 8);
	assert_false(memlimit_over(&m, 0));
	assert_true(memlimit_over(&m, (size_t)9 << 20));
	assert_true(memlimit_stopped());
	memlimit_end(&m);
	assert_false(memlimit_stopped());
}

/* A pigeonhole formula (9 pigeons, 8 holes): Z3's search keeps learning
 * clauses, so under a small watermark it answers unknown for memory. */
static Z3_lbool pigeonhole(Z3_context z, Z3_solver s)
{
	enum { H = 8 };
	Z3_ast p[H + 1][H];
	Z3_sort b = Z3_mk_bool_sort(z);
	for (int i = 0; i <= H; i++) {
		for (int j = 0; j < H; j++)
			p[i][j] = Z3_mk_fresh_const(z, "p", b);
		Z3_solver_assert(z, s, Z3_mk_or(z, H, p[i]));
	}
	for (int j = 0; j < H; j++)
		for (int i = 0; i <= H; i++)
			for (int k = i + 1; k <= H; k++) {
				Z3_ast both[2] = {p[i][j], p[k][j]};
				Z3_solver_assert(z, s, Z3_mk_not(z, Z3_mk_and(z, 2, both)));
			}
	return Z3_solver_check(z, s);
}

static void test_watermark_stops_a_query(void **state)
{
	(void)state;
	Z3_config cfg = Z3_mk_config();
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	struct memlimit m;
	begin_with(&m, 1);
	Z3_solver s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, s);
	Z3_lbool r = pigeonhole(z, s);
	assert_int_equal(r, Z3_L_UNDEF);
	const char *why = Z3_solver_get_reason_unknown(z, s);
	assert_non_null(strstr(why, "memout"));
	assert_false(m.over);
	memlimit_note_unknown(why);
	assert_true(m.over);
	memlimit_end(&m);
	/* the limit ended: the same question is answered */
	Z3_solver t = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, t);
	assert_int_equal(pigeonhole(z, t), Z3_L_FALSE);
	Z3_solver_dec_ref(z, t);
	Z3_solver_dec_ref(z, s);
	Z3_del_context(z);
}

/* Another reason for unknown is not the limit's. */
static void test_other_unknowns(void **state)
{
	(void)state;
	struct memlimit m;
	begin_with(&m, 64);
	memlimit_note_unknown("timeout");
	memlimit_note_unknown("(incomplete (theory arithmetic))");
	assert_false(m.over);
	memlimit_end(&m);
	memlimit_note_unknown("memout"); /* no check limited: nothing */
	assert_false(m.over);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stops_at_the_same_point),
		cmocka_unit_test(test_no_limit),
		cmocka_unit_test(test_arena_bytes_count),
		cmocka_unit_test(test_watermark_stops_a_query),
		cmocka_unit_test(test_other_unknowns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
