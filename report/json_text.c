/*
 * json_text.c - the explanation's text (solver/explain.c prints it; it is
 * not data yet) read back into --json's "explanation" member: the one
 * place where lkmmc reads text it printed, until explain.c gives its
 * answer as data (issue 36).
 *
 * The text is read line by line, in sections that each end at a blank
 * line ("Explanation:", and as a section would be, "Witness:" and
 * "Data race:"); any other line is a note.  Events are read as
 * solver/execdata.c prints them ("P1:27 R y=1  r0 = READ_ONCE(*y)"):
 * thread, line, kind, location, value, source text.  What cannot be read
 * is kept as text, never dropped.  It does not run anything.
 */
#include "report/json_text.h"

#include <stdlib.h>
#include <string.h>

#include "report/jsonw.h"
#include "common/xalloc.h"

/* A piece of the text (not NUL-terminated). */
struct span {
	const char *s; /* its first byte */
	size_t n;      /* its length */
};

/* A cursor over the lines of a text. */
struct lines {
	const char *p; /* the text */
	size_t len;    /* its length */
	size_t pos;    /* where the next line starts */
};

/* The next line (without its newline) into *l; 0 at the end. */
static int line_next(struct lines *L, struct span *l)
{
	if (L->pos >= L->len)
		return 0;
	const char *s = L->p + L->pos;
	const char *nl = memchr(s, '\n', L->len - L->pos);
	l->s = s;
	l->n = nl ? (size_t)(nl - s) : L->len - L->pos;
	L->pos += l->n + (nl ? 1 : 0);
	return 1;
}

/* The next line without taking it. */
static int line_peek(const struct lines *L, struct span *l)
{
	struct lines copy = *L;
	return line_next(&copy, l);
}

static int starts(struct span l, const char *prefix)
{
	size_t k = strlen(prefix);
	return l.n >= k && memcmp(l.s, prefix, k) == 0;
}

static struct span after(struct span l, size_t k)
{
	return (struct span){l.s + k, l.n - k};
}

/* The first occurrence of needle in l, or -1. */
static long find(struct span l, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= l.n; i++)
		if (memcmp(l.s + i, needle, k) == 0)
			return (long)i;
	return -1;
}

/* The last occurrence of needle in l, or -1. */
static long rfind(struct span l, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = l.n >= k ? l.n - k + 1 : 0; i-- > 0;)
		if (memcmp(l.s + i, needle, k) == 0)
			return (long)i;
	return -1;
}

/* A whole number at the start of l, its digits counted in *used. */
static long number(struct span l, size_t *used)
{
	size_t i = 0;
	long v = 0;
	int neg = l.n > 0 && l.s[0] == '-';
	for (i = (size_t)neg; i < l.n && l.s[i] >= '0' && l.s[i] <= '9'; i++)
		v = v * 10 + (l.s[i] - '0');
	*used = i > (size_t)neg ? i : 0;
	return neg ? -v : v;
}

/* "P<t>:<line>" at the start of l: 1 and the numbers, with their length. */
static int thread_line(struct span l, long *t, long *line, size_t *used)
{
	size_t a, b;
	if (!starts(l, "P"))
		return 0;
	*t = number(after(l, 1), &a);
	if (!a || 1 + a >= l.n || l.s[1 + a] != ':')
		return 0;
	*line = number(after(l, 2 + a), &b);
	if (!b)
		return 0;
	*used = 2 + a + b;
	return 1;
}

static void key_span(struct jsonw *w, const char *key, struct span v)
{
	jsonw_key(w, key);
	jsonw_strn(w, v.s, v.n);
}

/* One event as execution_print_event prints it, as fields of the open
 * object: "P1:27 R y=1  r0 = READ_ONCE(*y)", "P1:28 F  smp_rmb()",
 * "init x=0". */
