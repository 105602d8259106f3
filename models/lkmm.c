/*
 * lkmm.c - the LKMM of Linux 6.1, written in lkmmc's relation algebra.
 *
 * Read it next to tools/memory-model/linux-kernel.bell, lock.cat and
 * linux-kernel.cat: the three parts below follow those files in the order
 * herd7 reads them (the bell, then lock.cat, which linux-kernel.cat includes
 * first, then linux-kernel.cat), one C definition per named relation, with
 * the cat's names ('-' becomes '_').  Where the cat redefines a name
 * (R, W, M, rf, co, fence, strong-fence) the C variable is reassigned at the
 * same point.
 *
 * What herd7 computes by enumeration and we compute differently:
 *  - lock.cat builds co and rf for lock events by generating candidates
 *    (cross, cos-opt.cat).  The encoder produces exactly those executions
 *    (see encoder/execution.c); here we only take rf and co from it.
 *  - rcu-rscs and srcu-rscs (the bell's let rec matching of read-side
 *    critical sections) are computed in C by nesting, which is the same
 *    least fixpoint, once per combination of the boundaries that execute.
 *  - The happens-before, propagation and rcu axioms are checked together
 *    as "acyclic xb", as the cat's own comment allows (see below), so that
 *    hb* and pb* are never built as closures.
 *
 * Why the closures are exact.  cumul-fence*, (hb | pb)* in rcu-link, xbstar
 * and the let rec rcu-order are encoded with Horn constraints (rel_plus,
 * rel_star_from): their variables can only be larger than the least
 * fixpoint.  Every one of them occurs with negative polarity only: they
 * feed (monotonically) hb, pb, rb and the plain-access relations, which
 * occur only in acyclic, irreflexive and empty axioms (wanted small), or on
 * the right of a difference in the data-race flag (wanted small for the
 * flag to be raised).  So any
 * satisfying assignment stays satisfying when the closures are shrunk to
 * their least fixpoint, and every query (reachability, flags, states) has a
 * model iff it has one with the exact closures.
 *
 * The opposite question, "does this execution break an axiom?"
 * (lkmm_violation, asked by solver/cubes.c), wants the closures large, so
 * there they must be exact from below too: lkmm_build_exact builds the
 * model once more, where rel_exact_defs adds the converse of the Horn
 * clauses with well-founded ranks, and rcu-order is unrolled into Kleene
 * stages from the empty relation (each stage a function of the execution;
 * rcu_unconverged says whether one more stage would still add a pair).
 */
#include "models/lkmm.h"

#include <string.h>

#include "common/arena.h"
#include "models/cat.h"

/* Short names so that definitions read like the cat. */
#define U(a, b) rel_union(rc, a, b)
#define U3(a, b, c) rel_union3(rc, a, b, c)
#define I(a, b) rel_inter(rc, a, b)
#define D(a, b) rel_diff(rc, a, b)
#define SEQ(a, b) rel_seq(rc, a, b)
#define SEQ3(a, b, c) rel_seq3(rc, a, b, c)
#define INV(a) rel_inv(rc, a)
#define OPT(a) rel_opt(rc, a)
#define PLUS(a, name) rel_plus(rc, a, name)
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
#define CLS(c) (enc->cls[c])

static const char *axiom_names[AX_COUNT] = {
	"coherence", "atomic", "happens-before", "propagation", "rcu",
	"plain-coherence", "lock-nest", "unmatched-locks", "executes-before",
};
static const char *flag_names[FL_COUNT] = {
	"data-race", "invalid-sleep", "lock-final", "mixed-accesses",
	"mixed-lock-accesses", "srcu-bad-nesting", "unbalanced-rcu-locking",
	"unbalanced-srcu-locking", "unmatched-unlock", "unpaired-LKR",
	"unpaired-LKW",
};
static const char *rel_names[LR_COUNT] = {
	"ppo", "hb", "pb", "rb", "strong-fence", "prop", "rfe", "coe", "fre",
	"rfi", "coi", "fri", "po-loc", "rmw", "addr", "data", "ctrl", "mb", "gp",
	"rcu-fence", "wmb", "rmb", "po-rel", "acq-po", "po-unlock-lock-po",
	"cumul-fence", "overwrite & ext", "fence", "po-loc | com",
	"plain-incoherence", "rmw & (fre ; coe)", "data race",
};

const char *lkmm_axiom_name(enum lkmm_axiom a) { return axiom_names[a]; }
const char *lkmm_flag_name(enum lkmm_flag f) { return flag_names[f]; }
const char *lkmm_rel_name(enum lkmm_rel r) { return rel_names[r]; }

