/*
 * lkmm.c - the LKMM of Linux 6.1, written in lkmmc's relation algebra: the
 * entry points of the built-in model, which call its three parts in the
 * order herd7 reads the files, and the formula of a broken axiom.
 *
 * Read the parts next to tools/memory-model/linux-kernel.bell, lock.cat and
 * linux-kernel.cat: lkmm_bell.c, lkmm_lock.c (lock.cat, which
 * linux-kernel.cat includes first) and lkmm_cat.c, one field of struct
 * lkmm_rels (lkmm_parts.h) per named relation, with the cat's names ('-'
 * becomes '_').  Each part says what herd7 computes by enumeration and we
 * compute differently.
 *
 * Why the closures are exact.  cumul-fence*, po? ; (hb | pb)* in rcu-link,
 * xbstar and the let rec rcu-order are encoded with Horn constraints
 * (rel_plus, rel_star_from, rel_seq_star, rel_plus_walks for cumul-fence*,
 * whose variables at the
 * locks' middle events are closure variables too): their variables can
 * only be larger than the least
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

#include <stddef.h>
#include <string.h>

#include "common/arena.h"
#include "common/check.h"
#include "models/cat/cat.h"
#include "models/lkmm_parts.h"

rel_t model_rel_named(const struct lkmm *m, const char *name)
{
	for (int i = 0; i < m->nrels; i++)
		if (strcmp(m->rel[i].name, name) == 0)
			return m->rel[i].r;
	return NULL;
}

/* The relations explanations print that are fields of struct lkmm_rels;
 * keep_rels() computes the others (fri, overwrite & ext, po-loc | com). */
static const struct {
	enum lkmm_rel which; /* the slot of struct lkmm's rel[] */
	size_t field;        /* offsetof its relation in struct lkmm_rels */
} kept_fields[] = {
#define KEEP(which, name) {which, offsetof(struct lkmm_rels, name)}
	KEEP(LR_PPO, ppo), KEEP(LR_HB, hb), KEEP(LR_PB, pb), KEEP(LR_RB, rb),
	KEEP(LR_STRONG_FENCE, strong_fence), KEEP(LR_PROP, prop),
	KEEP(LR_RFE, rfe), KEEP(LR_COE, coe), KEEP(LR_FRE, fre),
	KEEP(LR_RFI, rfi), KEEP(LR_COI, coi), KEEP(LR_PO_LOC, po_loc),
	KEEP(LR_RMW, rmw), KEEP(LR_ADDR, addr), KEEP(LR_DATA, data),
	KEEP(LR_CTRL, ctrl), KEEP(LR_MB, mb), KEEP(LR_GP, gp),
	KEEP(LR_RCU_FENCE, rcu_fence), KEEP(LR_WMB, wmb), KEEP(LR_RMB, rmb),
	KEEP(LR_PO_REL, po_rel), KEEP(LR_ACQ_PO, acq_po),
	KEEP(LR_PO_UNLOCK_LOCK_PO, po_unlock_lock_po),
	KEEP(LR_CUMUL_FENCE, cumul_fence), KEEP(LR_FENCE, fence),
#undef KEEP
};

/* Fill m->rel[] for explanations, and make every unset relation empty and
 * every unset flag false. */
static void keep_rels(struct encoding *enc, const struct lkmm_rels *r,
		      struct lkmm_built *m)
{
	struct rel_ctx *rc = &enc->rc;
	for (size_t i = 0; i < sizeof kept_fields / sizeof kept_fields[0]; i++)
		m->rel[kept_fields[i].which] =
			*(const rel_t *)((const char *)r + kept_fields[i].field);
	m->rel[LR_FRI] = I(r->fr, r->int_);
	m->rel[LR_OVERWRITE_EXT] = I(r->overwrite, r->ext);
	m->rel[LR_COM] = U(r->po_loc, r->com);
	for (int i = 0; i < LR_COUNT; i++)
		if (!m->rel[i])
			m->rel[i] = rel_new(rc);
	for (int f = 0; f < FL_COUNT; f++)
		if (!m->flag[f])
			m->flag[f] = Z3_mk_false(enc->z);
}

/* The model over enc: herd7's built-ins from the encoder, then the bell,
 * lock.cat and linux-kernel.cat.  rcu_stages 0 builds rcu-order from Horn
 * variables, more unrolls it into that many Kleene stages (exact). */
