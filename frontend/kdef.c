/*
 * kdef.c - a model's linux-kernel.def read into a table of primitives
 * (kapi.h): each macro "NAME(PARAMS) BODY" becomes a K_DEF row whose body
 * is a list of herd7 primitives (__load{tags}(X), __store{tags}(X,V),
 * __fence{tags}, __xchg, __cmpxchg, __atomic_op, __atomic_op_return,
 * __atomic_fetch_op, __atomic_add_unless, __lock, __unlock, __trylock,
 * __islocked, __srcu) with their operands, a macro it calls inlined.  A
 * body is "{ call; call; }" or one call, optionally compared with a
 * constant ("== 0").  It also says which events carry which tags, as
 * herd7 does (kapi_table.syntactic), and adds lkmmc's idioms over the
 * macros.  It does not lower calls (clower_def.c does) nor know what a
 * tag means to the model.
 */
#include "kapi.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/arena.h"

/* The parse of one file. */
struct kp {
	const char *path;        /* for messages */
	const char *s;           /* the text */
	size_t i;                /* where we are */
	int line;                /* line of s[i] */
	size_t line_start;       /* offset of that line's start */
	struct kapi_table *t;    /* being built */
	int rows_cap;            /* room in t->rows */
	struct kdef_macro **macros; /* t->rows[k].def, writable */
	const char **params;     /* parameters of the macro being read */
	int nparams;             /* how many */
	struct diag *d;          /* the first error */
};

static int kerr(struct kp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int kerr(struct kp *p, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!p->d->set)
		diag_error(p->d, p->path, p->line, (int)(p->i - p->line_start) + 1, "%s", msg);
	return 0;
}

/* Skip blanks and comments ("// ..." and C comments). */
static void skip(struct kp *p)
{
	for (;;) {
		char c = p->s[p->i];
		if (c == '\n') {
			p->i++;
			p->line++;
			p->line_start = p->i;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			p->i++;
		} else if (c == '/' && p->s[p->i + 1] == '/') {
			while (p->s[p->i] && p->s[p->i] != '\n')
				p->i++;
		} else if (c == '/' && p->s[p->i + 1] == '*') {
			p->i += 2;
			while (p->s[p->i] && !(p->s[p->i] == '*' && p->s[p->i + 1] == '/')) {
				if (p->s[p->i] == '\n') {
					p->line++;
					p->line_start = p->i + 1;
				}
				p->i++;
			}
			if (p->s[p->i])
				p->i += 2;
		} else {
			return;
		}
	}
}

static int is_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* An identifier here (into buf), or 0. */
static int ident(struct kp *p, char *buf, size_t size)
{
	skip(p);
	size_t n = 0;
	if (!isalpha((unsigned char)p->s[p->i]) && p->s[p->i] != '_')
		return 0;
	while (is_id(p->s[p->i])) {
		if (n + 1 < size)
			buf[n++] = p->s[p->i];
		p->i++;
	}
	buf[n] = 0;
	return 1;
}

/* Is the next character c?  Then take it. */
static int accept(struct kp *p, char c)
{
	skip(p);
	if (p->s[p->i] != c)
		return 0;
	p->i++;
	return 1;
}

static int expect(struct kp *p, char c, const char *what)
{
	if (accept(p, c))
		return 1;
	skip(p);
	return kerr(p, "expected '%c' %s", c, what);
}

/* The bit of tag name (interned). */
static unsigned long tag_bit(struct kp *p, const char *name)
{
	struct kapi_table *t = p->t;
	for (int k = 0; k < t->ntags; k++)
		if (strcmp(t->tags[k], name) == 0)
			return 1ul << k;
	if (t->ntags >= (int)(8 * sizeof(unsigned long))) {
		kerr(p, "more than %d different tags", (int)(8 * sizeof(unsigned long)));
		return 0;
	}
	t->tags = arena_grow(t->arena, t->tags, sizeof *t->tags, (size_t)t->ntags,
			     (size_t)t->ntags + 1);
	t->tags[t->ntags] = arena_strdup(t->arena, name);
	return 1ul << t->ntags++;
}

