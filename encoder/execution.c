/*
 * execution.c - the candidate-execution space of a program.
 *
 * Creates the initial writes, runs every thread (symex.c), then builds the
 * static relations (po, int/ext, loc, rmw, addr/data/ctrl) and the dynamic
 * choices of an execution:
 *   rf  one Boolean per (write, read) pair that may touch the same location;
 *       an executed read reads from exactly one write, with its value;
 *   co  an integer timestamp per write, distinct among writes to one
 *       location, initial write first (timestamp 0);
 *   fr  derived: a read is fr-before every write co-after its source.
 * Spinlocks follow lock.cat's rules for rf and co (locks.c).  Final values
 * are those of the co-last write.  This file knows no axioms; models/ adds them.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "encoder/internal.h"
#include "common/arena.h"
#include "common/xalloc.h"
#include "encoder/values.h"
#include "encoder/z3util.h"

/* The order the static relations rely on (po is index order within a
 * thread): the initial writes, then each thread's events together, threads
 * in order, each in program order. */
static int events_ordered(const struct encoding *enc)
{
	for (int e = 1; e < enc->n; e++) {
		const struct event *a = &enc->ev[e - 1], *b = &enc->ev[e];
		if (b->thread < a->thread ||
		    (b->thread == a->thread && b->thread >= 0 && b->po <= a->po))
			return 0;
	}
	return 1;
}

void enc_fact(struct encoding *enc, Z3_ast f)
{
	Z3_ast_vector_push(enc->z, enc->facts, f);
}

/* Whether two events may touch the same location, and the formula for it
 * (without guards).  NULL when they never do. */
Z3_ast enc_same_addr(struct encoding *enc, int a, int b)
{
	const struct event *x = &enc->ev[a], *y = &enc->ev[b];
	if (!x->addr || !y->addr)
		return NULL;
	if (x->loc >= 0 && y->loc >= 0)
		return x->loc == y->loc ? enc->rc.t : NULL;
	return Z3_mk_eq(enc->z, x->addr, y->addr);
}

/* enc_same_addr for rel_keyed: co, fr and rf entries each hold it. */
static Z3_ast same_place(void *ctx, int a, int b)
{
	return enc_same_addr(ctx, a, b);
}

static Z3_ast and3(struct encoding *enc, Z3_ast a, Z3_ast b, Z3_ast c)
{
	return rel_and2(&enc->rc, rel_and2(&enc->rc, a, b), c);
}

static void add_initial_writes(struct encoding *enc)
{
	const struct ir_program *p = enc->prog;
	enc->ev = arena_alloc(enc->arena, sizeof *enc->ev * (size_t)(p->nlocs ? p->nlocs : 1));
	for (int i = 0; i < p->nlocs; i++) {
		struct event *ev = &enc->ev[enc->n++];
		memset(ev, 0, sizeof *ev);
		ev->thread = -1;
		ev->po = -1;
		ev->cls = EVC_BIT(EVC_W) | EVC_BIT(EVC_IW);
		ev->guard = enc->rc.t;
		ev->loc = i;
		ev->addr = z3u_int(enc->z, enc_loc_address(i));
		const struct ir_value *v = &p->locs[i].init;
		ev->val = z3u_int(enc->z, v->kind == IR_VAL_LOC ? enc_loc_address(v->loc) : v->num);
		ev->rmw_peer = -1;
	}
}

