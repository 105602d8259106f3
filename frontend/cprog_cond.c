/*
 * cprog_cond.c - main's final asserts in a whole C program (see cprog.c):
 * an assert() or BUG_ON() after every thread is joined, as a condition on
 * the final state: ==/!= of globals and constants (IR_C_ATOM) or a C
 * condition over the globals' final values (IR_C_EXPR); and the program's
 * filter, made of GenMC's __VERIFIER_assume() calls (main's after the
 * joins, the threads' through the registers clower_call.c sets).  It does
 * not check asserts inside threads (clower*.c lowers those).
 */
#include <string.h>

#include "common/arena.h"
#include "cprog_int.h"
#include "fe.h"

static struct ir_cond *cond_new(struct cprog *pc, enum ir_cond_kind k,
				struct ir_pos pos)
{
	struct ir_cond *n = arena_alloc(pc->fe->arena, sizeof *n);
	memset(n, 0, sizeof *n);
	n->kind = k;
	n->pos = pos;
	return n;
}

static struct ir_cond *cond_node(struct cprog *pc, enum ir_cond_kind k,
				 CXCursor at)
{
	return cond_new(pc, k, cl_src_of(&pc->w, at).pos);
}

/* The location a final assert observes in e (a global, a field or
 * element, READ_ONCE(x), atomic_read(&v), ...); -1 when e is none. */
static int observed(struct cprog *pc, CXCursor e)
{
	CXCursor x = cprog_final_alias(pc, e);
	enum CXCursorKind k = clang_getCursorKind(x);
	struct ir_expr *a = NULL;
	struct bb b = {0};
	int l = cl_global_loc(&pc->w, x);
	if (l >= 0)
		return pc->fe->locx[l].is_object ? -1 : l;
	if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) {
		a = cl_lv_addr(&pc->w, x, &b);
	} else if (k == CXCursor_CallExpr) {
		const struct kapi *kp = kapi_find(NULL, cprog_callee(pc, x));
		if (!kp || kp->kind != K_LOAD || clang_Cursor_getNumArguments(x) != 1)
			return -1;
		CXCursor arg = clang_Cursor_getArgument(x, 0);
		a = kp->addr_lvalue ? cl_lv_addr(&pc->w, arg, &b)
				    : cl_rv(&pc->w, arg, &b);
	}
	int n = b.n;
	if (!a || n || a->kind != IR_E_LOC)
		return -1;
	return pc->fe->locx[a->loc].is_object ? -1 : a->loc;
}

static struct ir_cond *to_cond(struct cprog *pc, CXCursor e);

/* What a final assert may say, for the error when it says something else. */
#define FINAL_ACCEPTS "constants, globals (x, s.f, a[1], READ_ONCE(x), " \
	"atomic_read(&v)), + - *, comparisons, !, && and ||"

/* e over the globals' final values (ir.h, IR_C_EXPR); NULL (error
 * recorded at the part that is none) when it is not such an expression. */
static struct ir_expr *final_expr(struct cprog *pc, CXCursor e)
{
	CXCursor x = cprog_final_alias(pc, e);
	struct src s = cl_src_of(&pc->w, x);
	struct opform f;
	enum ir_binop op;
	int l = observed(pc, x);
	if (pc->fe->d->set)
		return NULL;
	if (l >= 0) {
		struct ir_expr *r = cl_mk(&pc->w, IR_E_LOC, s.pos);
		r->loc = l;
		return r;
	}
	cl_opform(&pc->w, x, &f);
	if (f.nkids == 1 && !f.postfix && !f.op[1] && strchr("!-+", f.op[0])) {
		struct ir_expr *a = final_expr(pc, f.kid[0]);
		if (!a || f.op[0] == '+')
			return a;
		return cl_mk_un(&pc->w, f.op[0] == '!' ? IR_LNOT : IR_NEG, a);
	}
	if (f.nkids == 2 && cl_binop_of(f.op, &op) && op != IR_DIV &&
	    op != IR_MOD && (op < IR_BAND || op > IR_SHR)) {
		struct ir_expr *a = final_expr(pc, f.kid[0]);
		struct ir_expr *b = a ? final_expr(pc, f.kid[1]) : NULL;
		return b ? cl_mk_bin(&pc->w, op, a, b) : NULL;
	}
	struct ir_value v;
	int got = f.nkids ? 0 : cprog_main_value(pc, x, &v);
	if (got > 0 && v.kind == IR_VAL_INT)
		return cl_mk_const(&pc->w, v.num, s.pos);
	if (got >= 0 && !pc->fe->d->set)
		cl_err_at(&pc->w, x, "an assert after the joins is a condition over the "
		       "globals' final values (" FINAL_ACCEPTS "): '%s' is not "
		       "one", s.text);
	return NULL;
}