/* The tags of mask named like word (any case): herd7 7.58 spells them
 * 'ONCE where older ones spell 'once. */
static unsigned long tags_named(const struct kapi_table *t, unsigned long mask,
				const char *word)
{
	unsigned long r = 0;
	for (int k = 0; k < t->ntags; k++)
		if ((mask >> k & 1) && strcasecmp(t->tags[k], word) == 0)
			r |= 1ul << k;
	return r;
}

static const struct {
	const char *name;
	enum kprim prim;
	int nargs;    /* operands (the op token of the atomic ops counted) */
	int value;    /* it has a value */
} prims[] = {
	{"__load", KP_LOAD, 1, 1}, {"__store", KP_STORE, 2, 0},
	{"__fence", KP_FENCE, 0, 0}, {"__xchg", KP_XCHG, 2, 1},
	{"__cmpxchg", KP_CMPXCHG, 3, 1}, {"__atomic_op", KP_ATOMIC_OP, 3, 0},
	{"__atomic_op_return", KP_OP_RETURN, 3, 1},
	{"__atomic_fetch_op", KP_FETCH_OP, 3, 1},
	{"__atomic_add_unless", KP_ADD_UNLESS, 3, 1}, {"__lock", KP_LOCK, 1, 0},
	{"__unlock", KP_UNLOCK, 1, 0}, {"__trylock", KP_TRYLOCK, 1, 1},
	{"__islocked", KP_ISLOCKED, 1, 1}, {"__srcu", KP_SRCU, -1, 1},
};

static int is_rmw(enum kprim k)
{
	return k == KP_XCHG || k == KP_CMPXCHG || k == KP_ATOMIC_OP || k == KP_OP_RETURN ||
	       k == KP_FETCH_OP || k == KP_ADD_UNLESS;
}

/* What herd7 makes of a step's tags: the tags of each event and the
 * nearest built-in ordering or fence (see kapi_table.syntactic). */
static void step_events(struct kp *p, struct kdef_step *st)
{
	const struct kapi_table *t = p->t;
	unsigned long T = st->tags;
	unsigned long mb = tags_named(t, T, "mb"), acq = tags_named(t, T, "acquire");
	unsigned long rel = tags_named(t, T, "release"), once = tags_named(t, T, "once");
	st->order = acq ? IR_ORD_ACQUIRE : rel ? IR_ORD_RELEASE : once ? IR_ORD_ONCE
		  : IR_ORD_PLAIN;
	st->fence = IR_F_OTHER;
	for (int f = IR_F_MB; f < IR_F_OTHER; f++)
		if (tags_named(t, T, ir_fence_name((enum ir_fence)f)))
			st->fence = (enum ir_fence)f;
	st->ev[IR_TAG_EV] = T;
	if (!is_rmw(st->prim))
		return;
	if (t->syntactic) {
		/* every event as written; a full barrier is its tags */
		st->ev[IR_TAG_W] = st->ev[IR_TAG_FAIL] = T;
		if (st->order == IR_ORD_PLAIN)
			st->order = IR_ORD_ONCE;
		return;
	}
	/* herd7 before variant lkmmv2: mb makes F[mb] around R[once]
	 * W[once]; acquire stays on the read, release on the write; a
	 * failed RMW reads once; __atomic_op reads noreturn. */
	unsigned long ord = mb | acq | rel | once, rest = T & ~ord;
	unsigned long o = once ? once : tag_bit(p, "once");
	unsigned long r = rest | acq, w = rest | rel;
	if (st->prim == KP_ATOMIC_OP)
		r |= tags_named(t, T, "noreturn") ? 0 : tag_bit(p, "noreturn");
	else if (!acq)
		r |= o;
	if (!rel)
		w |= o;
	st->ev[IR_TAG_EV] = r;
	st->ev[IR_TAG_W] = w;
	st->ev[IR_TAG_FAIL] = rest | o;
	st->ev[IR_TAG_FENCE] = mb;
	st->order = mb ? IR_ORD_MB : st->order == IR_ORD_PLAIN ? IR_ORD_ONCE : st->order;
}

