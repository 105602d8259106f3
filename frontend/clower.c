/*
 * clower.c - lowers one process body, as parsed by libclang, into IR
 * instructions (see clower.h).
 *
 * Every memory access, fence or kernel primitive becomes its own
 * instruction in C's left-to-right order; expressions that contain several
 * accesses are flattened into temporaries (%tN); "&&", "||" and "?:" whose
 * later operands contain accesses become IR_IF so that short-circuit order
 * is kept; loops become IR_LOOP with IR_IF + IR_BREAK.  Casts are dropped.
 * A parameter "int *x" is the address of location x (IR_E_LOC); every other
 * variable is a register, declared or not (herd7's implicit registers).
 *
 * Kernel C beyond herd7's dialect: calls of the preamble's helpers are
 * inlined (parameters and locals become registers "helper:name", an early
 * return leaves a one-pass IR_LOOP, recursion is bounded by --unroll);
 * switch is a one-pass IR_LOOP whose statements run once a label matched;
 * a backward goto is the continue of a loop from its label, a forward one
 * the break of a loop ending at it; struct fields and array elements are
 * locations ("s.f", "a[1]"), and an access through a computed pointer or
 * index chooses among them with IR_E_COND (an address dependency; an index
 * also gets an IR_ASSERT that it is in range); the smp_cond_load family is
 * a READ_ONCE loop.  Operators come from the source text (libclang 14 has
 * no API for them), inside macros from where the #define spells them.
 *
 * It does not run libclang (cparse.c does), lay out structs (layout.c) nor
 * read the litmus syntax.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "clower.h"
#include "ctu.h"
#include "cscan.h"
#include "fe.h"
#include "kapi.h"

/* A block being built. */
struct bb {
	struct ir_instr *v; /* instructions */
	int n, cap;         /* count, room */
};

/* Where an instruction comes from. */
struct src {
	struct ir_pos pos; /* line:col of the call or statement */
	const char *text;  /* its source text */
};

/* What is known about a register while lowering (parallel to regs). */
struct regx {
	int implicit;     /* never declared: herd7 implicit register */
	int assigned;     /* written somewhere (or initialised) */
	size_t first_use; /* litmus offset of its first use */
};

/* What a parameter or local of an inlined helper stands for. */
struct binding {
	CXCursor decl;        /* its ParmDecl or VarDecl */
	int reg;              /* the register holding it, -1 when val is set */
	struct ir_expr *val;  /* a parameter bound to a constant or address */
};

/* One inlined call of a helper function of the preamble. */
struct frame {
	CXCursor fn;            /* the helper's definition */
	const char *name;       /* its name */
	int instance;           /* which inlined call of the thread (1, 2, ...) */
	int ret;                /* register of the return value, -1 for void */
	int flag;               /* set to 1 by a return inside a loop, -1 if none */
	int wrapped;            /* 1: the body is a one-pass IR_LOOP that a
				 * return leaves with IR_BREAK */
	int loop_base;          /* open loops when the body started */
	int nreturns;           /* return statements lowered so far */
	int cond_at_entry;      /* lw.cond when the call was inlined */
	size_t call_off;        /* litmus offset of the call in the litmus file
				 * (positions in headers map there) */
	struct binding *binds;  /* its parameters and locals */
	int nbinds, cap;        /* count, room */
	struct frame *outer;    /* the caller's frame, NULL in the process body */
};

/* A label whose gotos are lowered as the continue (backward) or break
 * (forward) of a one-pass loop around the code between them. */
struct jump {
	CXCursor label;  /* the LabelStmt */
	int depth;       /* w->nloops inside that loop */
	int backward;    /* 1: goto = IR_CONTINUE; 0: goto = IR_BREAK */
};

/* What an open loop of the IR is, for break and continue. */
enum loop_kind {
	LOOP_NO_CONTINUE, /* continue would skip a do-while's test or a for's
			   * increment, or leave an inlined helper's body */
	LOOP_CONTINUE,    /* a loop continue may go round again */
	LOOP_SWITCH,      /* the one-pass loop of a switch */
	LOOP_GOTO,        /* the one-pass loop of a goto region */
};

/* The lowering of one thread. */
struct lw {
	struct ctu *t;            /* the test and its TU */
	struct fe *fe;            /* the parse */
	const struct fe_proc *p;  /* the process */
	int tid;                  /* its thread index */
	enum loop_kind loops[64]; /* open loops, innermost last */
	int nloops;               /* how many */
	struct regx *rx;          /* per register */
	int nrx;                  /* room in rx */
	struct frame *fr;         /* innermost inlined helper, NULL if none */
	int ninlines;             /* helper calls inlined so far */
	int cond;                 /* nesting of conditional code (if arms,
				   * loop bodies, && || ?: operands) */
	struct jump *jumps;       /* labels that gotos may reach */
	int njumps, jcap;         /* count, room */
};

/* Pseudo destinations for call(). */
#define DST_NONE (-1)   /* result discarded */
#define DST_VALUE (-2)  /* result wanted in a fresh temporary */

/* --- positions and text ------------------------------------------------ */

/* Offset in the virtual file of a location; (size_t)-1 in another file
 * (a header the preamble includes). */
static size_t vfile_off(const struct ctu *t, CXSourceLocation loc)
{
	unsigned off = 0;
	CXFile f = NULL;
	clang_getFileLocation(loc, &f, NULL, NULL, &off);
	if (f && !clang_File_isEqual(f, t->main_file))
		return (size_t)-1;
	return off;
}

static size_t b_start_t(const struct ctu *t, CXCursor c)
{
	return vfile_off(t, clang_getRangeStart(clang_getCursorExtent(c)));
}

static size_t b_end_t(const struct ctu *t, CXCursor c)
{
	return vfile_off(t, clang_getRangeEnd(clang_getCursorExtent(c)));
}

#define b_start(c) b_start_t(w->t, (c))
#define b_end(c) b_end_t(w->t, (c))

/* Litmus offset of a buffer offset (the call of the helper, or the body
 * start, when unmapped). */
static size_t lit(const struct lw *w, size_t boff)
{
	size_t off = ctu_lit_off(w->t, boff);
	if (off != (size_t)-1)
		return off;
	return w->fr ? w->fr->call_off : w->p->body_off;
}

static struct src src_of(const struct lw *w, CXCursor c)
{
	size_t a = lit(w, b_start(c)), e = lit(w, b_end(c));
	struct src s = { fe_pos(w->fe, a), fe_text_squash(w->fe, a, e) };
	return s;
}

