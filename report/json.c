/*
 * json.c - a test's answer as one JSON object (see json.h and
 * docs/json.md), rendered from its check's result (solver/result.h).
 *
 * Members in the order they always came: the test, herd7's block, a
 * program's report (its lines), the witness, the explanation
 * (solver/explanation.h), a data race, the notes, the messages, the
 * error.  Values are written as lkmmc prints them ("1": a number, "x",
 * "S": strings).  The parts the result holds as text (a program's
 * report, the notes, the messages) go as their lines.  It does not run
 * anything, nor read text lkmmc printed.
 */
#include "report/json.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/jsonw.h"
#include "solver/explanation.h"
#include "solver/herd7out.h"

static void key_str(struct jsonw *w, const char *key, const char *v)
{
	jsonw_key(w, key);
	jsonw_str(w, v);
}

static void key_value(struct jsonw *w, const char *key, const char *v)
{
	jsonw_key(w, key);
	jsonw_value(w, v, strlen(v));
}

static void key_long(struct jsonw *w, const char *key, long v)
{
	jsonw_key(w, key);
	jsonw_long(w, v);
}

/* A write as a source: {"thread": 0, "line": 18, "value": 1} or
 * {"init": true, "value": 0}. */
static void write_source(struct jsonw *w, const struct check_write *s)
{
	jsonw_obj_begin(w);
	if (s->thread < 0) {
		jsonw_key(w, "init");
		jsonw_bool(w, 1);
	} else {
		key_long(w, "thread", s->thread);
		key_long(w, "line", s->line);
	}
	key_value(w, "value", s->value);
	jsonw_obj_end(w);
}

/* One event, with what it reads from when it shows it. */
static void write_event(struct jsonw *w, const struct check_event *e)
{
	jsonw_obj_begin(w);
	if (e->thread < 0) {
		jsonw_key(w, "init");
		jsonw_bool(w, 1);
	} else {
		key_long(w, "thread", e->thread);
		key_long(w, "line", e->line);
	}
	key_str(w, "kind", e->kind);
	if (e->loc)
		key_str(w, "location", e->loc);
	if (e->value)
		key_value(w, "value", e->value);
	if (e->text)
		key_str(w, "text", e->text);
	if (e->reads) {
		jsonw_key(w, "reads_from");
		write_source(w, &e->from);
	}
	jsonw_obj_end(w);
}

/* An execution's members (events, co, fr: only when there are some;
 * final) into the open object. */
static void execution_fields(struct jsonw *w, const struct check_execution *x)
{
	if (x->nevents) {
		jsonw_key(w, "events");
		jsonw_arr_begin(w);
		for (int i = 0; i < x->nevents; i++)
			write_event(w, &x->events[i]);
		jsonw_arr_end(w);
	}
	if (x->nco) {
		jsonw_key(w, "co");
		jsonw_arr_begin(w);
		for (int i = 0; i < x->nco; i++) {
			jsonw_obj_begin(w);
			key_str(w, "location", x->co[i].loc);
			jsonw_key(w, "writes");
			jsonw_arr_begin(w);
			for (int j = 0; j < x->co[i].nwrites; j++)
				write_source(w, &x->co[i].writes[j]);
			jsonw_arr_end(w);
			jsonw_obj_end(w);
		}
		jsonw_arr_end(w);
	}
	if (x->nfr) {
		jsonw_key(w, "fr");
		jsonw_arr_begin(w);
		for (int i = 0; i < x->nfr; i++) {
			jsonw_obj_begin(w);
			jsonw_key(w, "read");
			write_event(w, &x->fr[i].read);
			jsonw_key(w, "write");
			write_event(w, &x->fr[i].write);
			jsonw_obj_end(w);
		}
		jsonw_arr_end(w);
	}
	jsonw_key(w, "final");
	jsonw_obj_begin(w);
	for (int i = 0; i < x->nfinal; i++)
		key_value(w, x->final[i].label, x->final[i].value);
	jsonw_obj_end(w);
}

