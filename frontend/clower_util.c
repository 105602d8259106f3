/*
 * clower_util.c - the lowering's small tools: positions and source text, libclang
 * cursors, building IR expressions and blocks (see clower_int.h).  It
 * lowers nothing by itself.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "clower_int.h"
#include "ctu.h"
#include "cscan.h"
#include "fe.h"
#include "kapi.h"

#if CINDEX_VERSION_MINOR < 64
#error "lkmmc needs libclang 17 or later (operator kinds); set LLVM_DIR"
#endif

/* The value of a pure expression of constants (after cl_rv): 1 and *v, or
 * 0 when it is not one. */
int cl_fold(const struct ir_expr *e, long *v)
{
	long a, b, c;
	if (!e)
		return 0;
	switch (e->kind) {
	case IR_E_CONST:
		*v = e->num;
		return 1;
	case IR_E_UNARY:
		if (!cl_fold(e->a, &a))
			return 0;
		if (e->op == IR_NEG)
			return !__builtin_sub_overflow(0, a, v); /* -LONG_MIN: none */
		*v = e->op == IR_LNOT ? !a : ~a;
		return 1;
	case IR_E_COND:
		if (!cl_fold(e->a, &a) || !cl_fold(e->b, &b) || !cl_fold(e->c, &c))
			return 0;
		*v = a ? b : c;
		return 1;
	case IR_E_BINARY:
		if (!cl_fold(e->a, &a) || !cl_fold(e->b, &b))
			return 0;
		/* a division by zero is no constant of C's: left to the caller */
		if ((e->op == IR_DIV || e->op == IR_MOD) && !b)
			return 0;
		return ir_apply_binop((enum ir_binop)e->op, a, b, v);
	default:
		return 0;
	}
}

/* The value of expression c in main, without any access: a constant or
 * a global's address, into *out.  0 (no error recorded) when it is not
 * one; -1 when lowering it failed (error recorded). */

/* --- positions and text ------------------------------------------------ */

/* Offset in the virtual file of a location; (size_t)-1 in another file
 * (a header the preamble includes). */
size_t cl_vfile_off(const struct ctu *t, CXSourceLocation loc)
{
	unsigned off = 0;
	CXFile f = NULL;
	clang_getFileLocation(loc, &f, NULL, NULL, &off);
	if (f && !clang_File_isEqual(f, t->main_file))
		return (size_t)-1;
	return off;
}

size_t cl_b_start(const struct ctu *t, CXCursor c)
{
	return cl_vfile_off(t, clang_getRangeStart(clang_getCursorExtent(c)));
}

size_t cl_b_end(const struct ctu *t, CXCursor c)
{
	return cl_vfile_off(t, clang_getRangeEnd(clang_getCursorExtent(c)));
}


/* Litmus offset of a buffer offset (the call of the helper, or the body
 * start, when unmapped). */
size_t cl_lit(const struct lw *w, size_t boff)
{
	size_t off = ctu_lit_off(w->t, boff);
	if (off != (size_t)-1)
		return off;
	return w->fr ? w->fr->call_off : w->p->body_off;
}

struct src cl_src_of(const struct lw *w, CXCursor c)
{
	size_t a = cl_lit(w, b_start(c)), e = cl_lit(w, b_end(c));
	struct src s = { fe_pos(w->fe, a), fe_text_squash(w->fe, a, e) };
	return s;
}

int cl_err_at(struct lw *w, CXCursor c, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fe_error(w->fe, cl_lit(w, b_start(c)), "%s", msg);
}

/* The cursor's spelling, copied into the IR arena. */
char *cl_spell(struct lw *w, CXCursor c)
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
int cl_expr_kids(struct lw *w, CXCursor c, CXCursor *out, int max)
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
	return cl_expr_kids(w, c, kid, 1) == 1 && b_start(c) == b_start(kid[0]) &&
	       b_end(c) == b_end(kid[0]);
}

/* Strip parentheses, casts and implicit conversions. */
CXCursor cl_strip(struct lw *w, CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor kid[1];
		if (k == CXCursor_UnexposedExpr ? !transparent(w, c)
		    : k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
			return c;
		if (cl_expr_kids(w, c, kid, 1) != 1)
			return c;
		c = kid[0];
	}
}

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

/* The operator of a BinaryOperator, CompoundAssignOperator or
 * UnaryOperator, from the AST (libclang 17 and later give its kind), into
 * f->op; "" when its spelling does not fit (__extension__, __real). */
