/*
 * circuit_inc.c - the circuit's bounds kept up to date while a search
 * fixes atoms one at a time and takes them back (circuit.h's
 * circuit_inc_*): what a lazy core needs to see a broken axiom as soon as
 * the few choices that break it are made, not only at a complete
 * assignment.
 *
 * Fixing an atom re-evaluates only what it reaches and someone reads: a
 * node's bounds that nothing followed reads (an axiom's upper bound, a
 * node asked for, and what they are made of: circuit_inc_need) are left
 * as they were, and each changed bound notifies the parents that read
 * it (through the pool slots where it is a child).  A
 * parent outside any cycle gets its bounds again from its children
 * (circuit_node_bounds), an and/or node in a cycle (a closure's clauses)
 * gets its lower bound by the unit propagation of the full evaluation,
 * one step at a time, and an acyclicity check looks for a cycle through
 * the edge that just became surely true only.  Every change goes on a
 * trail; undoing a level restores the bounds in reverse.
 *
 * What it leaves: the upper bound of a node in a cycle stays as the first
 * evaluation (all atoms unknown) left it (lowering it needs the least
 * fixpoint again); so does an acyclicity check's lower bound.  Both are
 * bounds still, so a value it reports is one every completion has; what
 * only a complete assignment decides is left to circuit_eval, whose
 * results circuit_inc_save / _restore keep apart from these.
 */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/xalloc.h"
#include "encoder/circuit_int.h"

/* Which bounds of the child in `slot` its owner u reads: what its own
 * needed bounds are made of, and the lower bounds an and the axioms need
 * false looks at for the last open child. */
static int slot_need(const struct circuit *c, const struct circuit_inc *in, int u, int k);

/* The parents' lists, each entry slot * 4 + the child's bounds its
 * owner reads (slot_need), of owners that read any. */
static void build_parents(struct circuit *c, struct circuit_inc *in)
{
	int n = in->nodes;
	free(in->par_first);
	free(in->par);
	in->par_first = xcalloc((size_t)n + 1, sizeof(int));
	for (int u = 0; u < n; u++)
		for (int k = 0; k < c->nkid[u]; k++)
			if (slot_need(c, in, u, k))
				in->par_first[circuit_kid(c, u, k) + 1]++;
	for (int u = 0; u < n; u++)
		in->par_first[u + 1] += in->par_first[u];
	int *fill = xmalloc_array((size_t)n + 1, sizeof(int));
	memcpy(fill, in->par_first, sizeof(int) * ((size_t)n + 1));
	in->par = xmalloc_array((size_t)in->par_first[n] + 1, sizeof(int));
	for (int u = 0; u < n; u++)
		for (int k = 0; k < c->nkid[u]; k++) {
			int slot = c->first[u] + k, bits = slot_need(c, in, u, k);
			in->owner[3 * slot] = u;
			in->owner[3 * slot + 1] = c->pool[slot];
			in->owner[3 * slot + 2] = c->kind[u] |
				(c->comp_cyclic[c->comp[u]] ? OWNER_CYCLIC : 0);
			if (bits)
				in->par[fill[c->pool[slot]]++] = slot * 4 + bits;
		}
	free(fill);
	in->prepared = 1;
}

/* Check u's edge slots by source event (by_target: by target), in
 * (*list)[(*first)[i] .. (*first)[i + 1]). */
static void slots_by_event(const struct circuit *c, int u, int by_target, int **first,
			   int **list)
{
	int ev = c->rc->n;
	*first = xcalloc((size_t)ev + 1, sizeof(int));
	*list = xmalloc_array((size_t)c->nkid[u] + 1, sizeof(int));
	for (int k = 0; k < c->nkid[u]; k++) {
		int e = c->edge[c->first[u] + k] / 2;
		(*first)[(by_target ? e % ev : e / ev) + 1]++;
	}
	for (int i = 0; i < ev; i++)
		(*first)[i + 1] += (*first)[i];
	int *fill = xmalloc_array((size_t)ev + 1, sizeof(int));
	memcpy(fill, *first, sizeof(int) * ((size_t)ev + 1));
	for (int k = 0; k < c->nkid[u]; k++) {
		int slot = c->first[u] + k, e = c->edge[slot] / 2;
		(*list)[fill[by_target ? e % ev : e / ev]++] = slot;
	}
	free(fill);
}