static int find_param(struct kp *p, const char *name)
{
	for (int k = 0; k < p->nparams; k++)
		if (strcmp(p->params[k], name) == 0)
			return k;
	return -1;
}

/* An operand: [*]PARAM or a number. */
static int operand(struct kp *p, struct kdef_arg *a)
{
	skip(p);
	a->deref = 0;
	a->param = -1;
	a->num = 0;
	while (accept(p, '*'))
		a->deref++;
	skip(p);
	char name[128];
	const char *s = p->s + p->i;
	if (isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))) {
		char *end;
		a->num = strtol(s, &end, 0);
		p->i += (size_t)(end - s);
		if (a->deref)
			return kerr(p, "'*' before a number");
		return 1;
	}
	if (!ident(p, name, sizeof name))
		return kerr(p, "expected a parameter or a number");
	a->param = find_param(p, name);
	if (a->param < 0) {
		p->i -= strlen(name);
		return kerr(p, "'%s' is not a parameter of this macro", name);
	}
	if (a->deref > 1)
		return kerr(p, "'%s' dereferenced more than once", name);
	return 1;
}

/* The op token of an __atomic_*op* primitive. */
static int op_token(struct kp *p, struct kdef_step *st)
{
	skip(p);
	char c = p->s[p->i];
	st->andnot = 0;
	switch (c) {
	case '+': st->op = IR_ADD; break;
	case '-': st->op = IR_SUB; break;
	case '|': st->op = IR_BOR; break;
	case '^': st->op = IR_BXOR; break;
	case '&':
		st->op = IR_BAND;
		if (p->s[p->i + 1] == '~') {
			st->andnot = 1;
			p->i++;
		}
		break;
	default:
		return kerr(p, "expected an operator (+ - & | ^ &~)");
	}
	p->i++;
	return 1;
}

static struct kdef_step *add_step(struct kp *p, struct kdef_macro *m)
{
	m->steps = arena_grow(p->t->arena, m->steps, sizeof *m->steps, (size_t)m->nsteps,
			      (size_t)m->nsteps + 1);
	struct kdef_step *st = &m->steps[m->nsteps++];
	memset(st, 0, sizeof *st);
	return st;
}

static const struct kdef_macro *find_macro(struct kp *p, const char *name)
{
	for (int k = 0; k < p->t->nrows; k++)
		if (strcmp(p->t->rows[k].name, name) == 0)
			return p->macros[k];
	return NULL;
}

/* The arguments of a call of macro callee (named name, at offset at) and
 * its steps, added to m with the arguments in place of its parameters. */
static int macro_call(struct kp *p, struct kdef_macro *m,
		      const struct kdef_macro *callee, const char *name,
		      size_t at, int *value)
{
	struct kdef_arg args[8];
	int n = 0;
	if (!expect(p, '(', "after the macro name"))
		return 0;
	if (!accept(p, ')')) {
		do {
			if (n == 8)
				return kerr(p, "too many arguments");
			if (!operand(p, &args[n++]))
				return 0;
		} while (accept(p, ','));
		if (!expect(p, ')', "after the arguments"))
			return 0;
	}
	if (n != callee->nparams) {
		p->i = at;
		return kerr(p, "'%s' takes %d argument%s, %d given", name,
			    callee->nparams, callee->nparams == 1 ? "" : "s", n);
	}
	for (int s = 0; s < callee->nsteps; s++) {
		struct kdef_step *st = add_step(p, m);
		*st = callee->steps[s];
		for (int a = 0; a < st->nargs; a++) {
			struct kdef_arg *x = &st->arg[a];
			if (x->param < 0)
				continue;
			struct kdef_arg y = args[x->param];
			if (y.param < 0 && x->deref) {
				p->i = at;
				return kerr(p, "'%s' dereferences a number passed to it", name);
			}
			y.deref += x->deref;
			if (y.deref > 1) {
				p->i = at;
				return kerr(p, "unsupported: '%s' dereferences '*%s' again",
					    name, p->params[y.param]);
			}
			*x = y;
		}
	}
	*value = callee->value;
	return 1;
}