static void build_static(struct encoding *enc)
{
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	for (int c = 0; c < EVC_COUNT; c++) {
		enc->cls[c] = set_new(rc);
		for (int e = 0; e < n; e++)
			if (ev_has(&enc->ev[e], (enum ev_class)c))
				enc->cls[c][e] = enc->guard[e];
	}
	enc->po = rel_new(rc);
	enc->int_ = rel_new(rc);
	enc->ext = rel_new(rc);
	enc->loc = rel_new(rc);
	enc->rmw = rel_new(rc);
	enc->addr = rel_new(rc);
	enc->data = rel_new(rc);
	enc->ctrl = rel_new(rc);
	for (int a = 0; a < n; a++) {
		const struct event *x = &enc->ev[a];
		for (int b = 0; b < n; b++) {
			const struct event *y = &enc->ev[b];
			Z3_ast gg = rel_and2(rc, x->guard, y->guard);
			if (x->thread >= 0 && x->thread == y->thread) {
				REL_AT(enc->int_, n, a, b) = gg;
				if (a < b)
					REL_AT(enc->po, n, a, b) = gg;
			} else {
				REL_AT(enc->ext, n, a, b) = gg;
			}
			Z3_ast sa = enc_same_addr(enc, a, b);
			if (sa)
				REL_AT(enc->loc, n, a, b) = rel_and2(rc, gg, sa);
		}
		if (x->rmw_peer >= 0 && ev_has(x, EVC_R))
			REL_AT(enc->rmw, n, a, x->rmw_peer) = x->guard;
		for (int i = 0; i < x->naddr_dep; i++) {
			int r = x->addr_dep[i];
			Z3_ast c = x->addr_dep_cond && x->addr_dep_cond[i] ? x->addr_dep_cond[i] : rc->t;
			REL_AT(enc->addr, n, r, a) = rel_and2(rc, rel_and2(rc, enc->guard[r], x->guard), c);
		}
		if (ev_has(x, EVC_W))
			for (int i = 0; i < x->ndata_dep; i++) {
				int r = x->data_dep[i];
				Z3_ast c = x->data_dep_cond && x->data_dep_cond[i] ? x->data_dep_cond[i] : rc->t;
				REL_AT(enc->data, n, r, a) = rel_and2(rc, rel_and2(rc, enc->guard[r], x->guard), c);
			}
		for (int i = 0; i < x->nctrl_dep; i++) {
			int r = x->ctrl_dep[i];
			Z3_ast c = x->ctrl_dep_cond && x->ctrl_dep_cond[i] ? x->ctrl_dep_cond[i] : rc->t;
			if (r < a)
				REL_AT(enc->ctrl, n, r, a) = rel_and2(rc, rel_and2(rc, enc->guard[r], x->guard), c);
		}
	}
}

/* Which writes a read may read from: not a po-later one, and for lock
 * events by lock.cat's rules (locks.c). */
static int may_read_from(const struct encoding *enc, int w, int r)
{
	const struct event *x = &enc->ev[w], *y = &enc->ev[r];
	if (y->thread == x->thread && w > r)
		return 0; /* a po-later write: coherence forbids it */
	return locks_may_read_from(enc, w, r);
}

/*
 * Coherence decided by the program alone (only with encoder_options.
 * coherent, i.e. a model whose axioms include acyclic(po-loc | com)):
 *  - two writes of one thread to the same fixed location are co-ordered
 *    as in program order whenever both execute (the other order is a
 *    po-loc ; co cycle);
 *  - a read does not read from a write that a po-earlier write of its own
 *    thread to the same location overwrites: the initial write, or a write
 *    of its thread before that one (else fr ; po-loc is a cycle), provided
 *    the overwriting write executes whenever the read does;
 *  - for the same reason such a write is never co-last.
 * Both only remove candidate executions that break that axiom.  Lock,
 * SRCU and initial-write events keep the general encoding.
 */
int enc_fixed_access(const struct event *e)
{
	const unsigned long special = EVC_BIT(EVC_LKR) | EVC_BIT(EVC_LKW) |
		EVC_BIT(EVC_UL) | EVC_BIT(EVC_LF) | EVC_BIT(EVC_RL) |
		EVC_BIT(EVC_RU) | EVC_BIT(EVC_SRCU) | EVC_BIT(EVC_SRCU_LOCK) |
		EVC_BIT(EVC_SRCU_UNLOCK) | EVC_BIT(EVC_SYNC_SRCU);
	return e->thread >= 0 && e->loc >= 0 && !(e->cls & special);
}

/* Are a < b two writes whose co order is program order? */
static int co_by_po(const struct encoding *enc, int a, int b)
{
	const struct event *x = &enc->ev[a], *y = &enc->ev[b];
	return enc->coherent && a < b && x->thread == y->thread &&
	       enc_fixed_access(x) && enc_fixed_access(y) && x->loc == y->loc &&
	       ev_has(x, EVC_W) && ev_has(y, EVC_W) && !ev_has(x, EVC_IW);
}

/* Does event e execute whenever event by does? */
static int runs_with(const struct encoding *enc, int e, int by)
{
	return rel_is_true(&enc->rc, enc->guard[e]) ||
	       Z3_is_eq_ast(enc->z, enc->guard[e], enc->guard[by]);
}

