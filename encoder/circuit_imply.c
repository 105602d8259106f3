/*
 * circuit_imply.c - what the axioms force while a search is under way
 * (circuit.h's circuit_inc_require, _implied): the propagation half of
 * the incremental bounds (circuit_inc.c), after CAAT's.
 *
 * The axioms are needed true, and so, through ands and nots, are some of
 * their parts (required) and some are needed false (an or needed false:
 * each child).  Two rules then imply atoms false, each with the atoms
 * whose values force it (its premises):
 *  - an acyclicity check needed true whose new surely true edge closes no
 *    cycle: each edge still open that would close one with the new edge
 *    (its target reaches the open edge's source, which reaches the new
 *    edge's source) is false;
 *  - an and needed false whose children but one are surely true: that
 *    one is false.
 * An edge or a child false, the atoms that would make it true are false:
 * down through or-like nodes and through ands whose other children are
 * surely true (those join the premises), a few dozen nodes deep.  It
 * decides nothing itself: the search takes each implied atom as a
 * propagation with its premises as the reason.
 */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/xalloc.h"
#include "encoder/circuit_int.h"

void circuit_inc_require(struct circuit *c, int node)
{
	struct circuit_inc *in = c->inc;
	/* broken when it is surely false */
	circuit_inc_need(c, node, NEED_HI);
	size_t sp = 0;
	circuit_push(c, &sp, 2 * node + 1);
	while (sp) {
		int x = c->stack[--sp], u = x / 2, want = x & 1;
		unsigned char *mark = want ? in->required : in->req_false;
		if (u >= in->nodes || mark[u])
			continue;
		mark[u] = 1;
		in->prepared = 0;
		int k = c->kind[u], or_like = k == CK_NAMED || k == CK_OR || k == CK_HORN;
		int pass = -1; /* the children's: true, false, or none known */
		if (k == CK_NOT)
			pass = !want;
		else if (want && (k == CK_AND || (or_like && c->nkid[u] == 1)))
			pass = 1;
		else if (!want && or_like)
			pass = 0; /* an or false: each child false */
		for (int i = 0; pass >= 0 && i < c->nkid[u]; i++)
			circuit_push(c, &sp, 2 * circuit_kid(c, u, i) + pass);
	}
	/* an and it needs false reads its children's lower bounds to find
	 * the last one open; an acyclicity check it needs, its edges' */
	for (int u = 0; u < in->nodes; u++)
		if ((in->req_false[u] && c->kind[u] == CK_AND) ||
		    (in->required[u] && c->kind[u] == CK_ACYC))
			for (int k = 0; k < c->nkid[u]; k++)
				circuit_inc_need(c, circuit_kid(c, u, k), NEED_LO);
}

void circuit_imply_want(struct circuit_inc *in, int node, int value)
{
	XGROW(in->want, in->want_cap, in->nwant + 1, 64);
	in->want[in->nwant++] = 2 * node + value;
}

/* The edges of the forward or backward search's path to state st,
 * wanted true. */
static void want_path(struct circuit *c, int backward, int st)
{
	int ev = c->rc->n;
	const int *via = backward ? c->inc->bvia : c->inc->fvia;
	while (via[st] >= 0) {
		int slot = via[st] / 2;
		circuit_imply_want(c->inc, c->pool[slot], 1);
		/* the state before: the slot's other end (its source going
		 * forward, its target going backward) */
		int other = backward ? c->edge[slot] / 2 % ev : c->edge[slot] / 2 / ev;
		st = other * 2 + (via[st] & 1);
	}
}

/*
 * Edge node x would close a cycle: the atoms that would make it true
 * are implied false.  Down through or-like nodes (each child would make
 * it true) and through an and whose other children are surely true
 * (those join the premises).  How far it goes is bounded: it is a
 * propagation, not a proof.
 */