static int err_at(struct lw *w, CXCursor c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int err_at(struct lw *w, CXCursor c, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fe_error(w->fe, lit(w, b_start(c)), "%s", msg);
}

/* The cursor's spelling, copied into the IR arena. */
static char *spell(struct lw *w, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = arena_strdup(w->fe->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* The operator token at buffer offset off, into op[4]. */
static void op_at(const struct lw *w, size_t off, char op[4])
{
	struct ctok tok = cscan_token(w->t->buf, off, w->t->len);
	op[0] = '\0';
	if (tok.kind == CT_PUNCT && tok.len < 4) {
		memcpy(op, w->t->buf + tok.off, tok.len);
		op[tok.len] = '\0';
	}
}

/* --- cursors ----------------------------------------------------------- */

/* The expression children of c; returns how many. */
static int expr_kids(struct lw *w, CXCursor c, CXCursor *out, int max)
{
	CXCursor *k;
	int n = ctu_kids(w->t, c, &k), m = 0;
	for (int i = 0; i < n; i++)
		if (clang_isExpression(clang_getCursorKind(k[i]))) {
			if (m < max)
				out[m] = k[i];
			m++;
		}
	return m;
}

/* An implicit conversion: an UnexposedExpr spanning exactly its one
 * operand.  Other UnexposedExprs are clang RecoveryExprs (see opform). */
static int transparent(struct lw *w, CXCursor c)
{
	CXCursor kid[1];
	return expr_kids(w, c, kid, 1) == 1 && b_start(c) == b_start(kid[0]) &&
	       b_end(c) == b_end(kid[0]);
}

/* Strip parentheses, casts and implicit conversions. */
static CXCursor strip(struct lw *w, CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor kid[1];
		if (k == CXCursor_UnexposedExpr ? !transparent(w, c)
		    : k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
			return c;
		if (expr_kids(w, c, kid, 1) != 1)
			return c;
		c = kid[0];
	}
}

/* An operator expression: UnaryOperator, BinaryOperator,
 * CompoundAssignOperator, or a RecoveryExpr of either shape (an expression
 * with a type error that clang kept; see cparse.c).  libclang 14 does not
 * give operators, so they are read from the source. */
struct opform {
	int nkids;       /* 1 unary, 2 binary, 0 not an operator expression */
	CXCursor kid[2]; /* the operands */
	char op[4];      /* the operator token */
	int postfix;     /* unary x++ / x-- */
	int in_macro;    /* the operator is not in the source text (it comes
			  * from a macro's body) */
};

/* Does the ',' at off separate the arguments of a call (or of a macro:
 * "a - b" in "#define SUB(a, b) a - b" reads as SUB(x, y) around the
 * comma), rather than being a comma operator?  It does when the innermost
 * '(' still open before it follows a name that is not a keyword. */
static int arg_comma(const char *t, size_t off)
{
	static const char *const kw[] = {
		"for", "while", "if", "switch", "return", "sizeof", "case", NULL,
	};
	int depth = 0;
	while (off-- > 0) {
		char c = t[off];
		if (c == ')' || c == ']')
			depth++;
		else if ((c == '(' || c == '[') && depth > 0)
			depth--;
		else if (c == '[' || c == '{' || c == '}' || c == ';')
			return 0;
		else if (c == '(')
			break;
	}
	if (off == (size_t)-1)
		return 0;
	size_t e = off;
	while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t'))
		e--;
	size_t b = e;
	while (b > 0 && (isalnum((unsigned char)t[b - 1]) || t[b - 1] == '_'))
		b--;
	if (b == e || isdigit((unsigned char)t[b]))
		return 0;
	for (int i = 0; kw[i]; i++)
		if (fe_word_is(t + b, e - b, kw[i]))
			return 0;
	return 1;
}

/* Where the first token of c is spelled in the virtual file: inside a
 * macro's body for code the macro expands to (libclang's tokens are
 * spelling positions, its cursor positions are not); -1 if unknown. */
static size_t spelled_at(struct lw *w, CXCursor c)
{
	CXToken *tk;
	unsigned n = 0;
	clang_tokenize(w->t->tu, clang_getCursorExtent(c), &tk, &n);
	size_t off = (size_t)-1;
	if (n > 0)
		off = vfile_off(w->t, clang_getTokenLocation(w->t->tu, tk[0]));
	clang_disposeTokens(w->t->tu, tk, n);
	return off;
}

/* The operator of e, written in a macro's body: the token just before
 * the last operand, when both are spelled in the same #define (so
 * "#define NEXT(v) ((v) + 1)" works, but "a + b" with parameters a, b
 * unparenthesised does not: the operands are spelled where the macro is
 * used).  Returns 1 and sets f->op (and f->postfix) when found. */
static int macro_op(struct lw *w, CXCursor e, struct opform *f)
{
	size_t se = spelled_at(w, e), sk = spelled_at(w, f->kid[f->nkids - 1]);
	if (se == (size_t)-1 || sk == (size_t)-1 || sk < se)
		return 0;
	const char *t = w->t->buf;
	for (size_t i = se; i < sk; i++)
		if (t[i] == '\n' && (i == 0 || t[i - 1] != '\\'))
			return 0; /* not in one #define */
	size_t ls = se; /* the start of the (continued) line */
	while (ls > 0 && !(t[ls - 1] == '\n' && (ls < 2 || t[ls - 2] != '\\')))
		ls--;
	while (t[ls] == ' ' || t[ls] == '\t')
		ls++;
	if (t[ls] != '#')
		return 0; /* spelled where the macro is used, not in its body */
	if (f->nkids == 1 && sk == se) {
		/* Postfix x++ / x--: the token after the operand. */
		return 0;
	}
	/* The last token that starts before sk. */
	size_t off = se, last = (size_t)-1;
	for (;;) {
		struct ctok tok = cscan_token(t, off, sk);
		if (tok.kind == CT_EOF || tok.kind == CT_BAD)
			break;
		last = tok.off;
		off = tok.off + tok.len;
	}
	struct ctok tok = last == (size_t)-1 ? (struct ctok){ CT_EOF, 0, 0 }
		: cscan_token(t, last, sk);
	if (tok.kind != CT_PUNCT || tok.len >= 4)
		return 0;
	memcpy(f->op, t + tok.off, tok.len);
	f->op[tok.len] = '\0';
	f->postfix = 0;
	return 1;
}

static void opform(struct lw *w, CXCursor e, struct opform *f)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	f->nkids = 0;
	f->op[0] = '\0';
	f->postfix = 0;
	f->in_macro = 0;
	if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator &&
	    k != CXCursor_CompoundAssignOperator &&
	    !(k == CXCursor_UnexposedExpr && !transparent(w, e)))
		return;
	int n = expr_kids(w, e, f->kid, 2);
	size_t at = 0, lo = 0, hi = 0; /* operator offset and its bounds */
	if (n == 1) {
		f->postfix = b_start(e) == b_start(f->kid[0]);
		at = f->postfix ? b_end(f->kid[0]) : b_start(e);
		lo = f->postfix ? b_end(f->kid[0]) : b_start(e);
		hi = f->postfix ? b_end(e) : b_start(f->kid[0]);
		f->nkids = 1;
	} else if (n == 2) {
		at = lo = b_end(f->kid[0]);
		hi = b_start(f->kid[1]);
		f->nkids = 2;
	} else {
		return;
	}
	op_at(w, at, f->op);
	/* In a macro expansion the operands map to the macro's name and
	 * the operator is not in the text: no room for it there. */
	struct ctok tok = cscan_token(w->t->buf, at, w->t->len);
	f->in_macro = at == (size_t)-1 || tok.off < lo ||
		      tok.off + tok.len > hi ||
		      (strcmp(f->op, ",") == 0 && arg_comma(w->t->buf, tok.off));
	if (f->in_macro && macro_op(w, e, f))
		f->in_macro = 0;
}

/* Is op an assignment operator ("=", "+=", ...)? */
static int is_assign_op(const char *op)
{
	size_t n = strlen(op);
	return n > 0 && op[n - 1] == '=' && strcmp(op, "==") != 0 &&
	       strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 &&
	       strcmp(op, ">=") != 0;
}

static int binop_of(const char *op, enum ir_binop *out)
{
	static const struct { const char *s; enum ir_binop op; } map[] = {
		{ "+", IR_ADD }, { "-", IR_SUB }, { "*", IR_MUL },
		{ "/", IR_DIV }, { "%", IR_MOD }, { "&", IR_BAND },
		{ "|", IR_BOR }, { "^", IR_BXOR }, { "<<", IR_SHL },
		{ ">>", IR_SHR }, { "==", IR_EQ }, { "!=", IR_NE },
		{ "<", IR_LT }, { "<=", IR_LE }, { ">", IR_GT },
		{ ">=", IR_GE }, { "&&", IR_LAND }, { "||", IR_LOR },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].s, op) == 0) {
			*out = map[i].op;
			return 1;
		}
	return 0;
}

/* --- IR construction --------------------------------------------------- */

static struct ir_expr *mk(struct lw *w, enum ir_expr_kind kind, struct ir_pos pos)
{
	struct ir_expr *e = arena_alloc(w->fe->arena, sizeof *e);
	e->kind = kind;
	e->pos = pos;
	return e;
}

static struct ir_expr *mk_const(struct lw *w, long num, struct ir_pos pos)
{
	struct ir_expr *e = mk(w, IR_E_CONST, pos);
	e->num = num;
	return e;
}

static struct ir_expr *mk_reg(struct lw *w, int reg, struct ir_pos pos)
{
	struct ir_expr *e = mk(w, IR_E_REG, pos);
	e->reg = reg;
	return e;
}

static struct ir_expr *mk_un(struct lw *w, enum ir_unop op, struct ir_expr *a)
{
	struct ir_expr *e = mk(w, IR_E_UNARY, a->pos);
	e->op = op;
	e->a = a;
	return e;
}

static struct ir_expr *mk_bin(struct lw *w, enum ir_binop op, struct ir_expr *a,
			      struct ir_expr *b)
{
	struct ir_expr *e = mk(w, IR_E_BINARY, a->pos);
	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

/* Track register r (grow rx as registers appear). */
static struct regx *rx(struct lw *w, int r)
{
	if (r >= w->nrx) {
		int cap = (int)xgrow_cap((size_t)w->nrx, (size_t)r + 1, 16);
		w->rx = arena_grow(w->t->scratch, w->rx, sizeof *w->rx,
				   (size_t)w->nrx, (size_t)cap);
		w->nrx = cap;
	}
	return &w->rx[r];
}

static int temp(struct lw *w, struct ir_pos pos)
{
	int r = fe_reg_temp(w->fe, w->tid, pos);
	rx(w, r)->assigned = 1;
	return r;
}

/* A new instruction at the end of b; valid until the next emit into b. */
static struct ir_instr *emit(struct lw *w, struct bb *b, enum ir_op op,
			     struct src s, int dst)
{
	b->v = fe_reserve(w->fe->arena, b->v, sizeof *b->v, b->n, &b->cap);
	struct ir_instr *in = &b->v[b->n++];
	memset(in, 0, sizeof *in);
	in->op = op;
	in->pos = s.pos;
	in->text = s.text;
	in->dst = dst;
	if (dst >= 0)
		rx(w, dst)->assigned = 1;
	return in;
}

static struct ir_block fin(struct bb *b)
{
	struct ir_block blk = { b->v, b->n };
	return blk;
}

/* --- expressions ------------------------------------------------------- */

static struct ir_expr *rv(struct lw *w, CXCursor c, struct bb *b);
static int call(struct lw *w, CXCursor c, struct bb *b, int dst, struct src s,
		struct ir_expr **val);
static int stmt(struct lw *w, CXCursor c, struct bb *b);
static int push_loop(struct lw *w, CXCursor c, enum loop_kind kind);
static int block_items(struct lw *w, CXCursor *k, int n, struct bb *b,
		       int looped);
static int switch_stmt(struct lw *w, CXCursor c, struct bb *b);
static int goto_stmt(struct lw *w, CXCursor c, struct bb *b);
static struct src head_src(struct lw *w, CXCursor c, CXCursor *cond);
static int decl(struct lw *w, CXCursor vd, struct bb *b);
static void leave_if_returned(struct lw *w, struct bb *b, struct src s,
			      int returns_before);
static struct ir_expr *lv_addr(struct lw *w, CXCursor c, struct bb *b);

/* The binding of decl in the innermost helper frame, or NULL. */
static struct binding *bound(struct lw *w, CXCursor decl)
{
	if (!w->fr)
		return NULL;
	for (int i = 0; i < w->fr->nbinds; i++)
		if (clang_equalCursors(w->fr->binds[i].decl, decl))
			return &w->fr->binds[i];
	return NULL;
}

static struct binding *bind(struct lw *w, CXCursor decl, int reg,
			    struct ir_expr *val)
{
	struct frame *f = w->fr;
	f->binds = fe_reserve(w->t->scratch, f->binds, sizeof *f->binds,
			      f->nbinds, &f->cap);
	struct binding *bd = &f->binds[f->nbinds++];
	bd->decl = decl;
	bd->reg = reg;
	bd->val = val;
	return bd;
}

/* A fresh register for a parameter or local of the helper being inlined:
 * "helper:name", "helper:name#2" for the second inlined call. */
static int frame_reg(struct lw *w, CXCursor decl)
{
	struct frame *f = w->fr;
	CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
	char *ctype = arena_strdup(w->fe->arena, clang_getCString(ts));
	clang_disposeString(ts);
	char *name = f->instance > 1
		? arena_printf(w->fe->arena, "%s:%s#%d", f->name,
			       spell(w, decl), f->instance)
		: arena_printf(w->fe->arena, "%s:%s", f->name, spell(w, decl));
	unsigned off = 0;
	clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL, NULL,
			      &off);
	int r = fe_reg_use(w->fe, w->tid, name, ctype,
			   fe_pos(w->fe, lit(w, vfile_off(
				   w->t, clang_getCursorLocation(decl)))));
	rx(w, r)->assigned = 1;
	bind(w, decl, r, NULL);
	return r;
}

