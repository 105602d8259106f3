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
 * a READ_ONCE loop.  Operators come from the AST (libclang's operator
 * kinds, clower_util.c), also inside macros.
 *
 * This file lowers statements (blocks, if, loops, switch, goto, return)
 * and holds the entry point; expressions are in clower_expr.c, calls of
 * primitives and helpers in clower_call.c, the small tools in
 * clower_util.c, all sharing clower_int.h.  It does not run libclang
 * (cparse.c does), lay out structs (layout.c) nor read the litmus syntax.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "clower.h"
#include "clower_int.h"
#include "ctu.h"
#include "cscan.h"
#include "fe.h"
#include "kapi.h"

/* --- statements -------------------------------------------------------- */

static int block_items(struct lw *w, CXCursor *k, int n, struct bb *b,
		       int looped);
static int switch_stmt(struct lw *w, CXCursor c, struct bb *b);
static int goto_stmt(struct lw *w, CXCursor c, struct bb *b);
static struct src head_src(struct lw *w, CXCursor c, CXCursor *cond);
static void leave_if_returned(struct lw *w, struct bb *b, struct src s,
			      int returns_before);

static int expr_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	struct src s = cl_src_of(w, c);
	CXCursor e = cl_strip(w, c), ptr;
	struct ir_expr *v;
	if (clang_getCursorKind(e) == CXCursor_CallExpr)
		return cl_call(w, e, b, DST_NONE, s, &v);
	struct opform f;
	cl_opform(w, e, &f);
	if (f.nkids && f.in_macro)
		return cl_rv(w, c, b) != NULL; /* the error */
	if (f.nkids == 2 && strcmp(f.op, "=") == 0) {
		if (cl_is_deref(w, f.kid[0], &ptr)) {
			struct ir_expr *a = cl_lv_addr(w, f.kid[0], b);
			struct ir_expr *x = a ? cl_rv(w, f.kid[1], b) : NULL;
			if (!x)
				return 0;
			struct ir_instr *in = cl_emit(w, b, IR_STORE, s, -1);
			in->a = a;
			in->b = x;
			in->order = IR_ORD_PLAIN;
			return 1;
		}
		int r = cl_target_reg(w, f.kid[0], "assign to");
		return r >= 0 && cl_assign_to(w, r, f.kid[1], b, s);
	}
	if (f.nkids == 2 && cl_is_assign_op(f.op))
		return cl_compound(w, e, &f, b, s, 0) != NULL;
	if (f.nkids == 1 && (strcmp(f.op, "++") == 0 || strcmp(f.op, "--") == 0))
		return cl_update(w, f.kid[0], f.op[0] == '+' ? IR_ADD : IR_SUB,
				 NULL, b, s, 0, &v);
	return cl_rv(w, c, b) != NULL;
}

/* if (!c) break; */
static void break_unless(struct lw *w, struct bb *b, struct ir_expr *c,
			 struct src s)
{
	if (c->kind == IR_E_CONST && c->num != 0)
		return;
	struct bb tb = {0};
	cl_emit(w, &tb, IR_BREAK, s, -1);
	struct ir_instr *in = cl_emit(w, b, IR_IF, s, -1);
	in->a = cl_mk_un(w, IR_LNOT, c);
	in->then_b = cl_fin(&tb);
}

int cl_push_loop(struct lw *w, CXCursor c, enum loop_kind kind)
{
	if (w->nloops == (int)(sizeof w->loops / sizeof w->loops[0]))
		return cl_err_at(w, c, "loops nested too deeply");
	w->loops[w->nloops++] = kind;
	return 1;
}

/* The head of an if/while/for, "keyword (...)", as its text; for a
 * do-while, "do ... while (cond)". */
