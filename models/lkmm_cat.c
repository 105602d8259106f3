/*
 * lkmm_cat.c - linux-kernel.cat of Linux 6.1 after its include of lock.cat,
 * in lkmmc's relation algebra: release/acquire, fences, the coherence,
 * atomic, happens-before, propagation and rcu axioms, and plain accesses
 * with their races.
 *
 * Where we compute differently from herd7 (see lkmm.c for why the
 * closures are exact):
 *  - pb and rb are kept as their heads (pb = pb-head ; hb*,
 *    rb = rb-head ; (hb | pb-head)*), and the happens-before, propagation
 *    and rcu axioms are checked together as "acyclic xb", as the cat's own
 *    comment allows, so that hb* and pb* are never built as closures;
 *  - rcu-link is built only in the rows of grace periods and critical-
 *    section boundaries, and xbstar only in the columns the race axioms
 *    read;
 *  - the let rec rcu-order is Horn variables, or Kleene stages for
 *    lkmm_build_exact;
 *  - cumul-fence* is closed through po-unlock-lock-po's unlock and lock
 *    events (walks of three states, cumul_fence_star below).
 * The sets and rf, co, fr come from the bell and lock.cat (lkmm_bell.c,
 * lkmm_lock.c).
 */
#include "models/lkmm_parts.h"

#include "common/arena.h"

