/*
 * test_kdef.c - unit tests of the .def reader (frontend/kdef.c): each
 * macro's primitives, operands and comparison; macros calling macros
 * (operands substituted, '*' added up); the tags of each event of an RMW
 * under herd7's older reading (mb as fences around once accesses, acquire
 * on the read, release on the write, noreturn) and under variant lkmmv2
 * (every event as written); lkmmc's idioms over the macros; located
 * errors.  Lowering and checking are tested end to end (tests/e2e-cat.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/kapi.h"

/* The bit of tag name in t (0 if absent). */
static unsigned long bit(const struct kapi_table *t, const char *name)
{
	for (int k = 0; k < t->ntags; k++)
		if (strcmp(t->tags[k], name) == 0)
			return 1ul << k;
	return 0;
}

static const struct kdef_macro *macro(const struct kapi_table *t, const char *name)
{
	const struct kapi *k = kapi_find(t, name);
	assert_non_null(k);
	assert_int_equal(k->kind, K_DEF);
	return k->def;
}

static const char def61[] =
	"// comment\n"
	"READ_ONCE(X) __load{once}(X)\n"
	"smp_load_acquire(X) __load{acquire}(*X)\n"
	"smp_store_mb(X,V) { __store{once}(X,V); __fence{mb}; }\n"
	"smp_rmb() { __fence{rmb}; }\n"
	"xchg_acquire(X,V) __xchg{acquire}(X,V)\n"
	"cmpxchg(X,V,W) __cmpxchg{mb}(X,V,W)\n"
	"atomic_add(V,X) { __atomic_op(X,+,V); }\n"
	"atomic_read(X) READ_ONCE(*X)\n"
	"atomic_dec_and_test(X)  __atomic_op_return{mb}(X,-,1) == 0\n"
	"spin_lock(X) { __lock(X); }\n";

static void test_macros(void **state)
{
	(void)state;
	struct diag d = {0};
	struct kapi_table *t = kdef_parse("m.def", def61, 0, &d);
	assert_non_null(t);
	const struct kdef_macro *m = macro(t, "READ_ONCE");
	assert_int_equal(m->nsteps, 1);
	assert_int_equal(m->steps[0].prim, KP_LOAD);
	assert_int_equal(m->steps[0].arg[0].param, 0);
	assert_int_equal(m->steps[0].arg[0].deref, 0);
	assert_true(m->value);
	assert_int_equal(m->steps[0].ev[IR_TAG_EV], bit(t, "once"));
	assert_int_equal(m->steps[0].order, IR_ORD_ONCE);
	m = macro(t, "smp_load_acquire");
	assert_int_equal(m->steps[0].arg[0].deref, 1);
	assert_int_equal(m->steps[0].order, IR_ORD_ACQUIRE);
	m = macro(t, "smp_store_mb");
	assert_int_equal(m->nsteps, 2);
	assert_false(m->value);
	assert_int_equal(m->steps[1].prim, KP_FENCE);
	assert_int_equal(m->steps[1].fence, IR_F_MB);
	/* a macro calling a macro: READ_ONCE(*X), '*' added */
	m = macro(t, "atomic_read");
	assert_int_equal(m->nsteps, 1);
	assert_int_equal(m->steps[0].prim, KP_LOAD);
	assert_int_equal(m->steps[0].arg[0].deref, 1);
	/* the value operand before the address: atomic_add(V,X) */
	m = macro(t, "atomic_add");
	assert_int_equal(m->steps[0].arg[0].param, 1);
	assert_int_equal(m->steps[0].arg[1].param, 0);
	assert_int_equal(m->steps[0].op, IR_ADD);
	m = macro(t, "atomic_dec_and_test");
	assert_true(m->has_cmp);
	assert_int_equal(m->cmp, IR_EQ);
	assert_int_equal(m->cmp_num, 0);
	assert_int_equal(m->steps[0].op, IR_SUB);
	assert_int_equal(m->steps[0].arg[1].param, -1);
	assert_int_equal(m->steps[0].arg[1].num, 1);
	/* idioms over the macros: raw_spin_lock is spin_lock, with a flags
	 * argument for the irqsave form; herd7's atomic_add_unless */
	const struct kapi *k = kapi_find(t, "spin_lock_irqsave");
	assert_non_null(k);
	assert_int_equal(k->kind, K_DEF);
	assert_int_equal(k->nargs, 2);
	assert_ptr_equal(k->def, macro(t, "spin_lock"));
	assert_non_null(kapi_find(t, "raw_spin_lock"));
	assert_null(kapi_find(t, "raw_spin_trylock")); /* no spin_trylock */
	assert_non_null(kapi_find(t, "BUG_ON"));
	assert_int_equal(macro(t, "atomic_add_unless")->steps[0].prim, KP_ADD_UNLESS);
	assert_int_equal(t->once_tags, bit(t, "once"));
	assert_int_equal(t->rmb_tags, bit(t, "rmb"));
	assert_null(kapi_find(t, "WRITE_ONCE"));
	kapi_table_free(t);
}