/* fencerel(S) = po ; [S] ; po */
static rel_t fencerel(struct rel_ctx *rc, rel_t po, set_t s)
{
	return SEQ(RES(NULL, po, s), po);
}

/* different-values(r): pairs of r whose events carry different values. */
static rel_t different_values(struct encoding *enc, rel_t r)
{
	struct rel_ctx *rc = &enc->rc;
	rel_t out = rel_new(rc);
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++) {
			Z3_ast x = REL_AT(r, enc->n, a, b);
			if (!x || !enc->ev[a].val || !enc->ev[b].val)
				continue;
			Z3_ast eq = Z3_mk_eq(enc->z, enc->ev[a].val, enc->ev[b].val);
			REL_AT(out, enc->n, a, b) = rel_and2(rc, x, Z3_mk_not(enc->z, eq));
		}
	return out;
}

/*
 * The bell's rcu-rscs / srcu-rscs: match each unlock with the nearest
 * unmatched lock before it in program order (per location for SRCU).  The
 * let rec pairs innermost lock/unlock pairs first, which is this nesting.
 * Which boundaries execute may depend on branches: the matching is then
 * computed for every combination of the conditional boundaries of a thread
 * (at most MAX_COND_BOUNDARIES of them), each pair guarded by the
 * combinations that produce it.
 */
#define MAX_COND_BOUNDARIES 10

static void match_present(struct encoding *enc, const int *ev, int k,
			  unsigned present, int by_loc, Z3_ast when, rel_t out,
			  int *stack)
{
	struct rel_ctx *rc = &enc->rc;
	int sp = 0;
	for (int i = 0; i < k; i++) {
		if (!(present & (1u << i)))
			continue;
		const struct event *x = &enc->ev[ev[i]];
		if (x->cls & (EVC_BIT(EVC_RCU_LOCK) | EVC_BIT(EVC_SRCU_LOCK))) {
			stack[sp++] = ev[i];
			continue;
		}
		for (int j = sp - 1; j >= 0; j--) {
			if (by_loc && enc->ev[stack[j]].loc != x->loc)
				continue;
			Z3_ast *slot = &REL_AT(out, enc->n, stack[j], ev[i]);
			*slot = rel_or2(rc, *slot, when);
			memmove(&stack[j], &stack[j + 1], sizeof(int) * (size_t)(sp - j - 1));
			sp--;
			break;
		}
	}
}

static int match_nesting(struct encoding *enc, enum ev_class lock,
			 enum ev_class unlock, int by_loc, rel_t out,
			 struct diag *d)
{
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	int *ev = arena_alloc(enc->arena, sizeof(int) * (size_t)(n ? n : 1));
	int *stack = arena_alloc(enc->arena, sizeof(int) * (size_t)(n ? n : 1));
	int cond[MAX_COND_BOUNDARIES]; /* positions in ev of conditional ones */
	for (int t = 0; t < enc->prog->nthreads; t++) {
		int k = 0, c = 0;
		for (int e = 0; e < n; e++) {
			const struct event *x = &enc->ev[e];
			if (x->thread != t || !(x->cls & (EVC_BIT(lock) | EVC_BIT(unlock))))
				continue;
			const struct ir_pos p = x->instr->pos;
			if (by_loc && x->loc < 0)
				return diag_error(d, enc->prog->file, p.line, p.col,
						  "unsupported: SRCU critical-section boundary through a computed srcu_struct pointer");
			if (!rel_is_true(rc, x->guard)) {
				if (c == MAX_COND_BOUNDARIES)
					return diag_error(d, enc->prog->file, p.line, p.col,
							  "unsupported: more than %d conditional RCU/SRCU critical-section boundaries in one thread",
							  MAX_COND_BOUNDARIES);
				cond[c++] = k;
			}
			if (k == 31)
				return diag_error(d, enc->prog->file, p.line, p.col,
						  "unsupported: more than 31 RCU/SRCU critical-section boundaries in one thread");
			ev[k++] = e;
		}
		unsigned always = (k < 32 ? (1u << k) : 0u) - 1u;
		for (int i = 0; i < c; i++)
			always &= ~(1u << cond[i]);
		for (unsigned mask = 0; mask < (1u << c); mask++) {
			unsigned present = always;
			Z3_ast when = rc->t;
			for (int i = 0; i < c; i++) {
				Z3_ast g = enc->ev[ev[cond[i]]].guard;
				if (mask & (1u << i)) {
					present |= 1u << cond[i];
					when = rel_and2(rc, when, g);
				} else {
					when = rel_and2(rc, when, Z3_mk_not(enc->z, g));
				}
			}
			match_present(enc, ev, k, present, by_loc, when, out, stack);
		}
	}
	return 1;
}

