/*
 * lkmm_shape.c - the built-in LKMM in the shape every model has (struct
 * lkmm): its named axioms, flags and relations from what lkmm_bell.c,
 * lkmm_lock.c and lkmm_cat.c built, and the data explanations are written
 * from: how an edge of hb, pb's and rb's heads, prop and cumul-fence is
 * written in the relations of linux-kernel.cat, and the label relations a
 * step is named by (shared with a model read from cat files, whose lets of
 * the same names the cat compiler keeps).  It builds no formula.
 */
#include "models/lkmm_parts.h"

#include <string.h>

#include "common/arena.h"
#include "common/check.h"

static const char *axiom_names[AX_COUNT] = {
	"coherence", "atomic", "happens-before", "propagation", "rcu",
	"plain-coherence", "lock-nest", "unmatched-locks", "executes-before",
};
static const char *flag_names[FL_COUNT] = {
	"data-race", "invalid-sleep", "lock-final", "mixed-accesses",
	"mixed-lock-accesses", "srcu-bad-nesting", "unbalanced-rcu-locking",
	"unbalanced-srcu-locking", "unmatched-unlock", "unpaired-LKR",
	"unpaired-LKW",
};
static const char *rel_names[LR_COUNT] = {
	"ppo", "hb", "pb", "rb", "strong-fence", "prop", "rfe", "coe", "fre",
	"rfi", "coi", "fri", "po-loc", "rmw", "addr", "data", "ctrl", "mb", "gp",
	"rcu-fence", "wmb", "rmb", "po-rel", "acq-po", "po-unlock-lock-po",
	"cumul-fence", "overwrite & ext", "fence", "po-loc | com",
	"plain-incoherence", "rmw & (fre ; coe)", "data race",
};

const char *lkmm_rel_name(enum lkmm_rel r) { return rel_names[r]; }

/* A step is named by the first of these holding. */
const struct model_label lkmm_labels[] = {
	{LR_RFE, MF_NONE, 0}, {LR_FRE, MF_NONE, 0}, {LR_COE, MF_NONE, 0},
	{LR_RFI, MF_NONE, 0}, {LR_FRI, MF_NONE, 0}, {LR_COI, MF_NONE, 0},
	{LR_RMW, MF_NONE, 0}, {LR_ADDR, MF_NONE, 0}, {LR_DATA, MF_NONE, 0},
	{LR_CTRL, MF_NONE, 0},
	{LR_MB, MF_BETWEEN, EVC_BIT(EVC_MB) | EVC_BIT(EVC_BEFORE_ATOMIC) |
		EVC_BIT(EVC_AFTER_ATOMIC) | EVC_BIT(EVC_AFTER_SPINLOCK) |
		EVC_BIT(EVC_AFTER_UNLOCK_LOCK)},
	{LR_GP, MF_BETWEEN, EVC_BIT(EVC_SYNC_RCU) | EVC_BIT(EVC_SYNC_SRCU)},
	{LR_RCU_FENCE, MF_NONE, 0},
	{LR_WMB, MF_BETWEEN, EVC_BIT(EVC_WMB)}, {LR_RMB, MF_BETWEEN, EVC_BIT(EVC_RMB)},
	{LR_PO_REL, MF_TARGET, 0}, {LR_ACQ_PO, MF_SOURCE, 0},
	{LR_PO_UNLOCK_LOCK_PO, MF_BETWEEN, EVC_BIT(EVC_UL)},
	{LR_PO_LOC, MF_NONE, 0}, {LR_FENCE, MF_NONE, 0}, {LR_PPO, MF_NONE, 0},
};
const int lkmm_nlabels = sizeof lkmm_labels / sizeof lkmm_labels[0];

#define ONE(r) {MP_ONE, r}
#define LABEL {MP_LABEL, -1}
/* hb = ppo | rfe | ((prop \ id) & int) */
static const struct model_way hb_ways[] = {{1, {LABEL}}, {1, {ONE(LR_PROP)}}};
/* pb-head = prop ; strong-fence, rb-head = prop ; rcu-fence */
static const struct model_way pb_ways[] = {{2, {ONE(LR_PROP), ONE(LR_STRONG_FENCE)}}};
static const struct model_way rb_ways[] = {{2, {ONE(LR_PROP), ONE(LR_RCU_FENCE)}}};
/* prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ; [Marked] ; rfe? */
static const struct model_way prop_ways[] = {
	{3, {{MP_OPT, LR_OVERWRITE_EXT}, {MP_STAR, LR_CUMUL_FENCE}, {MP_OPT, LR_RFE}}},
};
/* cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
 * po-unlock-lock-po) ; [Marked], A-cumul(r) = (rfe ; [Marked])? ; r */
static const struct model_way cumul_fence_ways[] = {{1, {LABEL}}, {2, {ONE(LR_RFE), LABEL}}};
/* rmw & (fre ; coe) */
static const struct model_way atomic_ways[] = {{2, {ONE(LR_FRE), ONE(LR_COE)}}};
#undef ONE
#undef LABEL