/* The whole of e as a C condition over final values. */
static struct ir_cond *expr_cond(struct cprog *pc, CXCursor e)
{
	struct ir_expr *x = final_expr(pc, e);
	if (!x)
		return NULL;
	struct ir_cond *n = cond_node(pc, IR_C_EXPR, e);
	n->expr = x;
	n->text = cl_src_of(&pc->w, e).text;
	return n;
}

/* l == r (or !=: negated by the caller). */
static struct ir_cond *compare(struct cprog *pc, CXCursor at, CXCursor l,
			       CXCursor r)
{
	int ol = observed(pc, l), or = observed(pc, r);
	if (pc->fe->d->set)
		return NULL;
	struct ir_value v;
	struct ir_cond *n = cond_node(pc, IR_C_ATOM, at);
	if (ol >= 0 && or >= 0) {
		n->lhs.thread = -1;
		n->lhs.index = ol;
		n->rhs_is_obs = 1;
		n->rhs_obs.thread = -1;
		n->rhs_obs.index = or;
		return n;
	}
	if (ol < 0) {
		CXCursor t = l;
		l = r;
		r = t;
		ol = or;
	}
	int got = ol >= 0 ? cprog_main_value(pc, r, &v) : 0;
	if (got < 0)
		return NULL;
	if (ol < 0 || got == 0)
		return expr_cond(pc, at); /* x + y == 2, ... */
	n->lhs.thread = -1;
	n->lhs.index = ol;
	n->rhs = v;
	return n;
}

/* The final-state condition an assert's argument e states. */
static struct ir_cond *to_cond(struct cprog *pc, CXCursor e)
{
	CXCursor x = cprog_final_alias(pc, e);
	struct opform f;
	struct ir_cond *n;
	CXEvalResult ev = clang_getCursorKind(x) == CXCursor_IntegerLiteral
		? clang_Cursor_Evaluate(x) : NULL;
	if (ev) {
		long v = (long)clang_EvalResult_getAsLongLong(ev);
		clang_EvalResult_dispose(ev);
		return cond_node(pc, v ? IR_C_TRUE : IR_C_FALSE, x);
	}
	cl_opform(&pc->w, x, &f);
	if (f.nkids == 1 && strcmp(f.op, "!") == 0) {
		n = cond_node(pc, IR_C_NOT, x);
		n->a = to_cond(pc, f.kid[0]);
		return n->a ? n : NULL;
	}
	if (f.nkids == 2 && (strcmp(f.op, "&&") == 0 || strcmp(f.op, "||") == 0)) {
		n = cond_node(pc, f.op[0] == '&' ? IR_C_AND : IR_C_OR, x);
		n->a = to_cond(pc, f.kid[0]);
		n->b = n->a ? to_cond(pc, f.kid[1]) : NULL;
		return n->b ? n : NULL;
	}
	if (f.nkids == 2 && strcmp(f.op, "==") == 0)
		return compare(pc, x, f.kid[0], f.kid[1]);
	if (f.nkids == 2 && strcmp(f.op, "!=") == 0) {
		n = cond_node(pc, IR_C_NOT, x);
		n->a = compare(pc, x, f.kid[0], f.kid[1]);
		return n->a ? n : NULL;
	}
	int l = f.nkids ? -1 : observed(pc, x);
	if (l >= 0) {
		/* x alone: x != 0 */
		struct ir_cond *a = cond_node(pc, IR_C_ATOM, x);
		a->lhs.thread = -1;
		a->lhs.index = l;
		n = cond_node(pc, IR_C_NOT, x);
		n->a = a;
		return n;
	}
	if (pc->fe->d->set)
		return NULL;
	return expr_cond(pc, x); /* x < 2, x + y, ... */
}