static struct src head_src(struct lw *w, CXCursor c, CXCursor *cond)
{
	struct src s = cl_src_of(w, c);
	if (clang_getCursorKind(c) == CXCursor_DoStmt) {
		s.text = arena_printf(w->fe->arena, "do ... while (%s)",
				      cond ? cl_src_of(w, *cond).text : "");
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
	s.text = fe_text_squash(w->fe, cl_lit(w, b_start(c)), cl_lit(w, off));
	return s;
}

/* break (op IR_BREAK) or continue (IR_CONTINUE) in the innermost open
 * loop, or an error saying why that loop cannot have it. */
static int jump_stmt(struct lw *w, CXCursor c, struct bb *b, enum ir_op op)
{
	const char *what = op == IR_BREAK ? "break" : "continue", *why = NULL;
	if (w->nloops == 0)
		return cl_err_at(w, c, "'%s' outside a loop", what);
	enum loop_kind inner = w->loops[w->nloops - 1];
	if (inner == LOOP_GOTO)
		why = op == IR_BREAK
			? "between a goto and its label is not supported; use "
			  "a goto to a label after the loop"
			: "between a goto and its label is not supported";
	else if (op == IR_CONTINUE && inner == LOOP_SWITCH)
		why = "inside a switch is not supported";
	else if (op == IR_CONTINUE && inner == LOOP_NO_CONTINUE)
		why = "in a do-while loop or in a for loop with an increment "
		      "is not supported; use a while loop";
	if (why)
		return cl_err_at(w, c, "'%s' %s", what, why);
	cl_emit(w, b, op, cl_src_of(w, c), -1);
	return 1;
}

static int if_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	CXCursor *k;
	int n = ctu_kids(w->t, c, &k);
	if (n < 2 || n > 3)
		return cl_err_at(w, c, "malformed if statement");
	struct src s = head_src(w, c, &k[0]);
	struct ir_expr *ec = cl_rv(w, k[0], b);
	if (!ec)
		return 0;
	struct bb tb = {0}, eb = {0};
	w->cond++;
	int ok = cl_stmt(w, k[1], &tb) && (n < 3 || cl_stmt(w, k[2], &eb));
	w->cond--;
	if (!ok)
		return 0;
	struct ir_instr *in = cl_emit(w, b, IR_IF, s, -1);
	in->a = ec;
	in->then_b = cl_fin(&tb);
	in->else_b = cl_fin(&eb);
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
				return cl_err_at(w, c, "malformed for statement");
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
		return cl_err_at(w, c, "malformed loop");
	}
	if (!body)
		return cl_err_at(w, c, "malformed loop");
	struct src s = head_src(w, c, cond);
	int returns_before = w->fr ? w->fr->nreturns : 0;
	if (init && !(clang_getCursorKind(*init) == CXCursor_DeclStmt
		      ? cl_stmt(w, *init, b) : expr_stmt(w, *init, b)))
		return 0;
	struct bb lb = {0};
	if (kind != CXCursor_DoStmt && cond) {
		struct ir_expr *ec = cl_rv(w, *cond, &lb);
		if (!ec)
			return 0;
		break_unless(w, &lb, ec, s);
	}
	/* "continue" would skip a do-while's test or a for's increment. */
	if (!cl_push_loop(w, c, (kind == CXCursor_WhileStmt || !inc)
			  ? LOOP_CONTINUE : LOOP_NO_CONTINUE))
		return 0;
	if (kind == CXCursor_DoStmt)
		w->loops[w->nloops - 1] = LOOP_NO_CONTINUE;
	w->cond++;
	int ok = cl_stmt(w, *body, &lb);
	w->cond--;
	if (!ok)
		return 0;
	w->nloops--;
	if (inc && !expr_stmt(w, *inc, &lb))
		return 0;
	if (kind == CXCursor_DoStmt) {
		struct ir_expr *ec = cl_rv(w, *cond, &lb);
		if (!ec)
			return 0;
		break_unless(w, &lb, ec, s);
	}
	cl_emit(w, b, IR_LOOP, s, -1)->then_b = cl_fin(&lb);
	leave_if_returned(w, b, s, returns_before);
	return 1;
}