/* The register a VarDecl names, created on first use. */
static int reg_of(struct lw *w, CXCursor decl, CXCursor use)
{
	if (w->fr) {
		struct binding *bd = bound(w, decl);
		if (bd && bd->reg >= 0)
			return bd->reg;
		if (!bd)
			return frame_reg(w, decl);
	}
	char *name = spell(w, decl);
	int implicit = ctu_lit_off(w->t, b_start(decl)) == (size_t)-1;
	char *ctype = NULL;
	struct ir_pos pos;
	if (implicit) {
		pos = fe_pos(w->fe, lit(w, b_start(use)));
	} else {
		CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
		ctype = arena_strdup(w->fe->arena, clang_getCString(ts));
		clang_disposeString(ts);
		unsigned off = 0;
		clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL,
				      NULL, &off);
		pos = fe_pos(w->fe, lit(w, off));

	}
	int r = fe_reg_use(w->fe, w->tid, name, ctype, pos);
	struct regx *x = rx(w, r);
	if (implicit && !x->implicit) {
		x->implicit = 1;
		x->first_use = lit(w, b_start(use));
	}
	if (!implicit)
		x->assigned = 1; /* declared: a C variable, 0 or its init */
	return r;
}

/* A use of a declared name: parameter, register or enum constant. */
static struct ir_expr *ref(struct lw *w, CXCursor e)
{
	CXCursor d = clang_getCursorReferenced(e);
	struct ir_pos pos = fe_pos(w->fe, lit(w, b_start(e)));
	struct binding *bd = bound(w, d);
	if (bd)
		return bd->val ? bd->val : mk_reg(w, bd->reg, pos);
	switch (clang_getCursorKind(d)) {
	case CXCursor_ParmDecl: {
		struct ir_expr *x = mk(w, IR_E_LOC, pos);
		x->loc = ir_find_loc(w->fe->prog, spell(w, d));
		return x;
	}
	case CXCursor_VarDecl:
		return mk_reg(w, reg_of(w, d, e), pos);
	case CXCursor_EnumConstantDecl:
		return mk_const(w, (long)clang_getEnumConstantDeclValue(d), pos);
	default:
		err_at(w, e, "'%s' cannot be used as a value here", spell(w, e));
		return NULL;
	}
}

/* The register an assignment target names, or -1 (error recorded). */
static int target_reg(struct lw *w, CXCursor lhs, const char *what)
{
	CXCursor e = strip(w, lhs);
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		struct binding *bd = bound(w, d);
		if (bd && bd->reg >= 0)
			return bd->reg;
		if (bd) {
			char *n = spell(w, e);
			err_at(w, lhs, "cannot %s parameter '%s' of helper '%s': "
			       "it stands for the address or constant passed "
			       "in; copy it into a local variable first", what,
			       n, w->fr->name);
			return -1;
		}
		if (clang_getCursorKind(d) == CXCursor_VarDecl)
			return reg_of(w, d, e);
		if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
			char *n = spell(w, e);
			err_at(w, lhs,
			       "cannot %s '%s': it is the address of a shared "
			       "location; write *%s = v or WRITE_ONCE(*%s, v)",
			       what, n, n, n);
			return -1;
		}
	}
	err_at(w, lhs, "cannot %s this expression: only registers and *p can "
	       "be assigned", what);
	return -1;
}

/* Is c (stripped) memory: a prefix "*p" (sets *ptr to p), a struct field
 * "s->f" / "s.f" or an array element "a[i]" (sets *ptr to c)?  lv_addr()
 * gives its address. */
static int is_deref(struct lw *w, CXCursor c, CXCursor *ptr)
{
	struct opform f;
	enum CXCursorKind k = clang_getCursorKind(strip(w, c));
	if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
		*ptr = c;
		return 1;
	}
	opform(w, strip(w, c), &f);
	if (f.nkids != 1 || f.postfix || f.in_macro || strcmp(f.op, "*") != 0)
		return 0;
	*ptr = f.kid[0];
	return 1;
}

/* dst = value of rhs, with the access itself writing dst when rhs is one
 * (r = READ_ONCE(*x) is one load, not a load and a copy). */
static int assign_to(struct lw *w, int dst, CXCursor rhs, struct bb *b,
		     struct src s)
{
	CXCursor e = strip(w, rhs), ptr;
	if (clang_getCursorKind(e) == CXCursor_CallExpr) {
		struct ir_expr *v;
		return call(w, e, b, dst, s, &v);
	}
	if (is_deref(w, e, &ptr)) {
		struct ir_expr *a = lv_addr(w, e, b);
		if (!a)
			return 0;
		struct ir_instr *in = emit(w, b, IR_LOAD, s, dst);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return 1;
	}
	struct ir_expr *v = rv(w, rhs, b);
	if (!v)
		return 0;
	emit(w, b, IR_ASSIGN, s, dst)->a = v;
	return 1;
}

/* r = r op v for a register, or a plain load and store for *p. */
static int update(struct lw *w, CXCursor target, enum ir_binop op,
		  const CXCursor *rhs, struct bb *b, struct src s, int in_expr,
		  struct ir_expr **val)
{
	CXCursor ptr;
	struct ir_expr *v;
	if (is_deref(w, target, &ptr)) {
		if (in_expr)
			return err_at(w, target,
				      "a store inside an expression cannot be "
				      "ordered; make it a statement of its own");
		struct ir_expr *a = lv_addr(w, target, b);
		if (!a)
			return 0;
		int t = temp(w, s.pos);
		struct ir_instr *in = emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		v = rhs ? rv(w, *rhs, b) : mk_const(w, 1, s.pos);
		if (!v)
			return 0;
		in = emit(w, b, IR_STORE, s, -1);
		in->a = a;
		in->b = mk_bin(w, op, mk_reg(w, t, s.pos), v);
		in->order = IR_ORD_PLAIN;
		*val = NULL;
		return 1;
	}
	int r = target_reg(w, target, "assign to");
	if (r < 0)
		return 0;
	v = rhs ? rv(w, *rhs, b) : mk_const(w, 1, s.pos);
	if (!v)
		return 0;
	emit(w, b, IR_ASSIGN, s, r)->a = mk_bin(w, op, mk_reg(w, r, s.pos), v);
	*val = mk_reg(w, r, s.pos);
	return 1;
}

static struct ir_expr *unary(struct lw *w, CXCursor e, const struct opform *f,
			      struct bb *b)
{
	CXCursor child = f->kid[0];
	const char *op = f->op;
	int postfix = f->postfix;
	struct src s = src_of(w, e);
	if (strcmp(op, "*") == 0) {
		struct ir_expr *a = rv(w, child, b);
		if (!a)
			return NULL;
		int t = temp(w, s.pos);
		struct ir_instr *in = emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return mk_reg(w, t, s.pos);
	}
	if (strcmp(op, "&") == 0) {
		CXCursor ptr;
		if (is_deref(w, child, &ptr))
			return lv_addr(w, child, b);
		err_at(w, e, "cannot take the address of '%s' in a process "
		       "body; parameters are already addresses (use x, not &x)",
		       src_of(w, child).text);
		return NULL;
	}
	if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
		enum ir_binop bop = op[0] == '+' ? IR_ADD : IR_SUB;
		if (is_deref(w, child, &(CXCursor){0}))
			return err_at(w, e, "'%s' of memory inside an expression "
				      "cannot be ordered; make it a statement",
				      op), NULL;
		int r = target_reg(w, child, "increment");
		if (r < 0)
			return NULL;
		int t = r;
		if (postfix) {
			t = temp(w, s.pos);
			emit(w, b, IR_ASSIGN, s, t)->a = mk_reg(w, r, s.pos);
		}
		emit(w, b, IR_ASSIGN, s, r)->a =
			mk_bin(w, bop, mk_reg(w, r, s.pos), mk_const(w, 1, s.pos));
		return mk_reg(w, t, s.pos);
	}
	struct ir_expr *a = rv(w, child, b);
	if (!a)
		return NULL;
	if (strcmp(op, "-") == 0)
		return mk_un(w, IR_NEG, a);
	if (strcmp(op, "!") == 0)
		return mk_un(w, IR_LNOT, a);
	if (strcmp(op, "~") == 0)
		return mk_un(w, IR_BNOT, a);
	if (strcmp(op, "+") == 0)
		return a;
	err_at(w, e, "unsupported operator '%s'", op);
	return NULL;
}

/* a && b, a || b, a ? b : c whose later operands contain accesses. */
static struct ir_expr *branchy(struct lw *w, CXCursor e, struct ir_expr *ea,
			       const CXCursor *then_c, const CXCursor *else_c,
			       enum ir_binop op, struct bb *b)
{
	struct src s = src_of(w, e);
	struct bb tb = {0}, eb = {0};
	w->cond++;
	struct ir_expr *et = then_c ? rv(w, *then_c, &tb) : NULL;
	struct ir_expr *ee = else_c ? rv(w, *else_c, &eb) : NULL;
	w->cond--;
	if ((then_c && !et) || (else_c && !ee))
		return NULL;
	struct ir_pos p = s.pos;
	if (tb.n == 0 && eb.n == 0) {
		if (op == IR_LAND || op == IR_LOR)
			return mk_bin(w, op, ea, et ? et : ee);
		struct ir_expr *x = mk(w, IR_E_COND, ea->pos);
		x->a = ea;
		x->b = et;
		x->c = ee;
		return x;
	}
	int t = temp(w, p);
	/* &&: then = (b != 0), else = 0; ||: then = 1, else = (b != 0). */
	if (op == IR_LAND || op == IR_LOR) {
		struct ir_expr *bv = mk_bin(w, IR_NE, et ? et : ee,
					    mk_const(w, 0, p));
		struct bb *side = op == IR_LAND ? &tb : &eb;
		emit(w, side, IR_ASSIGN, s, t)->a = bv;
		emit(w, op == IR_LAND ? &eb : &tb, IR_ASSIGN, s, t)->a =
			mk_const(w, op == IR_LOR, p);
	} else {
		emit(w, &tb, IR_ASSIGN, s, t)->a = et;
		emit(w, &eb, IR_ASSIGN, s, t)->a = ee;
	}
	struct ir_instr *in = emit(w, b, IR_IF, s, -1);
	in->a = ea;
	in->then_b = fin(&tb);
	in->else_b = fin(&eb);
	return mk_reg(w, t, p);
}

