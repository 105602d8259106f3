/*
 * test_explanation.c - unit tests of the explanation as data
 * (solver/explanation.h): checker_run with --explain keeps in the result
 * the core's axioms, each with its status, its word and its steps, the
 * events and executions as data, the fences as text; printing the
 * structure gives the text that was printed; no explanation without
 * --explain or for a reachable condition; the printer's words for the
 * axioms not shown; --json's "explanation" member rendered from the
 * structure (report/json.c), of a check's and of one built here.
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

/* What print writes of e (or of e's axiom i when i >= 0). */
static char *printed(const struct explanation *e, int i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (i < 0)
		explanation_print(e, f);
	else
		explanation_print_why(&e->axiom[i], f);
	fclose(f);
	return buf;
}

static const char sb_mbs[] =
	"C SB+mbs\n{}\n"
	"P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }\n"
	"P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x); }\n"
	"exists (0:r0=0 /\\ 1:r0=0)\n";

/* MP without fences: its condition is reached. */
static const char mp_pos[] =
	"C MP+pos\n{}\n"
	"P0(int *x, int *y) { WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); }\n"
	"P1(int *x, int *y) { int r0; int r1; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); }\n"
	"exists (1:r0=1 /\\ 1:r1=0)\n";

/* SB+mbs: propagation, a pb cycle of fre and mb steps through both
 * smp_mb(); the structure prints as the answer's explanation. */
static void test_never_kept(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2, .explain = 1}, &r);
	assert_int_equal(r.verdict, CHECK_NEVER);
	const struct explanation *e = r.explained;
	assert_non_null(e);
	assert_true(e->found);
	assert_true(explanation_complete(e));
	assert_int_equal(e->naxioms, 1);
	const struct explanation_axiom *a = &e->axiom[0];
	assert_string_equal(a->name, "propagation");
	assert_int_equal(a->status, EXPLAINED_SHOWN);
	assert_string_equal(a->what, "pb cycle");
	assert_int_equal(a->nsteps, 4);
	int fences = 0;
	for (int i = 0; i < a->nsteps; i++) {
		const struct explanation_step *s = &a->step[i];
		if (s->fence) {
			assert_string_equal(s->rel, "mb");
			assert_string_equal(s->fence, "smp_mb()");
			/* P0 is on line 3, P1 on line 4 */
			assert_int_equal(s->fence_line, s->to_event.thread == 1 ? 4 : 3);
			assert_int_equal(s->to_event.line, s->fence_line);
			fences++;
		} else {
			assert_string_equal(s->rel, "fre");
		}
		assert_non_null(strstr(s->to_event.text, "ONCE"));
	}
	assert_int_equal(fences, 2);
	/* a cycle: it ends where it began */
	assert_int_equal(a->step[a->nsteps - 1].to, a->from);
	assert_int_equal(a->step[a->nsteps - 1].to_event.thread, a->from_event.thread);
	assert_int_equal(a->step[a->nsteps - 1].to_event.line, a->from_event.line);
	assert_non_null(a->execution);
	assert_int_equal(a->execution->nthreads, 2);
	assert_int_equal(a->execution->nevents, 6);
	char *text = printed(e, -1);
	const char *at = strstr(out, "Explanation:");
	assert_non_null(at);
	assert_memory_equal(at, text, strlen(text));
	free(text);
	free(out);
	check_result_free(&r);
	assert_null(r.explained);
}

/* No explanation without --explain, nor for a condition reached; a
 * result reused is reset. */
static void test_none(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2}, &r);
	assert_null(r.explained);
	free(out);
	out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2, .explain = 1}, &r);
	assert_non_null(r.explained);
	free(out);
	out = tu_check_opt(mp_pos, (struct check_options){.unroll = 2, .explain = 1}, &r);
	assert_int_equal(r.verdict, CHECK_SOMETIMES);
	assert_null(r.explained);
	free(out);
	check_result_free(&r);
}

/* An event as data, its strings copied (NULL: none). */
static struct check_event event(int thread, int line, const char *kind, const char *loc,
				const char *value, const char *text)
{
	return (struct check_event){.thread = thread, .line = line, .kind = kind,
				    .loc = loc ? strdup(loc) : NULL,
				    .value = value ? strdup(value) : NULL,
				    .text = text ? strdup(text) : NULL};
}