static int build(struct encoding *enc, int separate, int rcu_stages,
		 struct lkmm *out, struct diag *d)
{
	struct rel_ctx *rc = &enc->rc;
	struct lkmm_rels r = {0};
	struct lkmm_built built = {0}, *m = &built;
	r.po = enc->po, r.loc = enc->loc, r.int_ = enc->int_, r.ext = enc->ext;
	r.addr = enc->addr, r.data = enc->data, r.ctrl = enc->ctrl;
	r.po_loc = I(r.po, r.loc);
	r.id = ID(set_all(rc));
	if (!lkmm_bell(enc, &r, m, d))
		return 0;
	lkmm_lock(enc, &r, m);
	lkmm_cat(enc, &r, m, separate, rcu_stages);
	keep_rels(enc, &r, m);
	int three = m->axiom[AX_HAPPENS_BEFORE] || m->axiom[AX_PROPAGATION] || m->axiom[AX_RCU];
	CHECK(separate ? !m->axiom[AX_EXECUTES_BEFORE] : !three,
	      "xb and its three axioms together (separate %d)", separate);
	lkmm_shape(enc, m, out);
	return 1;
}

/* The relation algebra works over the encoding's own events: every
 * relation the model builds is rc->n by rc->n, indexed by event. */
static void check_sizes(const struct encoding *enc)
{
	CHECK(enc->rc.n == enc->n && enc->rc.guard == enc->guard,
	      "the relations are over %d events, the encoding has %d", enc->rc.n, enc->n);
}

static int rel_index_ok(const struct lkmm *m, int i)
{
	return i >= 0 && i < m->nrels;
}

/* What the checker, explanations and the problem's set-up rely on in a
 * built model, whichever it is: the named relations first, each axiom
 * named with its relation (if kept) and parts among them, each flag a
 * formula, named in herd7's order, once each. */
static void check_shape(const struct lkmm *m)
{
	CHECK(m->nrels >= LR_COUNT && m->naxioms >= 0 && m->nflags >= 0,
	      "a model of %d relations, %d axioms, %d flags", m->nrels, m->naxioms, m->nflags);
	for (int i = 0; i < m->nrels; i++)
		CHECK(m->rel[i].name && m->rel[i].r, "relation %d: no name or no matrix", i);
	for (int a = 0; a < m->naxioms; a++) {
		const struct model_axiom *ax = &m->axiom[a];
		CHECK(ax->name && (ax->rel == -1 || (rel_index_ok(m, ax->rel) && !ax->negated)),
		      "axiom %d: no name, or relation %d", a, ax->rel);
		for (int p = 0; p < ax->nparts; p++)
			CHECK(ax->kind == MC_ACYCLIC && rel_index_ok(m, ax->parts[p]),
			      "axiom %s: part %d", ax->name, ax->parts[p]);
	}
	for (int l = 0; l < m->nlabels; l++)
		CHECK(rel_index_ok(m, m->label[l].rel), "label %d", l);
	CHECK(m->race_flag < m->nflags && (m->race_flag < 0 || rel_index_ok(m, m->race)),
	      "race flag %d, relation %d", m->race_flag, m->race);
	for (int f = 0; f < m->nflags; f++)
		CHECK(m->flag[f].raised && m->flag[f].name, "flag %d has no formula or name", f);
	if (check_deep)
		for (int f = 1; f < m->nflags; f++)
			CHECK(strcmp(m->flag[f - 1].name, m->flag[f].name) < 0,
			      "flags out of order: %s before %s", m->flag[f - 1].name,
			      m->flag[f].name);
}

int model_build(struct cat_model *model, struct encoding *enc, int separate,
		struct lkmm *m, struct diag *d)
{
	check_sizes(enc);
	int ok = model ? cat_model_build(model, enc, m, d) : lkmm_build(enc, separate, m, d);
	if (ok)
		check_shape(m);
	return ok;
}

int model_coherent(const struct cat_model *model)
{
	return !model || cat_model_coherent(model);
}

int model_atomic(const struct cat_model *model)
{
	return !model || cat_model_atomic(model);
}

int model_build_exact(struct cat_model *model, struct encoding *enc,
		      int rcu_stages, struct lkmm *m, struct diag *d)
{
	check_sizes(enc);
	int ok = model ? cat_model_build_exact(model, enc, rcu_stages, m, d)
		: lkmm_build_exact(enc, rcu_stages, m, d);
	if (ok)
		check_shape(m);
	return ok;
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

Z3_ast lkmm_violation(struct encoding *enc, const struct lkmm *m)
{
	struct rel_ctx *rc = &enc->rc;
	Z3_ast *broken = arena_alloc(enc->arena, ((size_t)m->naxioms + 1) * sizeof *broken);
	unsigned k = 0;
	for (int a = 0; a < m->naxioms; a++) {
		const struct model_axiom *ax = &m->axiom[a];
		if (!ax->holds)
			continue;
		if (ax->nparts > 1)
			return NULL; /* acyclic through: not its relation's cycle */
		if (ax->kind == MC_ACYCLIC && ax->rel >= 0)
			broken[k++] = rel_cyclic(rc, m->rel[ax->rel].r, ax->name);
		else
			broken[k++] = rel_not(rc, ax->holds);
	}
	return k ? Z3_mk_or(enc->z, k, broken) : Z3_mk_false(enc->z);
}
