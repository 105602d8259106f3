/*
 * test_pattern.c - unit tests of the static relation shapes
 * (encoder/pattern.c): closure, cycle test, transitive reduction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "encoder/pattern.h"

/* 0 -> 1 -> 2 and the shortcut 0 -> 2; 70 events so rows span words. */
static struct pattern *diamond(void)
{
	struct pattern *p = pattern_new(70);
	pattern_set(p, 0, 1);
	pattern_set(p, 1, 2);
	pattern_set(p, 0, 2);
	pattern_set(p, 2, 69);
	return p;
}

static void test_close(void **state)
{
	(void)state;
	struct pattern *p = diamond();
	struct pattern *c = pattern_plus(p);
	assert_true(pattern_get(c, 0, 69));
	assert_true(pattern_get(c, 1, 69));
	assert_false(pattern_get(c, 69, 0));
	assert_false(pattern_get(c, 0, 0));
	assert_false(pattern_get(p, 0, 69)); /* the original is unchanged */
	pattern_free(c);
	pattern_free(p);
}

static void test_cycle(void **state)
{
	(void)state;
	struct pattern *p = diamond();
	assert_false(pattern_has_cycle(p));
	pattern_set(p, 69, 1);
	assert_true(pattern_has_cycle(p));
	pattern_free(p);
	struct pattern *self = pattern_new(3);
	pattern_set(self, 2, 2);
	assert_true(pattern_has_cycle(self));
	pattern_free(self);
}

static void test_reduction(void **state)
{
	(void)state;
	struct pattern *p = diamond();
	struct pattern *r = pattern_reduction(p);
	assert_non_null(r);
	assert_true(pattern_get(r, 0, 1));
	assert_true(pattern_get(r, 1, 2));
	assert_false(pattern_get(r, 0, 2)); /* implied by 0 -> 1 -> 2 */
	assert_true(pattern_get(r, 2, 69));
	/* the reduction's closure is the closure */
	struct pattern *a = pattern_plus(p), *b = pattern_plus(r);
	for (int i = 0; i < 70; i++)
		for (int j = 0; j < 70; j++)
			assert_int_equal(pattern_get(a, i, j), pattern_get(b, i, j));
	pattern_free(a);
	pattern_free(b);
	pattern_free(r);
	pattern_set(p, 2, 0); /* a cycle: no unique reduction */
	assert_null(pattern_reduction(p));
	pattern_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_reduction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