/* fencerel(S) = po ; [S] ; po */
static rel_t fencerel(struct rel_ctx *rc, rel_t po, set_t s)
{
	return SEQ(RES(NULL, po, s), po);
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

/* Release Acquire, and the fences */
static void cat_fences(struct rel_ctx *rc, struct lkmm_rels *r)
{
	rel_t po = r->po;
	r->acq_po = RES(r->Acquire, po, r->M);
	r->po_rel = RES(r->M, po, r->Release);
	r->po_unlock_lock_po =
		SEQ3(RES(NULL, po, r->UL), RES(NULL, U(po, r->rf), r->LKR), po);

	r->R4rmb = SD(r->R, r->Noreturn);
	r->rmb = RES(r->R4rmb, fencerel(rc, po, r->Rmb), r->R4rmb);
	r->wmb = RES(r->W, fencerel(rc, po, r->Wmb), r->W);
	r->mb = U3(RES(r->M, fencerel(rc, po, r->Mb), r->M),
		   SEQ(RES(r->M, fencerel(rc, po, r->Before_atomic), r->RMW),
		       RES(NULL, OPT(po), r->M)),
		   SEQ(RES(r->M, OPT(po), r->RMW),
		       RES(NULL, fencerel(rc, po, r->After_atomic), r->M)));
	r->mb = U(r->mb, SEQ(RES(r->M, OPT(po), r->LKW),
			     RES(NULL, fencerel(rc, po, r->After_spinlock), r->M)));
	r->mb = U(r->mb, SEQ3(RES(r->M, po, r->UL), RES(NULL, U(r->co, po), r->LKW),
			      RES(NULL, fencerel(rc, po, r->After_unlock_lock), r->M)));
	r->gp = SEQ(RES(NULL, po, SU(r->Sync_rcu, r->Sync_srcu)), OPT(po));
	r->strong_fence = U(r->mb, r->gp);

	r->nonrw_fence = U3(r->strong_fence, r->po_rel, r->acq_po);
	r->fence = U3(r->nonrw_fence, r->wmb, r->rmb);
	set_t barrier_events = SU(SU(SU(r->Barrier, r->Rmb), SU(r->Wmb, r->Mb)),
				  SU(SU(r->Sync_rcu, r->Sync_srcu),
				     SU(r->Before_atomic, r->After_atomic)));
	barrier_events = SU(SU(barrier_events, SU(r->Acquire, r->Release)),
			    SU(SU(r->Rcu_lock, r->Rcu_unlock),
			       SU(r->Srcu_lock, r->Srcu_unlock)));
	r->barrier = U3(fencerel(rc, po, barrier_events), RES(NULL, po, r->Release),
			RES(r->Acquire, po, NULL));
}

/*
 * cumul-fence* as the walks of three states (rel_plus_walks), state 0 at a
 * marked event:
 *   0 -> 0  [Marked] ; (A-cumul(strong-fence | po-rel) | wmb) ; [Marked]
 *   0 -> 1  [Marked] ; po ; [UL]
 *   1 -> 2  (po | rf) ; [LKR]
 *   2 -> 0  po ; [Marked]
 * 0 -> 1 -> 2 -> 0 is [Marked] ; po-unlock-lock-po ; [Marked], so a walk
 * from 0 to 0 is a path of cumul-fence: the same closure, with rules for
 * the edges of po-unlock-lock-po's three parts rather than for every
 * pair of them (on a 79-event random test with two locks: 15,802
 * definitions instead of 29,064).  Factoring A-cumul's rfe ; [Marked] out
 * the same way saves more definitions but makes Z3 slower there.
 */
static rel_t cumul_fence_star(struct rel_ctx *rc, const struct lkmm_rels *r,
			      rel_t rfe_marked_opt)
{
	rel_t edge[3 * 3] = {0};
	edge[0 * 3 + 0] = RES(r->Marked, U(SEQ(rfe_marked_opt,
					       U(r->strong_fence, r->po_rel)),
					   r->wmb), r->Marked);
	edge[0 * 3 + 1] = RES(r->Marked, r->po, r->UL);
	edge[1 * 3 + 2] = RES(NULL, U(r->po, r->rf), r->LKR);
	edge[2 * 3 + 0] = RES(NULL, r->po, r->Marked);
	return OPT(rel_plus_walks(rc, 3, edge, "cumul-fence*"));
}

/* Coherence, atomic, ppo, propagation, happens-before, and pb's head */
static void cat_hb_pb(struct rel_ctx *rc, struct lkmm_rels *r, struct lkmm_built *m)
{
	/* Sequential Consistency Per Variable */
	r->com = U3(r->rf, r->co, r->fr);
	m->acyclic[AX_COHERENCE] = U(r->po_loc, r->com);
	m->axiom[AX_COHERENCE] = rel_acyclic(rc, m->acyclic[AX_COHERENCE], "coherence");

	/* Atomic Read-Modify-Write */
	m->rel[LR_ATOMIC_VIOLATION] = I(r->rmw, SEQ(r->fre, r->coe));
	m->axiom[AX_ATOMIC] = rel_is_empty(rc, m->rel[LR_ATOMIC_VIOLATION]);

	/* Preserved Program Order */
	r->dep = U(r->addr, r->data);
	r->rwdep = RES(NULL, U(r->dep, r->ctrl), r->W);
	r->overwrite = U(r->co, r->fr);
	r->to_w = U3(r->rwdep, I(r->overwrite, r->int_),
		     SEQ(RES(NULL, r->addr, r->Plain), r->wmb));
	r->to_r = U(r->addr, SEQ(RES(NULL, r->dep, r->Marked), r->rfi));
	r->ppo = U3(r->to_r, r->to_w,
		    U(r->fence, I(r->po_unlock_lock_po, r->int_)));

	/* Propagation: ordering from release operations and strong fences */
	/* A-cumul(r) = (rfe ; [Marked])? ; r */
	rel_t rfe_marked_opt = OPT(RES(NULL, r->rfe, r->Marked));
	r->cumul_fence = RES(r->Marked,
		U3(SEQ(rfe_marked_opt, U(r->strong_fence, r->po_rel)), r->wmb,
		   r->po_unlock_lock_po),
		r->Marked);
	r->cumul_fence_star = cumul_fence_star(rc, r, rfe_marked_opt);
	r->prop = SEQ3(RES(r->Marked, OPT(I(r->overwrite, r->ext)), NULL),
		       RES(NULL, r->cumul_fence_star, r->Marked),
		       RES(NULL, OPT(r->rfe), r->Marked));

	/* Happens Before */
	r->hb = RES(r->Marked, U3(r->ppo, r->rfe,
				  I(D(r->prop, r->id), r->int_)), r->Marked);

	/* Propagation: each non-rf link needs a strong fence.
	 *   pb = prop ; strong-fence ; hb* ; [Marked]
	 * is kept as its head, pb = pb-head ; hb*, so that no closure of hb
	 * is ever built (see executes-before in cat_xb). */
	r->pb = RES(NULL, SEQ(r->prop, r->strong_fence), r->Marked);
}

/* The let rec rcu-order over the given parts: Horn variables over the
 * gp and rscs ends by default (wanted small, see lkmm.c's header
 * comment); with rcu_stages, that many Kleene stages from the empty
 * relation, each a function of the execution. */
static rel_t cat_rcu_order(struct encoding *enc, set_t ends,
			   struct rcu_order_parts *parts, int rcu_stages,
			   struct lkmm_built *m)
{
	struct rel_ctx *rc = &enc->rc;
	rel_t rcu_order = rel_new(rc);
	if (rcu_stages) {
		parts->rcu_link = rel_name(rc, parts->rcu_link, "rcu-link");
		for (int k = 0; k < rcu_stages; k++)
			rcu_order = rel_name(rc, rcu_order_body(rc, rcu_order, parts),
					     "rcu-order-stage");
		/* One more stage adds nothing iff the stages reached the
		 * least fixpoint. */
		rel_t next = rcu_order_body(rc, rcu_order, parts);
		m->rcu_unconverged = rel_not(rc, rel_is_empty(rc, D(next, rcu_order)));
		return rcu_order;
	}
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++)
			if (ends[a] && ends[b])
				REL_AT(rcu_order, enc->n, a, b) =
					rel_fresh_bool(rc, "rcu-order");
	rel_t body = rcu_order_body(rc, rcu_order, parts);
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++) {
			Z3_ast x = REL_AT(body, enc->n, a, b);
			Z3_ast v = REL_AT(rcu_order, enc->n, a, b);
			if (x && v)
				rel_horn(rc, x, v);
		}
	return rcu_order;
}

