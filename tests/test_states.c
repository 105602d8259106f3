/*
 * test_states.c - unit tests of solver/states.c on IR built by hand: the
 * columns (herd7's order and labels), recording states and the
 * proposition on them, herd7's order of values and of the printed list,
 * values too wide for the compact rows, the columns' values in a model,
 * and the enumeration by blocking queries against the model (and its
 * deadline).
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
#include "solver/states.h"
#include "tests/encfix.h"
#include "tests/irb.h"

/* SB: P0: x = 1; r0 = y;  P1: y = 1; r0 = x;  exists (0:r0=0 /\ 1:r0=0),
 * with y observed too when observe_y. */
static struct irb sb(int observe_y)
{
	struct irb b = irb_new("SB", 2, 2);
	irb_store(&b, irb_body(&b, 0), 0, irb_num(&b, 1), IR_ORD_ONCE);
	irb_load(&b, irb_body(&b, 0), 0, 1, IR_ORD_ONCE);
	irb_store(&b, irb_body(&b, 1), 1, irb_num(&b, 1), IR_ORD_ONCE);
	irb_load(&b, irb_body(&b, 1), 0, 0, IR_ORD_ONCE);
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 1, 0, 0), irb_reg_is(&b, 0, 0, 0)));
	if (observe_y)
		irb_observe(&b, -1, 1);
	return b;
}

/* SB encoded, and an empty state set for it. */
struct fixture {
	struct encfix fx;      /* the encoding and its solver */
	struct state_set *ss;  /* the states */
};

static void setup(struct fixture *f, int observe_y)
{
	encfix_open(&f->fx, sb(observe_y));
	f->ss = state_set_new(f->fx.enc);
}

static void teardown(struct fixture *f)
{
	state_set_free(f->ss);
	encfix_close(&f->fx);
}

static void test_columns(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 1);
	/* registers by thread first, then locations: 0:r0, 1:r0, [y] */
	assert_int_equal(state_set_ncols(f.ss), 3);
	assert_int_equal(state_set_column(f.ss, 0).thread, 0);
	assert_int_equal(state_set_column(f.ss, 1).thread, 1);
	assert_int_equal(state_set_column(f.ss, 2).thread, -1);
	struct ir_observable y = {-1, 1}, x = {-1, 0}, r = {1, 0};
	assert_int_equal(state_set_column_index(f.ss, y), 2);
	assert_int_equal(state_set_column_index(f.ss, r), 1);
	assert_int_equal(state_set_column_index(f.ss, x), -1);
	teardown(&f);
}

static void test_add_and_print(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 0);
	const long st[][2] = {{1, 1}, {0, 0}, {1, 0}, {0, 1}};
	for (int i = 0; i < 4; i++)
		state_set_add(f.ss, st[i]);
	assert_int_equal(state_set_size(f.ss), 4);
	assert_int_equal(state_set_count(f.ss, 1), 1); /* only 0:r0=0 /\ 1:r0=0 */
	assert_int_equal(state_set_count(f.ss, 0), 3);
	char *out = encfix_printed(f.ss);
	assert_string_equal(out,
			    "0:r0=0; 1:r0=0;\n"
			    "0:r0=0; 1:r0=1;\n"
			    "0:r0=1; 1:r0=0;\n"
			    "0:r0=1; 1:r0=1;\n");
	free(out);
	teardown(&f);
}

/* herd7's order of values: symbols, then numbers, then locations by name;
 * a location value prints as its name, a symbol as S. */