int cprog_assert(struct cprog *pc, CXCursor c, const struct kapi *k)
{
	if (!cprog_all_joined(pc))
		return cl_err_at(&pc->w, c, "%s in main before every thread is joined: "
			      "main's asserts are checked on the final state; "
			      "join all threads first, or move it into a thread",
			      k->name);
	struct ir_cond *cnd = to_cond(pc, clang_Cursor_getArgument(c, 0));
	if (!cnd)
		return 0;
	if (k->test == IR_NE) {
		struct ir_cond *n = cond_node(pc, IR_C_NOT, c);
		n->a = cnd;
		cnd = n;
	}
	pc->as = fe_reserve(pc->fe->arena, pc->as, sizeof *pc->as, pc->nas,
			    &pc->ascap);
	struct ir_final_assert *a = &pc->as[pc->nas++];
	struct src s = cl_src_of(&pc->w, c);
	a->cond = cnd;
	a->pos = s.pos;
	a->text = s.text;
	return 1;
}

/* A path that ends at abort() or exit() never reaches main's asserts: each
 * holds on it ("P<k>'s exit register is 1, or cond"). */
void cprog_exempt_exits(struct cprog *pc)
{
	for (int k = 0; k < pc->nth; k++) {
		if (!pc->exits[k])
			continue;
		for (int i = 0; i < pc->nas; i++) {
			struct ir_final_assert *a = &pc->as[i];
			struct ir_cond *e = cond_new(pc, IR_C_ATOM, a->pos);
			e->lhs.thread = k;
			e->lhs.index = pc->exits[k] - 1;
			e->rhs = (struct ir_value){ IR_VAL_INT, 1, 0 };
			struct ir_cond *o = cond_new(pc, IR_C_OR, a->pos);
			o->a = e;
			o->b = a->cond;
			a->cond = o;
		}
	}
}

/* a && b, either of which may be NULL (none). */
static struct ir_cond *cond_and(struct cprog *pc, struct ir_cond *a,
				struct ir_cond *b, struct ir_pos pos)
{
	if (!a || !b)
		return a ? a : b;
	struct ir_cond *n = cond_new(pc, IR_C_AND, pos);
	n->a = a;
	n->b = b;
	return n;
}

int cprog_assume(struct cprog *pc, CXCursor c)
{
	if (clang_Cursor_getNumArguments(c) != 1)
		return cl_err_at(&pc->w, c, "__VERIFIER_assume takes one condition");
	if (!cprog_all_joined(pc))
		return cl_err_at(&pc->w, c, "__VERIFIER_assume in main before every "
			      "thread is joined: main's is a condition on the "
			      "final state; join all threads first, or move it "
			      "into a thread");
	struct ir_cond *cnd = to_cond(pc, clang_Cursor_getArgument(c, 0));
	if (!cnd)
		return 0;
	pc->keep = cond_and(pc, pc->keep, cnd, cl_src_of(&pc->w, c).pos);
	return 1;
}

struct ir_cond *cprog_filter(struct cprog *pc)
{
	struct ir_cond *f = pc->keep;
	for (int k = 0; k < pc->nth; k++) {
		if (!pc->assumes[k])
			continue;
		struct ir_pos pos = pc->fe->prog->threads[k].pos;
		struct ir_cond *e = cond_new(pc, IR_C_ATOM, pos);
		e->lhs.thread = k;
		e->lhs.index = pc->assumes[k] - 1;
		e->rhs = (struct ir_value){ IR_VAL_INT, 0, 0 };
		f = cond_and(pc, f, e, pos);
	}
	return f;
}
