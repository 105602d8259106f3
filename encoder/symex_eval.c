/*
 * symex_eval.c - expressions to Z3 terms: a register file's values (with
 * their dependencies) through C's operators, as integer arithmetic, with
 * bit-vectors only where a bitwise operator needs them (enc->bits_linear).
 * It makes no event; symex.c does.
 */
#include <stdint.h>

#include "encoder/symex.h"
#include "encoder/values.h"

static Z3_ast bv(struct symex *sx, Z3_ast i)
{
	return Z3_mk_int2bv(sx->z, 64, i);
}

static Z3_ast from_bv(struct symex *sx, Z3_ast b)
{
	return Z3_mk_bv2int(sx->z, b, 1);
}

static Z3_ast binop(struct symex *sx, enum ir_binop op, struct regval a,
		    struct regval b);
static Z3_ast table_bitop(struct symex *sx, const struct ir_expr *e,
			  Z3_ast a, Z3_ast b);

struct regval sx_eval(struct symex *sx, struct state *st,
		      const struct ir_expr *e)
{
	struct regval r = {0};
	Z3_context z = sx->z;
	switch (e->kind) {
	case IR_E_CONST:
		r.v = z3u_int(sx->z, e->num);
		return r;
	case IR_E_LOC:
		r.v = z3u_int(sx->z, enc_loc_address(e->loc));
		return r;
	case IR_E_REG:
		return st->regs[e->reg];
	case IR_E_CHOICE:
		/* a Boolean no constraint fixes: the repair's assumptions do */
		r.v = b2i(sx, enc_choice(z, e->num));
		return r;
	case IR_E_UNARY: {
		struct regval a = sx_eval(sx, st, e->a);
		r.d = a.d;
		r.t = a.t;
		switch ((enum ir_unop)e->op) {
		case IR_NEG:
			r.v = Z3_mk_unary_minus(z, a.v);
			break;
		case IR_LNOT:
			r.v = b2i(sx, Z3_mk_eq(z, a.v, z3u_int(sx->z, 0)));
			break;
		case IR_BNOT: /* two's complement: ~a == -a - 1 */
			r.v = Z3_mk_sub(z, 2, (Z3_ast[]){Z3_mk_unary_minus(z, a.v),
							  z3u_int(sx->z, 1)});
			break;
		}
		return r;
	}
	case IR_E_COND: {
		struct regval a = sx_eval(sx, st, e->a);
		struct regval b = sx_eval(sx, st, e->b);
		struct regval c = sx_eval(sx, st, e->c);
		Z3_ast pick_b = nonzero(sx, a.v);
		r.v = Z3_mk_ite(z, pick_b, b.v, c.v);
		/* Like an if: each arm's reads count only when that arm is taken. */
		r.d = sx_deps_union(sx, a.d, sx_deps_union(sx, sx_deps_when(sx, b.d, pick_b),
			sx_deps_when(sx, c.d, Z3_mk_not(z, pick_b))));
		r.t = sx_deps_union(sx, a.t, sx_deps_union(sx, sx_deps_when(sx, b.t, pick_b),
			sx_deps_when(sx, c.t, Z3_mk_not(z, pick_b))));
		return r;
	}
	case IR_E_BINARY:
		break;
	}
	struct regval a = sx_eval(sx, st, e->a);
	struct regval b = sx_eval(sx, st, e->b);
	r.d = sx_deps_union(sx, a.d, b.d);
	r.t = sx_deps_union(sx, a.t, b.t);
	r.v = sx->enc->bits_linear ? NULL : table_bitop(sx, e, a.v, b.v);
	if (!r.v)
		r.v = binop(sx, (enum ir_binop)e->op, a, b);
	return r;
}

/* k when v is the numeral 2^k with 0 < k < 63, else 0. */
static int power_of_two(Z3_context z, Z3_ast v)
{
	int64_t c;
	if (!Z3_is_numeral_ast(z, v) || !Z3_get_numeral_int64(z, v, &c) || c < 2)
		return 0;
	for (int k = 1; k < 63; k++)
		if (c == (int64_t)1 << k)
			return k;
	return 0;
}

/* a & b, a >> b as integer arithmetic where they are: a & (2^k - 1) is a
 * mod 2^k and a >> k is a div 2^k (Z3's mod and div round towards minus
 * infinity for a positive divisor, as the bits of a two's complement
 * number do), which Z3 solves as linear arithmetic, where int2bv and
 * bv2int (the general case) are bit-blasted: a circular buffer's index
 * (head + 1) & (SIZE - 1) took its check from 60 s to 1 s.  But mod over
 * a bv2int term costs Z3 more than staying in bit-vectors (csd-lock's
 * VAL & 1 on a flags word set with |: 13 s became minutes), so this is
 * used only when every bitwise operator of the program can be
 * (enc->bits_linear).  NULL when the operand is not such a constant. */
