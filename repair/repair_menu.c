/*
 * repair_menu.c - the changes --repair may try and --prune may undo, as
 * edits of the litmus text; see repair_menu.h.
 */
#include "repair/repair_menu.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"

/* What the walk over one program knows. */
struct menu_ctx {
	const char *text;           /* the litmus file */
	size_t len;                 /* its length */
	size_t *line_off;           /* offset of line l at [l], l from 1 */
	int nlines;                 /* lines in the text */
	struct repair_menu *m;      /* where changes go */
	int thread;                 /* the thread being walked */
	int nloads, nstores;        /* its reads and writes (RMWs count in both) */
	int unlock_seen;            /* an unlock came before, in program order */
};

static char *xfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xfmt(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

static size_t pos_off(const struct menu_ctx *c, struct ir_pos p)
{
	if (p.line < 1 || p.line > c->nlines)
		return (size_t)-1;
	size_t off = c->line_off[p.line] + (size_t)(p.col > 0 ? p.col - 1 : 0);
	return off <= c->len ? off : (size_t)-1;
}

/* The whitespace that starts line l (malloc'ed). */
static char *indent_of(const struct menu_ctx *c, int l)
{
	size_t a = c->line_off[l], b = a;
	while (b < c->len && (c->text[b] == ' ' || c->text[b] == '\t'))
		b++;
	char *s = xmalloc(b - a + 1);
	memcpy(s, c->text + a, b - a);
	s[b - a] = '\0';
	return s;
}

/* Whether only blanks stand before p on its line. */
static int starts_line(const struct menu_ctx *c, struct ir_pos p)
{
	size_t off = pos_off(c, p);
	if (off == (size_t)-1)
		return 0;
	for (size_t k = c->line_off[p.line]; k < off; k++)
		if (c->text[k] != ' ' && c->text[k] != '\t')
			return 0;
	return 1;
}

/* The end of the statement starting at off: just past its ';' at
 * bracket depth 0 on the same line; (size_t)-1 if none. */
static size_t stmt_end(const struct menu_ctx *c, size_t off)
{
	int depth = 0;
	for (size_t k = off; k < c->len && c->text[k] != '\n'; k++) {
		char ch = c->text[k];
		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if (ch == ')' || ch == ']' || ch == '}')
			depth--;
		else if (ch == ';' && depth == 0)
			return k + 1;
	}
	return (size_t)-1;
}

/* The start of the line after the statement at p, when that statement
 * ends its line (only blanks or a // comment after its ';'). */
static size_t after_line(const struct menu_ctx *c, struct ir_pos p)
{
	size_t off = pos_off(c, p);
	size_t e = off == (size_t)-1 ? off : stmt_end(c, off);
	if (e == (size_t)-1)
		return e;
	while (e < c->len && (c->text[e] == ' ' || c->text[e] == '\t'))
		e++;
	if (e + 1 < c->len && c->text[e] == '/' && c->text[e + 1] == '/')
		while (e < c->len && c->text[e] != '\n')
			e++;
	if (e < c->len && c->text[e] != '\n')
		return (size_t)-1;
	return e < c->len ? e + 1 : e;
}

static void add(struct menu_ctx *c, enum repair_kind k, int slot, int strongest,
		int line, size_t off, size_t del, char *ins, char *what)
{
	struct repair_menu *m = c->m;
	for (int i = 0; i < m->n; i++) {
		const struct repair_edit *e = &m->ch[i].edit;
		if (e->off == off && e->del == del &&
		    strcmp(e->ins + strspn(e->ins, " \t"), ins + strspn(ins, " \t")) == 0) {
			free(ins); /* the same edit, reached twice (a helper) */
			free(what);
			return;
		}
	}
	XGROW(m->ch, m->cap, m->n + 1, 16);
	m->ch[m->n++] = (struct repair_change){
		.kind = k, .slot = slot, .strongest = strongest, .thread = c->thread,
		.line = line, .edit = {off, del, ins}, .what = what,
	};
	if (slot >= m->nslots)
		m->nslots = slot + 1;
}

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The first identifier in [from, to) equal to name (or, with suffix,
 * ending in it: *len gets its length); (size_t)-1 if none. */
static size_t find_ident(const struct menu_ctx *c, size_t from, size_t to,
			 const char *name, int suffix, size_t *len)
{
	for (size_t k = from; k < to; k++) {
		if (!is_ident(c->text[k]) || (k > from && is_ident(c->text[k - 1])))
			continue;
		size_t e = k;
		while (e < to && is_ident(c->text[e]))
			e++;
		size_t n = e - k, nl = strlen(name);
		int hit = suffix ? n > nl && memcmp(c->text + e - nl, name, nl) == 0
				 : n == nl && memcmp(c->text + k, name, nl) == 0;
		if (hit) {
			*len = n;
			return k;
		}
		k = e - 1;
	}
	return (size_t)-1;
}

/* The call whose name starts at name_off: *open is its '(', *comma its
 * first comma at depth 0 (or its ')'), *close its ')'.  0 if malformed. */
static int call_parts(const struct menu_ctx *c, size_t name_off, size_t name_len,
		      size_t *open, size_t *comma, size_t *close)
{
	size_t k = name_off + name_len;
	while (k < c->len && isspace((unsigned char)c->text[k]))
		k++;
	if (k >= c->len || c->text[k] != '(')
		return 0;
	*open = k;
	*comma = (size_t)-1;
	int depth = 0;
	for (; k < c->len; k++) {
		char ch = c->text[k];
		if (ch == '(' || ch == '[')
			depth++;
		else if (ch == ')' || ch == ']') {
			if (--depth == 0) {
				*close = k;
				if (*comma == (size_t)-1)
					*comma = k;
				return 1;
			}
		} else if (ch == ',' && depth == 1 && *comma == (size_t)-1)
			*comma = k;
	}
	return 0;
}

/* text[a, b) without surrounding blanks, into b. */
static void trimmed(const struct menu_ctx *c, size_t a, size_t b, struct strbuf *out)
{
	while (a < b && isspace((unsigned char)c->text[a]))
		a++;
	while (b > a && isspace((unsigned char)c->text[b - 1]))
		b--;
	strbuf_put(out, c->text + a, b - a);
}

static int all_ident(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_ident(*s))
			return 0;
	return 1;
}