/*
 * xbstar = (hb | pb | rb)*, only in the columns the cat ever reads.  In
 * linux-kernel.cat, xbstar occurs only in vis, ww-vis, wr-vis and rw-xbstar,
 * always followed by w-pre-bounded or r-pre-bounded (vis ends in xbstar and
 * is itself followed by one of them); those three relations occur only
 * intersected with pre-race & (rf | co | fr | co?;rf), directly or inverted
 * (wr-incoh, rw-incoh, ww-incoh, ww-race, wr-race, rw-race, ww-nonrace).
 * So an entry xbstar(a, b) matters only when b reaches by a pre-bounded
 * step an end of a pre-race pair of one location (race_ends below, a
 * superset: loc instead of rf | co | fr).  The other columns are left
 * statically false: nothing reads them.  The closure of those columns
 * alone is the rows of (xb^-1)* from them, inverted, so its Horn rules
 * number columns x edges instead of events x edges.
 */
static rel_t xbstar_to_races(struct rel_ctx *rc, rel_t xb_steps, rel_t pre_race,
			     rel_t loc, rel_t pre_bounded)
{
	int n = rc->n;
	unsigned char *race_end = arena_alloc(rc->arena, (size_t)(n ? n : 1)); /* zeroed */
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			if (REL_AT(pre_race, n, a, b) && REL_AT(loc, n, a, b))
				race_end[a] = race_end[b] = 1;
	set_t to = set_new(rc);
	for (int b = 0; b < n; b++)
		for (int q = 0; q < n && !to[b]; q++)
			if (race_end[q] && REL_AT(pre_bounded, n, b, q))
				to[b] = rc->guard[b];
	return rel_inv(rc, rel_star_from(rc, to, rel_inv(rc, xb_steps), "xbstar"));
}

/* What the body of the let rec rcu-order is made of, besides rcu-order. */
struct rcu_order_parts {
	rel_t rcu_gp, srcu_gp, rcu_rscsi, srcu_rscsi, rcu_link, loc;
};

/* The right-hand side of the cat's let rec rcu-order, over a given
 * rcu_order relation. */
static rel_t rcu_order_body(struct rel_ctx *rc, rel_t rcu_order,
			    const struct rcu_order_parts *p)
{
	rel_t rcu_gp = p->rcu_gp, srcu_gp = p->srcu_gp, rcu_link = p->rcu_link;
	rel_t rcu_rscsi = p->rcu_rscsi, srcu_rscsi = p->srcu_rscsi, loc = p->loc;
	rel_t gp_l = SEQ(rcu_gp, rcu_link), sgp_l = SEQ(srcu_gp, rcu_link);
	rel_t rs_l = SEQ(rcu_rscsi, rcu_link), srs_l = SEQ(srcu_rscsi, rcu_link);
	rel_t l_ro_l = SEQ3(rcu_link, rcu_order, rcu_link);
	rel_t body = U(rcu_gp, srcu_gp);
	body = U(body, SEQ(gp_l, rcu_rscsi));
	body = U(body, I(SEQ(sgp_l, srcu_rscsi), loc));
	body = U(body, SEQ(rs_l, rcu_gp));
	body = U(body, I(SEQ(srs_l, srcu_gp), loc));
	body = U(body, SEQ3(rcu_gp, l_ro_l, rcu_rscsi));
	body = U(body, I(SEQ3(srcu_gp, l_ro_l, srcu_rscsi), loc));
	body = U(body, SEQ3(rcu_rscsi, l_ro_l, rcu_gp));
	body = U(body, I(SEQ3(srcu_rscsi, l_ro_l, srcu_gp), loc));
	body = U(body, SEQ3(rcu_order, rcu_link, rcu_order));
	return body;
}

static int build(struct encoding *enc, int separate, int rcu_stages,
		 struct lkmm *m, struct diag *d);

int model_build(struct cat_model *model, struct encoding *enc, int separate,
		struct lkmm *m, struct diag *d)
{
	if (model)
		return cat_model_build(model, enc, m, d);
	return lkmm_build(enc, separate, m, d);
}

int model_coherent(const struct cat_model *model)
{
	return !model || cat_model_coherent(model);
}

int model_build_exact(struct cat_model *model, struct encoding *enc,
		      int rcu_stages, struct lkmm *m, struct diag *d)
{
	if (model)
		return cat_model_build_exact(model, enc, rcu_stages, m, d);
	return lkmm_build_exact(enc, rcu_stages, m, d);
}

int lkmm_build(struct encoding *enc, int separate, struct lkmm *m,
	       struct diag *d)
{
	return build(enc, separate, 0, m, d);
}

int lkmm_build_exact(struct encoding *enc, int rcu_stages, struct lkmm *m,
		     struct diag *d)
{
	return build(enc, 0, rcu_stages > 0 ? rcu_stages : 1, m, d);
}

