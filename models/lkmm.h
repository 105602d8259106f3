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
	LR_PPO, LR_HB, LR_PB, LR_RB, /* pb and rb: their heads (lkmm_cat.c) */
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
	rel_t acyclic[AX_COUNT]; /* the relation of an "acyclic" axiom, NULL
				  * for the others (emptiness axioms) */
	Z3_ast rcu_unconverged;  /* lkmm_build_exact: holds iff one more
				  * rcu-order stage would add a pair (NULL
				  * when there is no rcu-order) */
	/* A model read from cat files (models/cat/cat.h) leaves axiom[] and
	 * flag[] unset and names its own checks instead: */
	int ncat_axioms;         /* how many axioms the cat has */
	Z3_ast *cat_axiom;       /* each holds iff that axiom holds */
	rel_t *cat_acyclic;      /* the relation of each acyclic axiom, NULL
				  * for the others */
	rel_t *cat_checked;      /* the relation of each empty or irreflexive
				  * axiom, NULL for the others */
	const char **cat_axiom_name; /* their names ("as" or file:line) */
	int ncat_flags;          /* how many distinct flag names */
	Z3_ast *cat_flag;        /* each holds iff that flag is raised */
	const char **cat_flag_name; /* their names, in alphabetical order */
};

/* Build the model over enc.  With separate, the happens-before,
 * propagation and rcu axioms are built one by one (for explanations);
 * otherwise as the single, cheaper executes-before.  Returns 0 and fills d
 * when the test needs something the encoding cannot express. */
int lkmm_build(struct encoding *enc, int separate, struct lkmm *m,
	       struct diag *d);

/* The same model for lkmm_violation(): the let rec rcu-order is unrolled
 * into rcu_stages Kleene stages from the empty relation instead of Horn
 * variables, so that it is a function of the execution, which is the least
 * fixpoint exactly when m->rcu_unconverged is false.  Horn variables
 * remain for the closures (see rel_exact_defs).  Built beside lkmm_build's
 * model on the same encoding, with fresh variables. */
int lkmm_build_exact(struct encoding *enc, int rcu_stages, struct lkmm *m,
		     struct diag *d);

/* A formula that holds iff the execution breaks some axiom: the negation
 * of the axioms, which rel_acyclic()'s ranks cannot give.  Exact for m
 * from lkmm_build_exact() once its rcu-order has converged, together with
 * rel_exact_defs() for its closures (see rel.h).  Adds fresh variables;
 * NULL when m was built in separate mode. */
Z3_ast lkmm_violation(struct encoding *enc, const struct lkmm *m);

struct cat_model;
/* lkmm_build() for the built-in model when model is NULL, else
 * cat_model_build() of the read one (models/cat/cat.h). */
int model_build(struct cat_model *model, struct encoding *enc, int separate,
		struct lkmm *m, struct diag *d);

/* Whether encodings for the model may take encoder_options.coherent: the
 * built-in model (model NULL) has acyclic(po-loc | com); a read one when
 * cat_model_coherent() says so. */
int model_coherent(const struct cat_model *model);

/* lkmm_build_exact() or cat_model_build_exact(), as model_build(). */
int model_build_exact(struct cat_model *model, struct encoding *enc,
		      int rcu_stages, struct lkmm *m, struct diag *d);

/* herd7's different-values(r): the pairs of r whose events carry different
 * values (the bell's srcu-bad-nesting; the cat compiler's built-in). */
rel_t lkmm_different_values(struct encoding *enc, rel_t r);

const char *lkmm_axiom_name(enum lkmm_axiom a);
const char *lkmm_flag_name(enum lkmm_flag f);

/* Flag i of m, the built-in ones (enum lkmm_flag) first, then a read
 * model's (i < FL_COUNT + m->ncat_flags): its formula (NULL: none) and
 * name. */
Z3_ast lkmm_flag_at(const struct lkmm *m, int i);
const char *lkmm_flag_name_at(const struct lkmm *m, int i);
const char *lkmm_rel_name(enum lkmm_rel r);

#endif