/* An access's address argument in the other form: "*x" <-> "x" (to_ptr:
 * lvalue -> pointer, as smp_load_acquire takes it; else pointer ->
 * lvalue, as READ_ONCE takes it). */
static void convert_arg(const char *arg, int to_ptr, struct strbuf *out)
{
	if (to_ptr && arg[0] == '*')
		strbuf_str(out, arg + 1 + strspn(arg + 1, " \t"));
	else if (!to_ptr && arg[0] == '&')
		strbuf_str(out, arg + 1 + strspn(arg + 1, " \t"));
	else {
		strbuf_str(out, to_ptr ? "&" : "*");
		int paren = !all_ident(arg);
		if (paren)
			strbuf_str(out, "(");
		strbuf_str(out, arg);
		if (paren)
			strbuf_str(out, ")");
	}
}

/* Replace the call name(addr, rest) at name_off by to(addr', rest), the
 * address converted (to_ptr as in convert_arg); or, when convert is 0,
 * only the name.  The edit goes to *e; 0 when the call is malformed. */
static int rewrite_call(const struct menu_ctx *c, size_t name_off, size_t name_len,
			const char *to, int convert, int to_ptr, struct repair_edit *e)
{
	size_t open, comma, close;
	if (!call_parts(c, name_off, name_len, &open, &comma, &close))
		return 0;
	struct strbuf b = {0};
	strbuf_str(&b, to);
	if (!convert) {
		e->off = name_off;
		e->del = name_len;
		e->ins = b.p;
		return 1;
	}
	struct strbuf arg = {0};
	trimmed(c, open + 1, comma, &arg);
	strbuf_str(&b, "(");
	convert_arg(arg.p ? arg.p : "", to_ptr, &b);
	strbuf_put(&b, c->text + comma, close + 1 - comma);
	free(arg.p);
	e->off = name_off;
	e->del = close + 1 - name_off;
	e->ins = b.p;
	return 1;
}

/* Whether an instruction (or what it contains) touches memory. */
static int has_access(const struct ir_instr *in)
{
	switch (in->op) {
	case IR_ASSIGN: case IR_ASSERT: case IR_BREAK: case IR_CONTINUE:
	case IR_FENCE:
		return 0;
	case IR_IF: case IR_LOOP:
		for (int i = 0; i < in->then_b.count; i++)
			if (has_access(&in->then_b.items[i]))
				return 1;
		for (int i = 0; i < in->else_b.count; i++)
			if (has_access(&in->else_b.items[i]))
				return 1;
		return 0;
	default:
		return 1;
	}
}