/* The {tag, ...} of a primitive step st, after its '{'. */
static int prim_tags(struct kp *p, struct kdef_step *st)
{
	for (;;) {
		skip(p);
		char tag[128];
		size_t n = 0;
		while (is_id(p->s[p->i]) || p->s[p->i] == '-') {
			if (n + 1 < sizeof tag)
				tag[n++] = p->s[p->i];
			p->i++;
		}
		tag[n] = 0;
		if (!n)
			return kerr(p, "expected a tag");
		st->tags |= tag_bit(p, tag);
		if (p->d->set)
			return 0;
		if (accept(p, '}'))
			break;
		if (!expect(p, ',', "between tags"))
			return 0;
	}
	return 1;
}

/* One call into m: a primitive or a macro defined above.  *value: whether
 * it has one (for an expression body). */
static int call(struct kp *p, struct kdef_macro *m, int *value)
{
	char name[128];
	skip(p);
	int line = p->line;
	size_t at = p->i;
	if (!ident(p, name, sizeof name))
		return kerr(p, "expected a primitive or a macro call");
	size_t np = sizeof prims / sizeof prims[0], k;
	for (k = 0; k < np; k++)
		if (strcmp(prims[k].name, name) == 0)
			break;
	if (k == np) {
		const struct kdef_macro *callee = find_macro(p, name);
		if (!callee) {
			p->i = at;
			return kerr(p, name[0] == '_' && name[1] == '_'
				    ? "unknown herd7 primitive '%s'"
				    : "unknown macro '%s' (not defined above)", name);
		}
		if (callee->has_cmp) {
			p->i = at;
			return kerr(p, "unsupported: a call of '%s', whose value is a comparison", name);
		}
		return macro_call(p, m, callee, name, at, value);
	}
	struct kdef_step *st = add_step(p, m);
	st->prim = prims[k].prim;
	st->line = line;
	*value = prims[k].value;
	if (accept(p, '{') && !prim_tags(p, st))
		return 0;
	int want = prims[k].nargs, n = 0;
	if (accept(p, '(') && !accept(p, ')')) {
		do {
			int opnd = (st->prim == KP_ATOMIC_OP || st->prim == KP_OP_RETURN ||
				    st->prim == KP_FETCH_OP) && n == 1;
			if (opnd) {
				if (!op_token(p, st))
					return 0;
			} else {
				if (st->nargs == 3)
					return kerr(p, "too many operands for %s", name);
				if (!operand(p, &st->arg[st->nargs++]))
					return 0;
			}
			n++;
		} while (accept(p, ','));
		if (!expect(p, ')', "after the operands"))
			return 0;
	}
	if (st->prim == KP_SRCU) {
		if (n < 1 || n > 2) {
			p->i = at;
			return kerr(p, "__srcu takes 1 or 2 operands, %d given", n);
		}
		*value = n == 1;
	} else if (n != want) {
		p->i = at;
		return kerr(p, "%s takes %d operand%s, %d given", name, want,
			    want == 1 ? "" : "s", n);
	}
	step_events(p, st);
	return !p->d->set;
}