static Z3_ast arith_bitop(Z3_context z, enum ir_binop op, Z3_ast a, Z3_ast b)
{
	int64_t c;
	if (op == IR_BAND) {
		Z3_ast x = a, m = b;
		if (!Z3_is_numeral_ast(z, m)) {
			x = b;
			m = a;
		}
		if (!Z3_is_numeral_ast(z, m) || !Z3_get_numeral_int64(z, m, &c) ||
		    c < 1 || c >= INT64_MAX || !power_of_two(z, Z3_mk_int64(z, c + 1, Z3_get_sort(z, m))))
			return NULL;
		return Z3_mk_mod(z, x, Z3_mk_int64(z, c + 1, Z3_get_sort(z, m)));
	}
	if (op == IR_SHR && Z3_is_numeral_ast(z, b) && Z3_get_numeral_int64(z, b, &c) &&
	    c > 0 && c < 63)
		return Z3_mk_div(z, a, Z3_mk_int64(z, (int64_t)1 << c, Z3_get_sort(z, b)));
	return NULL;
}

/* The most entries (pairs of operand values) of a table_bitop. */
#define TABLE_MAX 64

/* The condition "a is x" where a can take n values (true when n is 1). */
static Z3_ast is_value(struct symex *sx, Z3_ast a, int n, long x)
{
	return n == 1 ? sx->t : Z3_mk_eq(sx->z, a, z3u_int(sx->z, x));
}

/*
 * e = a op b, a bitwise operator or shift, as a table over the few values
 * its operands can take (values.c): ite(a = x1 && b = y1, x1 op y1, ...),
 * one condition per result, the most frequent result the last branch.
 * Z3 solves that as integer arithmetic where int2bv and bv2int make it
 * bit-blast 64-bit words: irq_work_claim()'s flags (0x20 to 0x23, | and &
 * with constants) took 95 s of CPU, 1 s as tables.  Sound because every
 * value an operand takes on a path an execution runs is in its set
 * (values.c says why), so the table gives x op y as the 64-bit encoding
 * would; off those paths values are free anyway.  NULL when an operand's
 * values are not known to be few, or there are more than TABLE_MAX pairs.
 */
static Z3_ast table_bitop(struct symex *sx, const struct ir_expr *e,
			  Z3_ast a, Z3_ast b)
{
	long av[VALUES_MAX], bv[VALUES_MAX], res[TABLE_MAX];
	if (e->op < IR_BAND || e->op > IR_SHR)
		return NULL;
	int t = sx->th->id;
	int na = values_of(sx->enc->values, t, e->a, av);
	int nb = values_of(sx->enc->values, t, e->b, bv);
	if (na <= 0 || nb <= 0 || na * nb > TABLE_MAX)
		return NULL;
	for (int i = 0; i < na * nb; i++)
		if (!values_apply((enum ir_binop)e->op, av[i / nb], bv[i % nb], &res[i]))
			return NULL;
	/* the most frequent result: the default branch */
	int best = 0, best_n = 0;
	for (int i = 0; i < na * nb; i++) {
		int k = 0;
		for (int j = 0; j < na * nb; j++)
			k += res[j] == res[i];
		if (k > best_n)
			best = i, best_n = k;
	}
	Z3_context z = sx->z;
	Z3_ast r = z3u_int(z, res[best]);
	for (int i = na * nb - 1; i >= 0; i--) {
		int first = 1; /* the first pair with this result makes its branch */
		for (int j = 0; j < i && first; j++)
			first = res[j] != res[i];
		if (!first || res[i] == res[best])
			continue;
		Z3_ast cond = NULL;
		for (int j = i; j < na * nb; j++) {
			if (res[j] != res[i])
				continue;
			Z3_ast pair = z3u_and2(z, is_value(sx, a, na, av[j / nb]),
					       is_value(sx, b, nb, bv[j % nb]));
			cond = cond ? z3u_or2(z, cond, pair) : pair;
		}
		r = Z3_mk_ite(z, Z3_simplify(z, cond), z3u_int(z, res[i]), r);
	}
	return r;
}