static int build(struct encoding *enc, int separate, int rcu_stages,
		 struct lkmm *m, struct diag *d)
{
	struct rel_ctx *rc = &enc->rc;
	memset(m, 0, sizeof *m);
	rel_t po = enc->po, loc = enc->loc, int_ = enc->int_, ext = enc->ext;
	rel_t addr = enc->addr, data = enc->data, ctrl = enc->ctrl;
	rel_t po_loc = I(po, loc);
	rel_t id = ID(set_all(rc));

	/* ================= linux-kernel.bell ================= */

	/* Accesses: herd7's R and W before lock.cat adds the lock events. */
	set_t LKR = CLS(EVC_LKR), LKW = CLS(EVC_LKW), UL = CLS(EVC_UL);
	set_t LF = CLS(EVC_LF), RL = CLS(EVC_RL), RU = CLS(EVC_RU);
	set_t lock_events = SU(SU(SU(LKR, LKW), SU(UL, LF)), SU(RL, RU));
	set_t R = SD(CLS(EVC_R), lock_events);
	set_t W = SD(CLS(EVC_W), lock_events);
	set_t M = SU(R, W);
	set_t IW = CLS(EVC_IW);
	set_t Once = CLS(EVC_ONCE), Acquire = CLS(EVC_ACQUIRE);
	set_t Release = CLS(EVC_RELEASE), Noreturn = CLS(EVC_NORETURN);
	set_t RMW = CLS(EVC_RMW);

	/* Barriers */
	set_t Wmb = CLS(EVC_WMB), Rmb = CLS(EVC_RMB), Mb = CLS(EVC_MB);
	set_t Barrier = CLS(EVC_BARRIER);
	set_t Rcu_lock = CLS(EVC_RCU_LOCK), Rcu_unlock = CLS(EVC_RCU_UNLOCK);
	set_t Sync_rcu = CLS(EVC_SYNC_RCU);
	set_t Before_atomic = CLS(EVC_BEFORE_ATOMIC);
	set_t After_atomic = CLS(EVC_AFTER_ATOMIC);
	set_t After_spinlock = CLS(EVC_AFTER_SPINLOCK);
	set_t After_unlock_lock = CLS(EVC_AFTER_UNLOCK_LOCK);

	/* SRCU */
	set_t Srcu_lock = CLS(EVC_SRCU_LOCK), Srcu_unlock = CLS(EVC_SRCU_UNLOCK);
	set_t Sync_srcu = CLS(EVC_SYNC_SRCU);

	/* The rmw of herd7's RMW instructions (lock.cat adds lk-rmw). */
	rel_t lk_rmw = RES(LKR, enc->rmw, LKW);
	rel_t rmw = D(enc->rmw, lk_rmw);

	/* rcu-rscs: matching pairs of nested Rcu-lock and Rcu-unlock */
	rel_t rcu_rscs = rel_new(rc);
	if (!match_nesting(enc, EVC_RCU_LOCK, EVC_RCU_UNLOCK, 0, rcu_rscs, d))
		return 0;
	m->flag[FL_UNBALANCED_RCU_LOCKING] = rel_or2(rc,
		SNONEMPTY(SD(Rcu_lock, DOM(rcu_rscs))),
		SNONEMPTY(SD(Rcu_unlock, RNG(rcu_rscs))));

	/* srcu-rscs: the same per srcu_struct location */
	rel_t srcu_rscs = rel_new(rc);
	if (!match_nesting(enc, EVC_SRCU_LOCK, EVC_SRCU_UNLOCK, 1, srcu_rscs, d))
		return 0;
	m->flag[FL_UNBALANCED_SRCU_LOCKING] = rel_or2(rc,
		SNONEMPTY(SD(Srcu_lock, DOM(srcu_rscs))),
		SNONEMPTY(SD(Srcu_unlock, RNG(srcu_rscs))));

	/* invalid-sleep: synchronize_srcu() inside an RCU critical section */
	m->flag[FL_INVALID_SLEEP] =
		NONEMPTY(I(rcu_rscs, SEQ(RES(NULL, po, Sync_srcu), po)));

	/* srcu-bad-nesting: SRCU dynamic match */
	m->flag[FL_SRCU_BAD_NESTING] = NONEMPTY(different_values(enc, srcu_rscs));

	/* Marked and plain memory accesses */
	set_t not_M = SD(set_all(rc), M);
	set_t Marked = SU(SU(SU(not_M, IW), SU(Once, Release)),
			  SU(SU(Acquire, SU(DOM(rmw), RNG(rmw))),
			     SU(lock_events, LF)));
	set_t Plain = SD(M, Marked);

