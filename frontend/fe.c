/*
 * fe.c - helpers shared by the front-end passes (see fe.h): positions and
 * located errors, the C types lkmmc models, and the tables of locations and
 * registers that the passes fill in.
 *
 * It does not parse anything itself.
 */
#include "fe.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"

struct ir_pos fe_pos(const struct fe *fe, size_t off)
{
	struct ir_pos pos = {0, 0};
	if (fe->nlines == 0)
		return pos;
	/* Binary search for the last line starting at or before off. */
	int lo = 0, hi = fe->nlines - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (fe->lines[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	pos.line = lo + 1;
	pos.col = (int)(off - fe->lines[lo]) + 1;
	return pos;
}

int fe_error(struct fe *fe, size_t off, const char *fmt, ...)
{
	if (fe->d->set)
		return 0;
	char msg[sizeof fe->d->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct ir_pos pos = fe_pos(fe, off);
	return diag_error(fe->d, fe->file, pos.line, pos.col, "%s", msg);
}

void *fe_reserve(struct arena *arena, void *arr, size_t elem, int n, int *cap)
{
	if (n < *cap)
		return arr;
	int ncap = (int)xgrow_cap((size_t)*cap, (size_t)n + 1, 8);
	arr = arena_grow(arena, arr, elem, (size_t)n, (size_t)ncap);
	*cap = ncap;
	return arr;
}

int fe_word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p, w, n) == 0;
}

/* Base types that hold integers (or, cast, addresses). */
static const char *const int_words[] = {
	"int", "long", "short", "char", "unsigned", "signed", NULL,
};
static const char *const int_typedefs[] = {
	"intptr_t", "uintptr_t", "size_t", "bool", "_Bool", "u8", "u16",
	"u32", "u64", "s8", "s16", "s32", "s64", "int8_t", "int16_t",
	"int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
	NULL,
};

static int in_list(const char *const *list, const char *p, size_t n)
{
	for (int i = 0; list[i]; i++)
		if (fe_word_is(p, n, list[i]))
			return 1;
	return 0;
}

int fe_type_kind(const char *ctype)
{
	int stars = 0, nwords = 0, nint = 0, ntypedef = 0, is_void = 0;
	int other_struct = 0;
	int kind = -1;
	const char *p = ctype;
	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '*') {
			stars++;
			p++;
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_')
			return -1;
		const char *w = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		size_t n = (size_t)(p - w);
		if (stars)
			return -1; /* a word after a '*' */
		if (fe_word_is(w, n, "volatile") || fe_word_is(w, n, "const"))
			continue;
		nwords++;
		if (in_list(int_words, w, n)) {
			nint++;
		} else if (in_list(int_typedefs, w, n)) {
			ntypedef++;
		} else if (fe_word_is(w, n, "atomic_t") ||
			   fe_word_is(w, n, "atomic_long_t")) {
			kind = IR_LOC_ATOMIC;
		} else if (fe_word_is(w, n, "spinlock_t") ||
			   fe_word_is(w, n, "pthread_mutex_t")) {
			/* a program's mutex is the model's one lock */
			kind = IR_LOC_SPINLOCK;
		} else if (fe_word_is(w, n, "struct") ||
			   fe_word_is(w, n, "union")) {
			while (isspace((unsigned char)*p))
				p++;
			const char *t = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (p == t)
				return -1;
			if (fe_word_is(t, (size_t)(p - t), "srcu_struct"))
				kind = IR_LOC_SRCU;
			else
				other_struct = 1; /* only as a pointer */
		} else if (fe_word_is(w, n, "void")) {
			is_void = 1;
		} else {
			return -1;
		}
	}
	if (nwords == 0)
		return -1;
	if (kind >= 0 || is_void || other_struct) {
		if (nwords != 1)
			return -1;
	} else if (ntypedef > 1 || (ntypedef && nint)) {
		return -1;
	}
	if (stars)
		return IR_LOC_PTR;
	if (is_void || other_struct)
		return -1;
	return kind >= 0 ? kind : IR_LOC_INT;
}

int fe_typedef_name(const char *ctype)
{
	const char *p = ctype;
	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	while (*p == ' ' || *p == '*')
		p++;
	return *p == '\0';
}