static void must_be_false(struct circuit *c, int x)
{
	struct circuit_inc *in = c->inc;
	int budget = 64, natoms = 0;
	size_t sp = 0, first_atom = in->nimp;
	if (++c->cur == 0) {
		memset(c->stamp, 0, sizeof(unsigned) * (size_t)c->n);
		c->cur = 1;
	}
	circuit_push(c, &sp, x);
	while (sp && budget-- > 0) {
		int y = c->stack[--sp];
		if (c->stamp[y] == c->cur || !c->hi[y] || c->lo[y])
			continue;
		c->stamp[y] = c->cur;
		int kind = c->kind[y];
		if (kind == CK_ATOM) {
			int atom = c->atom_of[y];
			if (in->atom_stamp[atom] == in->batch)
				continue;
			in->atom_stamp[atom] = in->batch;
			if (in->nimp == in->imp_cap) {
				in->imp_cap = xgrow_cap(in->imp_cap, in->nimp + 1, 64);
				in->imp_lit = xrealloc_array(in->imp_lit, in->imp_cap, sizeof(int));
				in->imp_first = xrealloc_array(in->imp_first, in->imp_cap, sizeof(int));
				in->imp_nprem = xrealloc_array(in->imp_nprem, in->imp_cap, sizeof(int));
			}
			in->imp_lit[in->nimp++] = 2 * atom;
			natoms++;
		} else if (kind == CK_OR || kind == CK_NAMED || kind == CK_HORN) {
			for (int k = 0; k < c->nkid[y]; k++)
				circuit_push(c, &sp, circuit_kid(c, y, k));
		} else if (kind == CK_AND) {
			int open = -1, nopen = 0;
			for (int k = 0; k < c->nkid[y] && nopen < 2; k++)
				if (!c->lo[circuit_kid(c, y, k)]) {
					open = circuit_kid(c, y, k);
					nopen++;
				}
			if (nopen != 1)
				continue;
			for (int k = 0; k < c->nkid[y]; k++)
				if (circuit_kid(c, y, k) != open)
					circuit_imply_want(in, circuit_kid(c, y, k), 1);
			circuit_push(c, &sp, open);
		}
	}
	if (!natoms)
		return;
	/* the premises, shared by the atoms found */
	int k = circuit_justify_atoms(c, in->want, (int)in->nwant);
	const int *atoms = circuit_justified_atoms(c);
	XGROW(in->imp_prem, in->prem_cap, in->nprem + (size_t)k, 256);
	size_t from = in->nprem;
	memcpy(in->imp_prem + in->nprem, atoms, sizeof(int) * (size_t)k);
	in->nprem += (size_t)k;
	for (size_t i = first_atom; i < in->nimp; i++) {
		in->imp_first[i] = (int)from;
		in->imp_nprem[i] = k;
	}
	in->implied += natoms;
}

/*
 * The check's edge in `slot` just became surely true and closes no cycle:
 * the forward search from its target that found none is the last one
 * made (circuit_inc.c's update).  An edge still open from i to j closes
 * one now if j reaches the new edge's source and its target reaches i
 * (through a strict edge somewhere): its atoms are implied false.  A few
 * such edges at most, and a bounded number of open edges looked at: a
 * propagation missed is only a conflict later.
 */
void circuit_imply_acyc(struct circuit *c, const struct inc_acyc *a, int slot)
{
	struct circuit_inc *in = c->inc;
	int ev = c->rc->n, e = c->edge[slot];
	int p = e / 2 / ev;
	int fstamp = (int)in->seen_cur;
	circuit_acyc_search(c, a, 1, p * 2, -1);
	int bstamp = (int)in->seen_cur;
	int found = 0, budget = 4096;
	for (int st = 0; st < 2 * ev && found < 8 && budget > 0; st++) {
		if (in->seen[st] != fstamp)
			continue;
		int i = st / 2, sf = st & 1;
		for (int k = a->first[i]; k < a->first[i + 1] && found < 8 && budget-- > 0; k++) {
			int cand = a->out[k], x = c->pool[cand];
			if (c->lo[x] || !c->hi[x])
				continue;
			int j = c->edge[cand] / 2 % ev, need = !(sf | (c->edge[cand] & 1));
			int sb = in->bseen[j * 2 + 1] == bstamp ? 1 :
				 in->bseen[j * 2] == bstamp && !need ? 0 : -1;
			if (sb < 0)
				continue;
			found++;
			in->nwant = 0;
			circuit_imply_want(in, c->pool[slot], 1);
			want_path(c, 0, st);
			want_path(c, 1, j * 2 + sb);
			must_be_false(c, x);
		}
	}
}

/* An and the axioms need false with one child left open: that child is
 * false, given the others. */
void circuit_imply_and(struct circuit *c, int u)
{
	struct circuit_inc *in = c->inc;
	if (!in->req_false[u] || c->lo[u] || !c->hi[u])
		return;
	int open = -1;
	for (int k = 0; k < c->nkid[u]; k++) {
		int v = circuit_kid(c, u, k);
		if (c->lo[v])
			continue;
		if (open >= 0)
			return; /* two open: nothing implied yet */
		open = v;
	}
	if (open < 0)
		return;
	in->nwant = 0;
	for (int k = 0; k < c->nkid[u]; k++)
		if (circuit_kid(c, u, k) != open)
			circuit_imply_want(in, circuit_kid(c, u, k), 1);
	must_be_false(c, open);
}

void circuit_imply_reset(struct circuit *c)
{
	struct circuit_inc *in = c->inc;
	if (++in->batch == 0) {
		memset(in->atom_stamp, 0, sizeof(unsigned) * ((size_t)c->natoms + 1));
		in->batch = 1;
	}
	in->nimp = in->nprem = 0;
}

int circuit_inc_implied(const struct circuit *c)
{
	return (int)c->inc->nimp;
}

int circuit_inc_implied_lit(const struct circuit *c, int k, const int **premises, int *n)
{
	const struct circuit_inc *in = c->inc;
	*premises = in->imp_prem + in->imp_first[k];
	*n = in->imp_nprem[k];
	return in->imp_lit[k];
}

