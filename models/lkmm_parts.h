/*
 * lkmm_parts.h - private to models/: the built-in LKMM of Linux 6.1 in
 * three parts that follow herd7's files, over one struct of named relations.
 *
 * lkmm_bell() is linux-kernel.bell (lkmm_bell.c), lkmm_lock() lock.cat
 * (lkmm_lock.c), lkmm_cat() the rest of linux-kernel.cat (lkmm_cat.c);
 * lkmm.c calls them in the order herd7 reads the files.  Each reads the
 * relations the earlier parts defined and fills its own, and writes its
 * axioms and flags into struct lkmm_built, which lkmm_shape.c turns into
 * struct lkmm.  Nothing here solves.
 */
#ifndef LKMMC_LKMM_PARTS_H
#define LKMMC_LKMM_PARTS_H

#include "models/lkmm.h"

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

/* What the three parts build, by the enums above; lkmm_shape.c turns it
 * into struct lkmm's shape. */
struct lkmm_built {
	Z3_ast axiom[AX_COUNT]; /* holds iff the axiom holds; NULL if not built */
	Z3_ast flag[FL_COUNT];  /* holds iff the flag is raised */
	rel_t rel[LR_COUNT];    /* named relations, for explanations */
	rel_t acyclic[AX_COUNT]; /* the relation of an "acyclic" axiom, NULL
				  * for the others (emptiness axioms) */
	Z3_ast rcu_unconverged;  /* lkmm_build_exact: holds iff one more
				  * rcu-order stage would add a pair (NULL
				  * when there is no rcu-order) */
};

/* The built model in struct lkmm's shape, in enc's arena. */
void lkmm_shape(struct encoding *enc, const struct lkmm_built *b, struct lkmm *m);

/* Short names so that definitions read like the cat; each needs a
 * struct rel_ctx *rc in scope. */
#define U(a, b) rel_union(rc, a, b)
#define U3(a, b, c) rel_union3(rc, a, b, c)
#define I(a, b) rel_inter(rc, a, b)
#define D(a, b) rel_diff(rc, a, b)
#define SEQ(a, b) rel_seq(rc, a, b)
#define SEQ3(a, b, c) rel_seq3(rc, a, b, c)
#define INV(a) rel_inv(rc, a)
#define OPT(a) rel_opt(rc, a)
#define STAR(a, name) rel_star(rc, a, name)
#define ID(s) rel_id(rc, s)
#define RES(s1, r, s2) rel_restrict(rc, s1, r, s2)
#define SU(a, b) set_union(rc, a, b)
#define SI(a, b) set_inter(rc, a, b)
#define SD(a, b) set_diff(rc, a, b)
#define CROSS(a, b) rel_cross(rc, a, b)
#define DOM(r) set_domain(rc, r)
#define RNG(r) set_range(rc, r)
#define NONEMPTY(r) rel_not(rc, rel_is_empty(rc, r))
#define SNONEMPTY(s) rel_not(rc, set_is_empty(rc, s))

/*
 * The named sets and relations of the model: one field per name of the
 * files that the model builds, with the cat's name ('-' becomes '_'), in
 * the files' order.  Not fields: the names inside the bell's let recs and
 * functions such as A-cumul (inlined), and fri (built for explanations
 * only, by lkmm.c's keep_rels).  Where a file redefines a name (R, W, M,
 * Release, Acquire, LF, rmw, fence, strong-fence) the field is reassigned
 * at the same point.  A field the part does not build (no plain access, no
 * grace period) stays NULL.
 */
struct lkmm_rels {
	/* herd7's built-ins, from the encoder */
	rel_t po;            /* program order */
	rel_t loc;           /* same location */
	rel_t int_;          /* same thread ("int" in the cat) */
	rel_t ext;           /* different threads */
	rel_t addr, data, ctrl; /* dependencies */
	rel_t po_loc;        /* po & loc */
	rel_t id;            /* identity on executed events */
	set_t IW;            /* initial writes */
	set_t FW;            /* final writes: the IW of each location the
			      * final condition reads stands for it (set
			      * where lock.cat first reads it) */