static void build_acyc(struct circuit *c, struct circuit_inc *in)
{
	int n = in->nodes, ev = c->rc->n;
	in->acyc_of = xcalloc((size_t)n + 1, sizeof(int));
	for (int u = 0; u < n; u++) {
		if (c->kind[u] != CK_ACYC)
			continue;
		in->acyc = xrealloc_array(in->acyc, (size_t)in->nacyc + 1, sizeof *in->acyc);
		struct inc_acyc *a = &in->acyc[in->nacyc++];
		in->acyc_of[u] = in->nacyc;
		a->node = u;
		slots_by_event(c, u, 0, &a->first, &a->out);
		slots_by_event(c, u, 1, &a->in_first, &a->in);
		a->lo_out = xmalloc_array((size_t)c->nkid[u] + 1, sizeof(int));
		a->lo_in = xmalloc_array((size_t)c->nkid[u] + 1, sizeof(int));
		a->nlo_out = xcalloc((size_t)ev + 1, sizeof(int));
		a->nlo_in = xcalloc((size_t)ev + 1, sizeof(int));
	}
	size_t states = 2 * (size_t)ev + 2;
	in->seen = xcalloc(states, sizeof(int));
	in->bfs = xmalloc_array(states, sizeof(int));
	in->bseen = xcalloc(states, sizeof(int));
	in->bbfs = xmalloc_array(states, sizeof(int));
	in->fvia = xmalloc_array(states, sizeof(int));
	in->bvia = xmalloc_array(states, sizeof(int));
}

/* The edge of check a in slot is surely true: listed (on the trail when
 * trailed, else for good). */
static void list_edge(struct circuit *c, int ai, int slot, int trailed)
{
	struct circuit_inc *in = c->inc;
	struct inc_acyc *a = &in->acyc[ai];
	int ev = c->rc->n, e = c->edge[slot], i = e / 2 / ev, j = e / 2 % ev;
	a->lo_out[a->first[i] + a->nlo_out[i]++] = slot;
	a->lo_in[a->in_first[j] + a->nlo_in[j]++] = slot;
	if (!trailed)
		return;
	XGROW(in->atrail, in->atrail_cap, in->natrail + 3, 1024);
	in->atrail[in->natrail++] = ai;
	in->atrail[in->natrail++] = slot;
	in->atrail[in->natrail++] = (int)in->ntrail;
}

/* Unlist the edges listed after the trail had level entries (the last
 * listed first: each list is a stack). */
static void unlist_edges(struct circuit *c, size_t level)
{
	struct circuit_inc *in = c->inc;
	int ev = c->rc->n;
	while (in->natrail && (size_t)in->atrail[in->natrail - 1] > level) {
		int slot = in->atrail[in->natrail - 2];
		struct inc_acyc *a = &in->acyc[in->atrail[in->natrail - 3]];
		in->natrail -= 3;
		int e = c->edge[slot], i = e / 2 / ev, j = e / 2 % ev;
		CHECK(a->lo_out[a->first[i] + a->nlo_out[i] - 1] == slot &&
		      a->lo_in[a->in_first[j] + a->nlo_in[j] - 1] == slot,
		      "circuit: edge slot %d unlisted out of order", slot);
		a->nlo_out[i]--;
		a->nlo_in[j]--;
	}
}