static struct ir_expr *compound(struct lw *w, CXCursor e,
				const struct opform *f, struct bb *b,
				struct src s, int in_expr);

static struct ir_expr *binary(struct lw *w, CXCursor e, const struct opform *f,
			      struct bb *b)
{
	const CXCursor *kid = f->kid;
	const char *op = f->op;
	struct src s = src_of(w, e);
	if (strcmp(op, "=") != 0 && is_assign_op(op))
		return compound(w, e, f, b, s, 1);
	if (strcmp(op, "=") == 0) {
		CXCursor ptr;
		if (is_deref(w, kid[0], &ptr)) {
			err_at(w, e, "a store inside an expression cannot be "
			       "ordered; make it a statement of its own");
			return NULL;
		}
		int r = target_reg(w, kid[0], "assign to");
		if (r < 0 || !assign_to(w, r, kid[1], b, s))
			return NULL;
		return mk_reg(w, r, s.pos);
	}
	if (strcmp(op, ",") == 0)
		return rv(w, kid[0], b) ? rv(w, kid[1], b) : NULL;
	enum ir_binop bop;
	if (!binop_of(op, &bop)) {
		err_at(w, e, "unsupported operator '%s'", op);
		return NULL;
	}
	struct ir_expr *ea = rv(w, kid[0], b);
	if (!ea)
		return NULL;
	if (bop == IR_LAND)
		return branchy(w, e, ea, &kid[1], NULL, bop, b);
	if (bop == IR_LOR)
		return branchy(w, e, ea, NULL, &kid[1], bop, b);
	struct ir_expr *eb = rv(w, kid[1], b);
	if (!eb)
		return NULL;
	for (int i = 0; i < 2; i++) {
		/* Arithmetic on the address of an array or struct of the init
		 * block: a + k is &a[k]; anything else has no location. */
		struct ir_expr *o = i ? eb : ea, *k = i ? ea : eb;
		if (o->kind != IR_E_LOC || !w->fe->locx[o->loc].is_object)
			continue;
		const char *on = w->fe->prog->locs[o->loc].name;
		int l = -1;
		if (k->kind == IR_E_CONST && (bop == IR_ADD || (bop == IR_SUB && !i)))
			l = ir_find_loc(w->fe->prog, arena_printf(w->fe->arena,
				"%s[%ld]", on, bop == IR_ADD ? k->num : -k->num));
		if (bop != IR_ADD && bop != IR_SUB)
			break;
		if (l < 0) {
			err_at(w, e, "pointer arithmetic on '%s' must give one "
			       "of its elements with a constant offset; write "
			       "%s[i]", on, on);
			return NULL;
		}
		struct ir_expr *x = mk(w, IR_E_LOC, o->pos);
		x->loc = l;
		return x;
	}
	return mk_bin(w, bop, ea, eb);
}

static struct ir_expr *compound(struct lw *w, CXCursor e,
				const struct opform *f, struct bb *b,
				struct src s, int in_expr)
{
	char op[4];
	memcpy(op, f->op, sizeof op);
	size_t n = strlen(op);
	enum ir_binop bop;
	op[n - 1] = '\0';
	if (!binop_of(op, &bop)) {
		err_at(w, e, "unsupported assignment operator '%s='", op);
		return NULL;
	}
	struct ir_expr *val;
	if (!update(w, f->kid[0], bop, &f->kid[1], b, s, in_expr, &val))
		return NULL;
	return val ? val : mk_const(w, 0, s.pos);
}

static struct ir_expr *constant(struct lw *w, CXCursor e)
{
	CXEvalResult r = clang_Cursor_Evaluate(e);
	if (!r || clang_EvalResult_getKind(r) != CXEval_Int) {
		if (r)
			clang_EvalResult_dispose(r);
		err_at(w, e, "unsupported constant");
		return NULL;
	}
	long v = (long)clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return mk_const(w, v, fe_pos(w->fe, lit(w, b_start(e))));
}

static struct ir_expr *rv(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor e = strip(w, c);
	switch (clang_getCursorKind(e)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
		return constant(w, e);
	case CXCursor_DeclRefExpr:
		return ref(w, e);
	case CXCursor_UnaryOperator:
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
	case CXCursor_UnexposedExpr: {
		struct opform f;
		opform(w, e, &f);
		if (f.nkids && f.in_macro) {
			err_at(w, e, "cannot read this operator of a macro: "
			       "lkmmc reads operators from the source text "
			       "(libclang 14 does not give them), which works "
			       "when the macro puts its parameters in "
			       "parentheses, as in ((a) - (b)); or write it as "
			       "a static inline function");
			return NULL;
		}
		if (f.nkids == 1)
			return unary(w, e, &f, b);
		if (f.nkids == 2)
			return binary(w, e, &f, b);
		break;
	}
	case CXCursor_ConditionalOperator: {
		CXCursor kid[3];
		if (expr_kids(w, e, kid, 3) != 3) {
			err_at(w, e, "unsupported conditional expression");
			return NULL;
		}
		struct ir_expr *ea = rv(w, kid[0], b);
		return ea ? branchy(w, e, ea, &kid[1], &kid[2], IR_EQ, b) : NULL;
	}
	case CXCursor_CallExpr: {
		struct ir_expr *v = NULL;
		return call(w, e, b, DST_VALUE, src_of(w, e), &v) ? v : NULL;
	}
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr: {
		/* A plain read of a field or element. */
		struct ir_expr *a = lv_addr(w, e, b);
		if (!a)
			return NULL;
		struct src s = src_of(w, e);
		int t = temp(w, s.pos);
		struct ir_instr *in = emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return mk_reg(w, t, s.pos);
	}
	case CXCursor_StmtExpr: {
		/* ({ s1; ...; e; }): the statements, then e's value. */
		CXCursor *k, *body;
		int n = ctu_kids(w->t, e, &k);
		int m = n == 1 ? ctu_kids(w->t, k[0], &body) : 0;
		for (int i = 0; i + 1 < m; i++)
			if (!stmt(w, body[i], b))
				return NULL;
		if (m > 0 && clang_isExpression(clang_getCursorKind(body[m - 1])))
			return rv(w, body[m - 1], b);
		if (m > 0 && !stmt(w, body[m - 1], b))
			return NULL;
		return mk_const(w, 0, fe_pos(w->fe, lit(w, b_start(e))));
	}
	default:
		break;
	}
	CXString k = clang_getCursorKindSpelling(clang_getCursorKind(e));
	err_at(w, e, "unsupported C expression '%s' (%s)", src_of(w, e).text,
	       clang_getCString(k));
	clang_disposeString(k);
	return NULL;
}

/* --- struct fields and array elements ---------------------------------- */

/* The canonical spelling of a type ("struct foo"). */
static char *type_name(struct lw *w, CXType ty)
{
	CXString ts = clang_getTypeSpelling(clang_getCanonicalType(ty));
	char *r = arena_strdup(w->fe->arena, clang_getCString(ts));
	clang_disposeString(ts);
	return r;
}

/* The address of part suffix (".f", "[2]") of the object whose address is
 * obj and whose type is tname: that location when obj is known, else a
 * choice over every object of that type (an address dependency on obj);
 * an address that is no such object is accessed as it is. */
static struct ir_expr *select_part(struct lw *w, CXCursor at,
				   struct ir_expr *obj, const char *tname,
				   const char *suffix)
{
	const struct ir_program *prog = w->fe->prog;
	if (obj->kind == IR_E_LOC) {
		const char *n = arena_printf(w->fe->arena, "%s%s",
					     prog->locs[obj->loc].name, suffix);
		int l = ir_find_loc(prog, n);
		if (l < 0) {
			err_at(w, at, "no location '%s': '%s' has no such "
			       "field or element", n, prog->locs[obj->loc].name);
			return NULL;
		}
		struct ir_expr *x = mk(w, IR_E_LOC, obj->pos);
		x->loc = l;
		return x;
	}
	if (obj->kind == IR_E_COND && obj->b->kind == IR_E_LOC) {
		/* A choice made by an outer field access: choose inside. */
		struct ir_expr *b = select_part(w, at, obj->b, tname, suffix);
		struct ir_expr *c = obj->c->kind == IR_E_LOC ||
				    obj->c->kind == IR_E_COND
			? select_part(w, at, obj->c, tname, suffix) : obj->c;
		if (!b || !c)
			return NULL;
		struct ir_expr *x = mk(w, IR_E_COND, obj->pos);
		x->a = obj->a;
		x->b = b;
		x->c = c;
		return x;
	}
	struct ir_expr *r = obj;
	for (int i = prog->nlocs - 1; i >= 0; i--) {
		if (strcmp(prog->locs[i].ctype, tname) != 0)
			continue;
		const char *n = arena_printf(w->fe->arena, "%s%s",
					     prog->locs[i].name, suffix);
		int l = ir_find_loc(prog, n);
		if (l < 0)
			continue;
		struct ir_expr *base = mk(w, IR_E_LOC, obj->pos), *part;
		base->loc = i;
		part = mk(w, IR_E_LOC, obj->pos);
		part->loc = l;
		struct ir_expr *c = mk(w, IR_E_COND, obj->pos);
		c->a = mk_bin(w, IR_EQ, obj, base);
		c->b = part;
		c->c = r;
		r = c;
	}
	return r;
}

/* a[ix] with ix computed: an assertion that ix is in range (an execution
 * that indexes out of range is reported as a failing assertion), then a
 * choice among the n elements (an address dependency on ix). */
static struct ir_expr *index_choice(struct lw *w, CXCursor e, struct bb *b,
				    struct ir_expr *obj, struct ir_expr *ix,
				    long n, const char *tname)
{
	struct src s = src_of(w, e);
	struct src as = s;
	as.text = arena_printf(w->fe->arena, "index in range: %s", s.text);
	emit(w, b, IR_ASSERT, as, -1)->a =
		mk_bin(w, IR_LAND, mk_bin(w, IR_GE, ix, mk_const(w, 0, s.pos)),
		       mk_bin(w, IR_LT, ix, mk_const(w, n, s.pos)));
	/* Out of range, the access goes to the array object itself, which
	 * holds nothing; the assertion has reported it. */
	struct ir_expr *r = obj;
	for (long i = n - 1; i >= 0; i--) {
		struct ir_expr *el = select_part(w, e, obj, tname,
			arena_printf(w->fe->arena, "[%ld]", i));
		if (!el)
			return NULL;
		struct ir_expr *x = mk(w, IR_E_COND, s.pos);
		x->a = mk_bin(w, IR_EQ, ix, mk_const(w, i, s.pos));
		x->b = el;
		x->c = r;
		r = x;
	}
	return r;
}

