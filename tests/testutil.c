/*
 * testutil.c - the unit tests' shared set-ups; see testutil.h.
 */
#include "testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/arena.h"
#include "frontend/frontend.h"
#include "solver/check.h"

/* The one front end of a test program (tests run one at a time). */
static struct frontend *shared_fe;

struct frontend *tu_frontend(void)
{
	if (!shared_fe)
		shared_fe = frontend_new();
	return shared_fe;
}

int tu_frontend_free(void **state)
{
	(void)state;
	if (shared_fe)
		frontend_free(shared_fe);
	shared_fe = NULL;
	return 0;
}

char *tu_check(struct ir_program *p)
{
	struct check_options opt = {.unroll = 2};
	struct checker *c = checker_new(&opt);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct check_result r = {0};
	int ok = checker_run(c, p, out, &r);
	fclose(out);
	if (!ok)
		diag_print(&r.error, stderr);
	check_result_free(&r);
	assert_true(ok);
	checker_free(c);
	ir_program_free(p);
	return buf;
}

char *tu_check_opt(const char *text, struct check_options opt, struct check_result *r)
{
	struct ir_program *p = tu_parse_ok(text);
	struct checker *c = checker_new(&opt);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	FILE *null = fopen("/dev/null", "w");
	checker_set_err(c, null);
	checker_run(c, p, out, r);
	fclose(out);
	fclose(null);
	checker_free(c);
	ir_program_free(p);
	return buf;
}

struct ir_program *tu_parse_ok(const char *text)
{
	struct diag d = {0};
	struct ir_program *p = frontend_parse_text(tu_frontend(), "t.litmus", text, &d);
	if (!p)
		diag_print(&d, stderr);
	assert_non_null(p);
	return p;
}

void tu_parse_bad(const char *text, int line, int col, const char *part)
{
	struct diag d = {0};
	struct ir_program *p = frontend_parse_text(tu_frontend(), "t.litmus", text, &d);
	assert_null(p);
	assert_int_equal(d.set, 1);
	if (!strstr(d.msg, part))
		diag_print(&d, stderr);
	assert_non_null(strstr(d.msg, part));
	assert_int_equal(d.line, line);
	assert_int_equal(d.col, col);
}

int tu_rel_open(void **state, int n)
{
	struct tu_rel *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	Z3_config cfg = Z3_mk_config();
	f->z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	f->arena = arena_new();
	f->guard = arena_alloc(f->arena, sizeof *f->guard * (size_t)n);
	for (int i = 0; i < n; i++)
		f->guard[i] = Z3_mk_true(f->z);
	rel_ctx_init(&f->rc, f->z, n, f->guard, f->arena);
	*state = f;
	return 0;
}

int tu_rel_close(void **state)
{
	struct tu_rel *f = *state;
	rel_ctx_fini(&f->rc);
	arena_free(f->arena);
	Z3_del_context(f->z);
	free(f);
	return 0;
}

void tu_reachability(int n, const int *edge, int *reach)
{
	memcpy(reach, edge, sizeof(int) * (size_t)n * (size_t)n);
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				reach[i * n + j] |= reach[i * n + k] && reach[k * n + j];
}
