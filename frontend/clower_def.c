/*
 * clower_def.c - a call of a macro read from a model's linux-kernel.def
 * (kapi.h K_DEF, kdef.c): its arguments are lowered once each, left to
 * right, then each primitive of the body becomes one IR instruction whose
 * tags (ir_instr.tags) are the ones kdef.c worked out for its events.  It
 * does not read the .def (kdef.c) nor lower the built-in rows
 * (clower_call.c).
 */
#include <string.h>

#include "clower_int.h"
#include "common/arena.h"
#include "ctu.h"

/* How a macro uses each parameter: as the memory operand of __load or
 * __store written without '*' (the caller passes an lvalue, "*x"), or as
 * a value. */
static int lvalue_param(const struct kdef_macro *m, int param)
{
	for (int s = 0; s < m->nsteps; s++) {
		const struct kdef_step *st = &m->steps[s];
		if ((st->prim == KP_LOAD || st->prim == KP_STORE) && st->nargs > 0 &&
		    st->arg[0].param == param && st->arg[0].deref == 0)
			return 1;
	}
	return 0;
}

/* Operand a of a step: the argument's value (or, for a memory operand,
 * its address); NULL with an error when the .def asks for what lkmmc
 * cannot give. */
static struct ir_expr *operand(struct lw *w, CXCursor c, const struct kapi *k,
			       const struct kdef_arg *a, int memory,
			       struct ir_expr **argv, struct src s)
{
	if (a->param < 0)
		return cl_mk_const(w, a->num, s.pos);
	/* __load(*X): the pointer X; __load(X): the caller's lvalue's
	 * address; any other primitive takes the pointer X */
	if (memory ? a->deref == 1 || lvalue_param(k->def, a->param) : a->deref == 0)
		return argv[a->param];
	cl_err_at(w, c, "unsupported: %s dereferences its argument %d here "
		  "(linux-kernel.def)", k->name, a->param + 1);
	return NULL;
}

/* The IR instruction of one step, appended to b; the last one's value
 * goes to dst (-1: none), which *reg is set to. */
static int step(struct lw *w, CXCursor c, const struct kapi *k,
		const struct kdef_step *st, int last, int dst, struct ir_expr **argv,
		struct bb *b, struct src s, int *reg)
{
	int mem = st->prim == KP_LOAD || st->prim == KP_STORE;
	struct ir_expr *x[3] = {NULL, NULL, NULL};
	for (int i = 0; i < st->nargs; i++)
		if (!(x[i] = operand(w, c, k, &st->arg[i], i == 0 && mem, argv, s)))
			return 0;
	int d = last ? dst : -1;
	struct ir_instr *in;
	switch (st->prim) {
	case KP_LOAD:
		in = cl_emit(w, b, IR_LOAD, s, d);
		in->a = x[0];
		in->order = st->order;
		break;
	case KP_STORE:
		in = cl_emit(w, b, IR_STORE, s, -1);
		in->a = x[0];
		in->b = x[1];
		in->order = st->order;
		break;
	case KP_FENCE:
		in = cl_emit(w, b, IR_FENCE, s, -1);
		in->fence = st->fence;
		break;
	case KP_LOCK: case KP_UNLOCK:
		in = cl_emit(w, b, st->prim == KP_LOCK ? IR_LOCK : IR_UNLOCK, s, -1);
		in->a = x[0];
		break;
	case KP_TRYLOCK: case KP_ISLOCKED:
		in = cl_emit(w, b, st->prim == KP_TRYLOCK ? IR_TRYLOCK : IR_ISLOCKED, s, d);
		in->a = x[0];
		break;
	case KP_SRCU:
		if (st->nargs == 2) {
			in = cl_emit(w, b, IR_SRCU_UNLOCK, s, -1);
			in->b = x[1];
		} else if (k->def->value && last) {
			in = cl_emit(w, b, IR_SRCU_LOCK, s, d);
		} else {
			in = cl_emit(w, b, IR_SRCU_SYNC, s, -1);
		}
		in->a = x[0];
		break;
	default: { /* the RMWs */
		static const enum ir_rmw shape[] = {
			[KP_XCHG] = IR_RMW_XCHG, [KP_CMPXCHG] = IR_RMW_CMPXCHG,
			[KP_ATOMIC_OP] = IR_RMW_OP, [KP_OP_RETURN] = IR_RMW_OP_RETURN,
			[KP_FETCH_OP] = IR_RMW_FETCH_OP, [KP_ADD_UNLESS] = IR_RMW_ADD_UNLESS,
		};
		in = cl_emit(w, b, IR_RMW, s, d);
		in->a = x[0];
		in->b = x[1];
		in->c = x[2];
		if (st->andnot)
			in->b = cl_mk_un(w, IR_BNOT, x[1]);
		in->order = st->order;
		in->rmw = shape[st->prim];
		in->arith = st->prim == KP_ADD_UNLESS ? IR_ADD : st->op;
		break;
	}
	}
	memcpy(in->tags, st->ev, sizeof in->tags);
	if (last)
		*reg = d;
	return 1;
}

int cl_def_call(struct lw *w, CXCursor c, const struct kapi *k, struct bb *b,
		int dst, struct src s, struct ir_expr **val)
{
	const struct kdef_macro *m = k->def;
	int nargs = clang_Cursor_getNumArguments(c);
	const struct kdef_step *st = m->nsteps == 1 ? &m->steps[0] : NULL;
	if (st && (st->prim == KP_LOAD || st->prim == KP_STORE) && nargs > 0 &&
	    st->arg[0].param == 0 && st->arg[0].deref == 0 &&
	    (st->prim == KP_LOAD || st->arg[1].param == 1) &&
	    cl_names_local(w, clang_Cursor_getArgument(c, 0)))
		return cl_local_access(w, c, st->prim == KP_STORE, b, dst, s, val);
	struct ir_expr **argv = arena_alloc(w->t->scratch,
					    (size_t)(nargs + 1) * sizeof *argv);
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		CXCursor ptr;
		if (i < m->nparams && lvalue_param(m, i)) {
			if (!cl_is_deref(w, arg, &ptr))
				return cl_err_at(w, c, "%s takes a dereference such as "
						 "%s(*x), not '%s'", k->name, k->name,
						 cl_src_of(w, arg).text);
			argv[i] = cl_lv_addr(w, arg, b);
		} else {
			argv[i] = cl_rv(w, arg, b); /* past the macro's: evaluated only */
		}
		if (!argv[i])
			return 0;
	}
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	int reg = -1;
	int vdst = m->has_cmp && dst >= 0 ? cl_temp(w, s.pos) : dst;
	for (int i = 0; i < m->nsteps; i++)
		if (!step(w, c, k, &m->steps[i], i == m->nsteps - 1, vdst, argv, b, s, &reg))
			return 0;
	if (m->has_cmp && dst >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a =
			cl_mk_bin(w, m->cmp, cl_mk_reg(w, reg, s.pos),
				  cl_mk_const(w, m->cmp_num, s.pos));
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}