/* The address of memory lvalue c: "*p", "s->f", "s.f", "a[i]". */
static struct ir_expr *lv_addr(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor e = strip(w, c), kid[2];
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_MemberRefExpr) {
		if (expr_kids(w, e, kid, 1) != 1) {
			err_at(w, e, "unsupported field access");
			return NULL;
		}
		CXType bt = clang_getCanonicalType(clang_getCursorType(kid[0]));
		int arrow = bt.kind == CXType_Pointer;
		struct ir_expr *obj = arrow ? rv(w, kid[0], b)
					    : lv_addr(w, kid[0], b);
		if (!obj)
			return NULL;
		char *tn = type_name(w, arrow ? clang_getPointeeType(bt) : bt);
		return select_part(w, e, obj, tn,
				   arena_printf(w->fe->arena, ".%s", spell(w, e)));
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		if (expr_kids(w, e, kid, 2) != 2) {
			err_at(w, e, "unsupported array access");
			return NULL;
		}
		CXCursor base = strip(w, kid[0]);
		CXType at = clang_getCanonicalType(clang_getCursorType(base));
		struct ir_expr *obj;
		long n;
		const char *tname;
		if (at.kind == CXType_ConstantArray) {
			obj = lv_addr(w, base, b);
			n = clang_getNumElements(at);
			tname = type_name(w, at);
		} else {
			/* A pointer: it must be a parameter naming an array
			 * of the init block ("int *a" for "int a[3]"). */
			obj = rv(w, base, b);
			if (!obj)
				return NULL;
			int l = obj->kind == IR_E_LOC ? obj->loc : -1;
			const char *ct = l >= 0 ? w->fe->prog->locs[l].ctype : "";
			const char *lb = strrchr(ct, '[');
			if (l < 0 || !w->fe->locx[l].is_object || !lb) {
				err_at(w, e, "indexing is supported on arrays: "
				       "a parameter naming an array of the init "
				       "block, or an array in a struct");
				return NULL;
			}
			n = strtol(lb + 1, NULL, 10);
			tname = ct;
		}
		struct ir_expr *ix = obj ? rv(w, kid[1], b) : NULL;
		if (!ix)
			return NULL;
		if (ix->kind != IR_E_CONST)
			return index_choice(w, e, b, obj, ix, n, tname);
		if (ix->num < 0 || ix->num >= n) {
			err_at(w, kid[1], "index %ld is out of range: the array "
			       "has %ld elements", ix->num, n);
			return NULL;
		}
		return select_part(w, e, obj, tname,
				   arena_printf(w->fe->arena, "[%ld]", ix->num));
	}
	CXCursor ptr;
	if (!is_deref(w, e, &ptr)) {
		err_at(w, e, "not memory: expected *p, s->f, s.f or a[i]");
		return NULL;
	}
	struct ir_expr *a = rv(w, ptr, b);
	if (a && a->kind == IR_E_LOC && w->fe->locx[a->loc].is_object) {
		/* *a of an array is a[0]; a struct is not one location. */
		const struct ir_location *o = &w->fe->prog->locs[a->loc];
		const char *n = arena_printf(w->fe->arena, "%s[0]", o->name);
		int l = ir_find_loc(w->fe->prog, n);
		if (l < 0) {
			err_at(w, e, "'%s' is a %s, not one location: access "
			       "its fields", o->name, o->ctype);
			return NULL;
		}
		a = mk(w, IR_E_LOC, a->pos);
		a->loc = l;
	}
	return a;
}

/* --- kernel primitives ------------------------------------------------- */

/* The address operand of primitive k from argument arg. */
static struct ir_expr *address(struct lw *w, CXCursor arg,
			       const struct kapi *k, struct bb *b)
{
	if (!k->addr_lvalue)
		return rv(w, arg, b);
	CXCursor ptr;
	if (is_deref(w, arg, &ptr))
		return lv_addr(w, arg, b);
	err_at(w, arg, "%s takes a dereference such as %s(*x), not '%s'",
	       k->name, k->name, src_of(w, arg).text);
	return NULL;
}

/* Does the cursor tree contain a statement of kind k? */
struct find_kind {
	enum CXCursorKind kind; /* what is looked for */
	int n;                  /* how many were found */
};

static enum CXChildVisitResult count_kind(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	(void)parent;
	struct find_kind *fk = data;
	if (clang_getCursorKind(c) == fk->kind)
		fk->n++;
	return CXChildVisit_Recurse;
}

static int count_of(CXCursor c, enum CXCursorKind kind)
{
	struct find_kind fk = { kind, 0 };
	clang_visitChildren(c, count_kind, &fk);
	return fk.n;
}

/* Inline a call of helper def: parameters become registers (or stand for
 * the address or constant passed), the body is lowered in place, and a
 * return that is not the body's last statement leaves a one-pass IR_LOOP
 * around the body. */
static int inline_call(struct lw *w, CXCursor c, CXCursor def, struct bb *b,
		       int dst, struct src s, struct ir_expr **val)
{
	char *name = spell(w, def);
	struct frame *first = NULL;
	int depth = 0;
	for (struct frame *f = w->fr; f; f = f->outer)
		if (clang_equalCursors(f->fn, def)) {
			depth++;
			first = f;
		}
	if (depth > w->fe->unroll) {
		/* Past the bound.  A call reached only under a condition (an
		 * if, a loop, an earlier return) fails an assertion when some
		 * execution reaches it (the call is not run: its value is 0);
		 * one reached unconditionally always recurses. */
		int cond = first && w->cond > first->cond_at_entry;
		for (struct frame *f = w->fr; f && !cond; f = f->outer) {
			cond = f->nreturns > 0;
			if (f == first)
				break;
		}
		if (!cond)
			return err_at(w, c, "recursion deeper than --unroll %d: "
				      "'%s' calls itself unconditionally",
				      w->fe->unroll, name);
		struct src as = s;
		as.text = arena_printf(w->fe->arena, "recursion deeper than "
				       "--unroll %d: %s (not run; raise "
				       "--unroll)", w->fe->unroll, s.text);
		emit(w, b, IR_ASSERT, as, -1)->a = mk_const(w, 0, s.pos);
		if (dst == DST_VALUE)
			dst = temp(w, s.pos);
		if (dst >= 0)
			emit(w, b, IR_ASSIGN, as, dst)->a = mk_const(w, 0, s.pos);
		*val = dst >= 0 ? mk_reg(w, dst, s.pos) : NULL;
		return 1;
	}
	CXCursor *k;
	int nk = ctu_kids(w->t, def, &k);
	if (nk == 0 || clang_getCursorKind(k[nk - 1]) != CXCursor_CompoundStmt)
		return err_at(w, c, "internal error: no body for '%s'", name);
	CXCursor body = k[nk - 1];
	int nargs = clang_Cursor_getNumArguments(c);
	if (nargs != clang_Cursor_getNumArguments(def))
		return err_at(w, c, "'%s' takes %d arguments but %d are given",
			      name, clang_Cursor_getNumArguments(def), nargs);
	struct ir_expr **argv = arena_alloc(w->t->scratch,
					    (size_t)(nargs + 1) * sizeof *argv);
	for (int i = 0; i < nargs; i++) {
		argv[i] = rv(w, clang_Cursor_getArgument(c, (unsigned)i), b);
		if (!argv[i])
			return 0;
	}
	struct frame fr = {
		.fn = def, .name = name, .instance = ++w->ninlines, .ret = -1,
		.flag = -1, .loop_base = w->nloops, .cond_at_entry = w->cond,
		.outer = w->fr,
	};
	size_t here = ctu_lit_off(w->t, b_start(c));
	fr.call_off = here != (size_t)-1 ? here
		    : w->fr ? w->fr->call_off : w->p->body_off;
	CXType rt = clang_getCursorResultType(def);
	if (rt.kind != CXType_Void)
		fr.ret = temp(w, s.pos);
	/* Only a return as the body's last statement needs no jump. */
	CXCursor *bk;
	int nb = ctu_kids(w->t, body, &bk);
	int nret = count_of(body, CXCursor_ReturnStmt);
	int tail = nb > 0 && clang_getCursorKind(bk[nb - 1]) == CXCursor_ReturnStmt;
	fr.wrapped = nret > (tail ? 1 : 0);
	w->fr = &fr;
	for (int i = 0; i < nargs; i++) {
		CXCursor pd = clang_Cursor_getArgument(def, (unsigned)i);
		if (argv[i]->kind == IR_E_LOC || argv[i]->kind == IR_E_CONST) {
			bind(w, pd, -1, argv[i]);
			continue;
		}
		int r = frame_reg(w, pd);
		emit(w, b, IR_ASSIGN, s, r)->a = argv[i];
	}
	int ok;
	if (fr.wrapped) {
		if (count_of(body, CXCursor_WhileStmt) +
		    count_of(body, CXCursor_DoStmt) +
		    count_of(body, CXCursor_ForStmt) +
		    count_of(body, CXCursor_SwitchStmt) +
		    count_of(body, CXCursor_LabelStmt) > 0) {
			fr.flag = temp(w, s.pos);
			emit(w, b, IR_ASSIGN, s, fr.flag)->a = mk_const(w, 0, s.pos);
		}
		struct bb lb = {0};
		ok = push_loop(w, c, LOOP_NO_CONTINUE) && stmt(w, body, &lb);
		if (ok) {
			w->nloops--;
			emit(w, &lb, IR_BREAK, s, -1);
			emit(w, b, IR_LOOP, s, -1)->then_b = fin(&lb);
		}
	} else {
		ok = stmt(w, body, b);
	}
	w->fr = fr.outer;
	if (!ok)
		return 0;
	if (dst >= 0 && fr.ret >= 0)
		emit(w, b, IR_ASSIGN, s, dst)->a = mk_reg(w, fr.ret, s.pos);
	else if (dst >= 0 || (dst == DST_VALUE && fr.ret < 0))
		return err_at(w, c, "'%s' returns nothing; it cannot be used "
			      "in an expression or assigned", name);
	*val = dst >= 0 ? mk_reg(w, dst, s.pos)
	     : dst == DST_VALUE ? mk_reg(w, fr.ret, s.pos) : NULL;
	return 1;
}