static int comparison(struct kp *p, struct kdef_macro *m)
{
	skip(p);
	const char *s = p->s + p->i;
	static const struct { const char *tok; enum ir_binop op; } cmps[] = {
		{"==", IR_EQ}, {"!=", IR_NE}, {"<=", IR_LE}, {">=", IR_GE},
		{"<", IR_LT}, {">", IR_GT},
	};
	for (size_t k = 0; k < sizeof cmps / sizeof cmps[0]; k++) {
		size_t n = strlen(cmps[k].tok);
		if (strncmp(s, cmps[k].tok, n) != 0)
			continue;
		p->i += n;
		struct kdef_arg a;
		if (!operand(p, &a))
			return 0;
		if (a.param >= 0)
			return kerr(p, "unsupported: a comparison with a parameter");
		m->has_cmp = 1;
		m->cmp = cmps[k].op;
		m->cmp_num = a.num;
		return 1;
	}
	return 1;
}

static struct kapi *add_row(struct kp *p, const char *name)
{
	struct kapi_table *t = p->t;
	if (t->nrows == p->rows_cap) {
		int cap = p->rows_cap * 2 + 32;
		t->rows = arena_grow(t->arena, t->rows, sizeof *t->rows, (size_t)t->nrows,
				     (size_t)cap);
		p->macros = arena_grow(t->arena, p->macros, sizeof *p->macros,
				       (size_t)t->nrows, (size_t)cap);
		p->rows_cap = cap;
	}
	struct kapi *r = &t->rows[t->nrows];
	memset(r, 0, sizeof *r);
	r->name = arena_strdup(t->arena, name);
	r->addr_arg = -1;
	p->macros[t->nrows++] = NULL;
	return r;
}

/* One definition. */
static int definition(struct kp *p)
{
	char name[128];
	skip(p);
	size_t at = p->i;
	if (!ident(p, name, sizeof name))
		return kerr(p, "expected a macro definition NAME(PARAMS) BODY");
	if (kapi_find(p->t, name)) {
		p->i = at;
		return kerr(p, "macro '%s' defined twice", name);
	}
	if (!expect(p, '(', "after the macro name"))
		return 0;
	p->nparams = 0;
	p->params = NULL;
	if (!accept(p, ')')) {
		do {
			char prm[128];
			if (!ident(p, prm, sizeof prm))
				return kerr(p, "expected a parameter name");
			p->params = arena_grow(p->t->arena, p->params, sizeof *p->params,
					       (size_t)p->nparams, (size_t)p->nparams + 1);
			p->params[p->nparams++] = arena_strdup(p->t->arena, prm);
		} while (accept(p, ','));
		if (!expect(p, ')', "after the parameters"))
			return 0;
	}
	struct kdef_macro *m = arena_alloc(p->t->arena, sizeof *m);
	memset(m, 0, sizeof *m);
	m->nparams = p->nparams;
	m->line = p->line;
	if (accept(p, '{')) {
		while (!accept(p, '}')) {
			int v;
			if (!p->s[p->i])
				return kerr(p, "expected '}' closing the body of '%s'", name);
			if (!call(p, m, &v) || !expect(p, ';', "after a call in a body"))
				return 0;
		}
	} else {
		if (!call(p, m, &m->value))
			return 0;
		if (!m->value) {
			p->i = at;
			return kerr(p, "the body of '%s' has no value: write it as { ...; }", name);
		}
		if (!comparison(p, m))
			return 0;
	}
	struct kapi *r = add_row(p, name);
	r->kind = K_DEF;
	r->nargs = m->nparams;
	r->returns = m->value;
	r->def = m;
	p->macros[p->t->nrows - 1] = m;
	return 1;
}

/* lkmmc's idioms over the table's macros: name -> the macro target with
 * extra arguments (evaluated, not modelled), or the built-in row. */
