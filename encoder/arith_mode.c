/*
 * arith_mode.c - what arithmetic a program needs, read from its IR before
 * it is encoded: which of the solver's arithmetic set-ups to try first
 * (enc_arith_mode), and whether every bitwise operator can be linear
 * arithmetic (enc_bits_linear, which symex_eval.c's binop follows).
 * Neither builds a term; the encoding itself is in symex*.c.
 */
#include <limits.h>

#include "encoder/encoder.h"
#include "encoder/internal.h"

/* The value of a constant expression (numbers, and + - * of them). */
static int const_expr(const struct ir_expr *e, long *v)
{
	long x, y;
	if (!e)
		return 0;
	if (e->kind == IR_E_CONST) {
		*v = e->num;
		return 1;
	}
	if (e->kind != IR_E_BINARY || !const_expr(e->a, &x) || !const_expr(e->b, &y))
		return 0;
	switch ((enum ir_binop)e->op) {
	case IR_ADD: return !__builtin_add_overflow(x, y, v);
	case IR_SUB: return !__builtin_sub_overflow(x, y, v);
	case IR_MUL: return !__builtin_mul_overflow(x, y, v);
	default: return 0;
	}
}

/* Is op over a and b linear arithmetic in arith_bitop (or no bitwise
 * operator at all)? */
static int bitop_linear(int op, const struct ir_expr *a, const struct ir_expr *b)
{
	long c;
	switch ((enum ir_binop)op) {
	case IR_BAND:
		return (const_expr(b, &c) || const_expr(a, &c)) && c >= 1 &&
		       c < LONG_MAX && (c & (c + 1)) == 0 && c + 1 < ((long)1 << 62);
	case IR_SHR:
		return const_expr(b, &c) && c > 0 && c < 63;
	case IR_BOR: case IR_BXOR: case IR_SHL:
		return 0;
	default:
		return 1;
	}
}

static int expr_bits_linear(const struct ir_expr *e)
{
	if (!e)
		return 1;
	if (e->kind == IR_E_BINARY && !bitop_linear(e->op, e->a, e->b))
		return 0;
	return expr_bits_linear(e->a) && expr_bits_linear(e->b) && expr_bits_linear(e->c);
}

static int block_bits_linear(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (!expr_bits_linear(in->a) || !expr_bits_linear(in->b) ||
		    !expr_bits_linear(in->c))
			return 0;
		/* an RMW's arithmetic: old arith b */
		if (in->op == IR_RMW && in->rmw != IR_RMW_XCHG && in->rmw != IR_RMW_CMPXCHG &&
		    in->rmw != IR_RMW_ADD_UNLESS && !bitop_linear(in->arith, NULL, in->b))
			return 0;
		if (!block_bits_linear(&in->then_b) || !block_bits_linear(&in->else_b))
			return 0;
	}
	return 1;
}

int enc_bits_linear(const struct ir_program *prog)
{
	for (int t = 0; t < prog->nthreads; t++)
		if (!block_bits_linear(&prog->threads[t].body))
			return 0;
	return 1;
}

/* Does an expression compute beyond "term + constant" (r1 + r2, r & 8,
 * r * 2), or turn a truth value into a number (r = (a == b), c || d)?
 * Z3's difference-logic solver takes neither.  as_value: the expression
 * is used as a number, not as a branch or assertion condition. */
static int expr_computes(const struct ir_expr *e, int as_value)
{
	if (!e)
		return 0;
	switch (e->kind) {
	case IR_E_CONST:
	case IR_E_LOC:
	case IR_E_REG:
	case IR_E_CHOICE:
		return 0;
	case IR_E_UNARY:
		if (e->op != IR_LNOT || as_value)
			return 1;
		return expr_computes(e->a, 0);
	case IR_E_COND:
		return expr_computes(e->a, 0) || expr_computes(e->b, as_value) ||
		       expr_computes(e->c, as_value);
	case IR_E_BINARY:
		break;
	}
	switch ((enum ir_binop)e->op) {
	case IR_ADD:
	case IR_SUB:
		if (e->a->kind != IR_E_CONST && e->b->kind != IR_E_CONST)
			return 1;
		return expr_computes(e->a, 1) || expr_computes(e->b, 1);
	case IR_EQ: case IR_NE: case IR_LT: case IR_LE: case IR_GT: case IR_GE:
		return as_value || expr_computes(e->a, 1) || expr_computes(e->b, 1);
	case IR_LAND:
	case IR_LOR:
		return as_value || expr_computes(e->a, 0) || expr_computes(e->b, 0);
	default:
		return 1; /* *, /, %, bitwise operators, shifts */
	}
}

static int block_computes(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int cond = in->op == IR_IF || in->op == IR_ASSERT;
		if (expr_computes(in->a, !cond) || expr_computes(in->b, 1) ||
		    expr_computes(in->c, 1))
			return 1;
		/* old + a in an RMW: outside the fragment unless a is a constant */
		if (in->op == IR_RMW && in->rmw != IR_RMW_XCHG && in->rmw != IR_RMW_CMPXCHG &&
		    in->b && in->b->kind != IR_E_CONST)
			return 1;
		if (block_computes(&in->then_b) || block_computes(&in->else_b))
			return 1;
	}
	return 0;
}

enum enc_arith enc_arith_mode(const struct ir_program *prog)
{
	for (int t = 0; t < prog->nthreads; t++)
		if (block_computes(&prog->threads[t].body))
			return ENC_ARITH_GENERAL;
	return ENC_ARITH_DIFF;
}