int cl_decl(struct lw *w, CXCursor vd, struct bb *b)
{
	if (clang_getCursorKind(vd) != CXCursor_VarDecl)
		return cl_err_at(w, vd, "unsupported declaration in a process body");
	CXType ty = clang_getCanonicalType(clang_getCursorType(vd));
	CXString ts = clang_getTypeSpelling(clang_getCursorType(vd));
	char *tname = arena_strdup(w->fe->arena, clang_getCString(ts));
	clang_disposeString(ts);
	int kind = fe_type_kind(tname);
	char *name = cl_spell(w, vd);
	if (kind < 0 && ty.kind == CXType_Pointer)
		kind = IR_LOC_PTR; /* foo_t *p with a typedef of the preamble */
	else if (kind < 0 && ty.kind >= CXType_Bool && ty.kind <= CXType_Int128)
		kind = IR_LOC_INT; /* an integer typedef of the preamble */
	if (ty.kind == CXType_Pointer) {
		enum CXTypeKind pk = clang_getCanonicalType(
			clang_getPointeeType(ty)).kind;
		if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto)
			return cl_err_at(w, vd, "function pointers are not "
					 "supported: call the helper directly");
	}
	if (ty.kind == CXType_ConstantArray || ty.kind == CXType_IncompleteArray ||
	    ty.kind == CXType_VariableArray || ty.kind == CXType_Record ||
	    (kind != IR_LOC_INT && kind != IR_LOC_PTR))
		return cl_err_at(w, vd, "local '%s' has type '%s', which lkmmc does "
				 "not model as a register (use int, intptr_t or a "
				 "pointer)", name, tname);
	unsigned noff = 0;
	clang_getFileLocation(clang_getCursorLocation(vd), NULL, NULL, NULL,
			      &noff);
	int r = cl_reg_of(w, vd, vd);
	CXCursor init[1];
	CXCursor *k;
	int n = ctu_kids(w->t, vd, &k);
	if (n == 0 || !clang_isExpression(clang_getCursorKind(k[n - 1])))
		return 1;
	init[0] = k[n - 1];
	size_t a = cl_lit(w, noff), e = cl_lit(w, b_end(vd));
	struct src s = { fe_pos(w->fe, a), fe_text_squash(w->fe, a, e) };
	return cl_assign_to(w, r, init[0], b, s);
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
	cl_emit(w, &tb, IR_BREAK, s, -1);
	struct ir_instr *in = cl_emit(w, b, IR_IF, s, -1);
	in->a = cl_mk_reg(w, w->fr->flag, s.pos);
	in->then_b = cl_fin(&tb);
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
	if (!cl_push_loop(w, k[a], LOOP_GOTO))
		return 0;
	w->jumps = fe_reserve(w->t->scratch, w->jumps, sizeof *w->jumps,
			      w->njumps, &w->jcap);
	struct jump *j = &w->jumps[w->njumps++];
	j->label = label;
	j->depth = w->nloops;
	j->backward = backward;
	struct bb lb = {0};
	struct src s = cl_src_of(w, k[a]);
	w->cond += backward;
	int ok = block_items(w, k + a, e - a, &lb, backward);
	w->cond -= backward;
	w->njumps--;
	w->nloops--;
	if (!ok)
		return 0;
	cl_emit(w, &lb, IR_BREAK, s, -1);
	cl_emit(w, b, IR_LOOP, s, -1)->then_b = cl_fin(&lb);
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
				if (!cl_decl(w, dk[d], b))
					return 0;
		} else if (!cl_stmt(w, k[i], b)) {
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
			return cl_err_at(w, c, "a goto out of a loop or switch is "
					 "not supported; use break");
		cl_emit(w, b, j->backward ? IR_CONTINUE : IR_BREAK, cl_src_of(w, c), -1);
		return 1;
	}
	return cl_err_at(w, c, "unsupported goto: lkmmc takes a goto to a label "
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
		return cl_err_at(w, c, "unsupported switch: write its body as a "
				 "block of case labels and statements");
	struct src s = head_src(w, c, &k[0]);
	struct ir_expr *e = cl_rv(w, k[0], b);
	if (!e)
		return 0;
	if (e->kind != IR_E_CONST && e->kind != IR_E_REG) {
		int t = cl_temp(w, s.pos);
		cl_emit(w, b, IR_ASSIGN, s, t)->a = e;
		e = cl_mk_reg(w, t, s.pos);
	}
	int ni = ctu_kids(w->t, k[1], &items);
	/* Every case value, for default. */
	struct ir_expr *none = cl_mk_const(w, 1, s.pos);
	for (int i = 0; i < ni; i++)
		for (CXCursor it = items[i];
		     clang_getCursorKind(it) == CXCursor_CaseStmt ||
		     clang_getCursorKind(it) == CXCursor_DefaultStmt;) {
			CXCursor *ck;
			int nc = ctu_kids(w->t, it, &ck);
			if (clang_getCursorKind(it) == CXCursor_CaseStmt) {
				if (nc != 2)
					return cl_err_at(w, it, "unsupported case "
							 "label (a range?)");
				struct ir_expr *v = cl_rv(w, ck[0], b);
				if (!v || v->kind != IR_E_CONST)
					return v ? cl_err_at(w, ck[0], "a case value "
							     "must be a constant") : 0;
				none = cl_mk_bin(w, IR_LAND, none,
						 cl_mk_bin(w, IR_NE, e, v));
			}
			it = ck[nc - 1];
		}
	int m = cl_temp(w, s.pos);
	cl_emit(w, b, IR_ASSIGN, s, m)->a = cl_mk_const(w, 0, s.pos);
	int returns_before = w->fr ? w->fr->nreturns : 0;
	if (!cl_push_loop(w, c, LOOP_SWITCH))
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
				hit = cl_mk_bin(w, IR_EQ, e, cl_rv(w, ck[0], &lb));
			struct src cs = cl_src_of(w, it);
			cl_emit(w, &lb, IR_ASSIGN, cs, m)->a =
				cl_mk_bin(w, IR_LOR, cl_mk_reg(w, m, s.pos), hit);
			it = ck[nc - 1];
		}
		struct bb tb = {0};
		if (ik == CXCursor_NullStmt)
			continue;
		if (!cl_stmt(w, it, &tb)) {
			w->cond--;
			return 0;
		}
		struct ir_instr *in = cl_emit(w, &lb, IR_IF, cl_src_of(w, it), -1);
		in->a = cl_mk_reg(w, m, s.pos);
		in->then_b = cl_fin(&tb);
	}
	w->cond--;
	w->nloops--;
	cl_emit(w, &lb, IR_BREAK, s, -1);
	cl_emit(w, b, IR_LOOP, s, -1)->then_b = cl_fin(&lb);
	leave_if_returned(w, b, s, returns_before);
	return 1;
}

