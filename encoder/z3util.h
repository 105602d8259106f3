/*
 * z3util.h - the small Z3 term helpers every encoder file (and solver/)
 * would otherwise write again: an Int numeral, a two-term and/or, the
 * conjunction of a vector.
 *
 * These build the terms as asked, without simplifying; rel.c's rel_and2
 * and rel_or2 are the simplifying ones over guards (NULL for false).
 */
#ifndef LKMMC_ENCODER_Z3UTIL_H
#define LKMMC_ENCODER_Z3UTIL_H

#include <z3.h>

/* The Int numeral v. */
Z3_ast z3u_int(Z3_context z, long v);
/* a && b, and a || b, as Z3 applications of two arguments. */
Z3_ast z3u_and2(Z3_context z, Z3_ast a, Z3_ast b);
Z3_ast z3u_or2(Z3_context z, Z3_ast a, Z3_ast b);
/* The conjunction of v's terms (true when v is empty). */
Z3_ast z3u_and_vector(Z3_context z, Z3_ast_vector v);

#endif