void circuit_inc_start(struct circuit *c)
{
	CHECK(!c->inc, "circuit: started twice");
	struct circuit_inc *in = xcalloc(1, sizeof *in);
	c->inc = in;
	in->nodes = c->n;
	/* the followed nodes' slots are all made: below npool */
	in->owner = xmalloc_array(3 * c->npool + 3, sizeof(int));
	build_acyc(c, in);
	signed char *unknown = xmalloc((size_t)c->natoms + 1);
	memset(unknown, -1, (size_t)c->natoms + 1);
	circuit_eval_given(c, unknown, in->nodes);
	free(unknown);
	for (int ai = 0; ai < in->nacyc; ai++) {
		int u = in->acyc[ai].node;
		for (int k = 0; k < c->nkid[u]; k++)
			if (c->lo[circuit_kid(c, u, k)])
				list_edge(c, ai, c->first[u] + k, 0);
	}
	size_t n = (size_t)in->nodes + 1;
	in->save_lo = xmalloc(n);
	in->save_hi = xmalloc(n);
	in->save_reason = xmalloc_array(n, sizeof(int));
	in->need = xcalloc(n, 1);
	in->required = xcalloc(n, 1);
	in->req_false = xcalloc(n, 1);
	in->atom_stamp = xcalloc((size_t)c->natoms + 1, sizeof(unsigned));
}

/* Which bounds of node u's children its own bounds `need` read. */
static int kid_need(const struct circuit *c, int u, int k, int need)
{
	int lo = need & NEED_LO, hi = need & NEED_HI, both = NEED_LO | NEED_HI;
	switch ((enum circuit_kind)c->kind[u]) {
	case CK_AND:
	case CK_OR:
	case CK_NAMED:
	case CK_HORN:
		return need;
	case CK_NOT:
		return (lo ? NEED_HI : 0) | (hi ? NEED_LO : 0);
	case CK_IMPLIES:
		if (k == 0)
			return (lo ? NEED_HI : 0) | (hi ? NEED_LO : 0);
		return need;
	case CK_ACYC:
		/* a cycle of surely true edges (its lower bound waits) */
		return hi ? NEED_LO : 0;
	default:
		return need ? both : 0;
	}
}

static int slot_need(const struct circuit *c, const struct circuit_inc *in, int u, int k)
{
	int bits = kid_need(c, u, k, in->need[u]);
	if (in->req_false[u] && c->kind[u] == CK_AND)
		bits |= NEED_LO;
	return bits;
}

void circuit_inc_need(struct circuit *c, int u, int need)
{
	struct circuit_inc *in = c->inc;
	size_t sp = 0;
	circuit_push(c, &sp, u * 4 + need);
	while (sp) {
		int x = c->stack[--sp], v = x / 4, add = x & 3;
		if (v >= in->nodes || (in->need[v] | add) == in->need[v])
			continue;
		add &= ~in->need[v];
		in->need[v] |= (unsigned char)add;
		in->prepared = 0;
		for (int k = 0; k < c->nkid[v]; k++) {
			int kn = kid_need(c, v, k, add);
			if (kn)
				circuit_push(c, &sp, circuit_kid(c, v, k) * 4 + kn);
		}
	}
}

void circuit_inc_follow(struct circuit *c, int node)
{
	circuit_inc_need(c, node, NEED_LO | NEED_HI);
}

void circuit_inc_follow_upper(struct circuit *c, int node)
{
	circuit_inc_need(c, node, NEED_HI);
}

void circuit_inc_free(struct circuit *c)
{
	struct circuit_inc *in = c->inc;
	if (!in)
		return;
	for (int i = 0; i < in->nacyc; i++) {
		free(in->acyc[i].first);
		free(in->acyc[i].out);
		free(in->acyc[i].in_first);
		free(in->acyc[i].in);
		free(in->acyc[i].lo_out);
		free(in->acyc[i].lo_in);
		free(in->acyc[i].nlo_out);
		free(in->acyc[i].nlo_in);
	}
	free(in->need);
	free(in->required);
	free(in->req_false);
	free(in->bseen);
	free(in->bbfs);
	free(in->fvia);
	free(in->bvia);
	free(in->imp_lit);
	free(in->imp_first);
	free(in->imp_nprem);
	free(in->imp_prem);
	free(in->want);
	free(in->atom_stamp);
	free(in->acyc);
	free(in->acyc_of);
	free(in->par_first);
	free(in->par);
	free(in->owner);
	free(in->trail);
	free(in->atrail);
	free(in->queue);
	free(in->save_lo);
	free(in->save_hi);
	free(in->save_reason);
	free(in->seen);
	free(in->bfs);
	free(in);
	c->inc = NULL;
}

