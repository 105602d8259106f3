/*
 * clower_expr.c - expressions: rvalues (flattened into temporaries, with
 * short-circuit order kept), assignments, registers and the bindings of
 * inlined helpers, struct fields and array elements as locations (see
 * clower_int.h).  Statements are in clower.c, calls in clower_call.c.
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

/* --- expressions ------------------------------------------------------- */

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

struct binding *cl_bind(struct lw *w, CXCursor decl, int reg,
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
int cl_frame_reg(struct lw *w, CXCursor decl)
{
	struct frame *f = w->fr;
	CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
	char *ctype = arena_strdup(w->fe->arena, clang_getCString(ts));
	clang_disposeString(ts);
	char *name = f->instance > 1
		? arena_printf(w->fe->arena, "%s:%s#%d", f->name,
			       cl_spell(w, decl), f->instance)
		: arena_printf(w->fe->arena, "%s:%s", f->name, cl_spell(w, decl));
	unsigned off = 0;
	clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL, NULL,
			      &off);
	int r = fe_reg_use(w->fe, w->tid, name, ctype,
			   fe_pos(w->fe, cl_lit(w, cl_vfile_off(
				   w->t, clang_getCursorLocation(decl)))));
	cl_rx(w, r)->assigned = 1;
	cl_bind(w, decl, r, NULL);
	return r;
}

/* The register a VarDecl names, created on first use. */
int cl_reg_of(struct lw *w, CXCursor decl, CXCursor use)
{
	if (w->fr) {
		struct binding *bd = bound(w, decl);
		if (bd && bd->reg >= 0)
			return bd->reg;
		if (!bd)
			return cl_frame_reg(w, decl);
	}
	char *name = cl_spell(w, decl);
	int implicit = ctu_lit_off(w->t, b_start(decl)) == (size_t)-1;
	char *ctype = NULL;
	struct ir_pos pos;
	if (implicit) {
		pos = fe_pos(w->fe, cl_lit(w, b_start(use)));
	} else {
		CXString ts = clang_getTypeSpelling(clang_getCursorType(decl));
		ctype = arena_strdup(w->fe->arena, clang_getCString(ts));
		clang_disposeString(ts);
		unsigned off = 0;
		clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL,
				      NULL, &off);
		pos = fe_pos(w->fe, cl_lit(w, off));

	}
	int r = fe_reg_use(w->fe, w->tid, name, ctype, pos);
	struct regx *x = cl_rx(w, r);
	if (implicit && !x->implicit) {
		x->implicit = 1;
		x->first_use = cl_lit(w, b_start(use));
	}
	if (!implicit)
		x->assigned = 1; /* declared: a C variable, 0 or its init */
	return r;
}

/* A use of a declared name: parameter, register or enum constant. */
static struct ir_expr *ref(struct lw *w, CXCursor e)
{
	CXCursor d = clang_getCursorReferenced(e);
	struct ir_pos pos = fe_pos(w->fe, cl_lit(w, b_start(e)));
	struct binding *bd = bound(w, d);
	if (bd)
		return bd->val ? bd->val : cl_mk_reg(w, bd->reg, pos);
	switch (clang_getCursorKind(d)) {
	case CXCursor_ParmDecl: {
		struct ir_expr *x = cl_mk(w, IR_E_LOC, pos);
		x->loc = ir_find_loc(w->fe->prog, cl_spell(w, d));
		return x;
	}
	case CXCursor_VarDecl:
		return cl_mk_reg(w, cl_reg_of(w, d, e), pos);
	case CXCursor_EnumConstantDecl:
		return cl_mk_const(w, (long)clang_getEnumConstantDeclValue(d), pos);
	default:
		cl_err_at(w, e, "'%s' cannot be used as a value here", cl_spell(w, e));
		return NULL;
	}
}

