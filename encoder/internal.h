/*
 * internal.h - what the encoder's files share and nobody else sees.
 */
#ifndef LKMMC_ENCODER_INTERNAL_H
#define LKMMC_ENCODER_INTERNAL_H

#include "encoder/encoder.h"

/* Is event e of class c? */
static inline int ev_has(const struct event *e, enum ev_class c)
{
	return (e->cls & EVC_BIT(c)) != 0;
}

/* Run one thread symbolically, appending its events to enc->ev (capacity in
 * *cap) and setting enc->final_reg[th->id].  Returns 0 and fills d when the
 * thread uses something the encoder does not support. */
int symex_thread(struct encoding *enc, const struct ir_thread *th, int unroll,
		 int *cap, struct diag *d);

/* Can every bitwise operator of prog be linear arithmetic: a & (2^k-1)
 * and a >> k with constants (arith_mode.c)?  Then symex makes no
 * bit-vector term. */
int enc_bits_linear(const struct ir_program *prog);

/* Whether events a and b may touch the same location, and the formula for
 * it (without guards); NULL when they never do.  In execution.c. */
Z3_ast enc_same_addr(struct encoding *enc, int a, int b);

/* lock.cat's rules for lock events (locks.c): whether read r may read
 * from write w by them (1 for other events), and the critical relation
 * with the co and rf constraints of spinlocks, built after rf and co. */
int locks_may_read_from(const struct encoding *enc, int w, int r);
void locks_build(struct encoding *enc);

/* Is e an access of its thread to one fixed location, not a lock, SRCU
 * or initial event (coherence decides more of those)?  execution.c. */
int enc_fixed_access(const struct event *e);

/* Values out of thin air (thinair.c).  thin_air_prepare, before rf:
 * enc->defined when some consistent execution may have a cycle of value
 * flow, else NULL; thin_air_build, after rf and co: their constraints.
 * enc_write_defined: whether write w's value is defined (all the reads
 * it depends on are). */
void thin_air_prepare(struct encoding *enc);
void thin_air_build(struct encoding *enc);
Z3_ast enc_write_defined(struct encoding *enc, int w);

#endif