/* Is there a write m between a and b, co-ordered with both by program
 * order, that executes whenever a does?  Then ts(a) < ts(m) < ts(b)
 * already orders a and b: only neighbours need the timestamp fact. */
static int co_by_po_between(const struct encoding *enc, int a, int b)
{
	for (int m = a + 1; m < b; m++)
		if (co_by_po(enc, a, m) && co_by_po(enc, m, b) &&
		    (runs_with(enc, m, a) || runs_with(enc, m, b)))
			return 1;
	return 0;
}

int enc_overwritten(const struct encoding *enc, int w, int r)
{
	const struct event *x = &enc->ev[w];
	if (!enc->coherent || !ev_has(x, EVC_W) || x->loc < 0)
		return 0;
	int end = r >= 0 ? r : w; /* the event whose thread and guard count */
	const struct event *y = &enc->ev[end];
	if (r >= 0 && (!enc_fixed_access(y) || !ev_has(y, EVC_R) || y->loc != x->loc))
		return 0;
	if (!ev_has(x, EVC_IW) && (!enc_fixed_access(x) || x->thread != y->thread))
		return 0;
	for (int w2 = ev_has(x, EVC_IW) ? 0 : w + 1; w2 < enc->n; w2++) {
		const struct event *z = &enc->ev[w2];
		if (z->thread != y->thread || (r >= 0 && w2 >= r))
			continue;
		if (w2 != w && ev_has(z, EVC_W) && enc_fixed_access(z) &&
		    z->loc == x->loc && runs_with(enc, w2, end) &&
		    (ev_has(x, EVC_IW) || w < w2))
			return 1;
	}
	return 0;
}

static Z3_ast lt(struct encoding *enc, Z3_ast a, Z3_ast b)
{
	return Z3_mk_lt(enc->z, a, b);
}

static void build_co_rf(struct encoding *enc)
{
	Z3_context z = enc->z;
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	enc->ts = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)n);
	enc->rts = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)n);
	enc->rf_var = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)n * (size_t)n);
	Z3_ast zero = z3u_int(z, 0), one = z3u_int(z, 1);
	for (int w = 0; w < n; w++) {
		const struct event *x = &enc->ev[w];
		if (!ev_has(x, EVC_W))
			continue;
		if (ev_has(x, EVC_IW)) {
			enc->ts[w] = zero;
		} else {
			enc->ts[w] = rel_fresh_int(rc, "co");
			enc_fact(enc, Z3_mk_ge(z, enc->ts[w], one));
		}
	}
	/* co: a strict total order of the writes to each location. */
	enc->co = rel_new(rc);
	for (int a = 0; a < n && !(a % 16 == 15 && rel_gave_up(rc)); a++) {
		if (!enc->ts[a])
			continue;
		for (int b = 0; b < n; b++) {
			if (a == b || !enc->ts[b])
				continue;
			Z3_ast sa = enc_same_addr(enc, a, b);
			if (!sa)
				continue;
			Z3_ast both = and3(enc, enc->guard[a], enc->guard[b], sa);
			if (ev_has(&enc->ev[b], EVC_IW))
				continue; /* nothing is co-before an initial write */
			if (co_by_po(enc, b, a))
				continue; /* program order decides (co_by_po) */
			if (co_by_po(enc, a, b)) {
				REL_AT(enc->co, n, a, b) = both;
				if (!co_by_po_between(enc, a, b))
					enc_fact(enc, Z3_mk_implies(z, both,
						lt(enc, enc->ts[a], enc->ts[b])));
				continue;
			}
			if (ev_has(&enc->ev[a], EVC_IW))
				REL_AT(enc->co, n, a, b) = both;
			else
				REL_AT(enc->co, n, a, b) =
					rel_and2(rc, both, lt(enc, enc->ts[a], enc->ts[b]));
			if (a < b && !ev_has(&enc->ev[a], EVC_IW))
				enc_fact(enc, Z3_mk_implies(z, both,
					Z3_mk_not(z, Z3_mk_eq(z, enc->ts[a], enc->ts[b]))));
		}
	}
	/* rf: each executed read reads from one write, and takes its value. */
	enc->rf = rel_new(rc);
	enc->fr = rel_new(rc);
	Z3_ast *alts = xmalloc(sizeof(Z3_ast) * (size_t)n);
	for (int r = 0; r < n && !(r % 16 == 15 && rel_gave_up(rc)); r++) {
		const struct event *y = &enc->ev[r];
		if (!ev_has(y, EVC_R))
			continue;
		enc->rts[r] = rel_fresh_int(rc, "rfts");
		int k = 0;
		for (int w = 0; w < n; w++) {
			if (!enc->ts[w] || !may_read_from(enc, w, r) ||
			    enc_overwritten(enc, w, r))
				continue;
			Z3_ast sa = enc_same_addr(enc, w, r);
			if (!sa)
				continue;
			Z3_ast v = rel_fresh_bool(rc, "rf");
			REL_AT(enc->rf_var, n, w, r) = v;
			REL_AT(enc->rf, n, w, r) = v;
			Z3_ast same_val = Z3_mk_eq(z, y->val, enc->ev[w].val);
			if (enc->defined)
				same_val = Z3_mk_implies(z, enc_write_defined(enc, w), same_val);
			Z3_ast conds[5] = {
				enc->guard[w], y->guard, sa, same_val,
				Z3_mk_eq(z, enc->rts[r], enc->ts[w]),
			};
			enc_fact(enc, Z3_mk_implies(z, v, Z3_mk_and(z, 5, conds)));
			alts[k++] = v;
		}
		enc_fact(enc, Z3_mk_implies(z, y->guard,
					k ? Z3_mk_or(z, (unsigned)k, alts) : Z3_mk_false(z)));
		/* fr: r is before every write co-after the one it reads. */
		for (int w = 0; w < n; w++) {
			if (!enc->ts[w] || ev_has(&enc->ev[w], EVC_IW))
				continue;
			Z3_ast sa = enc_same_addr(enc, w, r);
			if (!sa)
				continue;
			REL_AT(enc->fr, n, r, w) =
				rel_and2(rc, and3(enc, y->guard, enc->guard[w], sa),
					 lt(enc, enc->rts[r], enc->ts[w]));
		}
	}
	free(alts);
}

