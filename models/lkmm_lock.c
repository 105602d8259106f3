/*
 * lkmm_lock.c - lock.cat of Linux 6.1 (which linux-kernel.cat includes
 * first) in lkmmc's relation algebra: the lock events joined to the bell's
 * sets, the lock flags, the lock-nest and unmatched-locks axioms, and the
 * final rf, co and fr with their internal and external parts.
 *
 * What herd7 computes by enumeration and we do not compute here: lock.cat
 * builds rf and co for lock events by generating candidates (cross,
 * cos-opt.cat).  The encoder produces exactly those executions
 * (encoder/locks.c); it also builds critical there, and lk-rmw with the
 * events (symex pairs each LKR with its LKW), so this part only takes rf,
 * co, lk-rmw and critical from it.
 */
#include "models/lkmm_parts.h"

void lkmm_lock(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m)
{
	struct rel_ctx *rc = &enc->rc;

	/* LF = LF | RL: RL is a kind of LF, a read with no ordering */
	r->LF = SU(r->LF, r->RL);
	r->ALL_LOCKS = SU(SU(SU(r->LKR, r->LKW), SU(r->UL, r->LF)), r->RU);
	m->flag[FL_MIXED_LOCK_ACCESSES] =
		NONEMPTY(RES(SD(r->M, r->IW), r->loc, r->ALL_LOCKS));

	/* lk-rmw is built with the events (symex pairs LKR with its LKW). */
	r->rmw = U(r->rmw, r->lk_rmw);
	m->flag[FL_UNPAIRED_LKW] = SNONEMPTY(SD(r->LKW, RNG(r->lk_rmw)));
	m->flag[FL_UNPAIRED_LKR] = SNONEMPTY(SD(r->LKR, DOM(r->lk_rmw)));

	/* lock-nest: an LKR nested in a critical section of its lock */
	m->axiom[AX_LOCK_NEST] = rel_is_empty(rc,
		D(RES(r->LKW, r->po_loc, r->LKR),
		  SEQ(RES(NULL, r->po_loc, r->UL), r->po_loc)));

	/* lock-final: the final value of a spinlock should not be tested */
	r->FW = set_new(rc);
	for (int i = 0; i < enc->prog->nobserved; i++)
		if (enc->prog->observed[i].thread < 0)
			r->FW[enc->prog->observed[i].index] = rc->t; /* its IW stands for it */
	m->flag[FL_LOCK_FINAL] = NONEMPTY(RES(r->FW, r->loc, r->ALL_LOCKS));

	r->R = SU(SU(SU(r->R, r->LKR), r->LF), r->RU);
	r->W = SU(r->W, r->LKW);
	r->Release = SU(r->Release, r->UL);
	r->Acquire = SU(r->Acquire, r->LKR);

	r->critical = enc->critical;
	m->flag[FL_UNMATCHED_UNLOCK] = SNONEMPTY(SD(r->UL, RNG(r->critical)));
	r->UNMATCHED_LKW = SD(r->LKW, DOM(r->critical));
	m->axiom[AX_UNMATCHED_LOCKS] = rel_is_empty(rc,
		D(RES(r->UNMATCHED_LKW, r->loc, r->UNMATCHED_LKW), r->id));

	/* rf-lf, rf-ru, co0, cos-opt: the encoder's rf and co obey them. */
	r->W = SU(r->W, r->UL);
	r->M = SU(r->R, r->W);
	r->co = enc->co;
	r->coe = I(r->co, r->ext), r->coi = I(r->co, r->int_);
	r->rf = enc->rf;
	r->rfe = I(r->rf, r->ext), r->rfi = I(r->rf, r->int_);
	r->fr = enc->fr;
	r->fre = I(r->fr, r->ext);
}