/* An execution of thread P0 alone, its one event e (taken), with the
 * final state [x]=1. */
static struct check_execution *one_event(struct check_event e)
{
	struct check_execution *x = calloc(1, sizeof *x);
	assert_non_null(x);
	x->nthreads = 1;
	x->nevents = 1;
	x->events = malloc(sizeof *x->events);
	x->final = malloc(sizeof *x->final);
	assert_true(x->events && x->final);
	x->events[0] = e;
	x->nfinal = 1;
	x->final[0] = (struct check_final){strdup("[x]"), strdup("1")};
	return x;
}

static const char one_event_text[] =
	"  P0:\n    P0:1 W x=1  WRITE_ONCE(*x, 1)\n  final: [x]=1;\n";

/* Axiom d: a cycle of two steps, po then mb through smp_mb() on line 7,
 * from P0:1's write of x. */
static void add_cycle(struct explanation *e, const char *name)
{
	struct explanation_axiom *d = explanation_add(e, name, EXPLAINED_SHOWN);
	d->what = strdup("cycle");
	d->from = 0;
	d->from_event = event(0, 1, "W", "x", "1", NULL);
	explanation_step_add(d, "po", NULL, 0, 1, event(0, 2, "R", "y", "0", NULL));
	explanation_step_add(d, "mb", "smp_mb()", 7, 0, event(0, 1, "W", "x", "1", NULL));
}

/* The printer's words for each status, and completeness. */
static void test_statuses(void **state)
{
	(void)state;
	struct explanation *e = calloc(1, sizeof *e);
	assert_non_null(e);
	char *text = printed(e, -1);
	assert_string_equal(text, "Explanation: none (the condition is reachable or the solver gave up)\n");
	free(text);
	assert_false(explanation_complete(e));
	e->found = 1;
	explanation_add(e, "a", EXPLAINED_NO_RELATION)->execution =
		one_event(event(0, 1, "W", "x", "1", "WRITE_ONCE(*x, 1)"));
	assert_true(explanation_complete(e));
	explanation_add(e, "b", EXPLAINED_NO_EXECUTION);
	explanation_add(e, "c", EXPLAINED_SELF_CHECK)->execution =
		one_event(event(0, 1, "W", "x", "1", "WRITE_ONCE(*x, 1)"));
	assert_false(explanation_complete(e));
	text = printed(e, -1);
	char want[1024];
	snprintf(want, sizeof want,
		 "Explanation: the condition is never reached because of a b c\n"
		 "  a: violated (a check lkmmc shows no relation of)\n"
		 "  in this execution (which reaches the condition):\n%s"
		 "  b: no execution found violating only it\n"
		 "  c: internal error: the explanation failed its self-check\n"
		 "  in this execution (which reaches the condition):\n%s",
		 one_event_text, one_event_text);
	assert_string_equal(text, want);
	free(text);
	add_cycle(e, "d");
	text = printed(e, 3);
	assert_string_equal(text,
		"  d cycle:\n"
		"    P0:1 W x=1\n"
		"      --[po]--> P0:2 R y=0\n"
		"      --[mb: smp_mb() line 7]--> P0:1 W x=1\n");
	free(text);
	explanation_free(e);
}

/* The --json object of r, a litmus test's result (the caller frees it). */
static char *json_of_result(const struct check_result *r)
{
	struct json_test t = {.file = "t.litmus", .model = "built-in", .result = r};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	json_test_write(f, &t);
	fclose(f);
	return buf;
}

/* The --json object of a litmus result holding only e (freed). */
static char *json_of(struct explanation *e)
{
	struct check_result r = {.nstates = -1, .explained = e};
	char *json = json_of_result(&r);
	check_result_free(&r);
	return json;
}

/* The JSON has part (its "explanation" member, say). */
static void has(const char *json, const char *part)
{
	if (!strstr(json, part))
		fail_msg("expected\n%s\nin\n%s", part, json);
}