/*
 * The final value of each location: that of its co-last write, one fact a
 * write, "w executes and no write of the location is co-after it".  With
 * encoder_options.coherent, a write that a po-later write of its thread
 * overwrites (enc_overwritten) is never co-last, and if it is co-after w
 * then so is the write that overwrites it (their timestamps are ordered
 * by a fact, build_co_rf): neither gets a fact or a conjunct.  A thread of
 * N stores to one location then costs one conjunct, not N facts of N
 * (the long-thread families: 160,000 comparisons of timestamps at 2 x 400
 * stores).
 */
static void build_final(struct encoding *enc)
{
	Z3_context z = enc->z;
	struct rel_ctx *rc = &enc->rc;
	int n = enc->n;
	const struct ir_program *p = enc->prog;
	enc->final_loc = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)(p->nlocs ? p->nlocs : 1));
	unsigned char *overwritten = xcalloc((size_t)(n ? n : 1), 1);
	for (int w = 0; w < n; w++)
		overwritten[w] = enc->ts[w] && enc_overwritten(enc, w, -1);
	for (int x = 0; x < p->nlocs; x++) {
		enc->final_loc[x] = rel_fresh_int(rc, p->locs[x].name);
		int iw = x; /* initial writes come first, in location order */
		for (int w = 0; w < n; w++) {
			if (!enc->ts[w] || overwritten[w] || !enc_same_addr(enc, w, iw))
				continue;
			Z3_ast last = rel_and2(rc, enc->guard[w], enc_same_addr(enc, w, iw));
			for (int o = 0; o < n; o++) {
				if (o == w || !enc->ts[o] || overwritten[o] ||
				    ev_has(&enc->ev[o], EVC_IW))
					continue;
				Z3_ast sa = enc_same_addr(enc, o, iw);
				if (!sa)
					continue;
				Z3_ast later = and3(enc, enc->guard[o], sa,
						    lt(enc, enc->ts[w], enc->ts[o]));
				last = rel_and2(rc, last, Z3_mk_not(z, later));
			}
			enc_fact(enc, Z3_mk_implies(z, last,
				Z3_mk_eq(z, enc->final_loc[x], enc->ev[w].val)));
		}
	}
	free(overwritten);
}