static void count_accesses(struct menu_ctx *c, const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		/* a lock is a read and a write (LKR, LKW), an unlock a
		 * write (UL): smp_rmb/smp_wmb order them too */
		c->nloads += in->op == IR_LOAD || in->op == IR_RMW || in->op == IR_LOCK ||
			     in->op == IR_TRYLOCK || in->op == IR_ISLOCKED;
		c->nstores += in->op == IR_STORE || in->op == IR_RMW || in->op == IR_LOCK ||
			      in->op == IR_TRYLOCK || in->op == IR_UNLOCK;
		count_accesses(c, &in->then_b);
		count_accesses(c, &in->else_b);
	}
}

static const char *fence_text(enum repair_kind k)
{
	switch (k) {
	case RK_MB: return "smp_mb();";
	case RK_RMB: return "smp_rmb();";
	case RK_WMB: return "smp_wmb();";
	case RK_BEFORE_ATOMIC: return "smp_mb__before_atomic();";
	case RK_AFTER_ATOMIC: return "smp_mb__after_atomic();";
	case RK_AFTER_SPINLOCK: return "smp_mb__after_spinlock();";
	case RK_AFTER_UNLOCK_LOCK: return "smp_mb__after_unlock_lock();";
	default: return "";
	}
}

/* Where the // comment holding text[at] starts, or -1 when text[at] is
 * no part of one. */
static size_t line_comment(const struct menu_ctx *c, size_t at)
{
	size_t ls = at;
	while (ls > 0 && c->text[ls - 1] != '\n')
		ls--;
	for (size_t k = ls; k + 1 <= at; k++)
		if (c->text[k] == '/' && c->text[k + 1] == '/')
			return k;
	return (size_t)-1;
}

/* Whether a statement may go at off without changing what the code
 * around it means: the code before it ends with ';', '{' or '}' (not an
 * "if (...)", "else" or loop head whose only statement follows). */
static int statement_boundary(const struct menu_ctx *c, size_t off)
{
	size_t k = off;
	while (k > 0) {
		char ch = c->text[k - 1];
		if (isspace((unsigned char)ch)) {
			k--;
			continue;
		}
		if (ch == '/' && k >= 2 && c->text[k - 2] == '*') {
			/* skip back over a comment */
			k -= 2;
			while (k >= 2 && !(c->text[k - 2] == '/' && c->text[k - 1] == '*'))
				k--;
			k = k >= 2 ? k - 2 : 0;
			continue;
		}
		size_t slashes = line_comment(c, k - 1);
		if (slashes != (size_t)-1) { /* skip back over a // comment */
			k = slashes;
			continue;
		}
		return ch == ';' || ch == '{' || ch == '}';
	}
	return 0;
}

/* The fences that may go into gap g of block b (before items[g]). */
static void gap(struct menu_ctx *c, const struct ir_block *b, int g)
{
	const struct ir_instr *prev = g > 0 ? &b->items[g - 1] : NULL;
	const struct ir_instr *next = g < b->count ? &b->items[g] : NULL;
	size_t off = (size_t)-1;
	int line = 0;
	const char *where = "";
	if (next && starts_line(c, next->pos) && (!prev || prev->pos.line < next->pos.line)) {
		off = c->line_off[next->pos.line];
		line = next->pos.line;
		where = "before";
	} else if (prev && prev->op != IR_IF && prev->op != IR_LOOP &&
		   (!next || next->pos.line > prev->pos.line)) {
		off = after_line(c, prev->pos);
		line = prev->pos.line;
		where = "after";
	}
	if (off == (size_t)-1 || line < 1 || !statement_boundary(c, off))
		return;
	int slot = c->m->nslots;
	enum repair_kind kinds[RK_COUNT];
	int nk = 0;
	kinds[nk++] = RK_MB;
	if (c->nloads >= 2)
		kinds[nk++] = RK_RMB;
	if (c->nstores >= 2)
		kinds[nk++] = RK_WMB;
	if (next && next->op == IR_RMW && next->rmw == IR_RMW_OP)
		kinds[nk++] = RK_BEFORE_ATOMIC;
	if (prev && prev->op == IR_RMW && prev->rmw == IR_RMW_OP)
		kinds[nk++] = RK_AFTER_ATOMIC;
	if (prev && prev->op == IR_LOCK) {
		kinds[nk++] = RK_AFTER_SPINLOCK;
		if (c->unlock_seen)
			kinds[nk++] = RK_AFTER_UNLOCK_LOCK;
	}
	char *ind = indent_of(c, line);
	for (int k = 0; k < nk; k++)
		add(c, kinds[k], slot, kinds[k] == RK_MB, line, off, 0,
		    xfmt("%s%s\n", ind, fence_text(kinds[k])),
		    xfmt("%.*s %s line %d in P%d", (int)strlen(fence_text(kinds[k])) - 1,
			 fence_text(kinds[k]), where, line, c->thread));
	free(ind);
}

