/*
 * test_result.c - unit tests of the check's result (solver/result.h):
 * checker_run on small litmus tests written here fills the verdict, the
 * counts, the States count, the states value by value, the flags, the
 * witness and race executions, the explanation, the notes, the findings
 * and an error's kind as the printed answer says them, and the answer
 * printed again from the result is the one printed.  Each expectation differs between the
 * tests, so a field filled wrongly or not at all fails one of them; and
 * the --json kind of each kind of error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frontend/ir.h"
#include "report/json.h"
#include "solver/check.h"
#include "solver/explanation.h"
#include "solver/result.h"
#include "tests/testutil.h"

/* The printed answer has line (a whole line, '\n' included). */
static void has_line(const char *out, const char *line)
{
	if (!strstr(out, line))
		fail_msg("expected the line '%s' in:\n%s", line, out);
}

static const char sb_mbs[] =
	"C SB+mbs\n{}\n"
	"P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }\n"
	"P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x); }\n"
	"exists (0:r0=0 /\\ 1:r0=0)\n";

static const char sb_pos[] =
	"C SB+pos\n{}\n"
	"P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }\n"
	"P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }\n"
	"exists (0:r0=0 /\\ 1:r0=0)\n";

/* An assertion (BUG_ON) that can fail. */
static const char assert_text[] =
	"C bug\n{}\n"
	"P0(int *x) { WRITE_ONCE(*x, 1); }\n"
	"P1(int *x) { int r0; r0 = READ_ONCE(*x); BUG_ON(r0 == 1); }\n"
	"exists (1:r0=1)\n";

/* Never: no state reaches the condition; three states listed. */
static void test_never(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.status, CHECK_DONE);
	assert_int_equal(r.verdict, CHECK_NEVER);
	assert_string_equal(check_verdict_word(r.verdict), "Never");
	assert_int_equal(r.quant, IR_Q_EXISTS);
	assert_int_equal(r.validated, 0);
	assert_int_equal(r.pos, 0);
	assert_int_equal(r.neg, 3);
	assert_int_equal(r.nstates, 3);
	assert_int_equal(r.nflags, 0);
	assert_int_equal(r.findings, 0);
	assert_int_equal(r.program, 0);
	assert_false(r.error.set);
	has_line(out, "Observation SB+mbs Never 0 3\n");
	has_line(out, "States 3\n");
	free(out);
	check_result_free(&r);
}

/* Sometimes, Ok; the result is reset by the next check (no state of the
 * first one left). */
static void test_sometimes_and_reset(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2}, &r);
	free(out);
	out = tu_check_opt(sb_pos, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.verdict, CHECK_SOMETIMES);
	assert_int_equal(r.validated, 1);
	assert_int_equal(r.pos, 1);
	assert_int_equal(r.neg, 3);
	assert_int_equal(r.nstates, 4);
	has_line(out, "Observation SB+pos Sometimes 1 3\n");
	free(out);
	check_result_free(&r);
}

/* --exists-only: no States list (-1), counts 0 or 1; forall Always. */
static void test_exists_only_forall(void **state)
{
	(void)state;
	static const char text[] =
		"C W+forall\n{}\n"
		"P0(int *x) { WRITE_ONCE(*x, 1); }\n"
		"forall (x=1)\n";
	struct check_result r = {0};
	char *out = tu_check_opt(text, (struct check_options){.unroll = 2, .exists_only = 1,
						       .herd7_only = 1}, &r);
	assert_int_equal(r.verdict, CHECK_ALWAYS);
	assert_int_equal(r.quant, IR_Q_FORALL);
	assert_int_equal(r.validated, 1);
	assert_int_equal(r.pos, 1);
	assert_int_equal(r.neg, 0);
	assert_int_equal(r.nstates, -1);
	has_line(out, "Observation W+forall Always 1 0\n");
	free(out);
	check_result_free(&r);
}

/* A flag raised: its name, as the Flag line says. */
static void test_flag(void **state)
{
	(void)state;
	static const char text[] =
		"C MP+plain\n{}\n"
		"P0(int *x, int *y) { *x = 1; smp_store_release(y, 1); }\n"
		"P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = *x; }\n"
		"exists (1:r0=0 /\\ 1:r1=0)\n";
	struct check_result r = {0};
	char *out = tu_check_opt(text, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.nflags, 1);
	assert_string_equal(r.flags[0], "data-race");
	has_line(out, "Flag data-race\n");
	assert_int_equal(r.findings, 0);
	free(out);
	check_result_free(&r);
}