/* return [v]; inside an inlined helper. */
static int return_stmt(struct lw *w, CXCursor c, struct bb *b)
{
	struct frame *f = w->fr;
	struct src s = cl_src_of(w, c);
	CXCursor kid[1];
	if (cl_expr_kids(w, c, kid, 1) == 1) {
		if (f->ret < 0) {
			struct ir_expr *v = cl_rv(w, kid[0], b);
			if (!v)
				return 0;
		} else if (!cl_assign_to(w, f->ret, kid[0], b, s)) {
			return 0;
		}
	}
	return cl_leave_frame(w, b, s);
}

int cl_leave_frame(struct lw *w, struct bb *b, struct src s)
{
	struct frame *f = w->fr;
	f->nreturns++;
	if (!f->wrapped)
		return 1;
	if (w->nloops > f->loop_base + 1)
		cl_emit(w, b, IR_ASSIGN, s, f->flag)->a = cl_mk_const(w, 1, s.pos);
	cl_emit(w, b, IR_BREAK, s, -1);
	return 1;
}

int cl_stmt(struct lw *w, CXCursor c, struct bb *b)
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
			if (!cl_decl(w, k[i], b))
				return 0;
		return 1;
	case CXCursor_SwitchStmt:
		return switch_stmt(w, c, b);
	case CXCursor_LabelStmt:
		n = ctu_kids(w->t, c, &k);
		return n == 1 ? cl_stmt(w, k[0], b) : 1;
	case CXCursor_GotoStmt:
		return goto_stmt(w, c, b);
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		return cl_err_at(w, c, "a case label nested inside another "
				 "statement of the switch is not supported");
	case CXCursor_IfStmt:
		return if_stmt(w, c, b);
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ForStmt:
		return loop_stmt(w, c, b);
	case CXCursor_BreakStmt:
		return jump_stmt(w, c, b, IR_BREAK);
	case CXCursor_ContinueStmt:
		return jump_stmt(w, c, b, IR_CONTINUE);
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
		return cl_err_at(w, c, "inline assembly is not supported: the "
				 "model knows the kernel's primitives, not "
				 "instructions");
	return cl_err_at(w, c, "'%s' is not supported in a process body",
			 keyword(w, c));
}

int clower_thread(struct ctu *t, const struct fe_proc *p, CXCursor body)
{
	struct lw w = { .t = t, .fe = t->fe, .p = p, .tid = p->id };
	struct ir_thread *th = &t->fe->prog->threads[p->id];
	for (int r = 0; r < th->nregs; r++)
		cl_rx(&w, r)->assigned = th->regs[r].has_init;
	struct bb b = {0};
	if (!cl_stmt(&w, body, &b))
		return 0;
	th->body = cl_fin(&b);
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