static void test_rmw_tags(void **state)
{
	(void)state;
	struct diag d = {0};
	/* herd7 before lkmmv2 */
	struct kapi_table *t = kdef_parse("m.def", def61, 0, &d);
	assert_non_null(t);
	unsigned long once = bit(t, "once"), mb = bit(t, "mb"), acq = bit(t, "acquire");
	const struct kdef_step *st = &macro(t, "cmpxchg")->steps[0];
	assert_int_equal(st->order, IR_ORD_MB);
	assert_int_equal(st->ev[IR_TAG_EV], once);
	assert_int_equal(st->ev[IR_TAG_W], once);
	assert_int_equal(st->ev[IR_TAG_FAIL], once);
	assert_int_equal(st->ev[IR_TAG_FENCE], mb);
	st = &macro(t, "xchg_acquire")->steps[0];
	assert_int_equal(st->ev[IR_TAG_EV], acq);
	assert_int_equal(st->ev[IR_TAG_W], once);
	assert_int_equal(st->ev[IR_TAG_FENCE], 0);
	st = &macro(t, "atomic_add")->steps[0];
	assert_int_equal(st->ev[IR_TAG_EV], bit(t, "noreturn"));
	assert_int_equal(st->ev[IR_TAG_W], once);
	kapi_table_free(t);
	/* variant lkmmv2: tags as written on every event, no fences */
	static const char def72[] =
		"xchg(X,V) __xchg{MB}(X,V)\n"
		"xchg_acquire(X,V) __xchg{ACQUIRE}(X,V)\n"
		"atomic_andnot(V,X) { __atomic_op{NORETURN}(X,&~,V); }\n";
	t = kdef_parse("m.def", def72, 1, &d);
	assert_non_null(t);
	st = &macro(t, "xchg")->steps[0];
	assert_int_not_equal(st->order, IR_ORD_MB);
	for (int k = IR_TAG_EV; k <= IR_TAG_FAIL; k++)
		assert_int_equal(st->ev[k], bit(t, "MB"));
	assert_int_equal(st->ev[IR_TAG_FENCE], 0);
	st = &macro(t, "xchg_acquire")->steps[0];
	assert_int_equal(st->ev[IR_TAG_W], bit(t, "ACQUIRE"));
	st = &macro(t, "atomic_andnot")->steps[0];
	assert_int_equal(st->op, IR_BAND);
	assert_true(st->andnot);
	assert_int_equal(st->ev[IR_TAG_W], bit(t, "NORETURN"));
	/* herd7's atomic_add_unless spelled as the variant's tags */
	assert_int_equal(macro(t, "atomic_add_unless")->steps[0].ev[IR_TAG_EV], bit(t, "MB"));
	kapi_table_free(t);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct { const char *text; int line, col; const char *msg; } cases[] = {
		{"F(X) __nope(X)\n", 1, 6, "unknown herd7 primitive '__nope'"},
		{"F(X) __load{once}(X)\nG(X) H(X)\n", 2, 6, "unknown macro 'H'"},
		{"F(X) __load{once}(Y)\n", 1, 19, "'Y' is not a parameter"},
		{"F(X) { __fence{mb} }\n", 1, 20, "expected ';'"},
		{"F(X,V) __atomic_op_return{mb}(X,*,V)\n", 1, 33, "expected an operator"},
		{"F(X) __lock(X)\n", 1, 1, "has no value"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct diag d = {0};
		assert_null(kdef_parse("m.def", cases[i].text, 0, &d));
		assert_true(d.set);
		assert_string_equal(d.file, "m.def");
		assert_int_equal(d.line, cases[i].line);
		assert_int_equal(d.col, cases[i].col);
		assert_non_null(strstr(d.msg, cases[i].msg));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_macros),
		cmocka_unit_test(test_rmw_tags),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