/* The largest change build_final_count takes: far from overflowing a
 * sum of a few thousand. */
#define CHANGE_MAX (1L << 40)

/* Whether write w is an RMW's (not a lock's) that adds a constant to the
 * value its read reads, and which: *change. */
static int rmw_change(const struct encoding *enc, int w, long *change)
{
	Z3_context z = enc->z;
	const struct ir_instr *in = enc->ev[w].instr;
	int r = enc->ev[w].rmw_peer;
	if (r < 0 || !in || in->op != IR_RMW || !enc->ev[w].val || !enc->ev[r].val)
		return 0;
	if (in->rmw == IR_RMW_CMPXCHG) { /* it writes only when it read b */
		if (!in->b || !in->c || in->b->kind != IR_E_CONST || in->c->kind != IR_E_CONST)
			return 0;
		return !__builtin_sub_overflow(in->c->num, in->b->num, change) &&
		       *change > -CHANGE_MAX && *change < CHANGE_MAX;
	}
	int64_t v;
	Z3_ast d = Z3_simplify(z, Z3_mk_sub(z, 2, (Z3_ast[]){enc->ev[w].val, enc->ev[r].val}));
	if (!Z3_get_numeral_int64(z, d, &v) || v <= -CHANGE_MAX || v >= CHANGE_MAX)
		return 0;
	*change = (long)v;
	return 1;
}

/*
 * The final value of a location that only RMWs of a constant change write
 * (atomic_add(), atomic_inc_return(), a cmpxchg of constants, ...), counted
 * instead of found through co: the initial value plus the change of each
 * RMW executed.  Under coherence and atomicity each RMW reads its write's
 * co-predecessor (a write co-between would be fre of the read and coe of
 * the write, or po-ordered against the pair by coherence), so along co
 * each write adds its change to the one before, and the last one holds
 * the sum.  The sum is written as a chain of partial sums, each step one
 * difference-logic atom (next - prev = change when that RMW executes, 0
 * when not), so the fast difference-logic solver takes it.
 *
 * Why: "every read of a spin loop's last iteration sees its location's
 * final value" (solver/bounds.c) asks Z3 for the co-last write, and where
 * RMWs from many threads write the location (the queued rwlock's count)
 * refuting a hang meant trying their orders: qrwlock-idx-05's hang
 * question took 49 s, with the count 0.4 s.  As a fact of every question
 * it cost more than it saved elsewhere (unwinding 3.1 -> 4.4 s), so it is
 * only offered: final_count[x], NULL where the location has another kind
 * of write, an RMW of a changing amount (xchg, an add of a register) or
 * a write whose address is not known statically.
 */
static void build_final_count(struct encoding *enc)
{
	Z3_context z = enc->z;
	int n = enc->n;
	const struct ir_program *p = enc->prog;
	enc->final_count = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)(p->nlocs ? p->nlocs : 1));
	Z3_ast *step = xmalloc(sizeof(Z3_ast) * (size_t)(n ? n : 1));
	long *change = xmalloc(sizeof(long) * (size_t)(n ? n : 1));
	for (int x = 0; x < p->nlocs; x++) {
		int iw = x, k = 0, ok = 1; /* initial writes first, in location order */
		for (int w = 0; w < n && ok; w++) {
			if (!enc->ts[w] || ev_has(&enc->ev[w], EVC_IW) || !enc_same_addr(enc, w, iw))
				continue;
			ok = enc->ev[w].loc == x && rmw_change(enc, w, &change[k]);
			step[k++] = enc->guard[w];
		}
		if (!ok || k == 0)
			continue;
		Z3_ast prev = enc->ev[iw].val, all = Z3_mk_true(z);
		for (int i = 0; i < k; i++) {
			Z3_ast next = rel_fresh_int(&enc->rc, "count");
			Z3_ast diff = Z3_mk_sub(z, 2, (Z3_ast[]){next, prev});
			all = z3u_and2(z, all, Z3_mk_ite(z, step[i],
				Z3_mk_eq(z, diff, z3u_int(z, change[i])),
				Z3_mk_eq(z, diff, z3u_int(z, 0))));
			prev = next;
		}
		enc->final_count[x] = z3u_and2(z, all, Z3_mk_eq(z, enc->final_loc[x], prev));
	}
	free(step);
	free(change);
}

