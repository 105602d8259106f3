/*
 * test_cat.c - unit tests of the cat-language parser (models/cat/catparse.c)
 * and of model loading (models/cat/catcomp.c: cat_model_load): the syntax
 * tree of each construct, operator precedence, '*' and '+' as closure or
 * cartesian product, approximation sites, located errors, and the files a
 * model folder or configuration file names.  Compilation over executions
 * is tested end to end (tests/e2e-cat.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/arena.h"
#include "models/cat/cat.h"

/* Parse text; the arena is returned for freeing. */
static int parse(const char *text, struct cat_file *f, struct arena **a,
		 struct diag *d, int *sites)
{
	*a = arena_new();
	memset(d, 0, sizeof *d);
	int site = 0;
	int ok = cat_parse(*a, "m.cat", text, f, &site, d);
	if (sites)
		*sites = site;
	return ok;
}

/* The expression of the only binding of statement i. */
static const struct cat_expr *let_expr(const struct cat_file *f, int i)
{
	assert_true(i < f->nstmts);
	assert_int_equal(f->stmts[i].kind, CS_LET);
	return f->stmts[i].binds[0].e;
}

static void test_precedence(void **state)
{
	(void)state;
	struct cat_file f;
	struct arena *a;
	struct diag d;
	int sites;
	assert_true(parse("\"title\"\n"
			  "let a = x | y ; z\n"
			  "let b = x \\ y & z\n"
			  "let c = ~x | y\n"
			  "let d = x * y\n"
			  "let e = x* ; y+\n"
			  "let f = (x | y)*\n"
			  "let g = x^-1 ; y?\n"
			  "let h = [x] ; fencerel(y) ; [z]\n"
			  "let i = p ++ 0\n"
			  "let j = x ; y ; z | w\n",
			  &f, &a, &d, &sites));
	assert_string_equal(f.title, "title");
	assert_int_equal(f.nstmts, 10);
	const struct cat_expr *e = let_expr(&f, 0);
	assert_int_equal(e->kind, CE_UNION);
	assert_int_equal(e->b->kind, CE_SEQ);
	e = let_expr(&f, 1);
	assert_int_equal(e->kind, CE_DIFF);
	assert_int_equal(e->b->kind, CE_INTER);
	e = let_expr(&f, 2);
	assert_int_equal(e->kind, CE_UNION);
	assert_int_equal(e->a->kind, CE_COMPL);
	assert_int_equal(let_expr(&f, 3)->kind, CE_CROSS);
	e = let_expr(&f, 4);
	assert_int_equal(e->kind, CE_SEQ);
	assert_int_equal(e->a->kind, CE_STAR);
	assert_int_equal(e->b->kind, CE_PLUS);
	e = let_expr(&f, 5);
	assert_int_equal(e->kind, CE_STAR);
	assert_int_equal(e->a->kind, CE_UNION);
	e = let_expr(&f, 6);
	assert_int_equal(e->a->kind, CE_INV);
	assert_int_equal(e->b->kind, CE_OPT);
	e = let_expr(&f, 7);
	assert_int_equal(e->kind, CE_SEQ);
	assert_int_equal(e->a->kind, CE_SEQ);
	assert_int_equal(e->a->a->kind, CE_BRACKET);
	assert_int_equal(e->a->b->kind, CE_APP);
	assert_string_equal(e->a->b->a->name, "fencerel");
	e = let_expr(&f, 8);
	assert_int_equal(e->kind, CE_ADD);
	assert_int_equal(e->b->kind, CE_EMPTY);
	e = let_expr(&f, 9);
	assert_int_equal(e->kind, CE_UNION);
	assert_int_equal(e->a->kind, CE_SEQ);
	/* x*, y+ and (x | y)*: three closures, three sites */
	assert_int_equal(sites, 3);
	assert_int_equal(let_expr(&f, 4)->a->site, 0);
	arena_free(a);
}

