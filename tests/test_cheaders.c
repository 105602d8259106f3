/*
 * test_cheaders.c - the built-in headers of whole C programs (include/,
 * frontend/cheaders.h) declare every primitive lkmmc knows: each row of
 * the built-in primitive table (frontend/kapi.c: Linux 6.1's
 * linux-kernel.def and lkmmc's idioms) and, when the kernel tree is there
 * (make kernel-tree; LKMM_DEF overrides the path), each macro of the
 * kernel's own linux-kernel.def, is declared (a function or a
 * function-like macro, as clang's preprocessor sees a program including
 * <lkmm.h> and <assert.h>: a name a macro of the header writes with ##
 * counts), and each atomic_X also as atomic_long_X, which lkmmc reads as
 * atomic_X.  The check itself is tested on a header with one declaration
 * taken out.
 * Lowering calls is tested end to end (tests/e2e-programs.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <clang-c/Index.h>

#include "frontend/cheaders.h"
#include "frontend/kapi.h"

/* The names the built-in headers declare to a program that includes
 * <lkmm.h> and <assert.h>: functions and function-like macros, as
 * libclang (clang's own preprocessor) sees them, so that the ones a macro
 * of the header writes (atomic_##op) count.  rename: in <lkmm.h>, this
 * name is written with its first letter as 'X' (the self-test). */
struct names {
	char **v;   /* the names (malloc'ed) */
	int n, cap; /* count, room */
};

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct names *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_FunctionDecl &&
	    !(k == CXCursor_MacroDefinition && clang_Cursor_isMacroFunctionLike(c)))
		return CXChildVisit_Continue;
	CXString sp = clang_getCursorSpelling(c);
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
	}
	s->v[s->n++] = strdup(clang_getCString(sp));
	clang_disposeString(sp);
	return CXChildVisit_Continue;
}

static struct names declared(const char *rename)
{
	struct CXUnsavedFile f[32];
	char paths[32][128];
	char *texts[32] = {0};
	int nf = 0;
	for (int i = 0; cheaders[i].name && nf < 31; i++, nf++) {
		snprintf(paths[nf], sizeof paths[nf], "/v/include/%s", cheaders[i].name);
		texts[nf] = strdup(cheaders[i].text);
		if (rename && strcmp(cheaders[i].name, "lkmm.h") == 0)
			for (char *p = strstr(texts[nf], rename); p;
			     p = strstr(p + 1, rename))
				p[0] = 'X';
		f[nf] = (struct CXUnsavedFile){ paths[nf], texts[nf],
						(unsigned long)strlen(texts[nf]) };
	}
	static const char prog[] = "#include <lkmm.h>\n#include <assert.h>\n";
	f[nf++] = (struct CXUnsavedFile){ "/v/t.c", prog, sizeof prog - 1 };
	const char *args[] = { "-nostdinc", "-I/v/include", "-xc" };
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = clang_parseTranslationUnit(
		idx, "/v/t.c", args, 3, f, (unsigned)nf,
		CXTranslationUnit_DetailedPreprocessingRecord);
	assert_non_null(tu);
	struct names s = {0};
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect, &s);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	for (int i = 0; i < nf - 1; i++)
		free(texts[i]);
	return s;
}

static int has(const struct names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return 1;
	return 0;
}

static void names_free(struct names *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* The names of table t (NULL: built-in) that s lacks, one per line
 * (malloc'ed; "" when none). */
static char *missing(const struct kapi_table *t, const struct names *s)
{
	size_t len = 0;
	char *out = calloc(1, 1);
	const struct kapi *k;
	for (int i = 0; (k = kapi_at(t, i)); i++) {
		char along[160] = "";
		if (strncmp(k->name, "atomic_", 7) == 0 && strlen(k->name) < 140)
			snprintf(along, sizeof along, "atomic_long_%s", k->name + 7);
		const char *names[2] = { k->name, along };
		for (int j = 0; j < 2; j++) {
			if (!*names[j] || has(s, names[j]))
				continue;
			out = realloc(out, len + strlen(names[j]) + 2);
			len += (size_t)sprintf(out + len, "%s\n", names[j]);
		}
	}
	return out;
}

static void test_builtin_table(void **state)
{
	(void)state;
	struct names s = declared(NULL);
	assert_true(s.n > 100);
	char *m = missing(NULL, &s);
	if (*m)
		fail_msg("<lkmm.h> does not declare:\n%s", m);
	free(m);
	names_free(&s);
}

static void test_kernel_def(void **state)
{
	(void)state;
	const char *path = getenv("LKMM_DEF");
	if (!path)
		path = "build/linux/tools/memory-model/linux-kernel.def";
	FILE *f = fopen(path, "r");
	if (!f) {
		print_message("no %s (make kernel-tree): skipped\n", path);
		skip();
	}
	char *text = NULL;
	size_t n = 0;
	ssize_t got = getdelim(&text, &n, '\0', f);
	fclose(f);
	assert_true(got > 0);
	struct diag d = {0};
	struct kapi_table *t = kdef_parse(path, text, 0, &d);
	assert_non_null(t);
	assert_true(t->nrows > 50);
	struct names s = declared(NULL);
	char *m = missing(t, &s);
	if (*m)
		fail_msg("<lkmm.h> lacks macros of %s:\n%s", path, m);
	free(m);
	names_free(&s);
	kapi_table_free(t);
	free(text);
}

/* The check fails when a declaration is taken out. */
static void test_detects_missing(void **state)
{
	(void)state;
	struct names s = declared("smp_wmb");
	char *m = missing(NULL, &s);
	assert_string_equal(m, "smp_wmb\n");
	free(m);
	names_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_table),
		cmocka_unit_test(test_kernel_def),
		cmocka_unit_test(test_detects_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