static void event_fields(struct jsonw *w, struct span e)
{
	long text_at = find(e, "  ");
	struct span head = {e.s, text_at >= 0 ? (size_t)text_at : e.n};
	long t, line;
	size_t used;
	struct span what; /* "R y=1", "F", "x=0" */
	if (starts(head, "init ")) {
		jsonw_key(w, "init");
		jsonw_bool(w, 1);
		what = after(head, 5);
		/* "x=0": a location and its value, with no kind word */
		jsonw_key(w, "kind");
		jsonw_str(w, "W");
	} else if (thread_line(head, &t, &line, &used) && used < head.n &&
		   head.s[used] == ' ') {
		jsonw_key(w, "thread");
		jsonw_long(w, t);
		jsonw_key(w, "line");
		jsonw_long(w, line);
		struct span rest = after(head, used + 1);
		long sp = find(rest, " ");
		struct span kind = {rest.s, sp >= 0 ? (size_t)sp : rest.n};
		key_span(w, "kind", kind);
		what = sp >= 0 ? after(rest, (size_t)sp + 1) : (struct span){rest.s + rest.n, 0};
	} else {
		/* not an event lkmmc prints: kept whole */
		key_span(w, "raw", e);
		return;
	}
	if (what.n) {
		long eq = find(what, "=");
		key_span(w, "location", (struct span){what.s, eq >= 0 ? (size_t)eq : what.n});
		if (eq >= 0) {
			jsonw_key(w, "value");
			jsonw_value(w, what.s + eq + 1, what.n - (size_t)eq - 1);
		}
	}
	if (text_at >= 0)
		key_span(w, "text", after(e, (size_t)text_at + 2));
}

static void write_event(struct jsonw *w, struct span e)
{
	jsonw_obj_begin(w);
	event_fields(w, e);
	jsonw_obj_end(w);
}

/* A write named as the text names it, "P0:18" or "init", with its
 * value: {"thread": 0, "line": 18, "value": 1} or {"init": true, ...}. */
static void write_source(struct jsonw *w, struct span who, struct span val)
{
	long t, line;
	size_t used;
	jsonw_obj_begin(w);
	if (thread_line(who, &t, &line, &used) && used == who.n) {
		jsonw_key(w, "thread");
		jsonw_long(w, t);
		jsonw_key(w, "line");
		jsonw_long(w, line);
	} else {
		jsonw_key(w, "init");
		jsonw_bool(w, 1);
	}
	jsonw_key(w, "value");
	jsonw_value(w, val.s, val.n);
	jsonw_obj_end(w);
}

/* A thread's event line "P0:19 R y=0  r0 = READ_ONCE(*y)  reads 0 from init":
 * the event, with what it reads from. */
static void write_thread_event(struct jsonw *w, struct span e)
{
	long r = rfind(e, "  reads ");
	struct span src = {0};
	struct span val = {0};
	if (r >= 0) {
		struct span tail = after(e, (size_t)r + 8);
		long from = rfind(tail, " from ");
		long t, line;
		size_t used;
		if (from >= 0) {
			val = (struct span){tail.s, (size_t)from};
			src = after(tail, (size_t)from + 6);
			if (!(src.n == 4 && memcmp(src.s, "init", 4) == 0) &&
			    !(thread_line(src, &t, &line, &used) && used == src.n))
				src.s = NULL; /* "  reads" inside the source text */
		}
	}
	if (!src.s) {
		write_event(w, e);
		return;
	}
	jsonw_obj_begin(w);
	event_fields(w, (struct span){e.s, (size_t)r});
	jsonw_key(w, "reads_from");
	write_source(w, src, val);
	jsonw_obj_end(w);
}

