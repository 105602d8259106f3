/*
 * locks.c - the candidate executions of spinlocks: lock.cat's rules for rf
 * and co of lock events, which herd7 gets by enumerating candidates.
 *
 * lock.cat (Linux 6.1, tools/memory-model/lock.cat) defines, and this file
 * encodes over the timestamps of execution.c:
 *   critical  an LKW and the po-loc-next UL of its lock with no LKW or UL
 *             of that lock between them;
 *   co        an UL is co-just-after the LKW of its critical section (co of
 *             critical), an unmatched LKW is co-after every other LKW of its
 *             lock (co0 and UNMATCHED-LKW), and an LKR reads from the write
 *             co-just-before its LKW (rf of [IW | UL] ; singlestep(co) ;
 *             lk-rmw^-1);
 *   rf        an LKR or RU reads from the initial write or an UL, an LF or
 *             RL from an LKW (rf-lf, rf-ru; locks_may_read_from).
 * The rest of lock.cat (its flags, lock-nest, unmatched-locks, and the
 * lock events joined to R, W, Acquire, Release) is in models/lkmm_lock.c,
 * or in the cat a model reads.  It lives here, not in models/, because it
 * shapes the candidate executions every model sees (a cat model included),
 * and the encoder must not depend on models/, which sits above it.
 */
#include "encoder/internal.h"

static Z3_ast lt(struct encoding *enc, Z3_ast a, Z3_ast b)
{
	return Z3_mk_lt(enc->z, a, b);
}

int locks_may_read_from(const struct encoding *enc, int w, int r)
{
	const struct event *x = &enc->ev[w], *y = &enc->ev[r];
	if (ev_has(y, EVC_LKR) || ev_has(y, EVC_RU))
		return ev_has(x, EVC_IW) || ev_has(x, EVC_UL);
	if (ev_has(y, EVC_LF) || ev_has(y, EVC_RL))
		return ev_has(x, EVC_LKW);
	return 1;
}

/* ts(a) < ts(w) < ts(b) is impossible for every executed write w to the
 * same location other than a and b ("b is co-just-after a"), under cond. */
static void nothing_between(struct encoding *enc, Z3_ast cond, Z3_ast ta,
			    Z3_ast tb, int loc_ev, int a, int b)
{
	Z3_context z = enc->z;
	for (int w = 0; w < enc->n; w++) {
		if (w == a || w == b || !enc->ts[w] || ev_has(&enc->ev[w], EVC_IW))
			continue;
		Z3_ast sa = enc_same_addr(enc, w, loc_ev);
		if (!sa)
			continue;
		Z3_ast pre = rel_and2(&enc->rc, rel_and2(&enc->rc, cond, enc->guard[w]), sa);
		Z3_ast in[2] = {lt(enc, ta, enc->ts[w]), lt(enc, enc->ts[w], tb)};
		enc_fact(enc, Z3_mk_implies(z, pre, Z3_mk_not(z, Z3_mk_and(z, 2, in))));
	}
}

void locks_build(struct encoding *enc)
{
	Z3_context z = enc->z;
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	enc->critical = rel_new(rc);
	/* critical = ([LKW]; po-loc; [UL]) \ (po-loc; [LKW | UL]; po-loc) */
	for (int k = 0; k < n; k++) {
		if (!ev_has(&enc->ev[k], EVC_LKW))
			continue;
		for (int u = k + 1; u < n; u++) {
			if (!ev_has(&enc->ev[u], EVC_UL) || enc->ev[u].thread != enc->ev[k].thread)
				continue;
			Z3_ast c = REL_AT(enc->loc, n, k, u);
			if (!c)
				continue;
			for (int e = k + 1; e < u && c; e++) {
				if (!ev_has(&enc->ev[e], EVC_LKW) && !ev_has(&enc->ev[e], EVC_UL))
					continue;
				Z3_ast mid = rel_and2(rc, REL_AT(enc->loc, n, k, e),
						      REL_AT(enc->loc, n, e, u));
				if (rel_is_true(rc, mid))
					c = NULL;
				else if (mid)
					c = rel_and2(rc, c, Z3_mk_not(z, mid));
			}
			REL_AT(enc->critical, n, k, u) = c;
		}
	}
	for (int k = 0; k < n; k++) {
		const struct event *x = &enc->ev[k];
		if (ev_has(x, EVC_LKR) && x->rmw_peer >= 0) {
			/* An LKR reads from the write co-just-before its LKW. */
			int w = x->rmw_peer;
			nothing_between(enc, x->guard, enc->rts[k], enc->ts[w], k, -1, w);
			enc_fact(enc, Z3_mk_implies(z, x->guard, lt(enc, enc->rts[k], enc->ts[w])));
		}
		if (!ev_has(x, EVC_LKW))
			continue;
		Z3_ast matched = NULL;
		for (int u = 0; u < n; u++) {
			Z3_ast c = REL_AT(enc->critical, n, k, u);
			if (!c)
				continue;
			matched = rel_or2(rc, matched, c);
			/* An UL sits co-just-after the LKW of its critical section. */
			enc_fact(enc, Z3_mk_implies(z, c, lt(enc, enc->ts[k], enc->ts[u])));
			nothing_between(enc, c, enc->ts[k], enc->ts[u], k, k, u);
		}
		/* An unmatched LKW is co-after every other LKW of its lock. */
		Z3_ast unmatched = rel_and2(rc, x->guard, rel_not(rc, matched));
		for (int o = 0; o < n; o++) {
			if (o == k || !ev_has(&enc->ev[o], EVC_LKW))
				continue;
			Z3_ast l = REL_AT(enc->loc, n, o, k);
			if (l)
				enc_fact(enc, Z3_mk_implies(z, rel_and2(rc, unmatched, l),
							lt(enc, enc->ts[o], enc->ts[k])));
		}
	}
}