/* --json's explanation, built here: the axioms, each violation up to the
 * first with an execution (its steps chained from the first event, the
 * fence with its line), that execution, then the later axioms as the
 * lines of their text ("unread").  An event's source text is written as
 * it is, "  reads 1 from init" in it too (a reader of the printed
 * listing would take it for the event's source). */
static void test_json_built(void **state)
{
	(void)state;
	struct explanation *e = calloc(1, sizeof *e);
	assert_non_null(e);
	e->found = 1;
	explanation_add(e, "b", EXPLAINED_NO_EXECUTION);
	add_cycle(e, "d");
	e->axiom[1].execution =
		one_event(event(0, 1, "W", "x", "1", "WRITE_ONCE(*x, 1)  reads 1 from init"));
	explanation_add(e, "e", EXPLAINED_NO_RELATION)->execution =
		one_event(event(0, 1, "W", "x", "1", "WRITE_ONCE(*x, 1)"));
	char *json = json_of(e);
	has(json, ",\"explanation\":{\"axioms\":[\"b\",\"d\",\"e\"],\"violations\":["
		  "{\"axiom\":\"b\",\"note\":\"no execution found violating only it\"},"
		  "{\"axiom\":\"d\",\"what\":\"cycle\",\"steps\":["
		  "{\"from\":{\"thread\":0,\"line\":1,\"kind\":\"W\",\"location\":\"x\",\"value\":1},"
		  "\"relation\":\"po\","
		  "\"to\":{\"thread\":0,\"line\":2,\"kind\":\"R\",\"location\":\"y\",\"value\":0}},"
		  "{\"from\":{\"thread\":0,\"line\":2,\"kind\":\"R\",\"location\":\"y\",\"value\":0},"
		  "\"relation\":\"mb\",\"fence\":{\"text\":\"smp_mb()\",\"line\":7},"
		  "\"to\":{\"thread\":0,\"line\":1,\"kind\":\"W\",\"location\":\"x\",\"value\":1}}]}],"
		  "\"execution\":{\"events\":[{\"thread\":0,\"line\":1,\"kind\":\"W\",\"location\":\"x\","
		  "\"value\":1,\"text\":\"WRITE_ONCE(*x, 1)  reads 1 from init\"}],\"final\":{\"[x]\":1}},"
		  "\"unread\":[\"  e: violated (a check lkmmc shows no relation of)\","
		  "\"  in this execution (which reaches the condition):\",\"  P0:\","
		  "\"    P0:1 W x=1  WRITE_ONCE(*x, 1)\",\"  final: [x]=1;\"]}}\n");
	free(json);
	/* no core found: no axioms, the note why */
	e = calloc(1, sizeof *e);
	assert_non_null(e);
	json = json_of(e);
	has(json, ",\"explanation\":{\"axioms\":[],"
		  "\"note\":\"none (the condition is reachable or the solver gave up)\"}}\n");
	free(json);
}

/* --json's explanation of SB+mbs, from the check's data: propagation's
 * pb cycle through both smp_mb(), and the execution it is in. */
static void test_json_checked(void **state)
{
	(void)state;
	struct check_result r = {0};
	char *out = tu_check_opt(sb_mbs, (struct check_options){.unroll = 2, .explain = 1}, &r);
	free(out);
	char *json = json_of_result(&r);
	has(json, "\"explanation\":{\"axioms\":[\"propagation\"],\"violations\":"
		  "[{\"axiom\":\"propagation\",\"what\":\"pb cycle\",\"steps\":[");
	has(json, "\"relation\":\"mb\",\"fence\":{\"text\":\"smp_mb()\",\"line\":3}");
	has(json, "\"relation\":\"mb\",\"fence\":{\"text\":\"smp_mb()\",\"line\":4}");
	has(json, "]}],\"execution\":{\"events\":[{\"thread\":0,\"line\":3,\"kind\":\"W\"");
	assert_null(strstr(json, "unread"));
	free(json);
	check_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_kept),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_json_built),
		cmocka_unit_test(test_json_checked),
	};
	return cmocka_run_group_tests(tests, NULL, tu_frontend_free);
}
