/*
 * schedule.c - the sequentially consistent execution of one schedule, as
 * a formula over the encoding's choices (encoder.h: enc_schedule).
 *
 * A schedule is a total order of the events that keeps each thread's
 * program order.  Run in that order, each write comes co-after every
 * write placed before it, and each read reads from the last write to its
 * address placed before it.  The formula pins exactly that: the co
 * timestamps of each location's writes follow their positions, a read
 * reads from no write placed after it, and from no write co-before one
 * to its address placed before it.  Asked beside the whole encoding it
 * leaves Z3 no choice of rf or co, so a consistent execution with some
 * property is found, when that schedule has one, by propagation rather
 * than search; when it has none (a spin that waits for a later thread,
 * an assume, an axiom the schedule breaks) the answer is "no" and says
 * nothing of other schedules.  A read may be placed "softly": what pins
 * it is returned apart, for the caller to assume or not (a spin's read
 * placed before the write it waits for can then read that write).  It
 * decides nothing: any model of it is an execution of the test, and a
 * "no" leaves the question to the search.
 *
 * Timestamps are ordered location by location (the next write after the
 * last one placed before it): pinning them to the positions instead
 * relates every write to every other, which cost Z3's difference logic
 * 2.1 GB against 1.1 GB and 2.6 s against 0.7 s on the long threads of
 * bench/ (long-xy-200).  When an address is computed the location of a
 * write is not known statically, and every timestamp is pinned.
 */
#include <stdlib.h>

#include "frontend/ir.h"

#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "encoder/internal.h"
#include "encoder/z3util.h"

static int place(const int *pos, int e)
{
	return pos[e] < 0 ? -pos[e] : pos[e];
}

/* Event numbers by position (pos[e] > 0 only), into by_pos; how many. */
static int order_events(const struct encoding *enc, const int *pos, int *by_pos)
{
	int k = 0;
	for (int e = 0; e < enc->n; e++)
		if (!(enc->ev[e].cls & EVC_BIT(EVC_IW)))
			by_pos[k++] = e;
	/* insertion sort on pos: nearly sorted already (threads in order) */
	for (int i = 1; i < k; i++) {
		int e = by_pos[i], j = i;
		while (j > 0 && place(pos, by_pos[j - 1]) > place(pos, e)) {
			by_pos[j] = by_pos[j - 1];
			j--;
		}
		by_pos[j] = e;
	}
	return k;
}

Z3_ast enc_schedule(struct encoding *enc, const int *pos, Z3_ast *soft)
{
	Z3_context z = enc->z;
	int n = enc->n;
	Z3_ast_vector parts = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, parts);
	int *by_pos = xmalloc_array((size_t)n + 1, sizeof(int));
	int nev = order_events(enc, pos, by_pos);
	/* co: each write after the last one placed before it to the same
	 * location, or at its position when some address is computed */
	int nlocs = enc->prog->nlocs, pin = 0;
	int *last = xmalloc_array((size_t)nlocs + 1, sizeof(int));
	for (int x = 0; x < nlocs; x++)
		last[x] = -1;
	for (int i = 0; i < nev; i++)
		pin |= enc->ts[by_pos[i]] && enc->ev[by_pos[i]].loc < 0;
	for (int i = 0; i < nev; i++) {
		int w = by_pos[i];
		if (!enc->ts[w])
			continue;
		int x = enc->ev[w].loc;
		if (pin) {
			Z3_ast_vector_push(z, parts, Z3_mk_eq(z, enc->ts[w], z3u_int(z, place(pos, w))));
			continue;
		}
		if (last[x] >= 0)
			Z3_ast_vector_push(z, parts, Z3_mk_lt(z, enc->ts[last[x]], enc->ts[w]));
		last[x] = w;
	}
	free(last);
	for (int i = 0; i < nev; i++) {
		int r = by_pos[i];
		if (!enc->rts[r])
			continue;
		/* a soft read's pins go to soft[r], the others' to parts */
		Z3_ast_vector pins = parts;
		if (pos[r] < 0) {
			pins = Z3_mk_ast_vector(z);
			Z3_ast_vector_inc_ref(z, pins);
		}
		/* no write placed after r */
		for (int w = 0; w < n; w++) {
			Z3_ast v = REL_AT(enc->rf_var, n, w, r);
			if (v && !(enc->ev[w].cls & EVC_BIT(EVC_IW)) && place(pos, w) > place(pos, r))
				Z3_ast_vector_push(z, pins, Z3_mk_not(z, v));
		}
		/* none older than a write to its address placed before it:
		 * back from r, up to the first one that surely is */
		for (int h = i - 1; h >= 0; h--) {
			int w = by_pos[h];
			if (!enc->ts[w])
				continue;
			Z3_ast sa = enc_same_addr(enc, w, r);
			if (!sa)
				continue;
			Z3_ast placed = Z3_mk_ge(z, enc->rts[r], enc->ts[w]);
			Z3_ast both = rel_and2(&enc->rc, enc->guard[w], sa);
			if (rel_is_true(&enc->rc, both)) {
				Z3_ast_vector_push(z, pins, placed);
				break;
			}
			Z3_ast_vector_push(z, pins, Z3_mk_implies(z, both, placed));
		}
		if (pins != parts) {
			if (soft)
				soft[r] = z3u_and_vector(z, pins);
			Z3_ast_vector_dec_ref(z, pins);
		}
	}
	free(by_pos);
	Z3_ast res = z3u_and_vector(z, parts);
	Z3_ast_vector_dec_ref(z, parts);
	return res;
}