/* The register an assignment target names, or -1 (error recorded). */
int cl_target_reg(struct lw *w, CXCursor lhs, const char *what)
{
	CXCursor e = cl_strip(w, lhs);
	if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		struct binding *bd = bound(w, d);
		if (bd && bd->reg >= 0)
			return bd->reg;
		if (bd) {
			char *n = cl_spell(w, e);
			cl_err_at(w, lhs, "cannot %s parameter '%s' of helper '%s': "
				  "it stands for the address or constant passed "
				  "in; copy it into a local variable first", what,
				  n, w->fr->name);
			return -1;
		}
		if (clang_getCursorKind(d) == CXCursor_VarDecl)
			return cl_reg_of(w, d, e);
		if (clang_getCursorKind(d) == CXCursor_ParmDecl) {
			char *n = cl_spell(w, e);
			cl_err_at(w, lhs,
				  "cannot %s '%s': it is the address of a shared "
				  "location; write *%s = v or WRITE_ONCE(*%s, v)",
				  what, n, n, n);
			return -1;
		}
	}
	cl_err_at(w, lhs, "cannot %s this expression: only registers and *p can "
		  "be assigned", what);
	return -1;
}

int cl_global_loc(struct lw *w, CXCursor c)
{
	CXCursor e = cl_strip(w, c);
	if (!w->t->program || clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return -1;
	CXCursor d = clang_getCursorReferenced(e);
	if (clang_getCursorKind(d) != CXCursor_VarDecl || bound(w, d) ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) !=
	    CXCursor_TranslationUnit)
		return -1;
	return ir_find_loc(w->fe->prog, cl_spell(w, d));
}

/* Is c (stripped) memory: a prefix "*p" (sets *ptr to p), a struct field
 * "s->f" / "s.f", an array element "a[i]" or a program's global variable
 * (sets *ptr to c)?  cl_lv_addr() gives its address. */
int cl_is_deref(struct lw *w, CXCursor c, CXCursor *ptr)
{
	struct opform f;
	enum CXCursorKind k = clang_getCursorKind(cl_strip(w, c));
	if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr ||
	    cl_global_loc(w, c) >= 0) {
		*ptr = c;
		return 1;
	}
	cl_opform(w, cl_strip(w, c), &f);
	if (f.nkids != 1 || f.postfix || f.in_macro || strcmp(f.op, "*") != 0)
		return 0;
	*ptr = f.kid[0];
	return 1;
}

/* dst = value of rhs, with the access itself writing dst when rhs is one
 * (r = READ_ONCE(*x) is one load, not a load and a copy). */
int cl_assign_to(struct lw *w, int dst, CXCursor rhs, struct bb *b,
		 struct src s)
{
	CXCursor e = cl_strip(w, rhs), ptr;
	if (clang_getCursorKind(e) == CXCursor_CallExpr) {
		struct ir_expr *v;
		return cl_call(w, e, b, dst, s, &v);
	}
	if (cl_is_deref(w, e, &ptr)) {
		struct ir_expr *a = cl_lv_addr(w, e, b);
		if (!a)
			return 0;
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, dst);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return 1;
	}
	struct ir_expr *v = cl_rv(w, rhs, b);
	if (!v)
		return 0;
	cl_emit(w, b, IR_ASSIGN, s, dst)->a = v;
	return 1;
}

/* r = r op v for a register, or a plain load and store for *p. */
int cl_update(struct lw *w, CXCursor target, enum ir_binop op,
	      const CXCursor *rhs, struct bb *b, struct src s, int in_expr,
	      struct ir_expr **val)
{
	CXCursor ptr;
	struct ir_expr *v;
	if (cl_is_deref(w, target, &ptr)) {
		if (in_expr)
			return cl_err_at(w, target,
					 "a store inside an expression cannot be "
					 "ordered; make it a statement of its own");
		struct ir_expr *a = cl_lv_addr(w, target, b);
		if (!a)
			return 0;
		int t = cl_temp(w, s.pos);
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		v = rhs ? cl_rv(w, *rhs, b) : cl_mk_const(w, 1, s.pos);
		if (!v)
			return 0;
		in = cl_emit(w, b, IR_STORE, s, -1);
		in->a = a;
		in->b = cl_mk_bin(w, op, cl_mk_reg(w, t, s.pos), v);
		in->order = IR_ORD_PLAIN;
		*val = NULL;
		return 1;
	}
	int r = cl_target_reg(w, target, "assign to");
	if (r < 0)
		return 0;
	v = rhs ? cl_rv(w, *rhs, b) : cl_mk_const(w, 1, s.pos);
	if (!v)
		return 0;
	cl_emit(w, b, IR_ASSIGN, s, r)->a = cl_mk_bin(w, op, cl_mk_reg(w, r, s.pos), v);
	*val = cl_mk_reg(w, r, s.pos);
	return 1;
}