static void write_states(struct jsonw *w, const struct check_states *st)
{
	char buf[24];
	jsonw_arr_begin(w);
	for (long i = 0; i < st->n; i++) {
		jsonw_obj_begin(w);
		for (int c = 0; c < st->ncols; c++)
			key_value(w, st->cols[c],
				  check_value_text(st, check_state_value(st, i, c), buf));
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
}

/* herd7's block: its Positive/Negative line's counts (~exists: the
 * negation's), its Time line's seconds as printed. */
static void write_block(struct jsonw *w, const struct check_result *r)
{
	int swap = r->quant == IR_Q_NOT_EXISTS;
	key_str(w, "quantifier", herd7_quant_text(r->quant));
	key_str(w, "condition", r->cond_text ? r->cond_text : "");
	key_str(w, "verdict", check_verdict_word(r->verdict));
	jsonw_key(w, "ok");
	jsonw_bool(w, r->validated);
	jsonw_key(w, "loop");
	jsonw_bool(w, r->loop);
	key_long(w, "positive", swap ? r->neg : r->pos);
	key_long(w, "negative", swap ? r->pos : r->neg);
	jsonw_key(w, "flags");
	jsonw_arr_begin(w);
	for (int f = 0; f < r->nflags; f++)
		jsonw_str(w, r->flags[f]);
	jsonw_arr_end(w);
	jsonw_key(w, "nstates");
	if (r->nstates >= 0)
		jsonw_long(w, r->nstates);
	else
		jsonw_null(w);
	jsonw_key(w, "states");
	if (r->nstates >= 0)
		write_states(w, &r->states);
	else
		jsonw_null(w);
	char secs[32];
	snprintf(secs, sizeof secs, "%.2f", r->seconds);
	jsonw_key(w, "time");
	jsonw_double(w, strtod(secs, NULL));
}

/* A line of text (not NUL-terminated). */
struct json_note {
	const char *s;
	size_t n;
};

/* Each non-empty line of text (a part the result holds as text) to
 * *notes. */
static void text_lines(const char *text, struct json_note **notes, size_t *n, size_t *cap)
{
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len) {
			XGROW(*notes, *cap, *n + 1, 8);
			(*notes)[(*n)++] = (struct json_note){l, len};
		}
		l += len + (nl ? 1 : 0);
	}
}

/* Lines as an array of strings under key (none: no key). */
static void write_lines(struct jsonw *w, const char *key, const struct json_note *l, size_t n)
{
	if (!n)
		return;
	jsonw_key(w, key);
	jsonw_arr_begin(w);
	for (size_t i = 0; i < n; i++)
		jsonw_strn(w, l[i].s, l[i].n);
	jsonw_arr_end(w);
}

/* A stream into *buf, of *len bytes (the caller's once it is closed). */
static FILE *text_open(char **buf, size_t *len)
{
	*buf = NULL;
	FILE *f = open_memstream(buf, len);
	if (!f)
		abort();
	return f;
}

/* e's text as the answer prints it, its blank line included. */
static char *explanation_text(const struct explanation *e)
{
	char *text;
	size_t len;
	FILE *f = text_open(&text, &len);
	explanation_print(e, f);
	fputc('\n', f);
	fclose(f);
	return text;
}

/* The text of e's axioms from axiom `from` on (each one's block). */
static char *axioms_text(const struct explanation *e, int from)
{
	char *text;
	size_t len;
	FILE *f = text_open(&text, &len);
	for (int i = from; i < e->naxioms; i++)
		explanation_print_axiom(&e->axiom[i], f);
	fclose(f);
	return text;
}

/* A program's answer: every line it printed, as "output". */
static void write_program(struct jsonw *w, const struct check_result *r)
{
	struct json_note *lines = NULL;
	size_t n = 0, cap = 0;
	char *why = r->explained ? explanation_text(r->explained) : NULL;
	text_lines(r->program_text, &lines, &n, &cap);
	text_lines(why, &lines, &n, &cap);
	text_lines(r->notes, &lines, &n, &cap);
	write_lines(w, "output", lines, n);
	free(lines);
	free(why);
}

/* One step of a cycle or pair, from event from: {"from", "relation",
 * "fence": {"text", "line"} when a fence makes it, "to"}. */
static void write_step(struct jsonw *w, const struct check_event *from,
		       const struct explanation_step *s)
{
	jsonw_obj_begin(w);
	jsonw_key(w, "from");
	write_event(w, from);
	key_str(w, "relation", s->rel);
	if (s->fence) {
		jsonw_key(w, "fence");
		jsonw_obj_begin(w);
		key_str(w, "text", s->fence);
		key_long(w, "line", s->fence_line);
		jsonw_obj_end(w);
	}
	jsonw_key(w, "to");
	write_event(w, &s->to_event);
	jsonw_obj_end(w);
}

/* One axiom of the core: {"axiom", "what", "steps"} when its cycle or
 * pair is shown, else {"axiom", "note"}. */