/* "label=value; label=value;" as {"label": value, ...}. */
static void write_state(struct jsonw *w, struct span l)
{
	jsonw_obj_begin(w);
	size_t i = 0;
	while (i < l.n) {
		while (i < l.n && l.s[i] == ' ')
			i++;
		struct span item = after(l, i);
		long semi = find(item, ";");
		if (semi < 0)
			semi = (long)item.n;
		struct span one = {item.s, (size_t)semi};
		long eq = rfind(one, "=");
		if (one.n > 0 && eq > 0) {
			char *k = xmalloc((size_t)eq + 1);
			memcpy(k, one.s, (size_t)eq);
			k[eq] = '\0';
			jsonw_key(w, k);
			free(k);
			jsonw_value(w, one.s + eq + 1, one.n - (size_t)eq - 1);
		}
		i += (size_t)semi + 1;
	}
	jsonw_obj_end(w);
}

/* The arrays of an execution's object, opened as their lines come. */
struct exec_writer {
	struct jsonw *w;  /* where */
	const char *open; /* the array open now ("events", "co", "fr"), or NULL */
};

static void exec_array(struct exec_writer *x, const char *key)
{
	if (x->open == key || (x->open && key && strcmp(x->open, key) == 0))
		return;
	if (x->open)
		jsonw_arr_end(x->w);
	x->open = key;
	if (key) {
		jsonw_key(x->w, key);
		jsonw_arr_begin(x->w);
	}
}