/* What an encoding of n events needs at least, in kB: lkmmc and its
 * libraries (about 100 MB), and each relation of the model is a dense
 * n x n matrix with terms for its may-pairs: measured, 1.5 to 6 kB a
 * pair of events over the long-thread families of bench/gen-families.sh
 * (long-mb, long-plain, long-shared); 1 kB a pair is below all of them,
 * so that a test refused here could not have fitted. */
static long least_memory_kb(long n)
{
	return 64 * 1024 + n * n;
}

/* Refuse, before building anything of size n x n, an encoding that
 * cannot fit in max_kb (0: no limit). */
static int fits_memory(const struct encoding *enc, long max_kb, struct diag *d)
{
	long need = least_memory_kb(enc->n);
	if (max_kb <= 0 || need <= max_kb)
		return 1;
	return diag_error_kind(d, DIAG_MEMORY, enc->prog->file, 0, 0,
			       "too large for the memory limit: %d events, about %ld MB "
			       "needed at least, %ld MB allowed; try --exists-only, a "
			       "smaller --unroll, or --max-memory MB", enc->n,
			       need / 1024, max_kb / 1024);
}

struct encoding *encode_program(Z3_context z, const struct ir_program *prog,
				const struct encoder_options *opt,
				struct diag *d)
{
	struct encoding *enc = xcalloc(1, sizeof *enc);
	enc->z = z;
	enc->arena = arena_new();
	enc->prog = prog;
	enc->facts = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, enc->facts);
	enc->drop = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, enc->drop);
	rel_ctx_init(&enc->rc, z, 0, NULL, enc->arena);
	enc->rc.deadline = opt->deadline;
	enc->rc.limit = opt->limit;
	enc->coherent = opt->coherent;
	enc->bits_linear = enc_bits_linear(prog);
	enc->values = values_analyse(prog);
	enc->final_reg = arena_alloc(enc->arena, sizeof(Z3_ast *) * (size_t)(prog->nthreads ? prog->nthreads : 1));

	add_initial_writes(enc);
	int cap = enc->n;
	for (int t = 0; t < prog->nthreads; t++) {
		if (!symex_thread(enc, &prog->threads[t], opt->unroll, &cap, d)) {
			encoding_free(enc);
			return NULL;
		}
	}
	assert(events_ordered(enc));
	if (!fits_memory(enc, opt->max_memory_kb, d)) {
		encoding_free(enc);
		return NULL;
	}
	enc->guard = arena_alloc(enc->arena, sizeof(Z3_ast) * (size_t)(enc->n ? enc->n : 1));
	for (int e = 0; e < enc->n; e++)
		enc->guard[e] = enc->ev[e].guard;
	enc->rc.n = enc->n;
	enc->rc.guard = enc->guard;

	build_static(enc);
	thin_air_prepare(enc);
	build_co_rf(enc);
	if (enc->rc.expired)
		return enc; /* stopped part-way: the caller asks nothing */
	enc->keyed = (struct rel_keyed){enc->co, enc->fr, enc->rf, enc->ts, enc->rts,
					same_place, enc};
	enc->rc.keyed = &enc->keyed;
	thin_air_build(enc);
	locks_build(enc);
	build_final(enc);
	/* (a value out of thin air is a symbol, not its write's value plus
	 * a change: thin_air_build's enc->defined says when one can be) */
	if (opt->coherent && opt->atomic && !enc->defined)
		build_final_count(enc);
	enc->ndefs_program = Z3_ast_vector_size(z, enc->rc.defs);
	return enc;
}

void encoding_free(struct encoding *enc)
{
	if (!enc)
		return;
	Z3_ast_vector_dec_ref(enc->z, enc->facts);
	Z3_ast_vector_dec_ref(enc->z, enc->drop);
	rel_ctx_fini(&enc->rc);
	values_free(enc->values);
	arena_free(enc->arena);
	free(enc);
}

Z3_ast enc_observable(const struct encoding *enc, struct ir_observable o)
{
	if (o.thread < 0)
		return enc->final_loc[o.index];
	return enc->final_reg[o.thread][o.index];
}

/* A program's final-assert expression (ir.h, IR_C_EXPR) as an Int over
 * the final values; truth values are 0 and 1, as in C. */
