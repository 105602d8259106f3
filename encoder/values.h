/*
 * values.h - which values each register and location of a program can
 * hold, worked out from its IR before it is encoded (values.c): a small
 * set where the initial values, the constants and the operations the
 * program applies close into few values (a flags word: 0x20 to 0x23),
 * "not known" where they do not (a counter, srcu_read_lock()'s value).
 * symex_eval.c writes a bitwise operator over operands of few values as a
 * table over them instead of 64-bit bit-vectors.  It makes no Z3 term.
 */
#ifndef LKMMC_ENCODER_VALUES_H
#define LKMMC_ENCODER_VALUES_H

#include "frontend/ir.h"

struct value_sets;

/* The most values a set holds; a larger one is "not known". */
#define VALUES_MAX 16

/* The value sets of prog's registers and locations (values_free), or
 * NULL when prog has no bitwise operator, the only users of the sets. */
struct value_sets *values_analyse(const struct ir_program *prog);
void values_free(struct value_sets *vs);

/* The values expression e of thread t can take, in any execution the
 * encoding allows, at any point of the thread (sorted, into out, which
 * has room for VALUES_MAX): how many, or -1 when not known to be few
 * (vs NULL, too many, or the analysis gave up). */
int values_of(const struct value_sets *vs, int t, const struct ir_expr *e,
	      long *out);

/* x op y as the encoding computes it (symex_eval.c): Z3's integers for
 * + - * and C's / and % (0 for a zero divisor), 64-bit two's complement
 * for the bitwise operators and shifts, 0 or 1 for comparisons.  Returns
 * 0 when the result is not a long (overflow). */
int values_apply(enum ir_binop op, long x, long y, long *r);

#endif