/* RCU: rcu-link, rcu-order, rcu-fence, and rb's head.  Every rcu-order
 * path contains a grace period: without one, rb and rcu-fence are empty
 * and nothing else needs building. */
static void cat_rcu(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m,
		    int rcu_stages)
{
	struct rel_ctx *rc = &enc->rc;
	r->rb = rel_new(rc);
	r->rcu_fence = rel_new(rc);
	int has_gp = 0;
	for (int e = 0; e < enc->n; e++)
		has_gp |= r->Sync_rcu[e] != NULL || r->Sync_srcu[e] != NULL;
	if (!has_gp)
		return;
	r->rcu_gp = ID(r->Sync_rcu);
	r->srcu_gp = ID(r->Sync_srcu);
	r->rcu_rscsi = INV(r->rcu_rscs);
	r->srcu_rscsi = INV(r->srcu_rscs);

	/* rcu-link = po? ; hb* ; pb* ; prop ; po.  Since pb ; hb is in
	 * pb, hb* ; pb* = (hb | pb)* = (hb | pb-head)*.  rcu-link is
	 * only ever entered from a grace period or a critical-section
	 * boundary, so only those rows are built, and po? ; (hb | pb)*
	 * is one closure over them (rather than (hb | pb)* over every
	 * event po-after one: a third of the variables). */
	set_t ends = SU(SU(r->Sync_rcu, r->Sync_srcu),
			SU(SU(r->Rcu_lock, r->Rcu_unlock),
			   SU(r->Srcu_lock, r->Srcu_unlock)));
	rel_t po_opt_from_ends = RES(ends, OPT(r->po), NULL);
	rel_t po_hb_pb_star = rel_seq_star(rc, po_opt_from_ends, U(r->hb, r->pb),
					   "(hb|pb)*");
	r->rcu_link = SEQ(po_hb_pb_star, SEQ(r->prop, r->po));

	struct rcu_order_parts parts = {r->rcu_gp, r->srcu_gp, r->rcu_rscsi,
					r->srcu_rscsi, r->rcu_link, r->loc};
	r->rcu_order = cat_rcu_order(enc, ends, &parts, rcu_stages, m);
	r->rcu_fence = SEQ3(r->po, r->rcu_order, OPT(r->po));
	r->fence = U(r->fence, r->rcu_fence);
	r->strong_fence = U(r->strong_fence, r->rcu_fence);

	/* rb = prop ; rcu-fence ; hb* ; pb* ; [Marked], kept as its head:
	 * rb = rb-head ; (hb | pb-head)* */
	r->rb = RES(NULL, SEQ(r->prop, r->rcu_fence), r->Marked);
}

/*
 * The happens-before, propagation and rcu axioms, as one: the cat's
 * own comment notes they are equivalent to "acyclic xb" with
 * xb = hb | pb | rb (pb ; hb is in pb, rb ; (hb | pb | rb) is in rb,
 * so any xb cycle folds into an hb cycle, a pb cycle or an rb
 * self-loop).  With the heads above, a cycle of xb is exactly a cycle
 * of hb | pb-head | rb-head, which needs integer ranks only and no
 * closure at all.  With separate, the three axioms one by one.
 */
static void cat_xb(struct rel_ctx *rc, struct lkmm_rels *r, struct lkmm_built *m,
		   int separate)
{
	r->xb = U3(r->hb, r->pb, r->rb);
	if (!separate) {
		m->acyclic[AX_EXECUTES_BEFORE] = r->xb;
		m->axiom[AX_EXECUTES_BEFORE] = rel_acyclic(rc, r->xb, "xb");
		return;
	}
	/* acyclic hb as happens-before */
	m->axiom[AX_HAPPENS_BEFORE] = rel_acyclic(rc, r->hb, "hb");
	/* acyclic pb as propagation: no cycle of pb-head | hb through
	 * a pb-head edge (pb = pb-head ; hb*) */
	m->axiom[AX_PROPAGATION] = rel_acyclic_through(rc, r->pb, r->hb, "pb");
	/* irreflexive rb as rcu: rb ; rb is in rb, so irreflexive rb is
	 * acyclic rb: no cycle of rb-head | hb | pb-head through an
	 * rb-head edge */
	m->axiom[AX_RCU] = rel_acyclic_through(rc, r->rb, U(r->hb, r->pb), "rb");
}