static void write_violation(struct jsonw *w, const struct explanation_axiom *a)
{
	const char *note = explanation_status_note(a->status);
	jsonw_obj_begin(w);
	key_str(w, "axiom", a->name);
	if (note) {
		key_str(w, "note", note);
		jsonw_obj_end(w);
		return;
	}
	key_str(w, "what", a->what);
	jsonw_key(w, "steps");
	jsonw_arr_begin(w);
	for (int i = 0; i < a->nsteps; i++)
		write_step(w, i ? &a->step[i - 1].to_event : &a->from_event, &a->step[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

/* The first axiom of e with an execution, or naxioms. */
static int first_with_execution(const struct explanation *e)
{
	int i = 0;
	while (i < e->naxioms && !e->axiom[i].execution)
		i++;
	return i;
}

/* The axioms after the shown execution's, as their text's lines under
 * "unread": format 1's explanation has one execution (docs/json.md). */
static void write_later_axioms(struct jsonw *w, const struct explanation *e, int from)
{
	struct json_note *lines = NULL;
	size_t n = 0, cap = 0;
	char *text = axioms_text(e, from);
	text_lines(text, &lines, &n, &cap);
	write_lines(w, "unread", lines, n);
	free(lines);
	free(text);
}

/* "explanation": the core's axioms ("note" when none was found), each
 * axiom's violation up to the first with an execution, that execution. */
static void write_explanation(struct jsonw *w, const struct explanation *e)
{
	int shown = first_with_execution(e);
	jsonw_key(w, "explanation");
	jsonw_obj_begin(w);
	jsonw_key(w, "axioms");
	jsonw_arr_begin(w);
	for (int i = 0; i < e->naxioms; i++)
		jsonw_str(w, e->axiom[i].name);
	jsonw_arr_end(w);
	if (!e->found)
		key_str(w, "note", explanation_none);
	if (e->naxioms) {
		jsonw_key(w, "violations");
		jsonw_arr_begin(w);
		for (int i = 0; i < e->naxioms && i <= shown; i++)
			write_violation(w, &e->axiom[i]);
		jsonw_arr_end(w);
	}
	if (shown < e->naxioms) {
		jsonw_key(w, "execution");
		jsonw_obj_begin(w);
		execution_fields(w, e->axiom[shown].execution);
		jsonw_obj_end(w);
		write_later_axioms(w, e, shown + 1);
	}
	jsonw_obj_end(w);
}

/* A litmus test's parts after the block. */
static void write_litmus(struct jsonw *w, const struct check_result *r)
{
	struct json_note *notes = NULL;
	size_t n = 0, cap = 0;
	if (r->witness) {
		jsonw_key(w, "witness");
		jsonw_obj_begin(w);
		execution_fields(w, r->witness);
		jsonw_key(w, "rechecked");
		jsonw_bool(w, r->witness_rechecked);
		jsonw_obj_end(w);
	}
	if (r->explained)
		write_explanation(w, r->explained);
	if (r->race) {
		jsonw_key(w, "race");
		jsonw_obj_begin(w);
		jsonw_key(w, "accesses");
		jsonw_arr_begin(w);
		write_event(w, &r->race->a);
		write_event(w, &r->race->b);
		jsonw_arr_end(w);
		jsonw_key(w, "execution");
		jsonw_obj_begin(w);
		execution_fields(w, &r->race->x);
		jsonw_obj_end(w);
		jsonw_obj_end(w);
	}
	text_lines(r->notes, &notes, &n, &cap);
	write_lines(w, "notes", notes, n);
	free(notes);
}

/* The messages but the error's own line (the "error" object), which
 * handle_file printed last. */
static void write_messages(struct jsonw *w, const struct json_test *t)
{
	struct json_note *lines = NULL;
	size_t n = 0, cap = 0;
	char *m = t->messages ? strndup(t->messages, t->messages_len) : NULL;
	text_lines(m, &lines, &n, &cap);
	write_lines(w, "messages", lines, n);
	free(lines);
	free(m);
}

const char *json_error_kind(enum diag_kind k)
{
	switch (k) {
	case DIAG_TIMEOUT: return "timeout";
	case DIAG_MEMORY: return "memory";
	case DIAG_CRASH: return "crash";
	case DIAG_ERROR: break;
	case DIAG_INTERNAL: break; /* docs/json.md's "error": the format
				    * has no kind of its own for it */
	}
	return "error";
}

static void write_error(struct jsonw *w, const struct json_test *t)
{
	jsonw_key(w, "error");
	jsonw_obj_begin(w);
	key_str(w, "kind", json_error_kind(t->error->kind));
	key_str(w, "file", t->error->file[0] ? t->error->file : t->file);
	key_long(w, "line", t->error->line);
	key_long(w, "col", t->error->col);
	key_str(w, "message", t->error->msg);
	jsonw_obj_end(w);
}

void json_test_write(FILE *out, const struct json_test *t)
{
	struct jsonw w;
	const struct check_result *r = t->result;
	int block = r && r->verdict != CHECK_VERDICT_NONE;
	/* a program whose check printed nothing is no "program" yet */
	int program = r && r->program && r->program_text;
	jsonw_init(&w, out);
	jsonw_obj_begin(&w);
	key_long(&w, "json_version", LKMMC_JSON_VERSION);
	key_str(&w, "test", block ? r->name : NULL);
	key_str(&w, "file", t->file);
	key_str(&w, "kind", program ? "program" : "litmus");
	key_str(&w, "model", t->model);
	key_long(&w, "status", t->status);
	if (block)
		write_block(&w, r);
	if (program)
		write_program(&w, r);
	else if (r)
		write_litmus(&w, r);
	write_messages(&w, t);
	if (t->error)
		write_error(&w, t);
	jsonw_obj_end(&w);
	fputc('\n', out);
}