static struct ir_expr *unary(struct lw *w, CXCursor e, const struct opform *f,
			      struct bb *b)
{
	CXCursor child = f->kid[0];
	const char *op = f->op;
	int postfix = f->postfix;
	struct src s = cl_src_of(w, e);
	if (strcmp(op, "*") == 0) {
		struct ir_expr *a = cl_rv(w, child, b);
		if (!a)
			return NULL;
		int t = cl_temp(w, s.pos);
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return cl_mk_reg(w, t, s.pos);
	}
	if (strcmp(op, "&") == 0) {
		CXCursor ptr;
		if (cl_is_deref(w, child, &ptr))
			return cl_lv_addr(w, child, b);
		if (w->t->program)
			cl_err_at(w, e, "cannot take the address of '%s': only "
				  "global variables are shared memory in a "
				  "program (address-taken locals are not "
				  "supported); make it a global",
				  cl_src_of(w, child).text);
		else
			cl_err_at(w, e, "cannot take the address of '%s' in a "
				  "process body; parameters are already addresses "
				  "(use x, not &x)", cl_src_of(w, child).text);
		return NULL;
	}
	if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
		enum ir_binop bop = op[0] == '+' ? IR_ADD : IR_SUB;
		if (cl_is_deref(w, child, &(CXCursor){0}))
			return cl_err_at(w, e, "'%s' of memory inside an expression "
					 "cannot be ordered; make it a statement",
					 op), NULL;
		int r = cl_target_reg(w, child, "increment");
		if (r < 0)
			return NULL;
		int t = r;
		if (postfix) {
			t = cl_temp(w, s.pos);
			cl_emit(w, b, IR_ASSIGN, s, t)->a = cl_mk_reg(w, r, s.pos);
		}
		cl_emit(w, b, IR_ASSIGN, s, r)->a =
			cl_mk_bin(w, bop, cl_mk_reg(w, r, s.pos), cl_mk_const(w, 1, s.pos));
		return cl_mk_reg(w, t, s.pos);
	}
	struct ir_expr *a = cl_rv(w, child, b);
	if (!a)
		return NULL;
	if (strcmp(op, "-") == 0)
		return cl_mk_un(w, IR_NEG, a);
	if (strcmp(op, "!") == 0)
		return cl_mk_un(w, IR_LNOT, a);
	if (strcmp(op, "~") == 0)
		return cl_mk_un(w, IR_BNOT, a);
	if (strcmp(op, "+") == 0)
		return a;
	cl_err_at(w, e, "unsupported operator '%s'", op);
	return NULL;
}