	/* linux-kernel.bell */
	set_t LKR, LKW, UL, LF, RL, RU; /* lock events (herd7 makes them) */
	set_t lock_events;   /* all of the above: not a cat name, the
			      * encoder's R and W include them, herd7's not */
	set_t R, W, M;       /* reads, writes, both */
	set_t Once, Acquire, Release, Noreturn; /* enum Accesses */
	set_t RMW;           /* the RMW instructions' events */
	set_t Wmb, Rmb, Mb, Barrier;          /* enum Barriers ... */
	set_t Rcu_lock, Rcu_unlock, Sync_rcu;
	set_t Before_atomic, After_atomic, After_spinlock, After_unlock_lock;
	set_t Srcu_lock, Srcu_unlock, Sync_srcu; /* enum SRCU */
	rel_t rmw;           /* herd7's rmw (lock.cat adds lk-rmw) */
	rel_t rcu_rscs;      /* matching Rcu-lock/Rcu-unlock pairs */
	rel_t srcu_rscs;     /* the same per srcu_struct */
	set_t Marked;        /* marked accesses and non-accesses */
	set_t Plain;         /* M \ Marked */

	/* lock.cat */
	set_t ALL_LOCKS;     /* LKR | LKW | UL | LF | RU */
	rel_t lk_rmw;        /* LKR to its LKW (paired by the encoder) */
	rel_t critical;      /* LKW to its UL (built by the encoder) */
	set_t UNMATCHED_LKW; /* LKW with no UL */
	rel_t co, coe, coi;  /* coherence, with lock.cat's rules (encoder) */
	rel_t rf, rfe, rfi;  /* reads-from, likewise */
	rel_t fr, fre;       /* from-reads */

	/* linux-kernel.cat */
	rel_t acq_po, po_rel, po_unlock_lock_po; /* Release Acquire */
	set_t R4rmb;         /* reads for which rmb works */
	rel_t rmb, wmb, mb, gp; /* fences */
	rel_t strong_fence;  /* mb | gp, then | rcu-fence */
	rel_t nonrw_fence;   /* strong-fence | po-rel | acq-po */
	rel_t fence;         /* nonrw-fence | wmb | rmb, then | rcu-fence */
	rel_t barrier;       /* what separates a plain access (mixed-accesses) */
	rel_t com;           /* rf | co | fr */
	rel_t dep, rwdep, overwrite, to_w, to_r; /* parts of ppo */
	rel_t ppo;           /* preserved program order */
	rel_t cumul_fence;   /* cumulative fences */
	rel_t cumul_fence_star; /* cumul-fence*, a Horn closure */
	rel_t prop;          /* propagation */
	rel_t hb;            /* happens-before */
	rel_t pb;            /* pb's head: pb = pb-head ; hb* (lkmm_cat.c) */
	rel_t rcu_gp, srcu_gp, rcu_rscsi, srcu_rscsi; /* RCU's parts */
	rel_t rcu_link;      /* rows from grace periods and boundaries only */
	rel_t rcu_order;     /* let rec rcu-order */
	rel_t rcu_fence;     /* po ; rcu-order ; po? */
	rel_t rb;            /* rb's head: rb = rb-head ; (hb | pb-head)* */
	rel_t xb;            /* hb | pb-head | rb-head, whose cycles are xb's */
	rel_t mixed_accesses; /* plain writes next to marked accesses */
	rel_t xbstar;        /* (hb | pb | rb)*, the columns races read */
	rel_t vis;           /* visibility */
	rel_t w_pre_bounded, r_pre_bounded, w_post_bounded, r_post_bounded;
	rel_t ww_vis, wr_vis, rw_xbstar; /* for plain accesses */
	rel_t pre_race;      /* potential races */
	rel_t wr_incoh, rw_incoh, ww_incoh; /* plain-coherence */
	rel_t ww_nonrace, ww_race, wr_race, rw_race; /* data-race */
};

/* linux-kernel.bell: the event sets, rmw, the RCU and SRCU matchings
 * and the bell's flags.  Returns 0 and fills d when the matching is
 * beyond what the encoding can express. */
int lkmm_bell(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m,
	      struct diag *d);

/* lock.cat: lock events joined to R, W, rmw and the fences' sets, its
 * flags and axioms, and rf, co and fr (which the encoder built by
 * lock.cat's rules: see encoder/locks.c). */
void lkmm_lock(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m);

/* linux-kernel.cat after its include of lock.cat.  With separate, the
 * happens-before, propagation and rcu axioms one by one, otherwise as
 * executes-before; rcu_stages as in lkmm.c's build(). */
void lkmm_cat(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m,
	      int separate, int rcu_stages);

#endif