static const struct {
	const char *name;   /* the idiom */
	const char *target; /* the .def macro it calls, NULL: built-in row */
	int extra;          /* arguments beyond the target's */
} idioms[] = {
	{"spin_lock_irqsave", "spin_lock", 1},
	{"spin_unlock_irqrestore", "spin_unlock", 1},
	{"raw_spin_lock_irqsave", "spin_lock", 1},
	{"raw_spin_unlock_irqrestore", "spin_unlock", 1},
	{"spin_lock_bh", "spin_lock", 0}, {"spin_unlock_bh", "spin_unlock", 0},
	{"spin_lock_irq", "spin_lock", 0}, {"spin_unlock_irq", "spin_unlock", 0},
	{"raw_spin_lock", "spin_lock", 0}, {"raw_spin_unlock", "spin_unlock", 0},
	{"raw_spin_trylock", "spin_trylock", 0},
	{"smp_acquire__after_ctrl_dep", "smp_rmb", 0},
	{"BUG_ON", NULL, 0}, {"WARN_ON", NULL, 0}, {"WARN_ON_ONCE", NULL, 0},
	{"assert", NULL, 0}, {"cpu_relax", NULL, 0},
	{"__lkmmc_cond_load_relaxed", NULL, 0}, {"__lkmmc_cond_load_acquire", NULL, 0},
};

static int add_idioms(struct kp *p)
{
	struct kapi_table *t = p->t;
	int ndef = t->nrows;
	for (size_t k = 0; k < sizeof idioms / sizeof idioms[0]; k++) {
		if (kapi_find(t, idioms[k].name))
			continue; /* the .def has it */
		if (!idioms[k].target) {
			*add_row(p, idioms[k].name) = *kapi_find(NULL, idioms[k].name);
			continue;
		}
		const struct kapi *tg = NULL;
		for (int r = 0; r < ndef; r++)
			if (strcmp(t->rows[r].name, idioms[k].target) == 0)
				tg = &t->rows[r];
		if (!tg)
			continue; /* no such macro: no such idiom */
		struct kapi copy = *tg;
		struct kapi *r = add_row(p, idioms[k].name);
		const char *nm = r->name;
		*r = copy;
		r->name = nm;
		r->nargs += idioms[k].extra;
	}
	if (!kapi_find(t, "atomic_add_unless")) {
		/* herd7's own primitive (no .def line before Linux 7.x):
		 * fully ordered */
		struct kdef_macro *m = arena_alloc(t->arena, sizeof *m);
		memset(m, 0, sizeof *m);
		m->nparams = 3;
		m->value = 1;
		struct kdef_step *st = add_step(p, m);
		st->prim = KP_ADD_UNLESS;
		st->tags = tag_bit(p, t->syntactic ? "MB" : "mb");
		st->nargs = 3;
		for (int a = 0; a < 3; a++)
			st->arg[a].param = a;
		step_events(p, st);
		struct kapi *r = add_row(p, "atomic_add_unless");
		r->kind = K_DEF;
		r->nargs = 3;
		r->returns = 1;
		r->def = m;
	}
	const struct kapi *ro = kapi_find(t, "READ_ONCE"), *rmb = kapi_find(t, "smp_rmb");
	if (ro && ro->kind == K_DEF && ro->def->nsteps == 1 && ro->def->steps[0].prim == KP_LOAD)
		t->once_tags = ro->def->steps[0].ev[IR_TAG_EV];
	if (rmb && rmb->kind == K_DEF && rmb->def->nsteps == 1 &&
	    rmb->def->steps[0].prim == KP_FENCE)
		t->rmb_tags = rmb->def->steps[0].ev[IR_TAG_EV];
	return !p->d->set;
}

struct kapi_table *kdef_parse(const char *path, const char *text, int syntactic,
			      struct diag *d)
{
	struct arena *a = arena_new();
	struct kapi_table *t = arena_alloc(a, sizeof *t);
	memset(t, 0, sizeof *t);
	t->arena = a;
	t->syntactic = syntactic;
	struct kp p = {.path = path, .s = text, .line = 1, .t = t, .d = d};
	for (;;) {
		skip(&p);
		if (!p.s[p.i])
			break;
		if (!definition(&p)) {
			arena_free(a);
			return NULL;
		}
	}
	if (!add_idioms(&p)) {
		arena_free(a);
		return NULL;
	}
	return t;
}

void kapi_table_free(struct kapi_table *t)
{
	if (t)
		arena_free(t->arena);
}
