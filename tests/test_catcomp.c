/*
 * test_catcomp.c - unit tests of the cat compiler's compilations
 * (models/cat/catcomp.c, catlet.c, catval.c) on a hand-built program: the
 * model's first, eager compilation learns which approximation sites must
 * be exact, so that a test's compilation is done once, even where the
 * test's own sets hide why (a non-monotone let rec over an empty set; the
 * closure of a union with a relation the eager compilation's program
 * leaves empty).  Parsing and loading: test_cat.c; the model's answers:
 * tests/e2e-cat.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "models/cat/cat.h"
#include "models/lkmm.h"
#include "tests/encfix.h"
#include "tests/irb.h"

/* P0: x = 1; r0 = x.  P1: x = 2.  (po-loc, rf and co are not empty) */
static struct irb program(void)
{
	struct irb b = irb_new("catcomp", 1, 2);
	irb_store(&b, irb_body(&b, 0), 0, irb_num(&b, 1), IR_ORD_ONCE);
	irb_load(&b, irb_body(&b, 0), 0, 0, IR_ORD_ONCE);
	irb_store(&b, irb_body(&b, 1), 0, irb_num(&b, 2), IR_ORD_ONCE);
	irb_exists(&b, irb_reg_is(&b, 0, 0, 1));
	return b;
}

/* The definitions one build of m over a fresh encoding of program()
 * adds. */
static unsigned build_defs(struct cat_model *m)
{
	struct encfix f;
	encfix_open(&f, program());
	struct rel_ctx *rc = &f.enc->rc;
	unsigned before = Z3_ast_vector_size(rc->z, rc->defs);
	struct lkmm out;
	struct diag d = {0};
	assert_int_equal(cat_model_build(m, f.enc, &out, &d), 1);
	unsigned added = Z3_ast_vector_size(rc->z, rc->defs) - before;
	encfix_close(&f);
	return added;
}

/* A model of cat text cat (no bell) loaded from a temporary folder;
 * unload() removes it. */
static struct cat_model *load(const char *cat, char *dir)
{
	assert_non_null(mkdtemp(dir));
	char path[512];
	snprintf(path, sizeof path, "%s/linux-kernel.bell", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof path, "%s/linux-kernel.cat", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(cat, f);
	fclose(f);
	struct diag d = {0};
	struct cat_model *m = cat_model_load(dir, NULL, &d);
	assert_non_null(m);
	return m;
}

static void unload(struct cat_model *m, const char *dir)
{
	char path[512];
	cat_model_free(m);
	snprintf(path, sizeof path, "%s/linux-kernel.bell", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/linux-kernel.cat", dir);
	unlink(path);
	rmdir(dir);
}

/* A model of cat text cat (no bell): its first test's build adds as
 * many definitions as a second test's, so it compiled once. */
static void compiles_once(const char *cat)
{
	char dir[] = "/tmp/test_catcomp.XXXXXX";
	struct cat_model *m = load(cat, dir);
	unsigned first = build_defs(m), second = build_defs(m);
	assert_true(first > 0);
	assert_int_equal(first, second);
	unload(m, dir);
}

/* Horn definitions in every compilation: what a second compilation of
 * the same test would add again. */
#define COSTLY "acyclic (po | rf | co | fr)+ as order\n"

/* The let rec is not monotone (matched occurs under \), which W & R, empty
 * in every test, hides from a test's lazy compilation: as Horn variables
 * the flag would find it too large and the test compile again. */
static void test_hidden_non_monotone(void **state)
{
	(void)state;
	compiles_once("\"hidden\"\n" COSTLY
		      "let X = W & R\n"
		      "let rec unmatched = X \\ domain(matched)\n"
		      "and matched = matched | ([unmatched] ; po ; [unmatched])\n"
		      "flag ~empty matched as nested\n");
}

/* co | po-loc is co, transitive (cos-opt.cat's), in the eager
 * compilation's program (one location, no thread): its closure must
 * still be built there, so that the flag asks for it exact before a test
 * where po-loc is not empty (lock.cat's co | critical). */
static void test_closure_of_union(void **state)
{
	(void)state;
	compiles_once("\"union\"\ninclude \"cos-opt.cat\"\n" COSTLY
		      "let co2 = (co | po-loc)+\n"
		      "flag ~empty co2 as ordered\n");
}

/* P0: x = 1; x = 3; r0 = x.  P1: x = 2; r1 = x. */
static struct irb two_writers(void)
{
	struct irb b = irb_new("order", 1, 2);
	irb_store(&b, irb_body(&b, 0), 0, irb_num(&b, 1), IR_ORD_ONCE);
	irb_store(&b, irb_body(&b, 0), 0, irb_num(&b, 3), IR_ORD_ONCE);
	irb_load(&b, irb_body(&b, 0), 0, 0, IR_ORD_ONCE);
	irb_store(&b, irb_body(&b, 1), 0, irb_num(&b, 2), IR_ORD_ONCE);
	irb_load(&b, irb_body(&b, 1), 1, 0, IR_ORD_ONCE);
	irb_exists(&b, irb_reg_is(&b, 0, 0, 1));
	return b;
}

/* (co | b | (b^-1 ; co))+ with co known to be an order is built as
 * co | co? ; (B ; co?)+ closed over B's events only (catstar.c,
 * lock.cat's co with critical as b); with co & co, the same relation not
 * known to be one, it is closed whole.  Both closures are asked exactly
 * (each flag has one on either side of \): in no execution of
 * two_writers() do they differ. */
static void test_closure_over_order(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_catcomp.XXXXXX";
	struct cat_model *m = load("\"order\"\ninclude \"cos-opt.cat\"\n"
				   "let b = po-loc & (W * R)\n"
				   "let c1 = (co | b | (b^-1 ; co))+\n"
				   "let c2 = ((co & co) | b | (b^-1 ; co))+\n"
				   "flag ~empty c1 \\ c2 as more\n"
				   "flag ~empty c2 \\ c1 as fewer\n"
				   "flag ~empty c1 & (W * R) & ~po as reached\n", dir);
	struct encfix f;
	encfix_open(&f, two_writers());
	struct rel_ctx *rc = &f.enc->rc;
	struct lkmm out;
	struct diag d = {0};
	assert_int_equal(cat_model_build(m, f.enc, &out, &d), 1);
	for (unsigned i = 0; i < Z3_ast_vector_size(rc->z, rc->defs); i++)
		Z3_solver_assert(f.z, f.s, Z3_ast_vector_get(rc->z, rc->defs, i));
	int asked = 0;
	for (int i = 0; i < out.nflags; i++) {
		Z3_ast raised = out.flag[i].raised;
		Z3_lbool r = Z3_solver_check_assumptions(f.z, f.s, 1, &raised);
		if (strcmp(out.flag[i].name, "reached") == 0)
			/* (a pair through b: the closure is not empty) */
			assert_int_equal(r, Z3_L_TRUE);
		else
			assert_int_equal(r, Z3_L_FALSE);
		asked++;
	}
	assert_int_equal(asked, 3);
	encfix_close(&f);
	unload(m, dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closure_over_order),
		cmocka_unit_test(test_hidden_non_monotone),
		cmocka_unit_test(test_closure_of_union),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
