/*
 * lkmm_bell.c - linux-kernel.bell of Linux 6.1 in lkmmc's relation algebra:
 * the event sets (herd7's enums and instructions), rmw, the matching of
 * RCU and SRCU read-side critical sections, Marked and Plain, and the
 * bell's four flags.
 *
 * The bell's let rec matchings rcu-rscs and srcu-rscs are computed here in
 * C by nesting (match_nesting), which gives the same least fixpoint.  The
 * lock events' own rules are lock.cat's (lkmm_lock.c); the axioms are
 * linux-kernel.cat's (lkmm_cat.c).
 */
#include <string.h>

#include "common/arena.h"
#include "models/lkmm_parts.h"

#define CLS(c) (enc->cls[c])

rel_t lkmm_different_values(struct encoding *enc, rel_t r)
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

/* The bell's sets, from the encoder's event classes.  herd7's R and W do
 * not hold the lock events, which lock.cat adds to them later. */
static void bell_sets(struct encoding *enc, struct lkmm_rels *r)
{
	struct rel_ctx *rc = &enc->rc;
	r->LKR = CLS(EVC_LKR), r->LKW = CLS(EVC_LKW), r->UL = CLS(EVC_UL);
	r->LF = CLS(EVC_LF), r->RL = CLS(EVC_RL), r->RU = CLS(EVC_RU);
	r->lock_events = SU(SU(SU(r->LKR, r->LKW), SU(r->UL, r->LF)),
			    SU(r->RL, r->RU));
	r->R = SD(CLS(EVC_R), r->lock_events);
	r->W = SD(CLS(EVC_W), r->lock_events);
	r->M = SU(r->R, r->W);
	r->IW = CLS(EVC_IW);
	r->Once = CLS(EVC_ONCE), r->Acquire = CLS(EVC_ACQUIRE);
	r->Release = CLS(EVC_RELEASE), r->Noreturn = CLS(EVC_NORETURN);
	r->RMW = CLS(EVC_RMW);

	/* Barriers */
	r->Wmb = CLS(EVC_WMB), r->Rmb = CLS(EVC_RMB), r->Mb = CLS(EVC_MB);
	r->Barrier = CLS(EVC_BARRIER);
	r->Rcu_lock = CLS(EVC_RCU_LOCK), r->Rcu_unlock = CLS(EVC_RCU_UNLOCK);
	r->Sync_rcu = CLS(EVC_SYNC_RCU);
	r->Before_atomic = CLS(EVC_BEFORE_ATOMIC);
	r->After_atomic = CLS(EVC_AFTER_ATOMIC);
	r->After_spinlock = CLS(EVC_AFTER_SPINLOCK);
	r->After_unlock_lock = CLS(EVC_AFTER_UNLOCK_LOCK);

	/* SRCU */
	r->Srcu_lock = CLS(EVC_SRCU_LOCK), r->Srcu_unlock = CLS(EVC_SRCU_UNLOCK);
	r->Sync_srcu = CLS(EVC_SYNC_SRCU);

	/* The rmw of herd7's RMW instructions: the encoder's rmw less
	 * lk-rmw, which lock.cat adds back. */
	r->lk_rmw = RES(r->LKR, enc->rmw, r->LKW);
	r->rmw = D(enc->rmw, r->lk_rmw);
}

/* A matching of critical sections (rcu-rscs or srcu-rscs) into *out, and
 * its flag into *unbalanced: a lock or an unlock left unmatched. */
static int rscs(struct encoding *enc, enum ev_class lock, enum ev_class unlock,
		int by_loc, rel_t *out, Z3_ast *unbalanced, struct diag *d)
{
	struct rel_ctx *rc = &enc->rc;
	*out = rel_new(rc);
	if (!match_nesting(enc, lock, unlock, by_loc, *out, d))
		return 0;
	*unbalanced = rel_or2(rc, SNONEMPTY(SD(CLS(lock), DOM(*out))),
			      SNONEMPTY(SD(CLS(unlock), RNG(*out))));
	return 1;
}

int lkmm_bell(struct encoding *enc, struct lkmm_rels *r, struct lkmm_built *m,
	      struct diag *d)
{
	struct rel_ctx *rc = &enc->rc;
	bell_sets(enc, r);

	/* rcu-rscs: matching pairs of nested Rcu-lock and Rcu-unlock */
	if (!rscs(enc, EVC_RCU_LOCK, EVC_RCU_UNLOCK, 0, &r->rcu_rscs,
		  &m->flag[FL_UNBALANCED_RCU_LOCKING], d))
		return 0;
	/* srcu-rscs: the same per srcu_struct location */
	if (!rscs(enc, EVC_SRCU_LOCK, EVC_SRCU_UNLOCK, 1, &r->srcu_rscs,
		  &m->flag[FL_UNBALANCED_SRCU_LOCKING], d))
		return 0;

	/* invalid-sleep: synchronize_srcu() inside an RCU critical section */
	m->flag[FL_INVALID_SLEEP] = NONEMPTY(I(r->rcu_rscs,
		SEQ(RES(NULL, r->po, r->Sync_srcu), r->po)));

	/* srcu-bad-nesting: SRCU dynamic match */
	m->flag[FL_SRCU_BAD_NESTING] =
		NONEMPTY(lkmm_different_values(enc, r->srcu_rscs));

	/* Marked and plain memory accesses */
	set_t not_M = SD(set_all(rc), r->M);
	r->Marked = SU(SU(SU(not_M, r->IW), SU(r->Once, r->Release)),
		       SU(SU(r->Acquire, SU(DOM(r->rmw), RNG(r->rmw))),
			  SU(r->lock_events, r->LF)));
	r->Plain = SD(r->M, r->Marked);
	return 1;
}