/* smp_cond_load_acquire(p, cond) and friends, as the prelude macros pass
 * them: (p, ({ long VAL; (cond); })).  Lowered as the kernel defines them:
 *     loop { VAL = READ_ONCE(*p); if (cond) break; }  [smp_rmb();]
 * with the value VAL. */
static int cond_load(struct lw *w, CXCursor c, const struct kapi *k,
		     struct bb *b, int dst, struct src s, struct ir_expr **val)
{
	CXCursor se = strip(w, clang_Cursor_getArgument(c, 1)), *sk, *body, *dk;
	int n = clang_getCursorKind(se) == CXCursor_StmtExpr
		? ctu_kids(w->t, se, &sk) : 0;
	int m = n == 1 ? ctu_kids(w->t, sk[0], &body) : 0;
	if (m != 2 || clang_getCursorKind(body[0]) != CXCursor_DeclStmt ||
	    ctu_kids(w->t, body[0], &dk) != 1)
		return err_at(w, c, "internal error: malformed %s", k->name);
	struct ir_expr *addr = rv(w, clang_Cursor_getArgument(c, 0), b);
	if (!addr)
		return 0;
	int r = reg_of(w, dk[0], dk[0]);
	struct bb lb = {0}, tb = {0};
	struct ir_instr *in = emit(w, &lb, IR_LOAD, s, r);
	in->a = addr;
	in->order = IR_ORD_ONCE;
	w->cond++;
	struct ir_expr *cond = rv(w, body[1], &lb);
	w->cond--;
	if (!cond)
		return 0;
	emit(w, &tb, IR_BREAK, s, -1);
	in = emit(w, &lb, IR_IF, s, -1);
	in->a = cond;
	in->then_b = fin(&tb);
	emit(w, b, IR_LOOP, s, -1)->then_b = fin(&lb);
	if (k->order == IR_ORD_ACQUIRE)
		emit(w, b, IR_FENCE, s, -1)->fence = k->fence;
	if (dst == DST_VALUE)
		dst = temp(w, s.pos);
	if (dst >= 0)
		emit(w, b, IR_ASSIGN, s, dst)->a = mk_reg(w, r, s.pos);
	*val = dst >= 0 ? mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

static int call(struct lw *w, CXCursor c, struct bb *b, int dst, struct src s,
		struct ir_expr **val)
{
	char *name = spell(w, c);
	const struct kapi *k = kapi_find(name);
	if (!k) {
		CXCursor callee = clang_getCursorReferenced(c);
		enum CXCursorKind ck = clang_getCursorKind(callee);
		if (ck == CXCursor_FunctionDecl) {
			CXCursor def = clang_getCursorDefinition(callee);
			if (clang_getCursorKind(def) == CXCursor_FunctionDecl)
				return inline_call(w, c, def, b, dst, s, val);
		}
		if (!*name || ck == CXCursor_VarDecl || ck == CXCursor_ParmDecl ||
		    ck == CXCursor_FieldDecl)
			return err_at(w, c, "unsupported call: calls through "
				      "function pointers are not supported; "
				      "call a kernel primitive or a helper "
				      "defined in the preamble");
		static const char *const alloc[] = {
			"kmalloc", "kzalloc", "kcalloc", "kmalloc_array",
			"vmalloc", "vzalloc", "kvmalloc", "kmem_cache_alloc",
			"malloc", "calloc", "realloc", "kfree", "vfree",
			"kvfree", "free", "kfree_rcu", NULL,
		};
		for (int i = 0; alloc[i]; i++)
			if (strcmp(name, alloc[i]) == 0)
				return err_at(w, c, "dynamic allocation ('%s') "
					      "is not supported: declare the "
					      "objects as shared locations in "
					      "the init block", name);
		return err_at(w, c, "unknown kernel primitive '%s' (lkmmc "
			      "knows the macros of linux-kernel.def and "
			      "atomic_add_unless)", name);
	}
	int nargs = clang_Cursor_getNumArguments(c);
	if (k->kind == K_COND_LOAD && nargs == 2)
		return cond_load(w, c, k, b, dst, s, val);
	if (nargs != k->nargs)
		return err_at(w, c, "'%s' takes %d argument%s but %d %s given",
			      name, k->nargs, k->nargs == 1 ? "" : "s", nargs,
			      nargs == 1 ? "is" : "are");
	if (dst != DST_NONE && !k->returns)
		return err_at(w, c, "'%s' has no value; it cannot be used in "
			      "an expression or assigned", name);
	struct ir_expr *addr = NULL, *v[3] = { NULL, NULL, NULL };
	int nv = 0;
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		struct ir_expr *x = i == k->addr_arg ? address(w, arg, k, b)
						     : rv(w, arg, b);
		if (!x)
			return 0;
		if (i == k->addr_arg)
			addr = x;
		else
			v[nv++] = x;
	}
	if (k->implicit_one)
		v[nv++] = mk_const(w, 1, s.pos);
	if (dst == DST_VALUE)
		dst = temp(w, s.pos);
	struct ir_instr *in;
	switch (k->kind) {
	case K_LOAD:
		in = emit(w, b, IR_LOAD, s, dst);
		in->a = addr;
		in->order = k->order;
		break;
	case K_STORE:
	case K_STORE_MB:
		in = emit(w, b, IR_STORE, s, -1);
		in->a = addr;
		in->b = v[0];
		in->order = k->order;
		if (k->kind == K_STORE_MB)
			emit(w, b, IR_FENCE, s, -1)->fence = k->fence;
		break;
	case K_FENCE:
		emit(w, b, IR_FENCE, s, -1)->fence = k->fence;
		break;
	case K_RMW:
	case K_RMW_TEST: {
		int t = k->kind == K_RMW_TEST ? temp(w, s.pos) : dst;
		in = emit(w, b, IR_RMW, s, t);
		in->a = addr;
		in->b = v[0];
		in->c = v[1];
		in->order = k->order;
		in->rmw = k->rmw;
		in->arith = k->arith;
		if (k->kind == K_RMW_TEST && dst >= 0)
			emit(w, b, IR_ASSIGN, s, dst)->a =
				mk_bin(w, k->test, mk_reg(w, t, s.pos),
				       mk_const(w, 0, s.pos));
		break;
	}
	case K_LOCK:
		emit(w, b, IR_LOCK, s, -1)->a = addr;
		break;
	case K_UNLOCK:
		emit(w, b, IR_UNLOCK, s, -1)->a = addr;
		break;
	case K_TRYLOCK:
		emit(w, b, IR_TRYLOCK, s, dst)->a = addr;
		break;
	case K_ISLOCKED:
		emit(w, b, IR_ISLOCKED, s, dst)->a = addr;
		break;
	case K_SRCU_LOCK:
		emit(w, b, IR_SRCU_LOCK, s, dst)->a = addr;
		break;
	case K_SRCU_UNLOCK:
		in = emit(w, b, IR_SRCU_UNLOCK, s, -1);
		in->a = addr;
		in->b = v[0];
		break;
	case K_SRCU_SYNC:
		emit(w, b, IR_SRCU_SYNC, s, -1)->a = addr;
		break;
	case K_ASSERT:
		emit(w, b, IR_ASSERT, s, -1)->a =
			k->test == IR_NE ? mk_un(w, IR_LNOT, v[0]) : v[0];
		if (dst >= 0)
			emit(w, b, IR_ASSIGN, s, dst)->a =
				mk_bin(w, IR_NE, v[0], mk_const(w, 0, s.pos));
		break;
	case K_NOP:
	case K_COND_LOAD:
		break;
	}
	*val = dst >= 0 ? mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

/* --- statements -------------------------------------------------------- */

static int expr_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	struct src s = src_of(w, c);
	CXCursor e = strip(w, c), ptr;
	struct ir_expr *v;
	if (clang_getCursorKind(e) == CXCursor_CallExpr)
		return call(w, e, b, DST_NONE, s, &v);
	struct opform f;
	opform(w, e, &f);
	if (f.nkids && f.in_macro)
		return rv(w, c, b) != NULL; /* the error */
	if (f.nkids == 2 && strcmp(f.op, "=") == 0) {
		if (is_deref(w, f.kid[0], &ptr)) {
			struct ir_expr *a = lv_addr(w, f.kid[0], b);
			struct ir_expr *x = a ? rv(w, f.kid[1], b) : NULL;
			if (!x)
				return 0;
			struct ir_instr *in = emit(w, b, IR_STORE, s, -1);
			in->a = a;
			in->b = x;
			in->order = IR_ORD_PLAIN;
			return 1;
		}
		int r = target_reg(w, f.kid[0], "assign to");
		return r >= 0 && assign_to(w, r, f.kid[1], b, s);
	}
	if (f.nkids == 2 && is_assign_op(f.op))
		return compound(w, e, &f, b, s, 0) != NULL;
	if (f.nkids == 1 && (strcmp(f.op, "++") == 0 || strcmp(f.op, "--") == 0))
		return update(w, f.kid[0], f.op[0] == '+' ? IR_ADD : IR_SUB,
			      NULL, b, s, 0, &v);
	return rv(w, c, b) != NULL;
}

/* if (!c) break; */
static void break_unless(struct lw *w, struct bb *b, struct ir_expr *c,
			 struct src s)
{
	if (c->kind == IR_E_CONST && c->num != 0)
		return;
	struct bb tb = {0};
	emit(w, &tb, IR_BREAK, s, -1);
	struct ir_instr *in = emit(w, b, IR_IF, s, -1);
	in->a = mk_un(w, IR_LNOT, c);
	in->then_b = fin(&tb);
}

static int push_loop(struct lw *w, CXCursor c, enum loop_kind kind)
{
	if (w->nloops == (int)(sizeof w->loops / sizeof w->loops[0]))
		return err_at(w, c, "loops nested too deeply");
	w->loops[w->nloops++] = kind;
	return 1;
}