/* "co x: 0 (init) -> 1 (P0:18)" */
static void write_co(struct jsonw *w, struct span l)
{
	long colon = find(l, ": ");
	jsonw_obj_begin(w);
	if (colon < 0) {
		key_span(w, "raw", l);
		jsonw_obj_end(w);
		return;
	}
	key_span(w, "location", (struct span){l.s, (size_t)colon});
	jsonw_key(w, "writes");
	jsonw_arr_begin(w);
	struct span rest = after(l, (size_t)colon + 2);
	while (rest.n) {
		long arrow = find(rest, " -> ");
		struct span one = {rest.s, arrow >= 0 ? (size_t)arrow : rest.n};
		long paren = rfind(one, " (");
		if (paren >= 0 && one.s[one.n - 1] == ')') {
			write_source(w, (struct span){one.s + paren + 2, one.n - (size_t)paren - 3},
				     (struct span){one.s, (size_t)paren});
		} else {
			jsonw_obj_begin(w);
			key_span(w, "raw", one);
			jsonw_obj_end(w);
		}
		rest = arrow >= 0 ? after(rest, (size_t)arrow + 4) : (struct span){rest.s + rest.n, 0};
	}
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

/* One line of an execution as execution_print prints it (two spaces of
 * indent); 0 when it is not one. */
static int exec_line(struct exec_writer *x, struct span l)
{
	struct jsonw *w = x->w;
	long t, line;
	size_t used;
	if (starts(l, "    P") && thread_line(after(l, 4), &t, &line, &used)) {
		exec_array(x, "events");
		write_thread_event(w, after(l, 4));
	} else if (starts(l, "  P") && l.s[l.n - 1] == ':' && l.n >= 5) {
		/* a thread's header: its events carry their thread */
	} else if (starts(l, "  co ")) {
		exec_array(x, "co");
		write_co(w, after(l, 5));
	} else if (starts(l, "  fr: ")) {
		struct span rest = after(l, 6);
		long arrow = find(rest, "  -->  ");
		if (arrow < 0)
			return 0;
		exec_array(x, "fr");
		jsonw_obj_begin(w);
		jsonw_key(w, "read");
		write_event(w, (struct span){rest.s, (size_t)arrow});
		jsonw_key(w, "write");
		write_event(w, after(rest, (size_t)arrow + 7));
		jsonw_obj_end(w);
	} else if (starts(l, "  final:")) {
		exec_array(x, NULL);
		jsonw_key(w, "final");
		write_state(w, after(l, 8));
	} else if (starts(l, "  re-checked against the model: ")) {
		exec_array(x, NULL);
		jsonw_key(w, "rechecked");
		jsonw_bool(w, starts(after(l, 32), "consistent"));
	} else {
		return 0;
	}
	return 1;
}

/* Lines of an execution up to a blank line or one that is not part of it
 * (left unread), as an object's fields. */
static void write_execution(struct jsonw *w, struct lines *L)
{
	struct exec_writer x = {w, NULL};
	struct span l;
	jsonw_obj_begin(w);
	while (line_peek(L, &l) && l.n > 0 && exec_line(&x, l))
		line_next(L, &l);
	exec_array(&x, NULL);
	jsonw_obj_end(w);
}

/* One line into the array of strings under key, opened by the first
 * (*open: whether it is open). */
static void line_item(struct jsonw *w, const char *key, int *open, struct span l)
{
	if (!*open) {
		jsonw_key(w, key);
		jsonw_arr_begin(w);
		*open = 1;
	}
	jsonw_strn(w, l.s, l.n);
}

/* The lines of a section no reader took, as text. */
static void write_rest(struct jsonw *w, struct lines *L, const char *key)
{
	struct span l;
	int open = 0;
	while (line_peek(L, &l) && l.n > 0) {
		line_next(L, &l);
		line_item(w, key, &open, l);
	}
	if (open)
		jsonw_arr_end(w);
}

/* A section's title line taken, as the key of an object opened for it;
 * the title is put in *title. */
static void section_begin(struct jsonw *w, struct lines *L, const char *key,
			  struct span *title)
{
	line_next(L, title);
	jsonw_key(w, key);
	jsonw_obj_begin(w);
}

/* The section's lines no reader took, as "unread", and its end. */
static void section_end(struct jsonw *w, struct lines *L)
{
	write_rest(w, L, "unread");
	jsonw_obj_end(w);
}

/* "Witness: an execution reaching the condition" and its execution. */
static void write_witness(struct jsonw *w, struct lines *L)
{
	struct span l;
	line_next(L, &l);
	jsonw_key(w, "witness");
	write_execution(w, L);
	write_rest(w, L, "witness_unread");
}

/* "      --[rmb: smp_rmb() line 28]--> P1:29 R x=0  r1 = READ_ONCE(*x)" */
static void write_step(struct jsonw *w, struct span from, struct span l)
{
	long open = find(l, "--[");
	long close = find(l, "]--> ");
	jsonw_obj_begin(w);
	jsonw_key(w, "from");
	write_event(w, from);
	if (open < 0 || close < open) {
		key_span(w, "raw", l);
		jsonw_obj_end(w);
		return;
	}
	struct span inside = {l.s + open + 3, (size_t)(close - open - 3)};
	long colon = find(inside, ": ");
	long at = rfind(inside, " line ");
	key_span(w, "relation", (struct span){inside.s, colon >= 0 ? (size_t)colon : inside.n});
	if (colon >= 0 && at > colon) {
		jsonw_key(w, "fence");
		jsonw_obj_begin(w);
		key_span(w, "text", (struct span){inside.s + colon + 2, (size_t)(at - colon - 2)});
		size_t used;
		jsonw_key(w, "line");
		jsonw_long(w, number(after(inside, (size_t)at + 6), &used));
		jsonw_obj_end(w);
	}
	jsonw_key(w, "to");
	write_event(w, after(l, (size_t)close + 5));
	jsonw_obj_end(w);
}

/* "Explanation: the condition is never reached because of A B", then per
 * axiom "  A WHAT:" and its steps, then the execution. */
static void write_explanation(struct jsonw *w, struct lines *L)
{
	struct span l;
	section_begin(w, L, "explanation", &l);
	const char *because = "Explanation: the condition is never reached because of";
	jsonw_key(w, "axioms");
	jsonw_arr_begin(w);
	if (starts(l, because)) {
		struct span rest = after(l, strlen(because));
		while (rest.n) {
			while (rest.n && rest.s[0] == ' ')
				rest = after(rest, 1);
			long sp = find(rest, " ");
			size_t k = sp >= 0 ? (size_t)sp : rest.n;
			if (k)
				jsonw_strn(w, rest.s, k);
			rest = after(rest, k);
		}
	}
	jsonw_arr_end(w);
	if (!starts(l, because))
		key_span(w, "note", after(l, 13));
	int in_violation = 0, in_cycle = 0;
	struct span from = {0};
	while (line_peek(L, &l) && l.n > 0) {
		if (starts(l, "  in this execution")) {
			line_next(L, &l);
			break;
		}
		line_next(L, &l);
		if (starts(l, "      --[")) {
			if (!in_cycle) {
				jsonw_key(w, "steps");
				jsonw_arr_begin(w);
				in_cycle = 1;
			}
			write_step(w, from, l);
			long close = find(l, "]--> ");
			if (close >= 0)
				from = after(l, (size_t)close + 5);
			continue;
		}
		if (starts(l, "    ")) {
			from = after(l, 4);
			continue;
		}
		/* "  A WHAT:" or "  A: note" */
		if (in_cycle)
			jsonw_arr_end(w);
		if (in_violation)
			jsonw_obj_end(w);
		else {
			jsonw_key(w, "violations");
			jsonw_arr_begin(w);
		}
		in_cycle = 0;
		in_violation = 1;
		struct span body = after(l, starts(l, "  ") ? 2 : 0);
		long colon = find(body, ": ");
		long sp = find(body, " ");
		jsonw_obj_begin(w);
		if (colon >= 0 && (sp < 0 || colon < sp)) {
			key_span(w, "axiom", (struct span){body.s, (size_t)colon});
			key_span(w, "note", after(body, (size_t)colon + 2));
		} else {
			size_t k = sp >= 0 ? (size_t)sp : body.n;
			key_span(w, "axiom", (struct span){body.s, k});
			struct span what = after(body, k < body.n ? k + 1 : k);
			if (what.n && what.s[what.n - 1] == ':')
				what.n--;
			key_span(w, "what", what);
		}
	}
	if (in_cycle)
		jsonw_arr_end(w);
	if (in_violation) {
		jsonw_obj_end(w);
		jsonw_arr_end(w);
	}
	if (line_peek(L, &l) && l.n > 0 && starts(l, "  ")) {
		jsonw_key(w, "execution");
		write_execution(w, L);
	}
	section_end(w, L);
}

/* "Data race: EVENT", "      and: EVENT", "  in this execution:", ... */
static void write_race(struct jsonw *w, struct lines *L)
{
	struct span l;
	section_begin(w, L, "race", &l);
	jsonw_key(w, "accesses");
	jsonw_arr_begin(w);
	write_event(w, after(l, 11));
	if (line_peek(L, &l) && starts(l, "      and: ")) {
		line_next(L, &l);
		write_event(w, after(l, 11));
	}
	jsonw_arr_end(w);
	if (line_peek(L, &l) && starts(l, "  in this execution")) {
		line_next(L, &l);
		jsonw_key(w, "execution");
		write_execution(w, L);
	}
	section_end(w, L);
}

void json_text_read(struct jsonw *w, const char *text, struct json_note **notes,
		    size_t *n, size_t *cap)
{
	struct lines L = {text ? text : "", text ? strlen(text) : 0, 0};
	struct span l;
	while (line_peek(&L, &l)) {
		if (l.n == 0) {
			line_next(&L, &l);
			continue;
		}
		if (starts(l, "Witness: ")) {
			write_witness(w, &L);
		} else if (starts(l, "Explanation: ")) {
			write_explanation(w, &L);
		} else if (starts(l, "Data race: ")) {
			write_race(w, &L);
		} else {
			line_next(&L, &l);
			XGROW(*notes, *cap, *n + 1, 8);
			(*notes)[(*n)++] = (struct json_note){l.s, l.n};
		}
	}
}