static void test_statements(void **state)
{
	(void)state;
	struct cat_file f;
	struct arena *a;
	struct diag d;
	int sites;
	assert_true(parse("// SPDX line\n"
			  "(* a (* nested *) comment *)\n"
			  "include \"lock.cat\"\n"
			  "enum Acc = 'once || 'rcu-lock\n"
			  "instructions R[{'once}]\n"
			  "let f(x, y) = x | y\n"
			  "let g r = r ++ 0\n"
			  "let k = fun x -> x\n"
			  "let rec o = p | (o ; o) and q = o\n"
			  "let m = let rec n = n | p in n\n"
			  "let t = try RL with emptyset\n"
			  "let v = if \"lkmmv2\" then 0 else _\n"
			  "with rf-x from cross(map g S)\n"
			  "acyclic po | com as coherence\n"
			  "irreflexive rb as rcu\n"
			  "empty rmw & (fre ; coe) as atomic\n"
			  "flag ~empty x as race\n"
			  "show co, rf as rf2\n"
			  "unshow po\n",
			  &f, &a, &d, &sites));
	assert_int_equal(f.nstmts, 17);
	assert_int_equal(f.stmts[0].kind, CS_INCLUDE);
	assert_string_equal(f.stmts[0].name, "lock.cat");
	assert_int_equal(f.stmts[1].kind, CS_ENUM);
	assert_int_equal(f.stmts[1].ntags, 2);
	assert_string_equal(f.stmts[1].tags[1], "rcu-lock");
	assert_int_equal(f.stmts[2].kind, CS_INSTR);
	const struct cat_expr *e = let_expr(&f, 3);
	assert_int_equal(e->kind, CE_FUN);
	assert_int_equal(e->nparams, 2);
	e = let_expr(&f, 4);
	assert_int_equal(e->kind, CE_FUN);
	assert_int_equal(e->nparams, 1);
	assert_string_equal(e->params[0], "r");
	assert_int_equal(let_expr(&f, 5)->kind, CE_FUN);
	assert_true(f.stmts[6].rec);
	assert_int_equal(f.stmts[6].nbinds, 2);
	assert_int_equal(f.stmts[6].site, 0);
	e = let_expr(&f, 7);
	assert_int_equal(e->kind, CE_LET);
	assert_true(e->rec);
	assert_int_equal(e->site, 1);
	assert_int_equal(let_expr(&f, 8)->kind, CE_TRY);
	e = let_expr(&f, 9);
	assert_int_equal(e->kind, CE_IF);
	assert_string_equal(e->name, "lkmmv2");
	assert_int_equal(f.stmts[10].kind, CS_WITH);
	assert_string_equal(f.stmts[10].name, "rf-x");
	assert_int_equal(f.stmts[10].e->kind, CE_APP);
	assert_int_equal(f.stmts[11].kind, CS_CHECK);
	assert_int_equal(f.stmts[11].check, CC_ACYCLIC);
	assert_string_equal(f.stmts[11].name, "coherence");
	assert_int_equal(f.stmts[12].check, CC_IRREFLEXIVE);
	assert_int_equal(f.stmts[13].check, CC_EMPTY);
	assert_true(f.stmts[14].flag);
	assert_true(f.stmts[14].negated);
	assert_string_equal(f.stmts[14].name, "race");
	assert_int_equal(f.stmts[15].kind, CS_SHOW);
	assert_int_equal(f.stmts[16].kind, CS_SHOW);
	assert_int_equal(sites, 2);
	arena_free(a);
}

/* text must fail at line:col with a message containing want. */
static void fails(const char *text, int line, int col, const char *want)
{
	struct cat_file f;
	struct arena *a;
	struct diag d;
	assert_false(parse(text, &f, &a, &d, NULL));
	assert_true(d.set);
	assert_string_equal(d.file, "m.cat");
	if (d.line != line || d.col != col || !strstr(d.msg, want))
		fail_msg("'%s': got %d:%d: %s, want %d:%d: ...%s...", text, d.line,
			 d.col, d.msg, line, col, want);
	arena_free(a);
}

static void test_errors(void **state)
{
	(void)state;
	fails("let a = po (* open", 1, 12, "unterminated comment");
	fails("let a = 2", 1, 9, "unsupported: the number 2");
	fails("let a = po\n  match", 2, 3, "unsupported: 'match'");
	fails("procedure p(x) = empty x end", 1, 1, "unsupported: 'procedure'");
	fails("let a = [po", 1, 12, "expected ']'");
	fails("flag ~empty po", 1, 1, "a flag needs a name");
	fails("let a = po + rf", 1, 12, "unsupported: '+' between two operands");
	fails("let a = po^*", 1, 11, "unsupported: '^*'");
	fails("let a = po in a", 1, 12, "unsupported: 'let ... in' as a statement");
	fails("enum E = 'a || b", 1, 16, "expected a tag");
	fails("with x po", 1, 8, "expected 'from'");
	fails("po", 1, 1, "unsupported: a statement starting with 'po'");
	fails("let a = if b then c else d", 1, 12, "unsupported: an if condition");
	fails("let a = #", 1, 9, "unexpected character '#'");
}

static char *write_file(const char *dir, const char *name, const char *text)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_load(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_cat.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct diag d = {0};
	/* a folder without linux-kernel.cfg: linux-kernel.bell and .cat */
	write_file(dir, "linux-kernel.bell", "let Marked = M\n");
	write_file(dir, "linux-kernel.cat", "include \"cross.cat\"\ninclude \"part.cat\"\n"
		   "acyclic po as a\n");
	write_file(dir, "part.cat", "let b = po ; po\n");
	struct cat_model *m = cat_model_load(dir, NULL, &d);
	assert_non_null(m);
	assert_false(d.set);
	assert_string_equal(cat_model_name(m), dir);
	cat_model_free(m);
	/* a configuration naming other files, with a variant */
	write_file(dir, "other.bell", "let X = R\n");
	write_file(dir, "other.cat", "let y = [X] ; po\n");
	char cfg[512];
	snprintf(cfg, sizeof cfg, "%s", write_file(dir, "my.cfg",
		   "bell other.bell\nmodel other.cat\nvariant lkmmv2\ngraph columns\n"));
	m = cat_model_load(NULL, cfg, &d);
	assert_non_null(m);
	cat_model_free(m);
	/* an error in an included file is located there */
	write_file(dir, "part.cat", "let b = po ;\n");
	m = cat_model_load(dir, NULL, &d);
	assert_null(m);
	assert_non_null(strstr(d.file, "part.cat"));
	assert_int_equal(d.line, 2);
	/* a missing include is located at the include */
	memset(&d, 0, sizeof d);
	write_file(dir, "linux-kernel.cat", "\ninclude \"gone.cat\"\n");
	m = cat_model_load(dir, NULL, &d);
	assert_null(m);
	assert_int_equal(d.line, 2);
	assert_non_null(strstr(d.msg, "cannot read the included file"));
	const char *names[] = {"linux-kernel.bell", "linux-kernel.cat", "part.cat",
			       "other.bell", "other.cat", "my.cfg"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char p[512];
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_statements),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