/* Executes-before, visibility and the bounds of plain accesses */
static void cat_plain_vis(struct rel_ctx *rc, struct lkmm_rels *r)
{
	r->w_pre_bounded = RES(r->Marked, OPT(U(r->addr, r->fence)), NULL);
	r->r_pre_bounded = RES(r->Marked, OPT(U3(r->addr, r->nonrw_fence,
		RES(r->R4rmb, fencerel(rc, r->po, r->Rmb),
		    SD(set_all(rc), r->Noreturn)))), NULL);
	r->w_post_bounded = RES(NULL, OPT(r->fence), r->Marked);
	r->r_post_bounded = RES(NULL, OPT(U(r->nonrw_fence,
		RES(SD(set_all(rc), r->Noreturn), fencerel(rc, r->po, r->Rmb),
		    r->R4rmb))), r->Marked);

	r->xbstar = xbstar_to_races(rc, r->xb, r->pre_race, r->loc,
				    U(r->w_pre_bounded, r->r_pre_bounded));
	r->vis = SEQ3(r->cumul_fence_star, RES(NULL, OPT(r->rfe), r->Marked),
		      U(SEQ(RES(NULL, r->strong_fence, r->Marked), r->xbstar),
			I(r->xbstar, r->int_)));

	/* Visibility and executes-before for plain accesses */
	r->ww_vis = U3(r->fence, SEQ3(r->strong_fence, r->xbstar, r->w_pre_bounded),
		       SEQ3(r->w_post_bounded, r->vis, r->w_pre_bounded));
	r->wr_vis = U3(r->fence, SEQ3(r->strong_fence, r->xbstar, r->r_pre_bounded),
		       SEQ3(r->w_post_bounded, r->vis, r->r_pre_bounded));
	r->rw_xbstar = U(r->fence, SEQ3(r->r_post_bounded, r->xbstar,
					r->w_pre_bounded));
}

/* Plain accesses and data races: mixed-accesses, plain-coherence and
 * data-race.  Without plain accesses pre-race is empty: plain-coherence
 * holds and no race is possible. */
static void cat_plain(struct rel_ctx *rc, struct lkmm_rels *r, struct lkmm_built *m)
{
	r->mixed_accesses =
		U(RES(SI(r->Plain, r->W), D(r->po_loc, r->barrier), r->Marked),
		  RES(r->Marked, D(r->po_loc, r->barrier), SI(r->Plain, r->W)));
	m->flag[FL_MIXED_ACCESSES] = NONEMPTY(r->mixed_accesses);

	if (rel_is_true(rc, set_is_empty(rc, r->Plain))) {
		m->axiom[AX_PLAIN_COHERENCE] = rc->t;
		m->flag[FL_DATA_RACE] = NULL;
		return;
	}
	/* Potential races */
	r->pre_race = I(r->ext, U(CROSS(r->Plain, r->M),
				  CROSS(SD(r->M, r->IW), r->Plain)));
	cat_plain_vis(rc, r);

	/* Coherence requirements for plain accesses */
	r->wr_incoh = I(I(r->pre_race, r->rf), INV(r->rw_xbstar));
	r->rw_incoh = I(I(r->pre_race, r->fr), INV(r->wr_vis));
	r->ww_incoh = I(I(r->pre_race, r->co), INV(r->ww_vis));
	m->rel[LR_PLAIN_INCOH] = U3(r->wr_incoh, r->rw_incoh, r->ww_incoh);
	m->axiom[AX_PLAIN_COHERENCE] = rel_is_empty(rc, m->rel[LR_PLAIN_INCOH]);

	/* Actual races */
	r->ww_nonrace = I(I(r->ww_vis, U(CROSS(r->Marked, r->W), r->rw_xbstar)),
			  U(CROSS(r->W, r->Marked), r->wr_vis));
	r->ww_race = D(I(r->pre_race, r->co), r->ww_nonrace);
	r->wr_race = D(D(I(r->pre_race, SEQ(OPT(r->co), r->rf)), r->wr_vis),
		       INV(r->rw_xbstar));
	r->rw_race = D(I(r->pre_race, r->fr), r->rw_xbstar);
	m->rel[LR_RACE] = U3(r->ww_race, r->wr_race, r->rw_race);
	m->flag[FL_DATA_RACE] = NONEMPTY(m->rel[LR_RACE]);
}

void lkmm_cat(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m,
	      int separate, int rcu_stages)
{
	struct rel_ctx *rc = &enc->rc;
	cat_fences(rc, r);
	cat_hb_pb(rc, r, m);
	cat_rcu(enc, r, m, rcu_stages);
	cat_xb(rc, r, m, separate);
	cat_plain(rc, r, m);
}