static void test_value_order(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 0);
	long x = enc_loc_address(0), y = enc_loc_address(1);
	assert_true(state_value_cmp(f.fx.enc, ENC_SYMBOLIC, -5) < 0);
	assert_true(state_value_cmp(f.fx.enc, -5, 3) < 0);
	assert_true(state_value_cmp(f.fx.enc, 3, x) < 0);
	assert_true(state_value_cmp(f.fx.enc, x, y) < 0);
	assert_true(state_value_cmp(f.fx.enc, y, x) > 0);
	assert_int_equal(state_value_cmp(f.fx.enc, 7, 7), 0);
	const long st[][2] = {{y, 2}, {x, 2}, {2, ENC_SYMBOLIC}};
	for (int i = 0; i < 3; i++)
		state_set_add(f.ss, st[i]);
	char *out = encfix_printed(f.ss);
	assert_string_equal(out,
			    "0:r0=2; 1:r0=S;\n"
			    "0:r0=x; 1:r0=2;\n"
			    "0:r0=y; 1:r0=2;\n");
	free(out);
	teardown(&f);
}

/* Values past 32 bits switch the rows to longs without losing the states
 * recorded before. */
static void test_wide_values(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 0);
	for (long i = 0; i < 40; i++) {
		const long st[2] = {i, 0};
		state_set_add(f.ss, st);
	}
	const long big[2] = {1L << 40, -(1L << 35)};
	state_set_add(f.ss, big);
	assert_int_equal(state_set_size(f.ss), 41);
	assert_int_equal(state_set_count(f.ss, 1), 1); /* {0, 0} */
	char *out = encfix_printed(f.ss);
	assert_non_null(strstr(out, "0:r0=0; 1:r0=0;\n0:r0=1; 1:r0=0;\n"));
	assert_non_null(strstr(out, "0:r0=39; 1:r0=0;\n0:r0=1099511627776; 1:r0=-34359738368;\n"));
	free(out);
	teardown(&f);
}

/* Enumerated against the LKMM: SB's four states; with the condition's
 * state excluded by hand, three. */
static void enumerate(int exclude, long want)
{
	struct fixture f;
	setup(&f, 0);
	Z3_context z = f.fx.z;
	Z3_solver s = f.fx.s;
	if (exclude)
		Z3_solver_assert(z, s, Z3_mk_not(z, enc_cond(f.fx.enc, f.fx.b.p->cond)));
	unsigned before = Z3_solver_get_num_scopes(z, s);
	assert_true(state_set_enumerate(f.ss, s, NULL, 0));
	assert_int_equal(Z3_solver_get_num_scopes(z, s), before); /* restored */
	assert_int_equal(state_set_size(f.ss), want);
	assert_int_equal(state_set_count(f.ss, 1), exclude ? 0 : 1);
	teardown(&f);
}

static void test_enumerate(void **state)
{
	(void)state;
	enumerate(0, 4);
	enumerate(1, 3);
}

/* The columns' values in a model where P0 read 1 and P1 read 0. */
static void test_eval(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 0);
	Z3_context z = f.fx.z;
	Z3_solver s = f.fx.s;
	static const long want[2] = {1, 0};
	Z3_solver_push(z, s);
	for (int t = 0; t < 2; t++) {
		Z3_ast r = enc_observable(f.fx.enc, (struct ir_observable){t, 0});
		Z3_solver_assert(z, s, Z3_mk_eq(z, r, Z3_mk_int64(z, want[t], Z3_get_sort(z, r))));
	}
	assert_int_equal(Z3_solver_check(z, s), Z3_L_TRUE);
	Z3_model m = Z3_solver_get_model(z, s);
	Z3_model_inc_ref(z, m);
	long val[2] = {-1, -1};
	assert_int_equal(state_set_eval(f.ss, m, val), 1);
	assert_int_equal(val[0], want[0]);
	assert_int_equal(val[1], want[1]);
	Z3_model_dec_ref(z, m);
	Z3_solver_pop(z, s, 1);
	teardown(&f);
}

/* A deadline already passed: no new query, the answer is "gave up". */
static void test_deadline(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f, 0);
	assert_int_equal(state_set_enumerate(f.ss, f.fx.s, NULL, 1.0), 0);
	assert_true(state_set_size(f.ss) < 4);
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_add_and_print),
		cmocka_unit_test(test_value_order),
		cmocka_unit_test(test_wide_values),
		cmocka_unit_test(test_enumerate),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