/* An assertion that can fail, and a loop that needs more iterations
 * than the bound: the findings and the status say so. */
static void test_findings(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(assert_text, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.findings, CHECK_FOUND_ASSERT_FAILS);
	assert_true(r.status & CHECK_CODE_FAILS);
	free(out);
	static const char loop_text[] =
		"C loop\n{}\n"
		"P0(int *x) { WRITE_ONCE(*x, 1); }\n"
		"P1(int *x) { int r0 = 0; int i; for (i = 0; i < 5; i++) r0 = READ_ONCE(*x); }\n"
		"exists (1:r0=1)\n";
	out = tu_check_opt(loop_text, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.findings, CHECK_FOUND_LOOP_BOUND);
	assert_int_equal(r.status, CHECK_DONE);
	has_line(out, "Loop ");
	free(out);
	check_result_free(&r);
}

/* A time-out: no verdict, the error set with its kind. */
static void test_timeout_kind(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_pos, (struct check_options){.unroll = 2, .timeout_ms = 1}, &r);
	/* a millisecond is not enough to open a Z3 context and encode */
	assert_int_equal(r.status, 0);
	assert_true(r.error.set);
	assert_int_equal(r.error.kind, DIAG_TIMEOUT);
	assert_non_null(strstr(r.error.msg, "solver gave up"));
	assert_int_equal(r.verdict, CHECK_VERDICT_NONE);
	assert_int_equal(r.nstates, -1);
	free(out);
	check_result_free(&r);
}

/* The answer printed again from r, with its Time line, is out. */
static void reprints(const struct check_result *r, const char *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	check_result_print(r, f, 1);
	fclose(f);
	assert_string_equal(buf, out);
	free(buf);
}

/* The value of column label in state i, as printed. */
static const char *state_value(const struct check_result *r, long i, const char *label,
			       char *buf)
{
	for (int c = 0; c < r->states.ncols; c++)
		if (strcmp(r->states.cols[c], label) == 0)
			return check_value_text(&r->states, check_state_value(&r->states, i, c),
						buf);
	fail_msg("no column %s", label);
	return NULL;
}

/* The states, value by value in herd7's order; the name, condition, Time. */
static void test_states_data(void **state)
{
	(void)state;
	struct check_result r = {0};
	char buf[24];
	char *out = tu_check_opt(sb_pos, (struct check_options){.unroll = 2}, &r);
	assert_string_equal(r.name, "SB+pos");
	assert_string_equal(r.cond_text, "(0:r0=0 /\\ 1:r0=0)");
	assert_int_equal(r.states.n, 4);
	assert_int_equal(r.states.ncols, 2);
	assert_string_equal(r.states.cols[0], "0:r0");
	assert_string_equal(r.states.cols[1], "1:r0");
	/* 0:r0=0; 1:r0=0; first, 0:r0=1; 1:r0=1; last */
	assert_string_equal(state_value(&r, 0, "0:r0", buf), "0");
	assert_string_equal(state_value(&r, 0, "1:r0", buf), "0");
	assert_string_equal(state_value(&r, 3, "0:r0", buf), "1");
	assert_string_equal(state_value(&r, 3, "1:r0", buf), "1");
	assert_true(r.seconds >= 0 && r.seconds < 60);
	assert_int_equal(r.loop, 0);
	assert_null(r.witness);
	assert_null(r.explained);
	reprints(&r, out);
	free(out);
	check_result_free(&r);
}

/* A value that is a location's address prints as its name. */
static void test_state_location(void **state)
{
	(void)state;
	static const char text[] =
		"C ptr\n{ p = x; }\n"
		"P0(int **p, int *y) { WRITE_ONCE(*p, y); }\n"
		"P1(int **p) { int *r0; r0 = READ_ONCE(*p); }\n"
		"exists (1:r0=y)\n";
	struct check_result r = {0};
	char buf[24];
	char *out = tu_check_opt(text, (struct check_options){.unroll = 2}, &r);
	assert_int_equal(r.states.n, 2);
	assert_string_equal(state_value(&r, 0, "1:r0", buf), "x");
	assert_string_equal(state_value(&r, 1, "1:r0", buf), "y");
	reprints(&r, out);
	free(out);
	check_result_free(&r);
}