/* ---- changes and their undoing ---- */

static void set_bounds(struct circuit *c, int u, int lo, int hi, size_t *nq)
{
	struct circuit_inc *in = c->inc;
	if (!(in->need[u] & NEED_LO))
		lo = c->lo[u];
	if (!(in->need[u] & NEED_HI))
		hi = c->hi[u];
	if (c->lo[u] == lo && c->hi[u] == hi)
		return;
	CHECK(lo >= c->lo[u] && hi <= c->hi[u], "circuit: node %d's bounds widened", u);
	XGROW(in->trail, in->trail_cap, in->ntrail + 1, 1024);
	int old_lo = c->lo[u], old_hi = c->hi[u];
	in->trail[in->ntrail++] = u * 4 + old_lo * 2 + old_hi;
	c->lo[u] = (unsigned char)lo;
	c->hi[u] = (unsigned char)hi;
	in->changes++;
	int changed = (lo != old_lo ? NEED_LO : 0) | (hi != old_hi ? NEED_HI : 0);
	XGROW(in->queue, in->queue_cap, *nq + (size_t)(in->par_first[u + 1] - in->par_first[u]), 1024);
	for (int p = in->par_first[u]; p < in->par_first[u + 1]; p++)
		if (in->par[p] & changed)
			in->queue[(*nq)++] = in->par[p] / 4;
}

size_t circuit_inc_level(const struct circuit *c)
{
	return c->inc->ntrail;
}

void circuit_inc_undo(struct circuit *c, size_t level)
{
	struct circuit_inc *in = c->inc;
	CHECK(level <= in->ntrail, "circuit: undo to %zu of %zu", level, in->ntrail);
	while (in->ntrail > level) {
		int t = in->trail[--in->ntrail];
		c->lo[t / 4] = (unsigned char)(t / 2 & 1);
		c->hi[t / 4] = (unsigned char)(t & 1);
	}
	unlist_edges(c, level);
}

/* ---- propagation ---- */

/* A cycle through a new edge: a path back to its source (circuit_int.h). */
int circuit_acyc_search(struct circuit *c, const struct inc_acyc *a, int backward, int start,
			int stop)
{
	struct circuit_inc *in = c->inc;
	int ev = c->rc->n;
	int *seen = backward ? in->bseen : in->seen;
	int *queue = backward ? in->bbfs : in->bfs;
	int *via = backward ? in->bvia : in->fvia;
	const int *first = backward ? a->in_first : a->first;
	const int *adj = backward ? a->lo_in : a->lo_out;
	const int *nadj = backward ? a->nlo_in : a->nlo_out;
	if (++in->seen_cur == 0) {
		memset(in->seen, 0, sizeof(int) * 2 * (size_t)ev);
		memset(in->bseen, 0, sizeof(int) * 2 * (size_t)ev);
		in->seen_cur = 1;
	}
	int cur = (int)in->seen_cur;
	int head = 0, tail = 0;
	queue[tail++] = start;
	seen[start] = cur;
	via[start] = -1;
	while (head < tail) {
		int st = queue[head++], i = st / 2, s = st & 1;
		if (st == stop)
			return 1;
		for (int e = first[i]; e < first[i] + nadj[i]; e++) {
			int slot = adj[e];
			int j = backward ? c->edge[slot] / 2 / ev : c->edge[slot] / 2 % ev;
			int next = j * 2 + (s | (c->edge[slot] & 1));
			if (seen[next] == cur)
				continue;
			seen[next] = cur;
			via[next] = slot * 2 + s;
			queue[tail++] = next;
		}
	}
	return 0;
}