/* a && b, a || b, a ? b : c whose later operands contain accesses. */
static struct ir_expr *branchy(struct lw *w, CXCursor e, struct ir_expr *ea,
			       const CXCursor *then_c, const CXCursor *else_c,
			       enum ir_binop op, struct bb *b)
{
	struct src s = cl_src_of(w, e);
	struct bb tb = {0}, eb = {0};
	w->cond++;
	struct ir_expr *et = then_c ? cl_rv(w, *then_c, &tb) : NULL;
	struct ir_expr *ee = else_c ? cl_rv(w, *else_c, &eb) : NULL;
	w->cond--;
	if ((then_c && !et) || (else_c && !ee))
		return NULL;
	struct ir_pos p = s.pos;
	if (tb.n == 0 && eb.n == 0) {
		if (op == IR_LAND || op == IR_LOR)
			return cl_mk_bin(w, op, ea, et ? et : ee);
		struct ir_expr *x = cl_mk(w, IR_E_COND, ea->pos);
		x->a = ea;
		x->b = et;
		x->c = ee;
		return x;
	}
	int t = cl_temp(w, p);
	/* &&: then = (b != 0), else = 0; ||: then = 1, else = (b != 0). */
	if (op == IR_LAND || op == IR_LOR) {
		struct ir_expr *bv = cl_mk_bin(w, IR_NE, et ? et : ee,
					       cl_mk_const(w, 0, p));
		struct bb *side = op == IR_LAND ? &tb : &eb;
		cl_emit(w, side, IR_ASSIGN, s, t)->a = bv;
		cl_emit(w, op == IR_LAND ? &eb : &tb, IR_ASSIGN, s, t)->a =
			cl_mk_const(w, op == IR_LOR, p);
	} else {
		cl_emit(w, &tb, IR_ASSIGN, s, t)->a = et;
		cl_emit(w, &eb, IR_ASSIGN, s, t)->a = ee;
	}
	struct ir_instr *in = cl_emit(w, b, IR_IF, s, -1);
	in->a = ea;
	in->then_b = cl_fin(&tb);
	in->else_b = cl_fin(&eb);
	return cl_mk_reg(w, t, p);
}

static struct ir_expr *binary(struct lw *w, CXCursor e, const struct opform *f,
			      struct bb *b)
{
	const CXCursor *kid = f->kid;
	const char *op = f->op;
	struct src s = cl_src_of(w, e);
	if (strcmp(op, "=") != 0 && cl_is_assign_op(op))
		return cl_compound(w, e, f, b, s, 1);
	if (strcmp(op, "=") == 0) {
		CXCursor ptr;
		if (cl_is_deref(w, kid[0], &ptr)) {
			cl_err_at(w, e, "a store inside an expression cannot be "
				  "ordered; make it a statement of its own");
			return NULL;
		}
		int r = cl_target_reg(w, kid[0], "assign to");
		if (r < 0 || !cl_assign_to(w, r, kid[1], b, s))
			return NULL;
		return cl_mk_reg(w, r, s.pos);
	}
	if (strcmp(op, ",") == 0)
		return cl_rv(w, kid[0], b) ? cl_rv(w, kid[1], b) : NULL;
	enum ir_binop bop;
	if (!cl_binop_of(op, &bop)) {
		cl_err_at(w, e, "unsupported operator '%s'", op);
		return NULL;
	}
	struct ir_expr *ea = cl_rv(w, kid[0], b);
	if (!ea)
		return NULL;
	if (bop == IR_LAND)
		return branchy(w, e, ea, &kid[1], NULL, bop, b);
	if (bop == IR_LOR)
		return branchy(w, e, ea, NULL, &kid[1], bop, b);
	struct ir_expr *eb = cl_rv(w, kid[1], b);
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
			cl_err_at(w, e, "pointer arithmetic on '%s' must give one "
				  "of its elements with a constant offset; write "
				  "%s[i]", on, on);
			return NULL;
		}
		struct ir_expr *x = cl_mk(w, IR_E_LOC, o->pos);
		x->loc = l;
		return x;
	}
	return cl_mk_bin(w, bop, ea, eb);
}

struct ir_expr *cl_compound(struct lw *w, CXCursor e,
			    const struct opform *f, struct bb *b,
			    struct src s, int in_expr)
{
	char op[4];
	memcpy(op, f->op, sizeof op);
	size_t n = strlen(op);
	enum ir_binop bop;
	op[n - 1] = '\0';
	if (!cl_binop_of(op, &bop)) {
		cl_err_at(w, e, "unsupported assignment operator '%s='", op);
		return NULL;
	}
	struct ir_expr *val;
	if (!cl_update(w, f->kid[0], bop, &f->kid[1], b, s, in_expr, &val))
		return NULL;
	return val ? val : cl_mk_const(w, 0, s.pos);
}