/* --witness: the execution as data, re-checked; --explain on a data
 * race: the race's two accesses and execution; on a condition never
 * reached: the explanation. */
static void test_witness_and_race(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_pos, (struct check_options){.unroll = 2, .witness = 1}, &r);
	assert_non_null(r.witness);
	assert_true(r.witness_rechecked);
	assert_int_equal(r.witness->nthreads, 2);
	assert_int_equal(r.witness->nevents, 4);
	const struct check_event *e = &r.witness->events[1]; /* P0's read of y */
	assert_int_equal(e->thread, 0);
	assert_string_equal(e->kind, "R");
	assert_string_equal(e->loc, "y");
	assert_string_equal(e->value, "0");
	assert_true(e->reads);
	assert_int_equal(e->from.thread, -1);
	assert_int_equal(r.witness->nfr, 2);
	assert_int_equal(r.witness->nfinal, 4); /* [x] [y] 0:r0 1:r0 */
	assert_string_equal(r.witness->final[2].label, "0:r0");
	assert_string_equal(r.witness->final[2].value, "0");
	has_line(out, "  re-checked against the model: consistent, reaches the condition\n");
	reprints(&r, out);
	free(out);
	static const char race_text[] =
		"C MP+plain\n{}\n"
		"P0(int *x, int *y) { *x = 1; smp_store_release(y, 1); }\n"
		"P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = *x; }\n"
		"exists (1:r0=1 /\\ 1:r1=0)\n";
	out = tu_check_opt(race_text, (struct check_options){.unroll = 2, .explain = 1}, &r);
	assert_non_null(r.race);
	assert_string_equal(r.race->a.loc, "x");
	assert_string_equal(r.race->b.loc, "x");
	assert_true(r.race->x.nevents > 0);
	reprints(&r, out);
	free(out);
	/* never reached: the explanation, as data, printed with the answer */
	out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2, .explain = 1}, &r);
	assert_null(r.race);
	assert_null(r.witness);
	assert_non_null(r.explained);
	assert_true(r.explained->found);
	has_line(out, "Explanation: the condition is never reached because of propagation\n");
	reprints(&r, out);
	free(out);
	check_result_free(&r);
}

/* The notes: an assertion that can fail (no program report). */
static void test_notes(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(assert_text, (struct check_options){.unroll = 2}, &r);
	assert_non_null(r.notes);
	assert_non_null(strstr(r.notes, "Assertion failed: "));
	assert_null(r.program_text);
	reprints(&r, out);
	free(out);
	check_result_free(&r);
}

/* The words and the verdict of counts. */
static void test_words(void **state)
{
	(void)state;
	assert_int_equal(check_verdict_of(0, 5), CHECK_NEVER);
	assert_int_equal(check_verdict_of(0, 0), CHECK_NEVER);
	assert_int_equal(check_verdict_of(2, 0), CHECK_ALWAYS);
	assert_int_equal(check_verdict_of(2, 1), CHECK_SOMETIMES);
	assert_string_equal(check_verdict_word(CHECK_SOMETIMES), "Sometimes");
	assert_string_equal(check_verdict_word(CHECK_VERDICT_NONE), "");
	assert_true(check_validated(IR_Q_NOT_EXISTS, 0, 3));
	assert_false(check_validated(IR_Q_FORALL, 1, 1));
}

/* --json's error kinds, one per diag_kind (docs/json.md has no
 * "internal": it is an "error" there). */
static void test_json_kinds(void **state)
{
	(void)state;
	assert_string_equal(json_error_kind(DIAG_ERROR), "error");
	assert_string_equal(json_error_kind(DIAG_TIMEOUT), "timeout");
	assert_string_equal(json_error_kind(DIAG_MEMORY), "memory");
	assert_string_equal(json_error_kind(DIAG_INTERNAL), "error");
	assert_string_equal(json_error_kind(DIAG_CRASH), "crash");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_sometimes_and_reset),
		cmocka_unit_test(test_exists_only_forall),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_timeout_kind),
		cmocka_unit_test(test_states_data),
		cmocka_unit_test(test_state_location),
		cmocka_unit_test(test_witness_and_race),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_json_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
