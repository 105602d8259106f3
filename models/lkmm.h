/*
 * lkmm.h - the Linux-kernel memory model (6.1) as formulas over an encoding.
 *
 * lkmm_build() writes linux-kernel.bell, lock.cat and linux-kernel.cat in the
 * relation algebra of encoder/rel.h: one formula per axiom (true iff the
 * execution satisfies it) and one per flag (true iff the flag is raised), and
 * keeps the named relations that explanations print, in the shape a model
 * read from cat files has too (struct lkmm).  It does not solve.
 */
#ifndef LKMMC_LKMM_H
#define LKMMC_LKMM_H

#include <z3.h>

#include "encoder/encoder.h"

/* Relations kept for explanations and pictures: the first LR_COUNT
 * entries of struct lkmm's rel[], by these names (lkmm_rel_name), in the
 * built-in model and in a read one (its lets of the same names). */
enum lkmm_rel {
	LR_PPO, LR_HB, LR_PB, LR_RB, /* pb and rb: their heads (lkmm_cat.c) */
	LR_STRONG_FENCE, LR_PROP, LR_RFE, LR_COE, LR_FRE, LR_RFI, LR_COI,
	LR_FRI, LR_PO_LOC, LR_RMW, LR_ADDR, LR_DATA, LR_CTRL, LR_MB, LR_GP,
	LR_RCU_FENCE, LR_WMB, LR_RMB, LR_PO_REL, LR_ACQ_PO,
	LR_PO_UNLOCK_LOCK_PO, LR_CUMUL_FENCE, LR_OVERWRITE_EXT, LR_FENCE,
	LR_COM, LR_PLAIN_INCOH, LR_ATOMIC_VIOLATION, LR_RACE,
	LR_COUNT
};

/*
 * The shape of a built model, the same for the built-in LKMM (filled by C,
 * models/lkmm_shape.c) and a model read from cat files (filled by the cat
 * compiler): named axioms, flags and relations, and the data explanations
 * are written from (solver/explain.c knows no relation by name).
 */

/* The check an axiom makes of its relation, as the cat writes it. */
enum model_check { MC_ACYCLIC, MC_IRREFLEXIVE, MC_EMPTY };

/* One part of a way to write an edge (a, b) of a named relation as steps:
 * the parts, in order, join a to b through events the explanation picks. */
enum model_part_kind {
	MP_ONE,   /* one edge of rel, written as rel's edges are */
	MP_OPT,   /* zero or one */
	MP_STAR,  /* a shortest path of edges of rel (at most one a way) */
	MP_LABEL, /* one edge of the first label relation holding (no rel) */
};
struct model_part {
	enum model_part_kind kind;
	int rel; /* an index in struct lkmm's rel[] */
};
#define MODEL_MAX_PARTS 3
struct model_way {
	int nparts;
	struct model_part part[MODEL_MAX_PARTS];
};

struct model_rel {
	const char *name;
	rel_t r;
	/* How an edge is written as steps: the first of ways[] that joins
	 * its ends; with none, one step labelled by the first label
	 * relation holding (struct lkmm's label[]), else by this one; with
	 * self, one step labelled by this one. */
	int nways;
	const struct model_way *ways;
	int self;
};

/* Where the fence event of a step in a label relation is (printed with
 * its line): none, the step's source (acq-po), its target (po-rel), or
 * the first event of classes cls between them in program order. */
enum model_fence_at { MF_NONE, MF_SOURCE, MF_TARGET, MF_BETWEEN };
struct model_label {
	int rel;                 /* an index in rel[] */
	enum model_fence_at at;
	unsigned long cls;       /* MF_BETWEEN: EVC_BIT()s */
};

struct model_axiom {
	const char *name;        /* herd7's (the cat's "as", or file:line) */
	enum model_check kind;
	int negated;             /* ~acyclic, ~empty, ...: formula only */
	Z3_ast holds;            /* holds iff the axiom holds; NULL if not
				  * built */
	int rel;                 /* the index in rel[] of its relation (the
				  * one that must be acyclic, irreflexive or
				  * empty), -1 when none is kept */
	/* An acyclic axiom whose cycles are written through an edge of
	 * rel[parts[0]], continuing in any of parts (acyclic through: its
	 * relation alone does not give its violation); none: a shortest
	 * cycle of rel through its first event on one. */
	int nparts;
	const int *parts;
	const char *what;        /* what an explanation shows; NULL: "cycle"
				  * or "forbidden pair" */
};

struct model_flag {
	const char *name;
	Z3_ast raised;           /* holds iff the flag is raised */
};

struct lkmm {
	int naxioms;                     /* in the order herd7 reads them */
	const struct model_axiom *axiom;
	int nflags;                      /* in herd7's (alphabetical) order */
	const struct model_flag *flag;
	int nrels;                       /* LR_COUNT, then the model's own */
	const struct model_rel *rel;
	int nlabels;                     /* most specific first */
	const struct model_label *label;
	int race_flag;                   /* the flag whose pairs rel[race]
					  * holds, printed as races; -1 */
	int race;
	Z3_ast rcu_unconverged;  /* the exact build: holds iff one more
				  * stage of a let rec would add a pair
				  * (NULL when there is none) */
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
/* Whether they may take encoder_options.atomic: the built-in model has
 * empty(rmw & (fre ; coe)); a read one when cat_model_atomic() says so. */
int model_atomic(const struct cat_model *model);

/* lkmm_build_exact() or cat_model_build_exact(), as model_build(). */
int model_build_exact(struct cat_model *model, struct encoding *enc,
		      int rcu_stages, struct lkmm *m, struct diag *d);

/* herd7's different-values(r): the pairs of r whose events carry different
 * values (the bell's srcu-bad-nesting; the cat compiler's built-in). */
rel_t lkmm_different_values(struct encoding *enc, rel_t r);

/* The relation of m named name (rel_t), NULL when m has none. */
rel_t model_rel_named(const struct lkmm *m, const char *name);

/* The label relations of both models, most specific first, over the
 * first LR_COUNT entries of rel[] (models/lkmm_shape.c). */
extern const struct model_label lkmm_labels[];
extern const int lkmm_nlabels;

const char *lkmm_rel_name(enum lkmm_rel r);

#endif