static struct ir_expr *constant(struct lw *w, CXCursor e)
{
	CXEvalResult r = clang_Cursor_Evaluate(e);
	if (!r || clang_EvalResult_getKind(r) != CXEval_Int) {
		if (r)
			clang_EvalResult_dispose(r);
		cl_err_at(w, e, "unsupported constant");
		return NULL;
	}
	long v = (long)clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return cl_mk_const(w, v, fe_pos(w->fe, cl_lit(w, b_start(e))));
}

struct ir_expr *cl_rv(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor e = cl_strip(w, c);
	switch (clang_getCursorKind(e)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
		return constant(w, e);
	case CXCursor_DeclRefExpr: {
		int l = cl_global_loc(w, e);
		if (l < 0)
			return ref(w, e);
		/* A program's global: an array is its address, anything
		 * else a plain read. */
		struct src s = cl_src_of(w, e);
		if (w->fe->locx[l].is_object) {
			struct ir_expr *x = cl_mk(w, IR_E_LOC, s.pos);
			x->loc = l;
			return x;
		}
		int t = cl_temp(w, s.pos);
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, t);
		in->a = cl_mk(w, IR_E_LOC, s.pos);
		in->a->loc = l;
		in->order = IR_ORD_PLAIN;
		return cl_mk_reg(w, t, s.pos);
	}
	case CXCursor_UnaryOperator:
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
	case CXCursor_UnexposedExpr: {
		struct opform f;
		cl_opform(w, e, &f);
		if (f.nkids && f.in_macro) {
			cl_err_at(w, e, "clang found a type error in this "
				  "macro's expansion (a register of no declared "
				  "type used as a pointer?) and kept no operator "
				  "for it; declare the register with its type");
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
		if (cl_expr_kids(w, e, kid, 3) != 3) {
			cl_err_at(w, e, "unsupported conditional expression");
			return NULL;
		}
		struct ir_expr *ea = cl_rv(w, kid[0], b);
		return ea ? branchy(w, e, ea, &kid[1], &kid[2], IR_EQ, b) : NULL;
	}
	case CXCursor_CallExpr: {
		struct ir_expr *v = NULL;
		return cl_call(w, e, b, DST_VALUE, cl_src_of(w, e), &v) ? v : NULL;
	}
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr: {
		/* A plain read of a field or element. */
		struct ir_expr *a = cl_lv_addr(w, e, b);
		if (!a)
			return NULL;
		struct src s = cl_src_of(w, e);
		int t = cl_temp(w, s.pos);
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		return cl_mk_reg(w, t, s.pos);
	}
	case CXCursor_StmtExpr: {
		/* ({ s1; ...; e; }): the statements, then e's value. */
		CXCursor *k, *body;
		int n = ctu_kids(w->t, e, &k);
		int m = n == 1 ? ctu_kids(w->t, k[0], &body) : 0;
		for (int i = 0; i + 1 < m; i++)
			if (!cl_stmt(w, body[i], b))
				return NULL;
		if (m > 0 && clang_isExpression(clang_getCursorKind(body[m - 1])))
			return cl_rv(w, body[m - 1], b);
		if (m > 0 && !cl_stmt(w, body[m - 1], b))
			return NULL;
		return cl_mk_const(w, 0, fe_pos(w->fe, cl_lit(w, b_start(e))));
	}
	default:
		break;
	}
	CXString k = clang_getCursorKindSpelling(clang_getCursorKind(e));
	cl_err_at(w, e, "unsupported C expression '%s' (%s)", cl_src_of(w, e).text,
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
			cl_err_at(w, at, "no location '%s': '%s' has no such "
				  "field or element", n, prog->locs[obj->loc].name);
			return NULL;
		}
		struct ir_expr *x = cl_mk(w, IR_E_LOC, obj->pos);
		x->loc = l;
		return x;
	}
	if (obj->kind == IR_E_COND && obj->b->kind == IR_E_LOC) {
		/* A choice made by an outer field access or index: choose
		 * inside.  The last alternative of a computed index is the
		 * array object itself (out of range, see index_choice): the
		 * access stays there. */
		const struct ir_expr *oc = obj->c;
		const char *cn = oc->kind == IR_E_LOC ? prog->locs[oc->loc].name : "";
		size_t cl = strlen(cn);
		int out_of_range = oc->kind == IR_E_LOC &&
				   w->fe->locx[oc->loc].is_object &&
				   strncmp(prog->locs[obj->b->loc].name, cn, cl) == 0 &&
				   prog->locs[obj->b->loc].name[cl] == '[';
		struct ir_expr *b = select_part(w, at, obj->b, tname, suffix);
		struct ir_expr *c = !out_of_range &&
				    (oc->kind == IR_E_LOC || oc->kind == IR_E_COND)
			? select_part(w, at, obj->c, tname, suffix) : obj->c;
		if (!b || !c)
			return NULL;
		struct ir_expr *x = cl_mk(w, IR_E_COND, obj->pos);
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
		struct ir_expr *base = cl_mk(w, IR_E_LOC, obj->pos), *part;
		base->loc = i;
		part = cl_mk(w, IR_E_LOC, obj->pos);
		part->loc = l;
		struct ir_expr *c = cl_mk(w, IR_E_COND, obj->pos);
		c->a = cl_mk_bin(w, IR_EQ, obj, base);
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
	struct src s = cl_src_of(w, e);
	struct src as = s;
	as.text = arena_printf(w->fe->arena, "index in range: %s", s.text);
	cl_emit(w, b, IR_ASSERT, as, -1)->a =
		cl_mk_bin(w, IR_LAND, cl_mk_bin(w, IR_GE, ix, cl_mk_const(w, 0, s.pos)),
			  cl_mk_bin(w, IR_LT, ix, cl_mk_const(w, n, s.pos)));
	/* Out of range, the access goes to the array object itself, which
	 * holds nothing; the assertion has reported it. */
	struct ir_expr *r = obj;
	for (long i = n - 1; i >= 0; i--) {
		struct ir_expr *el = select_part(w, e, obj, tname,
			arena_printf(w->fe->arena, "[%ld]", i));
		if (!el)
			return NULL;
		struct ir_expr *x = cl_mk(w, IR_E_COND, s.pos);
		x->a = cl_mk_bin(w, IR_EQ, ix, cl_mk_const(w, i, s.pos));
		x->b = el;
		x->c = r;
		r = x;
	}
	return r;
}