int fe_is_struct_type(const char *ctype)
{
	size_t n = strncmp(ctype, "union ", 6) == 0 ? 6
		 : strncmp(ctype, "struct ", 7) == 0 ? 7 : 0;
	if (!n || fe_type_kind(ctype) >= 0)
		return 0;
	for (const char *p = ctype + n; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return ctype[n] != '\0';
}

const char *fe_kind_name(enum ir_loc_kind kind)
{
	switch (kind) {
	case IR_LOC_INT: return "an integer";
	case IR_LOC_PTR: return "a pointer";
	case IR_LOC_ATOMIC: return "an atomic_t";
	case IR_LOC_SPINLOCK: return "a spinlock_t";
	case IR_LOC_SRCU: return "a struct srcu_struct";
	}
	return "?";
}

int fe_loc_use(struct fe *fe, const char *name, size_t off)
{
	struct ir_program *prog = fe->prog;
	int i = ir_find_loc(prog, name);
	if (i >= 0)
		return i;
	int cap = fe->locs_cap;
	fe->locx = fe_reserve(fe->arena, fe->locx, sizeof *fe->locx,
			      prog->nlocs, &cap);
	prog->locs = fe_reserve(fe->arena, prog->locs, sizeof *prog->locs,
				prog->nlocs, &fe->locs_cap);
	i = prog->nlocs++;
	struct ir_location *loc = &prog->locs[i];
	loc->name = arena_strdup(fe->arena, name);
	loc->ctype = "int";
	loc->kind = IR_LOC_INT;
	loc->init.kind = IR_VAL_INT;
	loc->init.num = 0;
	loc->pos = fe_pos(fe, off);
	return i;
}

int fe_loc_declare(struct fe *fe, const char *name, const char *ctype,
		   size_t off)
{
	int kind = fe_type_kind(ctype);
	if (kind < 0 && fe_is_struct_type(ctype)) {
		/* A struct object: cparse.c lays out its fields. */
		int i = fe_loc_use(fe, name, off);
		struct fe_locx *x = &fe->locx[i];
		struct ir_location *loc = &fe->prog->locs[i];
		size_t n = strlen(ctype);
		if (x->is_object && strncmp(loc->ctype, ctype, n) == 0 &&
		    loc->ctype[n] == '[')
			return i; /* "struct foo *a" for "struct foo a[2]" */
		if (x->kind_known && strcmp(loc->ctype, ctype) != 0) {
			fe_error(fe, off, "location '%s' is %s here but %s at "
				 "line %d:%d; use one type for it everywhere",
				 name, ctype, loc->ctype, x->kpos.line,
				 x->kpos.col);
			return -1;
		}
		loc->ctype = arena_strdup(fe->arena, ctype);
		x->is_object = 1;
		if (!x->kind_known)
			x->kpos = fe_pos(fe, off);
		x->kind_known = 1;
		return i;
	}
	if (kind < 0 && (fe->preamble_end > fe->preamble_off ||
			 fe->typedefs) && fe_typedef_name(ctype)) {
		/* foo_t, foo_t *: a typedef of the preamble (layout.c). */
		int i = fe_loc_use(fe, name, off);
		struct fe_locx *x = &fe->locx[i];
		struct ir_location *loc = &fe->prog->locs[i];
		if (strchr(ctype, '*')) {
			if (!x->is_object) {
				loc->kind = IR_LOC_PTR;
				loc->ctype = arena_strdup(fe->arena, ctype);
			}
		} else if (!x->kind_known) {
			loc->ctype = arena_strdup(fe->arena, ctype);
			x->is_object = x->typedef_obj = 1;
		}
		if (!x->kind_known)
			x->kpos = fe_pos(fe, off);
		x->kind_known = 1;
		return i;
	}
	if (kind < 0) {
		fe_error(fe, off,
			 "type '%s' of '%s' is not modelled (use int, long, "
			 "intptr_t, a pointer, atomic_t, spinlock_t or struct "
			 "srcu_struct)", ctype, name);
		return -1;
	}
	int i = fe_loc_use(fe, name, off);
	struct ir_location *loc = &fe->prog->locs[i];
	struct fe_locx *x = &fe->locx[i];
	if (x->is_object)
		return i; /* "int *a" for the array "int a[3]" */
	if (!x->kind_known) {
		loc->kind = (enum ir_loc_kind)kind;
		loc->ctype = arena_strdup(fe->arena, ctype);
		x->kind_known = 1;
		x->kpos = fe_pos(fe, off);
		return i;
	}
	/* int and pointer mix (a pointer wins); herd7 also accepts "int *s"
	 * in one process and "struct srcu_struct *s" in another: the special
	 * kind wins.  Two different special kinds cannot be reconciled. */
	int old = loc->kind;
	int intlike_old = old == IR_LOC_INT || old == IR_LOC_PTR;
	int intlike_new = kind == IR_LOC_INT || kind == IR_LOC_PTR;
	if (old == kind || intlike_new) {
		if (kind == IR_LOC_PTR && old == IR_LOC_INT)
			loc->kind = IR_LOC_PTR;
		return i;
	}
	if (intlike_old) {
		loc->kind = (enum ir_loc_kind)kind;
		loc->ctype = arena_strdup(fe->arena, ctype);
		x->kpos = fe_pos(fe, off);
		return i;
	}
	fe_error(fe, off,
		 "location '%s' is %s here but %s at line %d:%d (%s); use one "
		 "type for it everywhere", name,
		 fe_kind_name((enum ir_loc_kind)kind), fe_kind_name(loc->kind),
		 x->kpos.line, x->kpos.col, loc->ctype);
	return -1;
}

int fe_array_declare(struct fe *fe, const char *name, const char *ctype,
		     long n, size_t off)
{
	int i = fe_loc_use(fe, name, off);
	struct fe_locx *x = &fe->locx[i];
	struct ir_location *loc = &fe->prog->locs[i];
	if (x->kind_known) {
		fe_error(fe, off, "'%s' is declared twice (first at line %d:%d)",
			 name, x->kpos.line, x->kpos.col);
		return -1;
	}
	loc->ctype = arena_printf(fe->arena, "%s[%ld]", ctype, n);
	x->is_object = 1;
	x->kind_known = 1;
	x->kpos = fe_pos(fe, off);
	for (long k = 0; k < n; k++) {
		int e = fe_loc_declare(fe, arena_printf(fe->arena, "%s[%ld]",
							name, k), ctype, off);
		if (e < 0)
			return -1;
		fe->locx[e].in_layout = 1;
	}
	return i;
}

int fe_reg_find(const struct fe *fe, int tid, const char *name)
{
	const struct ir_thread *th = &fe->prog->threads[tid];
	for (int i = 0; i < th->nregs; i++)
		if (strcmp(th->regs[i].name, name) == 0)
			return i;
	return -1;
}

static int reg_add(struct fe *fe, int tid, const char *name, const char *ctype,
		   int is_temp, struct ir_pos pos)
{
	struct ir_thread *th = &fe->prog->threads[tid];
	th->regs = fe_reserve(fe->arena, th->regs, sizeof *th->regs, th->nregs,
			      &fe->regs_cap[tid]);
	int i = th->nregs++;
	struct ir_reg *r = &th->regs[i];
	r->name = name;
	r->ctype = ctype ? ctype : "int";
	r->is_temp = is_temp;
	r->has_init = 0;
	r->init.kind = IR_VAL_INT;
	r->init.num = 0;
	r->pos = pos;
	return i;
}

int fe_reg_use(struct fe *fe, int tid, const char *name, const char *ctype,
	       struct ir_pos pos)
{
	int i = fe_reg_find(fe, tid, name);
	if (i >= 0)
		return i;
	return reg_add(fe, tid, arena_strdup(fe->arena, name),
		       ctype ? arena_strdup(fe->arena, ctype) : NULL, 0, pos);
}

int fe_reg_temp(struct fe *fe, int tid, struct ir_pos pos)
{
	int n = ++fe->ntemps[tid];
	return reg_add(fe, tid, arena_printf(fe->arena, "%%t%d", n), "int", 1,
		       pos);
}

char *fe_text_squash(struct fe *fe, size_t a, size_t b)
{
	if (b > fe->len)
		b = fe->len;
	if (a > b)
		a = b;
	char *out = arena_alloc(fe->arena, b - a + 1);
	size_t n = 0;
	int space = 0;
	for (size_t i = a; i < b; i++) {
		char c = fe->text[i];
		if (isspace((unsigned char)c)) {
			space = 1;
			continue;
		}
		if (space && n > 0)
			out[n++] = ' ';
		space = 0;
		out[n++] = c;
	}
	out[n] = '\0';
	return out;
}