/* The head of an if/while/for, "keyword (...)", as its text; for a
 * do-while, "do ... while (cond)". */
static struct src head_src(struct lw *w, CXCursor c, CXCursor *cond)
{
	struct src s = src_of(w, c);
	if (clang_getCursorKind(c) == CXCursor_DoStmt) {
		s.text = arena_printf(w->fe->arena, "do ... while (%s)",
				      cond ? src_of(w, *cond).text : "");
		return s;
	}
	size_t off = b_start(c);
	int depth = 0;
	for (;;) {
		struct ctok tok = cscan_token(w->t->buf, off, w->t->len);
		if (tok.kind == CT_EOF || tok.kind == CT_BAD)
			return s;
		off = tok.off + tok.len;
		if (tok.kind != CT_PUNCT || tok.len != 1)
			continue;
		if (w->t->buf[tok.off] == '(')
			depth++;
		else if (w->t->buf[tok.off] == ')' && --depth == 0)
			break;
	}
	s.text = fe_text_squash(w->fe, lit(w, b_start(c)), lit(w, off));
	return s;
}

static int if_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor *k;
	int n = ctu_kids(w->t, c, &k);
	if (n < 2 || n > 3)
		return err_at(w, c, "malformed if statement");
	struct src s = head_src(w, c, &k[0]);
	struct ir_expr *ec = rv(w, k[0], b);
	if (!ec)
		return 0;
	struct bb tb = {0}, eb = {0};
	w->cond++;
	int ok = stmt(w, k[1], &tb) && (n < 3 || stmt(w, k[2], &eb));
	w->cond--;
	if (!ok)
		return 0;
	struct ir_instr *in = emit(w, b, IR_IF, s, -1);
	in->a = ec;
	in->then_b = fin(&tb);
	in->else_b = fin(&eb);
	return 1;
}

static int loop_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	enum CXCursorKind kind = clang_getCursorKind(c);
	CXCursor *k;
	int n = ctu_kids(w->t, c, &k);
	/* Slots: init, cond, inc, body (absent ones are NULL). */
	CXCursor *init = NULL, *cond = NULL, *inc = NULL, *body = NULL;
	if (kind == CXCursor_WhileStmt && n == 2) {
		cond = &k[0];
		body = &k[1];
	} else if (kind == CXCursor_DoStmt && n == 2) {
		body = &k[0];
		cond = &k[1];
	} else if (kind == CXCursor_ForStmt && n >= 1) {
		/* libclang skips absent parts: place each child by where it
		 * starts relative to the two ';' and the ')'. */
		size_t semi[2] = { 0, 0 }, rpar = 0, off = b_start(c);
		int depth = 0, ns = 0;
		for (;;) {
			struct ctok tok = cscan_token(w->t->buf, off, w->t->len);
			if (tok.kind == CT_EOF || tok.kind == CT_BAD)
				return err_at(w, c, "malformed for statement");
			off = tok.off + tok.len;
			char ch = w->t->buf[tok.off];
			if (tok.kind != CT_PUNCT || tok.len != 1)
				continue;
			if (ch == '(')
				depth++;
			else if (ch == ')' && --depth == 0) {
				rpar = tok.off;
				break;
			} else if (ch == ';' && depth == 1 && ns < 2)
				semi[ns++] = tok.off;
		}
		for (int i = 0; i < n; i++) {
			size_t st = b_start(k[i]);
			if (st < semi[0])
				init = &k[i];
			else if (st < semi[1])
				cond = &k[i];
			else if (st < rpar)
				inc = &k[i];
			else
				body = &k[i];
		}
	} else {
		return err_at(w, c, "malformed loop");
	}
	if (!body)
		return err_at(w, c, "malformed loop");
	struct src s = head_src(w, c, cond);
	int returns_before = w->fr ? w->fr->nreturns : 0;
	if (init && !(clang_getCursorKind(*init) == CXCursor_DeclStmt
		      ? stmt(w, *init, b) : expr_stmt(w, *init, b)))
		return 0;
	struct bb lb = {0};
	if (kind != CXCursor_DoStmt && cond) {
		struct ir_expr *ec = rv(w, *cond, &lb);
		if (!ec)
			return 0;
		break_unless(w, &lb, ec, s);
	}
	/* "continue" would skip a do-while's test or a for's increment. */
	if (!push_loop(w, c, (kind == CXCursor_WhileStmt || !inc)
			    ? LOOP_CONTINUE : LOOP_NO_CONTINUE))
		return 0;
	if (kind == CXCursor_DoStmt)
		w->loops[w->nloops - 1] = LOOP_NO_CONTINUE;
	w->cond++;
	int ok = stmt(w, *body, &lb);
	w->cond--;
	if (!ok)
		return 0;
	w->nloops--;
	if (inc && !expr_stmt(w, *inc, &lb))
		return 0;
	if (kind == CXCursor_DoStmt) {
		struct ir_expr *ec = rv(w, *cond, &lb);
		if (!ec)
			return 0;
		break_unless(w, &lb, ec, s);
	}
	emit(w, b, IR_LOOP, s, -1)->then_b = fin(&lb);
	leave_if_returned(w, b, s, returns_before);
	return 1;
}

static int decl(struct lw *w, CXCursor vd, struct bb *b)
{
	if (clang_getCursorKind(vd) != CXCursor_VarDecl)
		return err_at(w, vd, "unsupported declaration in a process body");
	CXType ty = clang_getCanonicalType(clang_getCursorType(vd));
	CXString ts = clang_getTypeSpelling(clang_getCursorType(vd));
	char *tname = arena_strdup(w->fe->arena, clang_getCString(ts));
	clang_disposeString(ts);
	int kind = fe_type_kind(tname);
	char *name = spell(w, vd);
	if (kind < 0 && ty.kind == CXType_Pointer)
		kind = IR_LOC_PTR; /* foo_t *p with a typedef of the preamble */
	else if (kind < 0 && ty.kind >= CXType_Bool && ty.kind <= CXType_Int128)
		kind = IR_LOC_INT; /* an integer typedef of the preamble */
	if (ty.kind == CXType_Pointer) {
		enum CXTypeKind pk = clang_getCanonicalType(
			clang_getPointeeType(ty)).kind;
		if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto)
			return err_at(w, vd, "function pointers are not "
				      "supported: call the helper directly");
	}
	if (ty.kind == CXType_ConstantArray || ty.kind == CXType_IncompleteArray ||
	    ty.kind == CXType_VariableArray || ty.kind == CXType_Record ||
	    (kind != IR_LOC_INT && kind != IR_LOC_PTR))
		return err_at(w, vd, "local '%s' has type '%s', which lkmmc does "
			      "not model as a register (use int, intptr_t or a "
			      "pointer)", name, tname);
	unsigned noff = 0;
	clang_getFileLocation(clang_getCursorLocation(vd), NULL, NULL, NULL,
			      &noff);
	int r = reg_of(w, vd, vd);
	CXCursor init[1];
	CXCursor *k;
	int n = ctu_kids(w->t, vd, &k);
	if (n == 0 || !clang_isExpression(clang_getCursorKind(k[n - 1])))
		return 1;
	init[0] = k[n - 1];
	size_t a = lit(w, noff), e = lit(w, b_end(vd));
	struct src s = { fe_pos(w->fe, a), fe_text_squash(w->fe, a, e) };
	return assign_to(w, r, init[0], b, s);
}

/* The keyword starting a statement, for messages. */
static const char *keyword(struct lw *w, CXCursor c)
{
	struct ctok tok = cscan_token(w->t->buf, b_start(c), w->t->len);
	if (tok.kind != CT_IDENT)
		return "this statement";
	return arena_strndup(w->fe->arena, w->t->buf + tok.off, tok.len);
}

/* After a loop (while, for, switch, goto region) inside an inlined helper
 * whose body ran a return: leave the enclosing loop too, up to the
 * helper's one-pass loop. */
static void leave_if_returned(struct lw *w, struct bb *b, struct src s,
			      int returns_before)
{
	if (!w->fr || !w->fr->wrapped || w->fr->nreturns <= returns_before)
		return;
	struct bb tb = {0};
	emit(w, &tb, IR_BREAK, s, -1);
	struct ir_instr *in = emit(w, b, IR_IF, s, -1);
	in->a = mk_reg(w, w->fr->flag, s.pos);
	in->then_b = fin(&tb);
}

/* --- switch and goto -------------------------------------------------- */

/* How many gotos under c reach label. */
struct goto_count {
	CXCursor label; /* the LabelStmt */
	int n;          /* gotos found */
};

static enum CXChildVisitResult count_goto(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	(void)parent;
	struct goto_count *g = data;
	if (clang_getCursorKind(c) == CXCursor_GotoStmt &&
	    clang_equalCursors(clang_getCursorReferenced(c), g->label))
		g->n++;
	return CXChildVisit_Recurse;
}

static int gotos_to(CXCursor c, CXCursor label)
{
	struct goto_count g = { label, 0 };
	if (clang_getCursorKind(c) == CXCursor_GotoStmt &&
	    clang_equalCursors(clang_getCursorReferenced(c), label))
		return 1;
	clang_visitChildren(c, count_goto, &g);
	return g.n;
}

/* Items k[a, e) inside a one-pass loop whose gotos to label are continue
 * (backward) or break (forward). */
static int jump_region(struct lw *w, CXCursor *k, int a, int e,
		       CXCursor label, int backward, struct bb *b)
{
	int returns_before = w->fr ? w->fr->nreturns : 0;
	if (!push_loop(w, k[a], LOOP_GOTO))
		return 0;
	w->jumps = fe_reserve(w->t->scratch, w->jumps, sizeof *w->jumps,
			      w->njumps, &w->jcap);
	struct jump *j = &w->jumps[w->njumps++];
	j->label = label;
	j->depth = w->nloops;
	j->backward = backward;
	struct bb lb = {0};
	struct src s = src_of(w, k[a]);
	w->cond += backward;
	int ok = block_items(w, k + a, e - a, &lb, backward);
	w->cond -= backward;
	w->njumps--;
	w->nloops--;
	if (!ok)
		return 0;
	emit(w, &lb, IR_BREAK, s, -1);
	emit(w, b, IR_LOOP, s, -1)->then_b = fin(&lb);
	leave_if_returned(w, b, s, returns_before);
	return 1;
}