/* Access e is to member of the union of canonical type ty: the first
 * access to a union type fixes its member; another member is a located
 * error (each member is a location of its own, layout.c, so the two
 * would not share the memory a union shares).  0 with the error. */
static int union_member(struct lw *w, CXCursor e, CXCursor base, CXType ty,
			const char *member)
{
	if (clang_getCursorKind(clang_getTypeDeclaration(ty)) != CXCursor_UnionDecl)
		return 1;
	struct ctu *t = w->t;
	const char *tn = type_name(w, ty);
	int line = cl_src_of(w, e).pos.line;
	for (int i = 0; i < t->nunions; i++) {
		if (strcmp(t->unions[i].type, tn) != 0)
			continue;
		if (strcmp(t->unions[i].member, member) == 0)
			return 1;
		return cl_err_at(w, e, "'%s' is a union accessed through its "
				 "member '%s' here and '%s' at line %d: lkmmc "
				 "gives each member of a union a location of its "
				 "own, so a union type must be accessed through "
				 "one member only; use '%s' here too",
				 cl_src_of(w, base).text, member,
				 t->unions[i].member, t->unions[i].line,
				 t->unions[i].member);
	}
	t->unions = fe_reserve(t->scratch, t->unions, sizeof *t->unions,
			       t->nunions, &t->unions_cap);
	t->unions[t->nunions++] = (struct ctu_union_use){ tn, member, line };
	return 1;
}