static void ast_op(CXCursor e, enum CXCursorKind k, struct opform *f)
{
	CXString s;
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(e);
		f->postfix = u == CXUnaryOperator_PostInc ||
			     u == CXUnaryOperator_PostDec;
		s = clang_getUnaryOperatorKindSpelling(u);
	} else {
		s = clang_getBinaryOperatorKindSpelling(
			clang_getCursorBinaryOperatorKind(e));
	}
	const char *sp = clang_getCString(s);
	if (sp && strlen(sp) < sizeof f->op)
		strcpy(f->op, sp);
	clang_disposeString(s);
}

/* A RecoveryExpr (a type error clang kept) has no operator in the AST:
 * the token between its operands (before the operand of a unary one,
 * after it when postfix) in the source text.  f->in_macro when that token
 * is not there (the expression comes from a macro's body). */
static void recovery_op(struct lw *w, CXCursor e, struct opform *f)
{
	size_t at, lo, hi; /* operator offset and its bounds */
	if (f->nkids == 1) {
		f->postfix = b_start(e) == b_start(f->kid[0]);
		at = lo = f->postfix ? b_end(f->kid[0]) : b_start(e);
		hi = f->postfix ? b_end(e) : b_start(f->kid[0]);
	} else {
		at = lo = b_end(f->kid[0]);
		hi = b_start(f->kid[1]);
	}
	op_at(w, at, f->op);
	struct ctok tok = cscan_token(w->t->buf, at, w->t->len);
	f->in_macro = at == (size_t)-1 || tok.off < lo ||
		      tok.off + tok.len > hi ||
		      (strcmp(f->op, ",") == 0 && arg_comma(w->t->buf, tok.off));
}

void cl_opform(struct lw *w, CXCursor e, struct opform *f)
{
	enum CXCursorKind k = clang_getCursorKind(e);
	f->nkids = 0;
	f->op[0] = '\0';
	f->postfix = 0;
	f->in_macro = 0;
	int recovery = k == CXCursor_UnexposedExpr && !transparent(w, e);
	if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator &&
	    k != CXCursor_CompoundAssignOperator && !recovery)
		return;
	int n = cl_expr_kids(w, e, f->kid, 2);
	if (n != 1 && n != 2)
		return;
	f->nkids = n;
	if (recovery)
		recovery_op(w, e, f);
	else
		ast_op(e, k, f);
}

/* Is op an assignment operator ("=", "+=", ...)? */
int cl_is_assign_op(const char *op)
{
	size_t n = strlen(op);
	return n > 0 && op[n - 1] == '=' && strcmp(op, "==") != 0 &&
	       strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 &&
	       strcmp(op, ">=") != 0;
}

int cl_binop_of(const char *op, enum ir_binop *out)
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

struct ir_expr *cl_mk(struct lw *w, enum ir_expr_kind kind, struct ir_pos pos)
{
	struct ir_expr *e = arena_alloc(w->fe->arena, sizeof *e);
	e->kind = kind;
	e->pos = pos;
	return e;
}

struct ir_expr *cl_mk_const(struct lw *w, long num, struct ir_pos pos)
{
	struct ir_expr *e = cl_mk(w, IR_E_CONST, pos);
	e->num = num;
	return e;
}

struct ir_expr *cl_mk_reg(struct lw *w, int reg, struct ir_pos pos)
{
	struct ir_expr *e = cl_mk(w, IR_E_REG, pos);
	e->reg = reg;
	return e;
}

struct ir_expr *cl_mk_un(struct lw *w, enum ir_unop op, struct ir_expr *a)
{
	struct ir_expr *e = cl_mk(w, IR_E_UNARY, a->pos);
	e->op = op;
	e->a = a;
	return e;
}

struct ir_expr *cl_mk_bin(struct lw *w, enum ir_binop op, struct ir_expr *a,
			  struct ir_expr *b)
{
	struct ir_expr *e = cl_mk(w, IR_E_BINARY, a->pos);
	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

/* Track register r (grow rx as registers appear). */
struct regx *cl_rx(struct lw *w, int r)
{
	if (r >= w->nrx) {
		int cap = (int)xgrow_cap((size_t)w->nrx, (size_t)r + 1, 16);
		w->rx = arena_grow(w->t->scratch, w->rx, sizeof *w->rx,
				   (size_t)w->nrx, (size_t)cap);
		w->nrx = cap;
	}
	return &w->rx[r];
}

int cl_temp(struct lw *w, struct ir_pos pos)
{
	int r = fe_reg_temp(w->fe, w->tid, pos);
	cl_rx(w, r)->assigned = 1;
	return r;
}

/* A new instruction at the end of b; valid until the next emit into b. */
struct ir_instr *cl_emit(struct lw *w, struct bb *b, enum ir_op op,
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
		cl_rx(w, dst)->assigned = 1;
	return in;
}

struct ir_block cl_fin(struct bb *b)
{
	struct ir_block blk = { b->v, b->n };
	return blk;
}