/* Node u, whose child in `slot` changed: its bounds again. */
static void update(struct circuit *c, int slot, size_t *nq)
{
	struct circuit_inc *in = c->inc;
	int u = in->owner[3 * slot], v = in->owner[3 * slot + 1];
	int kind = in->owner[3 * slot + 2] & OWNER_KIND;
	if (kind == CK_ACYC) {
		if (!c->lo[v])
			return;
		list_edge(c, in->acyc_of[u] - 1, slot, 1);
		if (!c->hi[u])
			return;
		int ev = c->rc->n, e = c->edge[slot];
		const struct inc_acyc *a = &in->acyc[in->acyc_of[u] - 1];
		if (circuit_acyc_search(c, a, 0, e / 2 % ev * 2 + (e & 1), e / 2 / ev * 2 + 1))
			set_bounds(c, u, 0, 0, nq);
		else if (in->required[u])
			circuit_imply_acyc(c, a, slot); /* goes on from that search */
		return;
	}
	int or_like = kind == CK_OR || kind == CK_NAMED || kind == CK_HORN;
	if (in->owner[3 * slot + 2] & OWNER_CYCLIC) {
		/* a closure's clauses: the lower bound only */
		if (c->lo[u] || !c->lo[v])
			return;
		if (kind == CK_AND)
			for (int k = 0; k < c->nkid[u]; k++)
				if (!c->lo[circuit_kid(c, u, k)]) {
					circuit_imply_and(c, u);
					return;
				}
		if (or_like)
			c->reason[u] = v;
		set_bounds(c, u, 1, c->hi[u], nq);
		return;
	}
	if (or_like || kind == CK_AND) {
		/* what v's change can do to a junction, without a scan */
		int and = kind == CK_AND;
		int lo = c->lo[u], hi = c->hi[u];
		if (!and && c->lo[v] && !lo) {
			c->reason[u] = v;
			lo = 1;
		}
		if (and && !c->hi[v])
			hi = lo = 0;
		int scan_hi = !and && !c->hi[v] && hi;
		int scan_lo = and && c->lo[v] && !lo && hi;
		for (int k = 0; (scan_hi || scan_lo) && k < c->nkid[u]; k++) {
			int w = circuit_kid(c, u, k);
			scan_hi &= !c->hi[w];
			scan_lo &= c->lo[w];
		}
		if (scan_hi)
			hi = 0;
		if (scan_lo)
			lo = 1;
		set_bounds(c, u, lo, hi, nq);
		if (and && c->lo[v])
			circuit_imply_and(c, u);
		return;
	}
	int lo0 = c->lo[u], hi0 = c->hi[u];
	circuit_node_bounds(c, NULL, u, NULL);
	int lo = c->lo[u], hi = c->hi[u];
	c->lo[u] = (unsigned char)lo0;
	c->hi[u] = (unsigned char)hi0;
	set_bounds(c, u, lo, hi, nq);
}

void circuit_inc_fix(struct circuit *c, int atom, int value)
{
	struct circuit_inc *in = c->inc;
	int u = c->atom_node[atom];
	if (u >= in->nodes)
		return;
	if (!in->prepared)
		build_parents(c, in);
	size_t nq = 0;
	circuit_imply_reset(c);
	in->need[u] = NEED_LO | NEED_HI; /* an atom's value is known */
	set_bounds(c, u, value, value, &nq);
	/* a stack: each slot's update reads the children as they are now */
	while (nq) {
		int slot = in->queue[--nq];
		update(c, slot, &nq);
	}
}

long circuit_inc_changes(const struct circuit *c)
{
	return c->inc ? c->inc->changes : 0;
}

/* ---- a full evaluation beside it ---- */

void circuit_inc_save(struct circuit *c)
{
	struct circuit_inc *in = c->inc;
	size_t n = (size_t)in->nodes;
	memcpy(in->save_lo, c->lo, n);
	memcpy(in->save_hi, c->hi, n);
	memcpy(in->save_reason, c->reason, n * sizeof(int));
}

void circuit_inc_restore(struct circuit *c)
{
	struct circuit_inc *in = c->inc;
	size_t n = (size_t)in->nodes;
	memcpy(c->lo, in->save_lo, n);
	memcpy(c->hi, in->save_hi, n);
	memcpy(c->reason, in->save_reason, n * sizeof(int));
}
