/*
 * symmetry.c - symmetry breaking for interchangeable threads (see
 * symmetry.h).
 *
 * Why it is sound: the LKMM sees threads only through po, int and ext,
 * which a renaming of threads preserves, so renaming the threads of an
 * execution gives an execution of the same program when the renamed
 * threads run the same code from the same initial registers; it is
 * consistent iff the original is, it ends with the same values in every
 * location and raises the same flags.  The threads' writes to location l
 * made unconditionally at the same place in their code are all executed,
 * and coherence orders them totally, so some renaming puts them in thread
 * order.  Registers of renamed threads would be permuted, hence threads
 * with observed registers are never renamed; neither are threads with SRCU
 * primitives, whose results are constants unique to each call site.
 *
 * symmetry_fix_locks narrows the encoding itself, before the model is
 * built, to the executions symmetry_break keeps, where that order decides
 * a lock's rf: why that is exact is said at fix_class_locks.  It does not
 * break symmetries any other way.
 */
#include "solver/symmetry.h"

#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "common/xalloc.h"
#include "solver/scalarset.h"

/* Mark the threads whose registers c observes. */
static void pin_cond(const struct ir_cond *c, char *pinned)
{
	if (!c)
		return;
	if (c->kind == IR_C_ATOM) {
		if (c->lhs.thread >= 0)
			pinned[c->lhs.thread] = 1;
		if (c->rhs_is_obs && c->rhs_obs.thread >= 0)
			pinned[c->rhs_obs.thread] = 1;
	}
	pin_cond(c->a, pinned);
	pin_cond(c->b, pinned);
}

/* The event of thread t at program-order position po, or -1. */
static int event_at(const struct encoding *enc, int t, int po)
{
	for (int e = 0; e < enc->n; e++)
		if (enc->ev[e].thread == t && enc->ev[e].po == po)
			return e;
	return -1;
}

/* A write to a known location, with a coherence stamp. */
static int stamped_write(const struct encoding *enc, int e)
{
	const struct event *x = &enc->ev[e];
	return (x->cls & EVC_BIT(EVC_W)) && x->loc >= 0 && enc->ts[e];
}

static int unconditional(const struct encoding *enc, int e)
{
	return Z3_get_bool_value(enc->z, enc->ev[e].guard) == Z3_L_TRUE;
}

/* The write of thread t that orders its class: the first unconditional
 * one, else the last one (after a spin loop, it is made on every path
 * that leaves the loop), or -1. */
static int class_write(const struct encoding *enc, int t)
{
	int last = -1;
	for (int e = 0; e < enc->n; e++) {
		if (enc->ev[e].thread != t || !stamped_write(enc, e))
			continue;
		if (unconditional(enc, e))
			return e;
		if (last < 0 || enc->ev[e].po > enc->ev[last].po)
			last = e;
	}
	return last;
}

/* Order the class cls[0..k) (thread ids, ascending) by the coherence
 * order of the writes they make at the same place of their code, when
 * they make them: any execution can be renamed into one that obeys this
 * (among the threads that made the write, give the lowest number to the
 * first in coherence order, and so on).  Returns k, or 0 when there is
 * no such write. */
static int break_class(const struct encoding *enc, Z3_solver s, const int *cls, int k)
{
	Z3_context z = enc->z;
	int first = class_write(enc, cls[0]);
	if (first < 0)
		return 0;
	int *w = xmalloc(sizeof(int) * (size_t)k);
	int ok = 1;
	for (int i = 0; i < k && ok; i++) {
		w[i] = event_at(enc, cls[i], enc->ev[first].po);
		ok = w[i] >= 0 && stamped_write(enc, w[i]) &&
		     enc->ev[w[i]].loc == enc->ev[first].loc;
	}
	/* Pairwise, so that it holds between every two that wrote. */
	for (int i = 0; ok && i < k; i++)
		for (int j = i + 1; j < k; j++) {
			const struct event *a = &enc->ev[w[i]], *b = &enc->ev[w[j]];
			Z3_ast both = Z3_mk_and(z, 2, (Z3_ast[]){a->guard, b->guard});
			Z3_solver_assert(z, s, Z3_mk_implies(z, both,
				Z3_mk_lt(z, enc->ts[w[i]], enc->ts[w[j]])));
		}
	free(w);
	return ok ? k : 0;
}

/* The class of thread t (rep from symmetry_classes) into cls, ascending,
 * when t is its lowest thread; returns its size, 0 when t is not. */
static int class_members(const int *rep, int n, int t, int *cls)
{
	int k = 0;
	for (int u = t; u < n && rep[t] == t; u++)
		if (rep[u] == t)
			cls[k++] = u;
	return k;
}

/* A thread's lock section of the simple shape: the write that orders its
 * class is an unconditional LKW, paired with an unconditional LKR and the
 * unconditional UL that surely ends its critical section. */
struct lock_section {
	int lkr, lkw, ul; /* its events */
};

static int has_cls(const struct encoding *enc, int e, enum ev_class c)
{
	return (enc->ev[e].cls & EVC_BIT(c)) != 0;
}