static const struct {
	enum lkmm_rel rel;
	const struct model_way *ways;
	int nways;
} rel_ways[] = {
#define WAYS(r, w) {r, w, sizeof w / sizeof w[0]}
	WAYS(LR_HB, hb_ways), WAYS(LR_PB, pb_ways), WAYS(LR_RB, rb_ways),
	WAYS(LR_PROP, prop_ways), WAYS(LR_CUMUL_FENCE, cumul_fence_ways),
	WAYS(LR_ATOMIC_VIOLATION, atomic_ways),
#undef WAYS
};

/* The relation after the named ones: the executes-before axiom's xb. */
#define REL_XB LR_COUNT

/* Each axiom's check and relation; the acyclic ones of separate mode
 * have their cycles through the head of pb or rb, continuing in hb and
 * the other heads. */
static const int coherence_parts[] = {LR_COM}, hb_parts[] = {LR_HB},
	pb_parts[] = {LR_PB, LR_HB}, rb_parts[] = {LR_RB, LR_HB, LR_PB};
static const struct {
	enum model_check kind;
	int rel;
	const int *parts;
	int nparts;
	const char *what;
} axioms[AX_COUNT] = {
#define PARTS(p) p, sizeof p / sizeof p[0]
	[AX_COHERENCE] = {MC_ACYCLIC, LR_COM, PARTS(coherence_parts), "cycle"},
	[AX_ATOMIC] = {MC_EMPTY, LR_ATOMIC_VIOLATION, NULL, 0, "rmw & (fre ; coe)"},
	[AX_HAPPENS_BEFORE] = {MC_ACYCLIC, LR_HB, PARTS(hb_parts), "hb cycle"},
	[AX_PROPAGATION] = {MC_ACYCLIC, LR_PB, PARTS(pb_parts), "pb cycle"},
	[AX_RCU] = {MC_ACYCLIC, LR_RB, PARTS(rb_parts), "rb cycle"},
	[AX_PLAIN_COHERENCE] = {MC_EMPTY, LR_PLAIN_INCOH, NULL, 0, NULL},
	[AX_LOCK_NEST] = {MC_EMPTY, -1, NULL, 0, NULL},
	[AX_UNMATCHED_LOCKS] = {MC_EMPTY, -1, NULL, 0, NULL},
	[AX_EXECUTES_BEFORE] = {MC_ACYCLIC, REL_XB, NULL, 0, NULL},
#undef PARTS
};

static void shape_rels(struct encoding *enc, const struct lkmm_built *b, struct lkmm *m)
{
	struct model_rel *rel = arena_alloc(enc->arena, (LR_COUNT + 1) * sizeof *rel);
	memset(rel, 0, (LR_COUNT + 1) * sizeof *rel);
	for (int i = 0; i < LR_COUNT; i++)
		rel[i] = (struct model_rel){.name = rel_names[i], .r = b->rel[i]};
	for (size_t i = 0; i < sizeof rel_ways / sizeof rel_ways[0]; i++) {
		rel[rel_ways[i].rel].ways = rel_ways[i].ways;
		rel[rel_ways[i].rel].nways = rel_ways[i].nways;
	}
	rel[LR_PLAIN_INCOH].self = 1;
	rel_t xb = b->acyclic[AX_EXECUTES_BEFORE];
	rel[REL_XB] = (struct model_rel){.name = "xb", .r = xb ? xb : rel_new(&enc->rc)};
	m->rel = rel;
	m->nrels = LR_COUNT + 1;
}

void lkmm_shape(struct encoding *enc, const struct lkmm_built *b, struct lkmm *m)
{
	memset(m, 0, sizeof *m);
	shape_rels(enc, b, m);
	struct model_axiom *ax = arena_alloc(enc->arena, AX_COUNT * sizeof *ax);
	for (int a = 0; a < AX_COUNT; a++)
		ax[a] = (struct model_axiom){
			.name = axiom_names[a], .kind = axioms[a].kind, .holds = b->axiom[a],
			.rel = axioms[a].rel, .parts = axioms[a].parts,
			.nparts = axioms[a].nparts, .what = axioms[a].what};
	m->axiom = ax;
	m->naxioms = AX_COUNT;
	struct model_flag *fl = arena_alloc(enc->arena, FL_COUNT * sizeof *fl);
	for (int f = 0; f < FL_COUNT; f++)
		fl[f] = (struct model_flag){flag_names[f], b->flag[f]};
	m->flag = fl;
	m->nflags = FL_COUNT;
	m->label = lkmm_labels;
	m->nlabels = lkmm_nlabels;
	m->race_flag = FL_DATA_RACE;
	m->race = LR_RACE;
	m->rcu_unconverged = b->rcu_unconverged;
}