static Z3_ast final_expr(const struct encoding *enc, const struct ir_expr *e)
{
	Z3_context z = enc->z;
	Z3_ast zero = z3u_int(z, 0), one = z3u_int(z, 1);
	switch (e->kind) {
	case IR_E_CONST:
		return z3u_int(z, e->num);
	case IR_E_LOC:
		return enc->final_loc[e->loc];
	case IR_E_UNARY: {
		Z3_ast a = final_expr(enc, e->a);
		if (e->op == IR_NEG)
			return Z3_mk_unary_minus(z, a);
		if (e->op == IR_LNOT)
			return Z3_mk_ite(z, Z3_mk_eq(z, a, zero), one, zero);
		return Z3_mk_sub(z, 2, (Z3_ast[]){Z3_mk_unary_minus(z, a), one});
	}
	case IR_E_BINARY:
		break;
	default: /* the front end makes no other (cprog.c) */
		return zero;
	}
	Z3_ast ab[2] = {final_expr(enc, e->a), final_expr(enc, e->b)};
	Z3_ast t;
	switch ((enum ir_binop)e->op) {
	case IR_ADD: return Z3_mk_add(z, 2, ab);
	case IR_SUB: return Z3_mk_sub(z, 2, ab);
	case IR_MUL: return Z3_mk_mul(z, 2, ab);
	case IR_EQ: t = Z3_mk_eq(z, ab[0], ab[1]); break;
	case IR_NE: t = Z3_mk_not(z, Z3_mk_eq(z, ab[0], ab[1])); break;
	case IR_LT: t = Z3_mk_lt(z, ab[0], ab[1]); break;
	case IR_LE: t = Z3_mk_le(z, ab[0], ab[1]); break;
	case IR_GT: t = Z3_mk_gt(z, ab[0], ab[1]); break;
	case IR_GE: t = Z3_mk_ge(z, ab[0], ab[1]); break;
	case IR_LAND:
	case IR_LOR: {
		Z3_ast nz[2] = {Z3_mk_not(z, Z3_mk_eq(z, ab[0], zero)),
				Z3_mk_not(z, Z3_mk_eq(z, ab[1], zero))};
		t = e->op == IR_LAND ? Z3_mk_and(z, 2, nz) : Z3_mk_or(z, 2, nz);
		break;
	}
	default:
		return zero;
	}
	return Z3_mk_ite(z, t, one, zero);
}

Z3_ast enc_cond(const struct encoding *enc, const struct ir_cond *c)
{
	Z3_context z = enc->z;
	switch (c->kind) {
	case IR_C_TRUE:
		return Z3_mk_true(z);
	case IR_C_FALSE:
		return Z3_mk_false(z);
	case IR_C_ATOM: {
		if (c->rhs_is_obs) /* 0:r1=1:r2 compares two observables */
			return Z3_mk_eq(z, enc_observable(enc, c->lhs),
					enc_observable(enc, c->rhs_obs));
		long v = c->rhs.kind == IR_VAL_LOC ? enc_loc_address(c->rhs.loc) : c->rhs.num;
		return Z3_mk_eq(z, enc_observable(enc, c->lhs), z3u_int(z, v));
	}
	case IR_C_EXPR:
		return Z3_mk_not(z, Z3_mk_eq(z, final_expr(enc, c->expr), z3u_int(z, 0)));
	case IR_C_NOT:
		return Z3_mk_not(z, enc_cond(enc, c->a));
	case IR_C_AND:
	case IR_C_OR: {
		Z3_ast ab[2] = {enc_cond(enc, c->a), enc_cond(enc, c->b)};
		return c->kind == IR_C_AND ? Z3_mk_and(z, 2, ab) : Z3_mk_or(z, 2, ab);
	}
	}
	return Z3_mk_false(z);
}

const char *enc_event_name(const struct encoding *enc, int e)
{
	const struct event *x = &enc->ev[e];
	const char *loc = x->loc >= 0 ? enc->prog->locs[x->loc].name : "?";
	if (x->thread < 0)
		return arena_printf(enc->arena, "init %s", loc);
	const char *text = x->instr && x->instr->text ? x->instr->text : "";
	int line = x->instr ? x->instr->pos.line : 0;
	return arena_printf(enc->arena, "P%d:%d %s", x->thread, line, text);
}