	/* ================= lock.cat ================= */

	/* LF = LF | RL: RL is a kind of LF, a read with no ordering */
	LF = SU(LF, RL);
	set_t ALL_LOCKS = SU(SU(SU(LKR, LKW), SU(UL, LF)), RU);
	m->flag[FL_MIXED_LOCK_ACCESSES] =
		NONEMPTY(RES(SD(M, IW), loc, ALL_LOCKS));

	/* lk-rmw is built with the events (symex pairs LKR with its LKW). */
	rmw = U(rmw, lk_rmw);
	m->flag[FL_UNPAIRED_LKW] = SNONEMPTY(SD(LKW, RNG(lk_rmw)));
	m->flag[FL_UNPAIRED_LKR] = SNONEMPTY(SD(LKR, DOM(lk_rmw)));

	/* lock-nest: an LKR nested in a critical section of its lock */
	m->axiom[AX_LOCK_NEST] = rel_is_empty(rc,
		D(RES(LKW, po_loc, LKR), SEQ(RES(NULL, po_loc, UL), po_loc)));

	/* lock-final: the final value of a spinlock should not be tested */
	set_t FW = set_new(rc);
	for (int i = 0; i < enc->prog->nobserved; i++)
		if (enc->prog->observed[i].thread < 0)
			FW[enc->prog->observed[i].index] = rc->t; /* its IW stands for it */
	m->flag[FL_LOCK_FINAL] = NONEMPTY(RES(FW, loc, ALL_LOCKS));

	R = SU(SU(SU(R, LKR), LF), RU);
	W = SU(W, LKW);
	Release = SU(Release, UL);
	Acquire = SU(Acquire, LKR);

	rel_t critical = enc->critical;
	m->flag[FL_UNMATCHED_UNLOCK] = SNONEMPTY(SD(UL, RNG(critical)));
	set_t UNMATCHED_LKW = SD(LKW, DOM(critical));
	m->axiom[AX_UNMATCHED_LOCKS] = rel_is_empty(rc,
		D(RES(UNMATCHED_LKW, loc, UNMATCHED_LKW), id));

	/* rf-lf, rf-ru, co0, cos-opt: the encoder's rf and co obey them. */
	W = SU(W, UL);
	M = SU(R, W);
	rel_t co = enc->co;
	rel_t coe = I(co, ext), coi = I(co, int_);
	rel_t rf = enc->rf;
	rel_t rfe = I(rf, ext), rfi = I(rf, int_);
	rel_t fr = enc->fr;
	rel_t fre = I(fr, ext);

	/* ================= linux-kernel.cat ================= */

	/* Release Acquire */
	rel_t acq_po = RES(Acquire, po, M);
	rel_t po_rel = RES(M, po, Release);
	rel_t po_unlock_lock_po =
		SEQ3(RES(NULL, po, UL), RES(NULL, U(po, rf), LKR), po);

	/* Fences */
	set_t R4rmb = SD(R, Noreturn);
	rel_t rmb_ = RES(R4rmb, fencerel(rc, po, Rmb), R4rmb);
	rel_t wmb = RES(W, fencerel(rc, po, Wmb), W);
	rel_t mb = U3(RES(M, fencerel(rc, po, Mb), M),
		      SEQ(RES(M, fencerel(rc, po, Before_atomic), RMW),
			  RES(NULL, OPT(po), M)),
		      SEQ(RES(M, OPT(po), RMW),
			  RES(NULL, fencerel(rc, po, After_atomic), M)));
	mb = U(mb, SEQ(RES(M, OPT(po), LKW),
		       RES(NULL, fencerel(rc, po, After_spinlock), M)));
	mb = U(mb, SEQ3(RES(M, po, UL), RES(NULL, U(co, po), LKW),
			RES(NULL, fencerel(rc, po, After_unlock_lock), M)));
	rel_t gp = SEQ(RES(NULL, po, SU(Sync_rcu, Sync_srcu)), OPT(po));
	rel_t strong_fence = U(mb, gp);

	rel_t nonrw_fence = U3(strong_fence, po_rel, acq_po);
	rel_t fence = U3(nonrw_fence, wmb, rmb_);
	set_t barrier_events = SU(SU(SU(Barrier, Rmb), SU(Wmb, Mb)),
				  SU(SU(Sync_rcu, Sync_srcu), SU(Before_atomic, After_atomic)));
	barrier_events = SU(SU(barrier_events, SU(Acquire, Release)),
			    SU(SU(Rcu_lock, Rcu_unlock), SU(Srcu_lock, Srcu_unlock)));
	rel_t barrier = U3(fencerel(rc, po, barrier_events), RES(NULL, po, Release),
			   RES(Acquire, po, NULL));