static int lock_section(const struct encoding *enc, int t, struct lock_section *s)
{
	int n = enc->n;
	s->lkw = class_write(enc, t);
	if (s->lkw < 0 || !has_cls(enc, s->lkw, EVC_LKW) || !unconditional(enc, s->lkw))
		return 0;
	s->lkr = enc->ev[s->lkw].rmw_peer;
	if (s->lkr < 0 || !has_cls(enc, s->lkr, EVC_LKR) || !unconditional(enc, s->lkr))
		return 0;
	s->ul = -1;
	for (int u = 0; u < n; u++)
		if (rel_is_true(&enc->rc, REL_AT(enc->critical, n, s->lkw, u)))
			s->ul = u;
	return s->ul >= 0 && unconditional(enc, s->ul);
}

/* The initial write of the lock of s[0], when the sections s[0..k) are
 * the only writes that may touch that lock besides it; else -1. */
static int sole_lock_writers(const struct encoding *enc, const struct lock_section *s, int k)
{
	int n = enc->n, iw = -1, lock = s[0].lkw;
	for (int e = 0; e < n; e++) {
		if (!enc->ts[e] || !REL_AT(enc->loc, n, e, lock))
			continue;
		int known = has_cls(enc, e, EVC_IW) && enc->ev[e].loc == enc->ev[lock].loc && iw < 0;
		for (int i = 0; i < k && !known; i++)
			known = e == s[i].lkw || e == s[i].ul;
		if (!known)
			return -1;
		if (has_cls(enc, e, EVC_IW))
			iw = e;
	}
	return iw;
}

/* Fix the rf of the LKRs of class cls[0..k) (see symmetry_fix_locks).
 * Returns 1 if it did.  Why it is exact: the class's ordering writes are
 * its LKWs w[i], all executed, so some renaming of the class puts them in
 * thread order (the argument of symmetry_break, which asserts that same
 * order of the same writes, so the two never disagree).  In such an
 * execution each UL u[i] is co-just-after w[i] (lock.cat's co of
 * critical, locks.c), hence co-before w[i+1], and no other write touches
 * the lock (sole_lock_writers): its coherence is IW, w[0], u[0], w[1],
 * u[1], ...  An LKR reads from the write co-just-before its LKW, so the
 * LKR of thread i reads from u[i-1] (the IW for i = 0) and from no other
 * write.  The facts on the rf variables keep the encoder's constraints
 * (one write read, its value, rts) in step with the relation entries. */
static int fix_class_locks(struct encoding *enc, const int *cls, int k)
{
	Z3_context z = enc->z;
	int n = enc->n, iw = -1, ok = 1;
	struct lock_section *s = xmalloc(sizeof *s * (size_t)k);
	for (int i = 0; i < k && ok; i++)
		ok = lock_section(enc, cls[i], &s[i]) &&
		     enc->ev[s[i].lkw].loc == enc->ev[s[0].lkw].loc &&
		     enc->ev[s[i].lkw].loc >= 0;
	if (ok)
		iw = sole_lock_writers(enc, s, k);
	ok = ok && iw >= 0;
	for (int i = 0; i < k && ok; i++)
		ok = REL_AT(enc->rf_var, n, i ? s[i - 1].ul : iw, s[i].lkr) != NULL;
	for (int i = 0; i < k && ok; i++) {
		int r = s[i].lkr, src = i ? s[i - 1].ul : iw;
		for (int w = 0; w < n; w++) {
			Z3_ast v = REL_AT(enc->rf_var, n, w, r);
			if (!v)
				continue;
			enc_fact(enc, w == src ? v : Z3_mk_not(z, v));
			REL_AT(enc->rf, n, w, r) = w == src ? enc->rc.t : NULL;
		}
	}
	free(s);
	return ok;
}

int symmetry_fix_locks(struct encoding *enc)
{
	int n = enc->prog->nthreads, fixed = 0;
	int *rep = symmetry_classes(enc);
	int *cls = xmalloc(sizeof(int) * ((size_t)n + 1));
	for (int t = 0; t < n; t++) {
		int k = class_members(rep, n, t, cls);
		if (k > 1 && fix_class_locks(enc, cls, k))
			fixed += k;
	}
	free(rep);
	free(cls);
	return fixed;
}

int *symmetry_classes(const struct encoding *enc)
{
	const struct ir_program *p = enc->prog;
	int n = p->nthreads;
	char *pinned = xcalloc((size_t)n + 1, 1);
	int *rep = xmalloc(sizeof(int) * ((size_t)n + 1));
	pin_cond(p->cond, pinned);
	pin_cond(p->filter, pinned);
	for (int i = 0; i < p->nobserved; i++)
		if (p->observed[i].thread >= 0)
			pinned[p->observed[i].thread] = 1;
	for (int t = 0; t < n; t++)
		rep[t] = t;
	for (int t = 0; t < n; t++) {
		if (pinned[t] || rep[t] != t)
			continue;
		for (int u = t + 1; u < n; u++)
			if (!pinned[u] && rep[u] == u &&
			    scalarset_same_code(&p->threads[t], &p->threads[u]))
				rep[u] = t;
	}
	scalarset_join(p, pinned, enc->coherent, rep);
	free(pinned);
	return rep;
}

int symmetry_break(const struct encoding *enc, Z3_solver s)
{
	int n = enc->prog->nthreads, ordered = 0;
	int *rep = symmetry_classes(enc);
	int *cls = xmalloc(sizeof(int) * ((size_t)n + 1));
	for (int t = 0; t < n; t++) {
		int k = class_members(rep, n, t, cls);
		if (k > 1)
			ordered += break_class(enc, s, cls, k);
	}
	free(rep);
	free(cls);
	return ordered;
}
