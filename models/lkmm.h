/*
 * lkmm.h - the Linux-kernel memory model (6.1) as formulas over an encoding.
 *
 * lkmm_build() writes linux-kernel.bell, lock.cat and linux-kernel.cat in the
 * relation algebra of encoder/rel.h: one formula per axiom (true iff the
 * execution satisfies it) and one per flag (true iff the flag is raised), and
 * keeps the named relations that explanations print.  It does not solve.
 */
#ifndef LKMMC_LKMM_H
#define LKMMC_LKMM_H

#include <z3.h>

#include "encoder/encoder.h"

enum lkmm_axiom {
	AX_COHERENCE, AX_ATOMIC, AX_HAPPENS_BEFORE, AX_PROPAGATION, AX_RCU,
	AX_PLAIN_COHERENCE, AX_LOCK_NEST, AX_UNMATCHED_LOCKS,
	/* happens-before, propagation and rcu together, as "acyclic xb":
	 * lkmm_build fills either this one or those three (separate mode) */
	AX_EXECUTES_BEFORE,
	AX_COUNT
};

/* In alphabetical order, which is the order herd7 prints them in. */
enum lkmm_flag {
	FL_DATA_RACE, FL_INVALID_SLEEP, FL_LOCK_FINAL, FL_MIXED_ACCESSES,
	FL_MIXED_LOCK_ACCESSES, FL_SRCU_BAD_NESTING, FL_UNBALANCED_RCU_LOCKING,
	FL_UNBALANCED_SRCU_LOCKING, FL_UNMATCHED_UNLOCK, FL_UNPAIRED_LKR,
	FL_UNPAIRED_LKW,
	FL_COUNT
};

/* Relations kept for explanations and pictures. */
enum lkmm_rel {
	LR_PPO, LR_HB, LR_PB, LR_RB, /* pb and rb: their heads (see lkmm.c) */
	LR_STRONG_FENCE, LR_PROP, LR_RFE, LR_COE, LR_FRE, LR_RFI, LR_COI,
	LR_FRI, LR_PO_LOC, LR_RMW, LR_ADDR, LR_DATA, LR_CTRL, LR_MB, LR_GP,
	LR_RCU_FENCE, LR_WMB, LR_RMB, LR_PO_REL, LR_ACQ_PO,
	LR_PO_UNLOCK_LOCK_PO, LR_CUMUL_FENCE, LR_OVERWRITE_EXT, LR_FENCE,
	LR_COM, LR_PLAIN_INCOH, LR_ATOMIC_VIOLATION, LR_RACE,
	LR_COUNT
};

struct lkmm {
	Z3_ast axiom[AX_COUNT]; /* holds iff the axiom holds; NULL if not built */
	Z3_ast flag[FL_COUNT];  /* holds iff the flag is raised */
	rel_t rel[LR_COUNT];    /* named relations, for explanations */
};

/* Build the model over enc.  With separate, the happens-before,
 * propagation and rcu axioms are built one by one (for explanations);
 * otherwise as the single, cheaper executes-before.  Returns 0 and fills d
 * when the test needs something the encoding cannot express. */
int lkmm_build(struct encoding *enc, int separate, struct lkmm *m,
	       struct diag *d);

const char *lkmm_axiom_name(enum lkmm_axiom a);
const char *lkmm_flag_name(enum lkmm_flag f);
const char *lkmm_rel_name(enum lkmm_rel r);

#endif