	/* Sequential Consistency Per Variable */
	rel_t com = U3(rf, co, fr);
	m->acyclic[AX_COHERENCE] = U(po_loc, com);
	m->axiom[AX_COHERENCE] = rel_acyclic(rc, m->acyclic[AX_COHERENCE], "coherence");

	/* Atomic Read-Modify-Write */
	m->rel[LR_ATOMIC_VIOLATION] = I(rmw, SEQ(fre, coe));
	m->axiom[AX_ATOMIC] = rel_is_empty(rc, m->rel[LR_ATOMIC_VIOLATION]);

	/* Preserved Program Order */
	rel_t dep = U(addr, data);
	rel_t rwdep = RES(NULL, U(dep, ctrl), W);
	rel_t overwrite = U(co, fr);
	rel_t to_w = U3(rwdep, I(overwrite, int_), SEQ(RES(NULL, addr, Plain), wmb));
	rel_t to_r = U(addr, SEQ(RES(NULL, dep, Marked), rfi));
	rel_t ppo = U3(to_r, to_w, U(fence, I(po_unlock_lock_po, int_)));

	/* Propagation: ordering from release operations and strong fences */
	/* A-cumul(r) = (rfe ; [Marked])? ; r */
	rel_t rfe_marked_opt = OPT(RES(NULL, rfe, Marked));
	rel_t cumul_fence = RES(Marked,
		U3(SEQ(rfe_marked_opt, U(strong_fence, po_rel)), wmb, po_unlock_lock_po),
		Marked);
	rel_t cumul_fence_star = STAR(cumul_fence, "cumul-fence*");
	rel_t prop = SEQ3(RES(Marked, OPT(I(overwrite, ext)), NULL),
			  RES(NULL, cumul_fence_star, Marked),
			  RES(NULL, OPT(rfe), Marked));

	/* Happens Before */
	rel_t hb = RES(Marked, U3(ppo, rfe, I(D(prop, id), int_)), Marked);

	/* Propagation: each non-rf link needs a strong fence.
	 *   pb = prop ; strong-fence ; hb* ; [Marked]
	 * is kept as its head, pb = pb-head ; hb*, so that no closure of hb
	 * is ever built (see executes-before below). */
	rel_t pb_head = RES(NULL, SEQ(prop, strong_fence), Marked);

	/* RCU */
	rel_t rb_head = rel_new(rc);
	rel_t rcu_fence = rel_new(rc);
	/* Every rcu-order path contains a grace period: without one, rb is
	 * empty and nothing below needs building. */
	int has_gp = 0;
	for (int e = 0; e < enc->n; e++)
		has_gp |= Sync_rcu[e] != NULL || Sync_srcu[e] != NULL;
	if (has_gp) {
		rel_t rcu_gp = ID(Sync_rcu);
		rel_t srcu_gp = ID(Sync_srcu);
		rel_t rcu_rscsi = INV(rcu_rscs);
		rel_t srcu_rscsi = INV(srcu_rscs);

		/* rcu-link = po? ; hb* ; pb* ; prop ; po.  Since pb ; hb is in
		 * pb, hb* ; pb* = (hb | pb)* = (hb | pb-head)*.  rcu-link is
		 * only ever entered from a grace period or a critical-section
		 * boundary, so only those rows are built. */
		set_t ends = SU(SU(Sync_rcu, Sync_srcu),
				SU(SU(Rcu_lock, Rcu_unlock), SU(Srcu_lock, Srcu_unlock)));
		rel_t po_opt_from_ends = RES(ends, OPT(po), NULL);
		rel_t hb_pb_star = rel_star_from(rc, RNG(po_opt_from_ends),
						 U(hb, pb_head), "(hb|pb)*");
		rel_t rcu_link = SEQ3(po_opt_from_ends, hb_pb_star, SEQ(prop, po));

		/* let rec rcu-order, the least fixpoint of rcu_order_body().
		 * Horn variables over gp and rscs ends by default (wanted small,
		 * see the header comment); for lkmm_build_exact, Kleene stages
		 * from the empty relation, each a function of the execution. */
		rel_t rcu_order = rel_new(rc);
		struct rcu_order_parts parts = {rcu_gp, srcu_gp, rcu_rscsi, srcu_rscsi,
						rcu_link, loc};
		if (rcu_stages) {
			parts.rcu_link = rel_name(rc, rcu_link, "rcu-link");
			for (int k = 0; k < rcu_stages; k++)
				rcu_order = rel_name(rc, rcu_order_body(rc, rcu_order, &parts),
						     "rcu-order-stage");
			/* One more stage adds nothing iff the stages reached the
			 * least fixpoint. */
			rel_t next = rcu_order_body(rc, rcu_order, &parts);
			m->rcu_unconverged = rel_not(rc, rel_is_empty(rc, D(next, rcu_order)));
		} else {
			for (int a = 0; a < enc->n; a++)
				for (int b = 0; b < enc->n; b++)
					if (ends[a] && ends[b])
						REL_AT(rcu_order, enc->n, a, b) =
							rel_fresh_bool(rc, "rcu-order");
			rel_t body = rcu_order_body(rc, rcu_order, &parts);
			for (int a = 0; a < enc->n; a++)
				for (int b = 0; b < enc->n; b++) {
					Z3_ast x = REL_AT(body, enc->n, a, b);
					Z3_ast v = REL_AT(rcu_order, enc->n, a, b);
					if (x && v)
						rel_horn(rc, x, v);
				}
		}
		rcu_fence = SEQ3(po, rcu_order, OPT(po));
		fence = U(fence, rcu_fence);
		strong_fence = U(strong_fence, rcu_fence);

		/* rb = prop ; rcu-fence ; hb* ; pb* ; [Marked], kept as its head:
		 * rb = rb-head ; (hb | pb-head)* */
		rb_head = RES(NULL, SEQ(prop, rcu_fence), Marked);
	}