/* The address of memory lvalue c: "*p", "s->f", "s.f", "a[i]". */
struct ir_expr *cl_lv_addr(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor e = cl_strip(w, c), kid[2];
	enum CXCursorKind k = clang_getCursorKind(e);
	int gl = cl_global_loc(w, e);
	if (gl >= 0) {
		struct ir_expr *x = cl_mk(w, IR_E_LOC, cl_src_of(w, e).pos);
		x->loc = gl;
		return x;
	}
	if (k == CXCursor_MemberRefExpr) {
		if (cl_expr_kids(w, e, kid, 1) != 1) {
			cl_err_at(w, e, "unsupported field access");
			return NULL;
		}
		CXType bt = clang_getCanonicalType(clang_getCursorType(kid[0]));
		int arrow = bt.kind == CXType_Pointer;
		CXType rt = arrow ? clang_getCanonicalType(clang_getPointeeType(bt)) : bt;
		if (!union_member(w, e, kid[0], rt, cl_spell(w, e)))
			return NULL;
		struct ir_expr *obj = arrow ? cl_rv(w, kid[0], b)
					    : cl_lv_addr(w, kid[0], b);
		if (!obj)
			return NULL;
		char *tn = type_name(w, rt);
		return select_part(w, e, obj, tn,
				   arena_printf(w->fe->arena, ".%s", cl_spell(w, e)));
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		if (cl_expr_kids(w, e, kid, 2) != 2) {
			cl_err_at(w, e, "unsupported array access");
			return NULL;
		}
		CXCursor base = cl_strip(w, kid[0]);
		CXType at = clang_getCanonicalType(clang_getCursorType(base));
		struct ir_expr *obj;
		long n;
		const char *tname;
		if (at.kind == CXType_ConstantArray) {
			obj = cl_lv_addr(w, base, b);
			n = clang_getNumElements(at);
			tname = type_name(w, at);
		} else {
			/* A pointer: it must be a parameter naming an array
			 * of the init block ("int *a" for "int a[3]"). */
			obj = cl_rv(w, base, b);
			if (!obj)
				return NULL;
			int l = obj->kind == IR_E_LOC ? obj->loc : -1;
			const char *ct = l >= 0 ? w->fe->prog->locs[l].ctype : "";
			const char *lb = strrchr(ct, '[');
			if (l < 0 || !w->fe->locx[l].is_object || !lb) {
				cl_err_at(w, e, "indexing is supported on arrays: "
					  "a parameter naming an array of the init "
					  "block, or an array in a struct");
				return NULL;
			}
			n = strtol(lb + 1, NULL, 10);
			tname = ct;
		}
		struct ir_expr *ix = obj ? cl_rv(w, kid[1], b) : NULL;
		if (!ix)
			return NULL;
		/* a[N - 1] in a program: main's asserts read the element */
		long v;
		if (w->t->program && ix->kind != IR_E_CONST && cl_fold(ix, &v))
			ix = cl_mk_const(w, v, ix->pos);
		if (ix->kind != IR_E_CONST)
			return index_choice(w, e, b, obj, ix, n, tname);
		if (ix->num < 0 || ix->num >= n) {
			cl_err_at(w, kid[1], "index %ld is out of range: the array "
				  "has %ld elements", ix->num, n);
			return NULL;
		}
		return select_part(w, e, obj, tname,
				   arena_printf(w->fe->arena, "[%ld]", ix->num));
	}
	CXCursor ptr;
	if (!cl_is_deref(w, e, &ptr)) {
		cl_err_at(w, e, "not memory: expected *p, s->f, s.f or a[i]");
		return NULL;
	}
	struct ir_expr *a = cl_rv(w, ptr, b);
	if (a && a->kind == IR_E_LOC && w->fe->locx[a->loc].is_object) {
		/* *a of an array is a[0]; a struct is not one location. */
		const struct ir_location *o = &w->fe->prog->locs[a->loc];
		const char *n = arena_printf(w->fe->arena, "%s[0]", o->name);
		int l = ir_find_loc(w->fe->prog, n);
		if (l < 0) {
			cl_err_at(w, e, "'%s' is a %s, not one location: access "
				  "its fields", o->name, o->ctype);
			return NULL;
		}
		a = cl_mk(w, IR_E_LOC, a->pos);
		a->loc = l;
	}
	return a;
}
