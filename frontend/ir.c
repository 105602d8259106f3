/*
 * ir.c - small helpers over the IR: freeing a program, finding a location,
 * and the stable names of orders, fences, RMW shapes and operators used by
 * --dump-ir and by the output.
 *
 * It does not build IR (litmus.c, cparse.c and clause.c do) nor print it
 * (ir_dump.c).
 */
#include "ir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"

void ir_program_free(struct ir_program *prog)
{
	if (!prog)
		return;
	/* The program struct itself lives in its own arena. */
	arena_free(prog->arena);
}

int ir_find_loc(const struct ir_program *prog, const char *name)
{
	for (int i = 0; i < prog->nlocs; i++)
		if (strcmp(prog->locs[i].name, name) == 0)
			return i;
	return -1;
}

static void add_column(struct ir_observable *cols, int *n, struct ir_observable o)
{
	for (int i = 0; i < *n; i++)
		if (cols[i].thread == o.thread && cols[i].index == o.index)
			return;
	cols[(*n)++] = o;
}

static void add_cond_columns(struct ir_observable *cols, int *n, const struct ir_cond *c)
{
	if (!c)
		return;
	if (c->kind == IR_C_ATOM) {
		add_column(cols, n, c->lhs);
		if (c->rhs_is_obs)
			add_column(cols, n, c->rhs_obs);
	}
	add_cond_columns(cols, n, c->a);
	add_cond_columns(cols, n, c->b);
}

static int count_atoms(const struct ir_cond *c)
{
	if (!c)
		return 0;
	return (c->kind == IR_C_ATOM ? 2 : 0) + count_atoms(c->a) + count_atoms(c->b);
}

/* herd7's column order: registers (by thread, then name) before locations
 * (by name). */
static int column_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct ir_program *p = ctx;
	const struct ir_observable *a = pa, *b = pb;
	int ar = a->thread >= 0, br = b->thread >= 0;
	if (ar != br)
		return br - ar;
	if (!ar)
		return strcmp(p->locs[a->index].name, p->locs[b->index].name);
	if (a->thread != b->thread)
		return a->thread - b->thread;
	return strcmp(p->threads[a->thread].regs[a->index].name,
		      p->threads[b->thread].regs[b->index].name);
}

int ir_columns(const struct ir_program *p, struct ir_observable **cols)
{
	int n = 0;
	*cols = xmalloc_array((size_t)(count_atoms(p->cond) + p->nobserved + 1), sizeof **cols);
	add_cond_columns(*cols, &n, p->cond);
	for (int i = 0; i < p->nobserved; i++)
		add_column(*cols, &n, p->observed[i]);
	qsort_r(*cols, (size_t)n, sizeof **cols, column_cmp, (void *)p);
	return n;
}

void ir_column_label(const struct ir_program *p, struct ir_observable o,
		     char *buf, size_t size)
{
	if (o.thread < 0)
		snprintf(buf, size, "[%s]", p->locs[o.index].name);
	else
		snprintf(buf, size, "%d:%s", o.thread, p->threads[o.thread].regs[o.index].name);
}

const char *ir_order_name(enum ir_order order)
{
	switch (order) {
	case IR_ORD_PLAIN: return "plain";
	case IR_ORD_ONCE: return "once";
	case IR_ORD_ACQUIRE: return "acquire";
	case IR_ORD_RELEASE: return "release";
	case IR_ORD_MB: return "mb";
	}
	return "?";
}

const char *ir_fence_name(enum ir_fence fence)
{
	/* herd7's tags for the F events (see linux-kernel.bell). */
	switch (fence) {
#define IR_FENCE_TAG(e, tag, call) case e: return tag;
	IR_FENCE_TABLE(IR_FENCE_TAG)
#undef IR_FENCE_TAG
	case IR_F_OTHER: return "other";
	}
	return "?";
}

const char *ir_fence_call(enum ir_fence fence)
{
	switch (fence) {
#define IR_FENCE_CALL(e, tag, call) case e: return call;
	IR_FENCE_TABLE(IR_FENCE_CALL)
#undef IR_FENCE_CALL
	case IR_F_OTHER: break;
	}
	return NULL;
}

const char *ir_rmw_name(enum ir_rmw rmw)
{
	switch (rmw) {
	case IR_RMW_XCHG: return "xchg";
	case IR_RMW_CMPXCHG: return "cmpxchg";
	case IR_RMW_OP_RETURN: return "op_return";
	case IR_RMW_FETCH_OP: return "fetch_op";
	case IR_RMW_OP: return "op";
	case IR_RMW_ADD_UNLESS: return "add_unless";
	}
	return "?";
}

const char *ir_binop_name(enum ir_binop op)
{
	switch (op) {
	case IR_ADD: return "+";
	case IR_SUB: return "-";
	case IR_MUL: return "*";
	case IR_DIV: return "/";
	case IR_MOD: return "%";
	case IR_BAND: return "&";
	case IR_BOR: return "|";
	case IR_BXOR: return "^";
	case IR_SHL: return "<<";
	case IR_SHR: return ">>";
	case IR_EQ: return "==";
	case IR_NE: return "!=";
	case IR_LT: return "<";
	case IR_LE: return "<=";
	case IR_GT: return ">";
	case IR_GE: return ">=";
	case IR_LAND: return "&&";
	case IR_LOR: return "||";
	}
	return "?";
}

/* ---- the encoding's arithmetic on 64-bit values ---- */

static int shift(enum ir_binop op, long x, long y, long *r)
{
	/* bvshl / bvashr on 64 bits: the amount is unsigned there, so a
	 * negative one is as large as one of 64 or more */
	if (y < 0 || y >= 64)
		*r = op == IR_SHL ? 0 : (x < 0 ? -1 : 0);
	else
		*r = op == IR_SHL ? (long)((unsigned long)x << y) : x >> y;
	return 1;
}

int ir_apply_binop(enum ir_binop op, long x, long y, long *r)
{
	switch (op) {
	case IR_ADD: return !__builtin_add_overflow(x, y, r);
	case IR_SUB: return !__builtin_sub_overflow(x, y, r);
	case IR_MUL: return !__builtin_mul_overflow(x, y, r);
	case IR_DIV:
	case IR_MOD:
		if (y == 0) { /* encoder/symex_eval.c's c_div: 0, as the kernel modules */
			*r = 0;
			return 1;
		}
		if (x == LONG_MIN && y == -1)
			return 0;
		*r = op == IR_DIV ? x / y : x % y;
		return 1;
	case IR_BAND: *r = x & y; return 1;
	case IR_BOR: *r = x | y; return 1;
	case IR_BXOR: *r = x ^ y; return 1;
	case IR_SHL:
	case IR_SHR: return shift(op, x, y, r);
	case IR_EQ: *r = x == y; return 1;
	case IR_NE: *r = x != y; return 1;
	case IR_LT: *r = x < y; return 1;
	case IR_LE: *r = x <= y; return 1;
	case IR_GT: *r = x > y; return 1;
	case IR_GE: *r = x >= y; return 1;
	case IR_LAND: *r = x && y; return 1;
	case IR_LOR: *r = x || y; return 1;
	}
	return 0;
}