/* C's a / b (mod 0) or a % b (mod 1): the quotient truncated toward zero
 * and the remainder of a's sign, where Z3's div and mod are Euclidean;
 * and 0 when b is 0 (undefined in C: as the kernel modules' lk_div and
 * lk_mod, kernel/kmod.c), where Z3 leaves it free (any value: a test's
 * final states would never end). */
static Z3_ast c_div(struct symex *sx, Z3_ast a, Z3_ast b, int mod)
{
	Z3_context z = sx->z;
	Z3_ast zero = z3u_int(sx->z, 0);
	Z3_ast aneg = Z3_mk_lt(z, a, zero), bneg = Z3_mk_lt(z, b, zero);
	Z3_ast absa = Z3_mk_ite(z, aneg, Z3_mk_unary_minus(z, a), a);
	Z3_ast absb = Z3_mk_ite(z, bneg, Z3_mk_unary_minus(z, b), b);
	Z3_ast q = Z3_mk_div(z, absa, absb);
	q = Z3_mk_ite(z, Z3_mk_xor(z, aneg, bneg), Z3_mk_unary_minus(z, q), q);
	Z3_ast r = mod ? Z3_mk_sub(z, 2, (Z3_ast[]){a, Z3_mk_mul(z, 2, (Z3_ast[]){b, q})}) : q;
	return Z3_mk_ite(z, Z3_mk_eq(z, b, zero), zero, r);
}

/* a op b (their values). */
static Z3_ast binop(struct symex *sx, enum ir_binop op, struct regval a,
		    struct regval b)
{
	Z3_context z = sx->z;
	struct regval r = {0};
	Z3_ast ab[2] = {a.v, b.v};
	int64_t x, y, xy;
	if ((op == IR_ADD || op == IR_SUB || op == IR_MUL) && Z3_is_numeral_ast(z, a.v) &&
	    Z3_is_numeral_ast(z, b.v) && Z3_get_numeral_int64(z, a.v, &x) &&
	    Z3_get_numeral_int64(z, b.v, &y) &&
	    !(op == IR_ADD ? __builtin_add_overflow(x, y, &xy)
	      : op == IR_SUB ? __builtin_sub_overflow(x, y, &xy)
	      : __builtin_mul_overflow(x, y, &xy)))
		return Z3_mk_int64(z, xy, Z3_get_sort(z, a.v)); /* SIZE - 1 */
	Z3_ast linear = sx->enc->bits_linear ? arith_bitop(z, op, a.v, b.v) : NULL;
	if (linear)
		return linear;
	switch (op) {
	case IR_ADD: r.v = Z3_mk_add(z, 2, ab); break;
	case IR_SUB: r.v = Z3_mk_sub(z, 2, ab); break;
	case IR_MUL: r.v = Z3_mk_mul(z, 2, ab); break;
	case IR_DIV: r.v = c_div(sx, a.v, b.v, 0); break;
	case IR_MOD: r.v = c_div(sx, a.v, b.v, 1); break;
	case IR_BAND: r.v = from_bv(sx, Z3_mk_bvand(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_BOR: r.v = from_bv(sx, Z3_mk_bvor(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_BXOR: r.v = from_bv(sx, Z3_mk_bvxor(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_SHL: r.v = from_bv(sx, Z3_mk_bvshl(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_SHR: r.v = from_bv(sx, Z3_mk_bvashr(z, bv(sx, a.v), bv(sx, b.v))); break;
	case IR_EQ: r.v = b2i(sx, Z3_mk_eq(z, a.v, b.v)); break;
	case IR_NE: r.v = b2i(sx, Z3_mk_not(z, Z3_mk_eq(z, a.v, b.v))); break;
	case IR_LT: r.v = b2i(sx, Z3_mk_lt(z, a.v, b.v)); break;
	case IR_LE: r.v = b2i(sx, Z3_mk_le(z, a.v, b.v)); break;
	case IR_GT: r.v = b2i(sx, Z3_mk_gt(z, a.v, b.v)); break;
	case IR_GE: r.v = b2i(sx, Z3_mk_ge(z, a.v, b.v)); break;
	case IR_LAND:
		r.v = b2i(sx, rel_and2(sx->rc, nonzero(sx, a.v), nonzero(sx, b.v)));
		break;
	case IR_LOR:
		r.v = b2i(sx, Z3_mk_or(z, 2, (Z3_ast[]){nonzero(sx, a.v),
							 nonzero(sx, b.v)}));
		break;
	}
	return r.v;
}

Z3_ast sx_arith(struct symex *sx, enum ir_binop op, Z3_ast a, Z3_ast b)
{
	return binop(sx, op, (struct regval){.v = a}, (struct regval){.v = b});
}