/* The statements of a block.  A label with gotos after it (in the same
 * block) starts a loop up to the last of them; a goto to a label later in
 * the block leaves a loop that ends at the label.  looped: k[0] is the
 * label of the loop being lowered. */
static int block_items(struct lw *w, CXCursor *k, int n, struct bb *b,
		       int looped)
{
	for (int i = 0; i < n; i++) {
		enum CXCursorKind ki = clang_getCursorKind(k[i]);
		int last = -1;
		if (ki == CXCursor_LabelStmt && !(looped && i == 0))
			for (int j = i; j < n; j++)
				if (gotos_to(k[j], k[i]))
					last = j;
		if (last >= 0) {
			if (!jump_region(w, k, i, last + 1, k[i], 1, b))
				return 0;
			i = last;
			continue;
		}
		int target = -1;
		for (int j = i + 1; j < n && target < 0; j++)
			if (clang_getCursorKind(k[j]) == CXCursor_LabelStmt &&
			    gotos_to(k[i], k[j]))
				target = j;
		if (target >= 0) {
			if (!jump_region(w, k, i, target, k[target], 0, b))
				return 0;
			i = target - 1;
			continue;
		}
		if (ki == CXCursor_DeclStmt) {
			CXCursor *dk;
			int nd = ctu_kids(w->t, k[i], &dk);
			for (int d = 0; d < nd; d++)
				if (!decl(w, dk[d], b))
					return 0;
		} else if (!stmt(w, k[i], b)) {
			return 0;
		}
	}
	return 1;
}

static int goto_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor label = clang_getCursorReferenced(c);
	for (int i = w->njumps - 1; i >= 0; i--) {
		struct jump *j = &w->jumps[i];
		if (!clang_equalCursors(j->label, label))
			continue;
		if (j->depth != w->nloops)
			return err_at(w, c, "a goto out of a loop or switch is "
				      "not supported; use break");
		emit(w, b, j->backward ? IR_CONTINUE : IR_BREAK, src_of(w, c), -1);
		return 1;
	}
	return err_at(w, c, "unsupported goto: lkmmc takes a goto to a label "
		      "earlier in the same block (a loop) or later in the same "
		      "block (a forward jump), not into or out of other blocks");
}

/* switch (e) { case V: ... default: ... }: a one-pass loop (break leaves
 * it) in which each statement runs when a label at or before it matched:
 *     m = 0; loop { m = m || e == V1; if (m) S1; ...; break; }
 * "default" matches when no case value does. */
static int switch_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor *k, *items;
	int n = ctu_kids(w->t, c, &k);
	if (n != 2 || clang_getCursorKind(k[1]) != CXCursor_CompoundStmt)
		return err_at(w, c, "unsupported switch: write its body as a "
			      "block of case labels and statements");
	struct src s = head_src(w, c, &k[0]);
	struct ir_expr *e = rv(w, k[0], b);
	if (!e)
		return 0;
	if (e->kind != IR_E_CONST && e->kind != IR_E_REG) {
		int t = temp(w, s.pos);
		emit(w, b, IR_ASSIGN, s, t)->a = e;
		e = mk_reg(w, t, s.pos);
	}
	int ni = ctu_kids(w->t, k[1], &items);
	/* Every case value, for default. */
	struct ir_expr *none = mk_const(w, 1, s.pos);
	for (int i = 0; i < ni; i++)
		for (CXCursor it = items[i];
		     clang_getCursorKind(it) == CXCursor_CaseStmt ||
		     clang_getCursorKind(it) == CXCursor_DefaultStmt;) {
			CXCursor *ck;
			int nc = ctu_kids(w->t, it, &ck);
			if (clang_getCursorKind(it) == CXCursor_CaseStmt) {
				if (nc != 2)
					return err_at(w, it, "unsupported case "
						      "label (a range?)");
				struct ir_expr *v = rv(w, ck[0], b);
				if (!v || v->kind != IR_E_CONST)
					return v ? err_at(w, ck[0], "a case value "
							  "must be a constant") : 0;
				none = mk_bin(w, IR_LAND, none,
					      mk_bin(w, IR_NE, e, v));
			}
			it = ck[nc - 1];
		}
	int m = temp(w, s.pos);
	emit(w, b, IR_ASSIGN, s, m)->a = mk_const(w, 0, s.pos);
	int returns_before = w->fr ? w->fr->nreturns : 0;
	if (!push_loop(w, c, LOOP_SWITCH))
		return 0;
	struct bb lb = {0};
	w->cond++;
	for (int i = 0; i < ni; i++) {
		CXCursor it = items[i];
		enum CXCursorKind ik;
		while ((ik = clang_getCursorKind(it)) == CXCursor_CaseStmt ||
		       ik == CXCursor_DefaultStmt) {
			CXCursor *ck;
			int nc = ctu_kids(w->t, it, &ck);
			struct ir_expr *hit = none;
			if (ik == CXCursor_CaseStmt)
				hit = mk_bin(w, IR_EQ, e, rv(w, ck[0], &lb));
			struct src cs = src_of(w, it);
			emit(w, &lb, IR_ASSIGN, cs, m)->a =
				mk_bin(w, IR_LOR, mk_reg(w, m, s.pos), hit);
			it = ck[nc - 1];
		}
		struct bb tb = {0};
		if (ik == CXCursor_NullStmt)
			continue;
		if (!stmt(w, it, &tb)) {
			w->cond--;
			return 0;
		}
		struct ir_instr *in = emit(w, &lb, IR_IF, src_of(w, it), -1);
		in->a = mk_reg(w, m, s.pos);
		in->then_b = fin(&tb);
	}
	w->cond--;
	w->nloops--;
	emit(w, &lb, IR_BREAK, s, -1);
	emit(w, b, IR_LOOP, s, -1)->then_b = fin(&lb);
	leave_if_returned(w, b, s, returns_before);
	return 1;
}

/* return [v]; inside an inlined helper. */
static int return_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	struct frame *f = w->fr;
	struct src s = src_of(w, c);
	CXCursor kid[1];
	if (expr_kids(w, c, kid, 1) == 1) {
		if (f->ret < 0) {
			struct ir_expr *v = rv(w, kid[0], b);
			if (!v)
				return 0;
		} else if (!assign_to(w, f->ret, kid[0], b, s)) {
			return 0;
		}
	}
	f->nreturns++;
	if (!f->wrapped)
		return 1;
	if (w->nloops > f->loop_base + 1)
		emit(w, b, IR_ASSIGN, s, f->flag)->a = mk_const(w, 1, s.pos);
	emit(w, b, IR_BREAK, s, -1);
	return 1;
}

static int stmt(struct lw *w, CXCursor c, struct bb *b)
{
	enum CXCursorKind kind = clang_getCursorKind(c);
	CXCursor *k;
	int n;
	switch (kind) {
	case CXCursor_CompoundStmt:
		n = ctu_kids(w->t, c, &k);
		return block_items(w, k, n, b, 0);
	case CXCursor_DeclStmt:
		n = ctu_kids(w->t, c, &k);
		for (int i = 0; i < n; i++)
			if (!decl(w, k[i], b))
				return 0;
		return 1;
	case CXCursor_SwitchStmt:
		return switch_stmt(w, c, b);
	case CXCursor_LabelStmt:
		n = ctu_kids(w->t, c, &k);
		return n == 1 ? stmt(w, k[0], b) : 1;
	case CXCursor_GotoStmt:
		return goto_stmt(w, c, b);
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		return err_at(w, c, "a case label nested inside another "
			      "statement of the switch is not supported");
	case CXCursor_IfStmt:
		return if_stmt(w, c, b);
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ForStmt:
		return loop_stmt(w, c, b);
	case CXCursor_BreakStmt:
		if (w->nloops == 0)
			return err_at(w, c, "'break' outside a loop");
		if (w->loops[w->nloops - 1] == LOOP_GOTO)
			return err_at(w, c, "'break' between a goto and its label "
				      "is not supported; use a goto to a label "
				      "after the loop");
		emit(w, b, IR_BREAK, src_of(w, c), -1);
		return 1;
	case CXCursor_ContinueStmt:
		if (w->nloops == 0)
			return err_at(w, c, "'continue' outside a loop");
		if (w->loops[w->nloops - 1] == LOOP_SWITCH)
			return err_at(w, c, "'continue' inside a switch is not "
				      "supported");
		if (w->loops[w->nloops - 1] == LOOP_GOTO)
			return err_at(w, c, "'continue' between a goto and its "
				      "label is not supported");
		if (w->loops[w->nloops - 1] == LOOP_NO_CONTINUE)
			return err_at(w, c, "'continue' in a do-while loop or in "
				      "a for loop with an increment is not "
				      "supported; use a while loop");
		emit(w, b, IR_CONTINUE, src_of(w, c), -1);
		return 1;
	case CXCursor_NullStmt:
		return 1;
	case CXCursor_ReturnStmt:
		if (w->fr)
			return return_stmt(w, c, b);
		break;
	default:
		break;
	}
	if (clang_isExpression(kind))
		return expr_stmt(w, c, b);
	if (kind == CXCursor_AsmStmt)
		return err_at(w, c, "inline assembly is not supported: the "
			      "model knows the kernel's primitives, not "
			      "instructions");
	return err_at(w, c, "'%s' is not supported in a process body",
		      keyword(w, c));
}

int clower_thread(struct ctu *t, const struct fe_proc *p, CXCursor body)
{
	struct lw w = { .t = t, .fe = t->fe, .p = p, .tid = p->id };
	struct ir_thread *th = &t->fe->prog->threads[p->id];
	for (int r = 0; r < th->nregs; r++)
		rx(&w, r)->assigned = th->regs[r].has_init;
	struct bb b = {0};
	if (!stmt(&w, body, &b))
		return 0;
	th->body = fin(&b);
	/* An identifier never declared, initialised nor assigned is not a
	 * register herd7 would know: most likely a missing parameter. */
	for (int r = 0; r < th->nregs && r < w.nrx; r++) {
		struct regx *x = &w.rx[r];
		if (x->implicit && !x->assigned)
			return fe_error(t->fe, x->first_use,
					"undeclared location or register '%s' "
					"in P%d: add it to the parameters "
					"(int *%s) or assign it first",
					th->regs[r].name, p->id,
					th->regs[r].name);
	}
	return 1;
}