	/*
	 * The happens-before, propagation and rcu axioms, as one: the cat's
	 * own comment notes they are equivalent to "acyclic xb" with
	 * xb = hb | pb | rb (pb ; hb is in pb, rb ; (hb | pb | rb) is in rb,
	 * so any xb cycle folds into an hb cycle, a pb cycle or an rb
	 * self-loop).  With the heads above, a cycle of xb is exactly a cycle
	 * of hb | pb-head | rb-head, which needs integer ranks only and no
	 * closure at all.
	 */
	rel_t xb_steps = U3(hb, pb_head, rb_head);
	if (!separate) {
		m->acyclic[AX_EXECUTES_BEFORE] = xb_steps;
		m->axiom[AX_EXECUTES_BEFORE] = rel_acyclic(rc, xb_steps, "xb");
	} else {
		/* acyclic hb as happens-before */
		m->axiom[AX_HAPPENS_BEFORE] = rel_acyclic(rc, hb, "hb");
		/* acyclic pb as propagation: no cycle of pb-head | hb through
		 * a pb-head edge (pb = pb-head ; hb*) */
		m->axiom[AX_PROPAGATION] = rel_acyclic_through(rc, pb_head, hb, "pb");
		/* irreflexive rb as rcu: rb ; rb is in rb, so irreflexive rb is
		 * acyclic rb: no cycle of rb-head | hb | pb-head through an
		 * rb-head edge */
		m->axiom[AX_RCU] = rel_acyclic_through(rc, rb_head, U(hb, pb_head), "rb");
	}

	/* Plain accesses and data races */
	rel_t mixed_accesses = U(RES(SI(Plain, W), D(po_loc, barrier), Marked),
				 RES(Marked, D(po_loc, barrier), SI(Plain, W)));
	m->flag[FL_MIXED_ACCESSES] = NONEMPTY(mixed_accesses);