/* The end of the statement an instruction stands in (its line's end when
 * it has no ';' there). */
static size_t stmt_limit(const struct menu_ctx *c, size_t off)
{
	size_t e = stmt_end(c, off);
	if (e != (size_t)-1)
		return e;
	while (off < c->len && c->text[off] != '\n')
		off++;
	return off;
}

/* A stronger annotation of one access. */
static void annotate(struct menu_ctx *c, const struct ir_instr *in)
{
	size_t off = pos_off(c, in->pos), len;
	if (off == (size_t)-1 || (in->order != IR_ORD_ONCE && in->op != IR_RMW))
		return;
	size_t end = stmt_limit(c, off);
	int slot = c->m->nslots;
	struct repair_edit e;
	size_t k;
	if ((in->op == IR_LOAD || in->op == IR_STORE) && in->order == IR_ORD_ONCE) {
		int load = in->op == IR_LOAD;
		const char *once = load ? "READ_ONCE" : "WRITE_ONCE";
		const char *atom = load ? "atomic_read" : "atomic_set";
		enum repair_kind kind = load ? RK_LOAD_ACQUIRE : RK_STORE_RELEASE;
		int ok = 0;
		if ((k = find_ident(c, off, end, once, 0, &len)) != (size_t)-1)
			ok = rewrite_call(c, k, len, load ? "smp_load_acquire" : "smp_store_release",
					  1, 1, &e);
		else if ((k = find_ident(c, off, end, atom, 0, &len)) != (size_t)-1)
			ok = rewrite_call(c, k, len, load ? "atomic_read_acquire" : "atomic_set_release",
					  0, 0, &e);
		if (ok)
			add(c, kind, slot, 1, in->pos.line, e.off, e.del, e.ins,
			    xfmt("%s on line %d in P%d", load ? "acquire" : "release",
				 in->pos.line, c->thread));
		return;
	}
	if (in->op != IR_RMW)
		return;
	if ((in->order == IR_ORD_ACQUIRE || in->order == IR_ORD_RELEASE) &&
	    (k = find_ident(c, off, end, in->order == IR_ORD_ACQUIRE ? "_acquire" : "_release",
			    1, &len)) != (size_t)-1) {
		add(c, RK_RMW_MB, slot, 1, in->pos.line, k + len - strlen("_acquire"),
		    strlen("_acquire"), xstrdup(""),
		    xfmt("fully ordered RMW on line %d in P%d", in->pos.line, c->thread));
		return;
	}
	if (in->order != IR_ORD_ONCE || (k = find_ident(c, off, end, "_relaxed", 1, &len)) == (size_t)-1)
		return;
	static const struct { enum repair_kind kind; const char *suffix, *name; } v[] = {
		{RK_RMW_ACQUIRE, "_acquire", "_acquire RMW"},
		{RK_RMW_RELEASE, "_release", "_release RMW"},
		{RK_RMW_MB, "", "fully ordered RMW"},
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		add(c, v[i].kind, slot, v[i].kind == RK_RMW_MB, in->pos.line,
		    k + len - strlen("_relaxed"), strlen("_relaxed"), xstrdup(v[i].suffix),
		    xfmt("%s on line %d in P%d", v[i].name, in->pos.line, c->thread));
}

static void walk(struct menu_ctx *c, const struct ir_block *b, int top)
{
	int emitted = 0; /* the previous gap had changes */
	for (int g = 0; g <= b->count; g++) {
		int useful = 1;
		if (top) {
			int before = 0, after = 0;
			for (int i = 0; i < g; i++)
				before |= has_access(&b->items[i]);
			for (int i = g; i < b->count; i++)
				after |= has_access(&b->items[i]);
			useful = before && after;
		}
		/* a gap only register statements apart from the previous
		 * one orders the same */
		if (useful && !(emitted && !has_access(&b->items[g - 1]) &&
				b->items[g - 1].op != IR_IF && b->items[g - 1].op != IR_LOOP)) {
			int before = c->m->n;
			gap(c, b, g);
			emitted = c->m->n > before;
		}
		if (g == b->count)
			break;
		const struct ir_instr *in = &b->items[g];
		annotate(c, in);
		walk(c, &in->then_b, 0);
		walk(c, &in->else_b, 0);
		if (in->op == IR_UNLOCK)
			c->unlock_seen = 1;
	}
}

/* Line offsets of text into c. */
static void ctx_init(struct menu_ctx *c, struct repair_menu *m, const char *text)
{
	*c = (struct menu_ctx){.text = text, .len = strlen(text), .m = m};
	int cap = 0;
	XGROW(c->line_off, cap, 2, 64);
	c->line_off[1] = 0;
	c->nlines = 1;
	for (size_t k = 0; k < c->len; k++)
		if (text[k] == '\n' && k + 1 < c->len) {
			XGROW(c->line_off, cap, c->nlines + 2, 64);
			c->line_off[++c->nlines] = k + 1;
		}
}

/* The removal of a fence: its statement, and its line if nothing else is
 * on it. */
static void remove_fence(struct menu_ctx *c, const struct ir_instr *in)
{
	static const enum repair_kind kind[] = {
		[IR_F_MB] = RK_MB, [IR_F_RMB] = RK_RMB, [IR_F_WMB] = RK_WMB,
		[IR_F_BEFORE_ATOMIC] = RK_BEFORE_ATOMIC,
		[IR_F_AFTER_ATOMIC] = RK_AFTER_ATOMIC,
		[IR_F_AFTER_SPINLOCK] = RK_AFTER_SPINLOCK,
		[IR_F_AFTER_UNLOCK_LOCK] = RK_AFTER_UNLOCK_LOCK,
	};
	if (in->fence > IR_F_AFTER_UNLOCK_LOCK || in->fence == IR_F_BARRIER ||
	    (in->fence >= IR_F_RCU_LOCK && in->fence <= IR_F_SYNC_RCU))
		return;
	size_t off = pos_off(c, in->pos);
	if (off == (size_t)-1 || strncmp(c->text + off, "smp_", 4) != 0)
		return;
	size_t e = stmt_end(c, off);
	if (e == (size_t)-1)
		return;
	size_t a = off, b = e;
	if (starts_line(c, in->pos)) {
		size_t z = after_line(c, in->pos);
		if (z != (size_t)-1) {
			a = c->line_off[in->pos.line];
			b = z;
		}
	}
	add(c, kind[in->fence], c->m->nslots, 0, in->pos.line, a, b - a, xstrdup(""),
	    xfmt("%.*s on line %d in P%d", (int)(e - 1 - off), c->text + off,
		 in->pos.line, c->thread));
}

/* The weakening of an access's annotation to ONCE (relaxed). */
static void weaken(struct menu_ctx *c, const struct ir_instr *in)
{
	size_t off = pos_off(c, in->pos), len, k;
	if (off == (size_t)-1)
		return;
	size_t end = stmt_limit(c, off);
	struct repair_edit e = {0};
	enum repair_kind kind = RK_COUNT;
	const char *was = "";
	if (in->op == IR_LOAD && in->order == IR_ORD_ACQUIRE) {
		kind = RK_LOAD_ACQUIRE;
		if ((k = find_ident(c, off, end, "smp_load_acquire", 0, &len)) != (size_t)-1 &&
		    rewrite_call(c, k, len, "READ_ONCE", 1, 0, &e))
			was = "smp_load_acquire";
		else if ((k = find_ident(c, off, end, "atomic_read_acquire", 0, &len)) != (size_t)-1 &&
			 rewrite_call(c, k, len, "atomic_read", 0, 0, &e))
			was = "atomic_read_acquire";
	} else if (in->op == IR_STORE && in->order == IR_ORD_RELEASE) {
		kind = RK_STORE_RELEASE;
		if ((k = find_ident(c, off, end, "smp_store_release", 0, &len)) != (size_t)-1 &&
		    rewrite_call(c, k, len, "WRITE_ONCE", 1, 0, &e))
			was = "smp_store_release";
		else if ((k = find_ident(c, off, end, "rcu_assign_pointer", 0, &len)) != (size_t)-1 &&
			 rewrite_call(c, k, len, "WRITE_ONCE", 0, 0, &e))
			was = "rcu_assign_pointer";
		else if ((k = find_ident(c, off, end, "atomic_set_release", 0, &len)) != (size_t)-1 &&
			 rewrite_call(c, k, len, "atomic_set", 0, 0, &e))
			was = "atomic_set_release";
	} else if (in->op == IR_RMW && (in->order == IR_ORD_ACQUIRE || in->order == IR_ORD_RELEASE)) {
		const char *suf = in->order == IR_ORD_ACQUIRE ? "_acquire" : "_release";
		kind = in->order == IR_ORD_ACQUIRE ? RK_RMW_ACQUIRE : RK_RMW_RELEASE;
		if ((k = find_ident(c, off, end, suf, 1, &len)) != (size_t)-1) {
			e = (struct repair_edit){k + len - strlen(suf), strlen(suf), xstrdup("_relaxed")};
			was = suf + 1;
		}
	} else if (in->op == IR_RMW && in->order == IR_ORD_MB) {
		kind = RK_RMW_MB;
		static const char *const names[] = {"xchg", "cmpxchg", "atomic_"};
		for (k = off; k < end && !*was; k++) {
			if (!is_ident(c->text[k]) || (k > off && is_ident(c->text[k - 1])))
				continue;
			size_t z = k;
			while (z < end && is_ident(c->text[z]))
				z++;
			for (size_t i = 0; i < 3 && !*was; i++)
				if (strncmp(c->text + k, names[i], strlen(names[i])) == 0 &&
				    z < end && c->text[z] == '(') {
					e = (struct repair_edit){z, 0, xstrdup("_relaxed")};
					was = "fully ordered";
				}
			k = z;
		}
	}
	if (*was)
		add(c, kind, c->m->nslots, 0, in->pos.line, e.off, e.del, e.ins,
		    xfmt("%s on line %d in P%d", was, in->pos.line, c->thread));
}

static void walk_removals(struct menu_ctx *c, const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (in->op == IR_FENCE)
			remove_fence(c, in);
		else
			weaken(c, in);
		walk_removals(c, &in->then_b);
		walk_removals(c, &in->else_b);
	}
}

