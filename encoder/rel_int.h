/*
 * rel_int.h - what rel.c shares with relkeyed.c (not for other users:
 * rel.h is the interface).
 */
#ifndef LKMMC_REL_INT_H
#define LKMMC_REL_INT_H

#include "encoder/rel.h"

/* Disjunction of a buffer of terms (NULL entries skipped; the buffer is
 * reordered). */
Z3_ast rel_or_n(struct rel_ctx *rc, Z3_ast *terms, int k);
/* Keep the check whose formula is holds (rel.h's rel_acyclic_check). */
void rel_record_acyclic(struct rel_ctx *rc, Z3_ast holds, rel_t strict, rel_t weak);

/* The terms of (a ; b)(i, j), over the k middle events mid, into buf
 * with rc->keyed's folded (rc->keyed must be set); picks: room for
 * 2 * n formulas.  Returns the number of disjuncts in buf. */
int rel_keyed_fold(struct rel_ctx *rc, rel_t a, rel_t b, int i, int j,
		   const int *mid, int k, Z3_ast *buf, Z3_ast *picks);
/* acyclic(a) by timestamps when a has coherence's shape, else NULL. */
Z3_ast rel_keyed_acyclic(struct rel_ctx *rc, rel_t a);

#endif