	if (!rel_is_true(rc, set_is_empty(rc, Plain))) {
		/* Potential races */
		rel_t pre_race = I(ext, U(CROSS(Plain, M), CROSS(SD(M, IW), Plain)));

		/* Boundaries for lifetimes of plain accesses */
		rel_t w_pre_bounded = RES(Marked, OPT(U(addr, fence)), NULL);
		rel_t r_pre_bounded = RES(Marked, OPT(U3(addr, nonrw_fence,
			RES(R4rmb, fencerel(rc, po, Rmb), SD(set_all(rc), Noreturn)))), NULL);
		rel_t w_post_bounded = RES(NULL, OPT(fence), Marked);
		rel_t r_post_bounded = RES(NULL, OPT(U(nonrw_fence,
			RES(SD(set_all(rc), Noreturn), fencerel(rc, po, Rmb), R4rmb))), Marked);

		rel_t xbstar = xbstar_to_races(rc, xb_steps, pre_race, loc,
					       U(w_pre_bounded, r_pre_bounded));
		rel_t vis = SEQ3(cumul_fence_star, RES(NULL, OPT(rfe), Marked),
				 U(SEQ(RES(NULL, strong_fence, Marked), xbstar),
				   I(xbstar, int_)));

		/* Visibility and executes-before for plain accesses */
		rel_t ww_vis = U3(fence, SEQ3(strong_fence, xbstar, w_pre_bounded),
				  SEQ3(w_post_bounded, vis, w_pre_bounded));
		rel_t wr_vis = U3(fence, SEQ3(strong_fence, xbstar, r_pre_bounded),
				  SEQ3(w_post_bounded, vis, r_pre_bounded));
		rel_t rw_xbstar = U(fence, SEQ3(r_post_bounded, xbstar, w_pre_bounded));

		/* Coherence requirements for plain accesses */
		rel_t wr_incoh = I(I(pre_race, rf), INV(rw_xbstar));
		rel_t rw_incoh = I(I(pre_race, fr), INV(wr_vis));
		rel_t ww_incoh = I(I(pre_race, co), INV(ww_vis));
		m->rel[LR_PLAIN_INCOH] = U3(wr_incoh, rw_incoh, ww_incoh);
		m->axiom[AX_PLAIN_COHERENCE] =
			rel_is_empty(rc, m->rel[LR_PLAIN_INCOH]);

		/* Actual races */
		rel_t ww_nonrace = I(I(ww_vis, U(CROSS(Marked, W), rw_xbstar)),
				     U(CROSS(W, Marked), wr_vis));
		rel_t ww_race = D(I(pre_race, co), ww_nonrace);
		rel_t wr_race = D(D(I(pre_race, SEQ(OPT(co), rf)), wr_vis), INV(rw_xbstar));
		rel_t rw_race = D(I(pre_race, fr), rw_xbstar);
		m->rel[LR_RACE] = U3(ww_race, wr_race, rw_race);
		m->flag[FL_DATA_RACE] = NONEMPTY(m->rel[LR_RACE]);
	} else {
		m->axiom[AX_PLAIN_COHERENCE] = rc->t; /* pre-race is empty */
		m->flag[FL_DATA_RACE] = NULL;
	}

	m->rel[LR_PPO] = ppo;
	m->rel[LR_HB] = hb;
	m->rel[LR_PB] = pb_head;
	m->rel[LR_RB] = rb_head;
	m->rel[LR_STRONG_FENCE] = strong_fence;
	m->rel[LR_PROP] = prop;
	m->rel[LR_RFE] = rfe;
	m->rel[LR_COE] = coe;
	m->rel[LR_FRE] = fre;
	m->rel[LR_RFI] = rfi;
	m->rel[LR_COI] = coi;
	m->rel[LR_FRI] = I(fr, int_);
	m->rel[LR_PO_LOC] = po_loc;
	m->rel[LR_RMW] = rmw;
	m->rel[LR_ADDR] = addr;
	m->rel[LR_DATA] = data;
	m->rel[LR_CTRL] = ctrl;
	m->rel[LR_MB] = mb;
	m->rel[LR_GP] = gp;
	m->rel[LR_RCU_FENCE] = rcu_fence;
	m->rel[LR_WMB] = wmb;
	m->rel[LR_RMB] = rmb_;
	m->rel[LR_PO_REL] = po_rel;
	m->rel[LR_ACQ_PO] = acq_po;
	m->rel[LR_PO_UNLOCK_LOCK_PO] = po_unlock_lock_po;
	m->rel[LR_CUMUL_FENCE] = cumul_fence;
	m->rel[LR_OVERWRITE_EXT] = I(overwrite, ext);
	m->rel[LR_FENCE] = fence;
	m->rel[LR_COM] = U(po_loc, com);
	for (int r = 0; r < LR_COUNT; r++)
		if (!m->rel[r])
			m->rel[r] = rel_new(rc);
	for (int f = 0; f < FL_COUNT; f++)
		if (!m->flag[f])
			m->flag[f] = Z3_mk_false(enc->z);
	return 1;
}

Z3_ast lkmm_violation(struct encoding *enc, const struct lkmm *m)
{
	struct rel_ctx *rc = &enc->rc;
	if (m->ncat_axioms) { /* a model read from cat files */
		Z3_ast any = NULL;
		for (int a = 0; a < m->ncat_axioms; a++)
			any = rel_or2(rc, any, m->cat_acyclic[a]
				      ? rel_cyclic(rc, m->cat_acyclic[a], m->cat_axiom_name[a])
				      : rel_not(rc, m->cat_axiom[a]));
		return any ? any : Z3_mk_false(enc->z);
	}
	if (!m->axiom[AX_EXECUTES_BEFORE])
		return NULL; /* separate mode: acyclic-through axioms */
	Z3_ast broken[AX_COUNT];
	unsigned k = 0;
	for (int a = 0; a < AX_COUNT; a++) {
		if (!m->axiom[a])
			continue;
		if (m->acyclic[a])
			broken[k++] = rel_cyclic(rc, m->acyclic[a], axiom_names[a]);
		else
			broken[k++] = rel_not(rc, m->axiom[a]);
	}
	return k ? Z3_mk_or(enc->z, k, broken) : Z3_mk_false(enc->z);
}