/* Every thread of prog walked for additions (walk) or removals. */
static void walk_threads(struct repair_menu *m, const struct ir_program *prog,
			 const char *text, int removals)
{
	struct menu_ctx c;
	ctx_init(&c, m, text);
	for (int t = 0; t < prog->nthreads; t++) {
		c.thread = prog->threads[t].id;
		c.nloads = c.nstores = 0;
		c.unlock_seen = 0;
		if (removals) {
			walk_removals(&c, &prog->threads[t].body);
		} else {
			count_accesses(&c, &prog->threads[t].body);
			walk(&c, &prog->threads[t].body, 1);
		}
	}
	free(c.line_off);
}

void repair_menu_build(struct repair_menu *m, const struct ir_program *prog,
		       const char *text)
{
	walk_threads(m, prog, text, 0);
}

void repair_menu_removals(struct repair_menu *m, const struct ir_program *prog,
			  const char *text)
{
	walk_threads(m, prog, text, 1);
}

void repair_menu_drop(struct repair_menu *m, int i)
{
	free(m->ch[i].edit.ins);
	free(m->ch[i].what);
	memmove(m->ch + i, m->ch + i + 1, (size_t)(m->n - i - 1) * sizeof *m->ch);
	m->n--;
}

void repair_menu_free(struct repair_menu *m)
{
	while (m->n > 0)
		repair_menu_drop(m, m->n - 1);
	free(m->ch);
	*m = (struct repair_menu){0};
}

static int by_offset(const void *a, const void *b)
{
	const struct repair_edit *x = *(const struct repair_edit *const *)a;
	const struct repair_edit *y = *(const struct repair_edit *const *)b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->del > y->del) - (x->del < y->del);
}

char *repair_apply(const struct repair_menu *m, const int *pick, const char *text)
{
	const struct repair_edit **e = xmalloc_array((size_t)m->n + 1, sizeof *e);
	int n = 0;
	for (int i = 0; i < m->n; i++)
		if (pick[i])
			e[n++] = &m->ch[i].edit;
	qsort(e, (size_t)n, sizeof *e, by_offset);
	struct strbuf b = {0};
	size_t at = 0, len = strlen(text);
	for (int i = 0; i < n; i++) {
		if (e[i]->off < at)
			continue; /* overlapping: the caller's mistake */
		strbuf_put(&b, text + at, e[i]->off - at);
		strbuf_str(&b, e[i]->ins);
		at = e[i]->off + e[i]->del;
	}
	strbuf_put(&b, text + at, len - at);
	free(e);
	return b.p ? b.p : xstrdup("");
}
