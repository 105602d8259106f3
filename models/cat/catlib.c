/*
 * catlib.c - what herd7 gives a cat model before its first line: the
 * primitive sets and relations (from the encoder's events and relations),
 * the tag sets, stdlib.cat, cross.cat and cos-opt.cat, written in C from
 * their documented meaning, and the application of functions (the
 * library's and the model's own).  What the encoder chooses where herd7
 * enumerates is told in catcomp.c's first comment.
 */
#include "models/cat/catcomp_int.h"

#include <string.h>
#include <strings.h>

#include "common/arena.h"

static struct val *arg_n(struct comp *c, const struct cat_expr *at, struct val *arg,
			 int n)
{
	if (n == 1)
		return arg;
	if (arg->k != VK_TUPLE || arg->nitems != n)
		return cc_err(c, at, "this function needs %d arguments", n), NULL;
	return arg;
}

/* generate_orders(S, pco) and generate_cos(pco) (over W): the candidate
 * pairs of a co order on S, per location, extending pco (see catcomp.c's
 * first comment). */
static struct val *generate_orders(struct comp *c, const struct cat_expr *at,
				   enum builtin b, struct val *arg)
{
	struct rel_ctx *rc = c->rc;
	struct val *sv, *pv;
	if (b == B_GENERATE_COS) {
		sv = cc_lookup(c->env, "W");
		sv = sv ? cc_force(c, sv) : NULL;
		pv = arg;
		if (!sv)
			return cc_err(c, at, "generate_cos needs W"), NULL;
	} else {
		if (!arg_n(c, at, arg, 2))
			return NULL;
		sv = arg->items[0];
		pv = arg->items[1];
	}
	set_t s = cc_as_set(c, at, sv);
	rel_t p = s ? cc_as_rel(c, at, pv) : NULL;
	if (!p)
		return NULL;
	struct val *v = cc_vnew(c, VK_CHOICE);
	v->r = rel_inter(rc, rel_cross(rc, s, s), c->enc->loc);
	v->order_set = s;
	v->order_base = p;
	v->over = sv->over | pv->over;
	v->under = sv->under | pv->under;
	return v;
}

static struct val *builtin(struct comp *c, const struct cat_expr *at, enum builtin b,
			   struct val *arg)
{
	struct rel_ctx *rc = c->rc;
	struct encoding *enc = c->enc;
	rel_t po = enc->po;
	switch (b) {
	case B_DOMAIN: case B_RANGE: {
		if (arg->k == VK_EMPTY)
			return arg;
		rel_t r = cc_as_rel(c, at, arg);
		if (!r)
			return NULL;
		return cc_vset(c, b == B_DOMAIN ? set_domain(rc, r) : set_range(rc, r),
			    arg->over, arg->under);
	}
	case B_FENCEREL: { /* po ; [B] ; po */
		set_t s = cc_as_set(c, at, arg);
		return s ? cc_vrel(c, rel_seq(rc, rel_restrict(rc, NULL, po, s), po),
				arg->over, arg->under) : NULL;
	}
	case B_TOID: {
		set_t s = cc_as_set(c, at, arg);
		return s ? cc_vrel(c, rel_id(rc, s), arg->over, arg->under) : NULL;
	}
	case B_CTRLCFENCE: { /* ctrl to a CFENCE event, then po */
		set_t s = cc_as_set(c, at, arg);
		return s ? cc_vrel(c, rel_seq(rc, rel_restrict(rc, NULL, enc->ctrl, s), po),
				arg->over, arg->under) : NULL;
	}
	case B_IMPLY: { /* ~A | B */
		if (!arg_n(c, at, arg, 2))
			return NULL;
		set_t a = cc_as_set(c, at, arg->items[0]), s2 = a ? cc_as_set(c, at, arg->items[1]) : NULL;
		return s2 ? cc_vset(c, set_union(rc, set_diff(rc, set_all(rc), a), s2),
				 arg->items[0]->under | arg->items[1]->over,
				 arg->items[0]->over | arg->items[1]->under) : NULL;
	}
	case B_NODETOUR: case B_SINGLESTEP: { /* R1 \ (R2 ; R3) */
		struct val *v1 = arg, *v2 = arg, *v3 = arg;
		if (b == B_NODETOUR) {
			if (!arg_n(c, at, arg, 3))
				return NULL;
			v1 = arg->items[0], v2 = arg->items[1], v3 = arg->items[2];
		}
		rel_t r1 = cc_as_rel(c, at, v1), r2 = r1 ? cc_as_rel(c, at, v2) : NULL;
		rel_t r3 = r2 ? cc_as_rel(c, at, v3) : NULL;
		return r3 ? cc_vrel(c, rel_diff(rc, r1, rel_seq(rc, r2, r3)),
				 v1->over | v2->under | v3->under,
				 v1->under | v2->over | v3->over) : NULL;
	}
	case B_MAP: {
		/* curried: map f gives a function of the set */
		struct val *v = cc_vnew(c, VK_TUPLE);
		v->nitems = -1; /* marks "map f, waiting for its set" */
		v->items = arena_alloc(c->a, sizeof *v->items);
		v->items[0] = arg;
		return v;
	}
	case B_DIFFERENT_VALUES: {
		rel_t r = cc_as_rel(c, at, arg);
		if (!r)
			return NULL;
		rel_t out = lkmm_different_values(enc, r);
		return cc_vrel(c, out, arg->over, arg->under);
	}
	case B_CROSS: {
		/* a collection of collections of relations: the candidates */
		struct val *u = arg;
		while (u->k == VK_COLL)
			u = u->u;
		rel_t r = cc_as_rel(c, at, u);
		if (!r)
			return NULL;
		struct val *v = cc_vnew(c, VK_CHOICE);
		v->r = r;
		v->keys = arg->k == VK_COLL ? arg->keys : NULL;
		v->over = u->over;
		v->under = u->under;
		return v;
	}
	case B_GENERATE_ORDERS: case B_GENERATE_COS:
		return generate_orders(c, at, b, arg);
	}
	return cc_err(c, at, "internal error: unknown library function"), NULL;
}

struct val *cc_apply(struct comp *c, const struct cat_expr *at, struct val *f,
			 struct val *arg)
{
	if (c->depth > 64)
		return cc_err(c, at, "unsupported: calls nest deeper than 64"), NULL;
	if (f->k == VK_BUILTIN)
		return builtin(c, at, f->b, arg);
	if (f->k == VK_TUPLE && f->nitems == -1) {
		/* map g S: g applied to S as a whole (see the top) */
		struct val *g = f->items[0];
		if (arg->k == VK_EMPTY) {
			struct val *v = cc_vnew(c, VK_COLL);
			v->u = arg;
			return v;
		}
		struct val *img = cc_apply(c, at, g, arg);
		if (!img)
			return NULL;
		struct val *v = cc_vnew(c, VK_COLL);
		v->u = img;
		if (arg->k == VK_SET)
			v->keys = arg->s;
		return v;
	}
	if (f->k != VK_FUN)
		return cc_err(c, at, "type error: applying %s, not a function", cc_kind_name(f->k)), NULL;
	const struct cat_expr *fn = f->fun;
	struct env *saved = c->env;
	c->env = f->fenv;
	if (fn->nparams == 1) {
		cc_bind(c, fn->params[0], arg);
	} else {
		if (arg->k != VK_TUPLE || arg->nitems != fn->nparams) {
			c->env = saved;
			return cc_err(c, at, "this function takes %d arguments", fn->nparams), NULL;
		}
		for (int i = 0; i < fn->nparams; i++)
			cc_bind(c, fn->params[i], arg->items[i]);
	}
	const char *file = c->file;
	c->depth++;
	struct val *v = cc_eval(c, fn->a);
	c->depth--;
	c->file = file;
	c->env = saved;
	return v;
}

/* The events herd7's tags name: the encoder's classes (see the top). */
static int tag_class(const char *tag)
{
	static const struct { const char *tag; enum ev_class c; } tab[] = {
		{"once", EVC_ONCE}, {"acquire", EVC_ACQUIRE}, {"release", EVC_RELEASE},
		{"noreturn", EVC_NORETURN}, {"mb", EVC_MB}, {"rmb", EVC_RMB},
		{"wmb", EVC_WMB}, {"barrier", EVC_BARRIER}, {"rcu-lock", EVC_RCU_LOCK},
		{"rcu-unlock", EVC_RCU_UNLOCK}, {"sync-rcu", EVC_SYNC_RCU},
		{"before-atomic", EVC_BEFORE_ATOMIC}, {"after-atomic", EVC_AFTER_ATOMIC},
		{"after-spinlock", EVC_AFTER_SPINLOCK},
		{"after-unlock-lock", EVC_AFTER_UNLOCK_LOCK},
		{"srcu-lock", EVC_SRCU_LOCK}, {"srcu-unlock", EVC_SRCU_UNLOCK},
		{"sync-srcu", EVC_SYNC_SRCU},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcasecmp(tab[i].tag, tag) == 0)
			return (int)tab[i].c;
	return -1;
}

/* The events tagged t: by their model tags when the program was lowered
 * with the model's .def (the tag as the .def spells it), else the
 * encoder's class of that name (tag_class). */
set_t cc_tag_set(struct comp *c, const char *t)
{
	const struct ir_program *p = c->enc->prog;
	set_t s = set_new(c->rc);
	if (!p->tag_names) {
		int k = tag_class(t);
		return k >= 0 ? c->enc->cls[k] : s;
	}
	for (int b = 0; b < p->ntags; b++) {
		if (strcmp(p->tag_names[b], t) != 0)
			continue;
		for (int e = 0; e < c->enc->n; e++)
			if (c->enc->ev[e].tags >> b & 1)
				s[e] = c->enc->guard[e];
	}
	return s;
}

static void bind_builtin(struct comp *c, const char *name, enum builtin b)
{
	struct val *v = cc_vnew(c, VK_BUILTIN);
	v->b = b;
	cc_bind(c, name, v);
}

/* cross.cat: the candidate generators (their meaning, see the top). */
void cc_lib_cross(struct comp *c)
{
	bind_builtin(c, "cross", B_CROSS);
	bind_builtin(c, "generate_orders", B_GENERATE_ORDERS);
	bind_builtin(c, "generate_cos", B_GENERATE_COS);
}

static struct val *get(struct comp *c, const char *name)
{
	struct val *v = cc_lookup(c->env, name);
	if (!v)
		diag_error(c->d, c->file, 0, 0, "the model uses '%s' before defining it", name);
	return v ? cc_force(c, v) : NULL;
}

/* cos-opt.cat: co generated per location over W, extending the order the
 * program already shows (po-loc between writes, writes read by po-later
 * or po-earlier accesses, RMW atomicity, co0), then coi, coe, fr, fri,
 * fre.  The base must be acyclic (herd7's ConsCo check). */
void cc_lib_cos_opt(struct comp *c, const struct cat_stmt *at)
{
	struct rel_ctx *rc = c->rc;
	struct val *W = get(c, "W"), *R = W ? get(c, "R") : NULL;
	struct val *rf = R ? get(c, "rf") : NULL, *co0 = rf ? get(c, "co0") : NULL;
	if (!co0)
		return;
	set_t w = cc_as_set(c, NULL, W), r = w ? cc_as_set(c, NULL, R) : NULL;
	rel_t rfr = r ? cc_as_rel(c, NULL, rf) : NULL, c0 = rfr ? cc_as_rel(c, NULL, co0) : NULL;
	if (!c0)
		return;
	rel_t po_loc = rel_inter(rc, c->enc->po, c->enc->loc);
	rel_t id = rel_id(rc, set_all(rc));
	rel_t invrf = rel_inv(rc, rfr);
	rel_t ww = rel_restrict(rc, w, po_loc, w);
	rel_t rw = rel_seq(rc, rfr, rel_restrict(rc, r, po_loc, w));
	rel_t wr = rel_diff(rc, rel_seq(rc, rel_restrict(rc, w, po_loc, r), invrf), id);
	rel_t rr = rel_diff(rc, rel_seq3(rc, rfr, rel_restrict(rc, r, po_loc, r), invrf), id);
	rel_t rmwco = rel_restrict(rc, w, rfr, set_inter(rc, r, w));
	rel_t base = rel_union(rc, rel_union3(rc, ww, rw, wr), rel_union3(rc, rr, rmwco, c0));
	uint64_t over = W->over | R->over | rf->over | co0->over;
	uint64_t under = W->under | R->under | rf->under | co0->under;
	c->bad |= under;
	cc_add_axiom(c, "ConsCo", MC_ACYCLIC, rel_acyclic(rc, base, "ConsCo"));
	rel_t lin = rel_inter(rc, rel_cross(rc, w, w), c->enc->loc);
	rel_t co = rel_diff(rc, rel_inter(rc, c->enc->co, lin), id);
	cc_add_axiom(c, "co-extends-base", MC_EMPTY,
		  rel_is_empty(rc, rel_diff(rc, rel_diff(rc, rel_inter(rc, base, lin), id), co)));
	rel_t coi = rel_inter(rc, co, c->enc->int_);
	rel_t fr = rel_diff(rc, rel_seq(rc, invrf, co), id);
	rel_t fri = rel_inter(rc, fr, c->enc->int_);
	/* the encoder's co is a strict order per location: so is co; over
	 * every plain write, it is at least the initial co, and then fr at
	 * least the initial fr if rf is at least the initial rf */
	struct val *cov = cc_vrel(c, co, over, under);
	cov->transitive = 1;
	cov->contains = W->contains & HAS_W ? HAS_CO : 0;
	cc_bind(c, "co", cov);
	cc_bind(c, "coi", cc_vrel(c, coi, over, under));
	cc_bind(c, "coe", cc_containing(cc_vrel(c, rel_diff(rc, co, coi), over, under),
				  cov->contains & HAS_CO ? HAS_COE : 0));
	cc_bind(c, "fr", cc_containing(cc_vrel(c, fr, over, under),
				 (W->contains & HAS_W) && (rf->contains & HAS_RF) ? HAS_FR : 0));
	cc_bind(c, "fri", cc_vrel(c, fri, over, under));
	cc_bind(c, "fre", cc_containing(cc_vrel(c, rel_diff(rc, fr, fri), over, under),
				  (W->contains & HAS_W) && (rf->contains & HAS_RF) ? HAS_FRE : 0));
	(void)at;
}

/* herd7's primitive sets and relations, and stdlib.cat. */
void cc_initial_env(struct comp *c)
{
	struct encoding *enc = c->enc;
	struct rel_ctx *rc = c->rc;
	set_t *cls = enc->cls;
	set_t lock_events = set_union(rc, set_union(rc, cls[EVC_LKR], cls[EVC_LKW]),
				      set_union(rc, set_union(rc, cls[EVC_UL], cls[EVC_LF]),
						set_union(rc, cls[EVC_RL], cls[EVC_RU])));
	set_t R = set_diff(rc, cls[EVC_R], lock_events);
	set_t W = set_diff(rc, cls[EVC_W], lock_events);
	static const struct { const char *name; enum ev_class k; } sets[] = {
		{"F", EVC_F}, {"IW", EVC_IW}, {"RMW", EVC_RMW}, {"LKR", EVC_LKR},
		{"LKW", EVC_LKW}, {"UL", EVC_UL}, {"LF", EVC_LF}, {"RL", EVC_RL},
		{"RU", EVC_RU}, {"SRCU", EVC_SRCU},
	};
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		cc_bind(c, sets[i].name, cc_vset(c, cls[sets[i].k], 0, 0));
	cc_bind(c, "R", cc_vset(c, R, 0, 0));
	cc_bind(c, "W", cc_containing(cc_vset(c, W, 0, 0), HAS_W));
	cc_bind(c, "M", cc_containing(cc_vset(c, set_union(rc, R, W), 0, 0), HAS_W));
	/* FW, herd7's final writes: only lock.cat's lock-final flag asks
	 * about them, for the locations the final condition observes; as in
	 * models/lkmm_lock.c, the initial write of such a location stands for
	 * its final write (same location). */
	set_t FW = set_new(rc);
	for (int i = 0; i < enc->prog->nobserved; i++)
		if (enc->prog->observed[i].thread < 0)
			FW[enc->prog->observed[i].index] = rc->t;
	cc_bind(c, "FW", cc_vset(c, FW, 0, 0));
	rel_t id = rel_id(rc, set_all(rc));
	cc_bind(c, "id", cc_vrel(c, id, 0, 0));
	cc_bind(c, "po", cc_containing(cc_vrel(c, enc->po, 0, 0), HAS_PO_LOC));
	cc_bind(c, "loc", cc_containing(cc_vrel(c, enc->loc, 0, 0), HAS_PO_LOC));
	cc_bind(c, "int", cc_vrel(c, enc->int_, 0, 0));
	cc_bind(c, "ext", cc_containing(cc_vrel(c, enc->ext, 0, 0), HAS_EXT));
	cc_bind(c, "addr", cc_vrel(c, enc->addr, 0, 0));
	cc_bind(c, "data", cc_vrel(c, enc->data, 0, 0));
	cc_bind(c, "ctrl", cc_vrel(c, enc->ctrl, 0, 0));
	rel_t lk_rmw = rel_restrict(rc, cls[EVC_LKR], enc->rmw, cls[EVC_LKW]);
	cc_bind(c, "rmw", cc_containing(cc_vrel(c, rel_diff(rc, enc->rmw, lk_rmw), 0, 0), HAS_RMW));
	rel_t rf = rel_restrict(rc, NULL, enc->rf, R);
	rel_t co = rel_restrict(rc, W, enc->co, W);
	rel_t fr = rel_diff(rc, rel_seq(rc, rel_inv(rc, rf), co), id);
	cc_bind(c, "rf", cc_containing(cc_vrel(c, rf, 0, 0), HAS_RF));
	cc_bind(c, "co", cc_containing(cc_vrel(c, co, 0, 0), HAS_CO));
	cc_bind(c, "fr", cc_containing(cc_vrel(c, fr, 0, 0), HAS_FR));
	cc_bind(c, "coi", cc_vrel(c, rel_inter(rc, co, enc->int_), 0, 0));
	cc_bind(c, "coe", cc_containing(cc_vrel(c, rel_inter(rc, co, enc->ext), 0, 0), HAS_COE));
	cc_bind(c, "fri", cc_vrel(c, rel_inter(rc, fr, enc->int_), 0, 0));
	cc_bind(c, "fre", cc_containing(cc_vrel(c, rel_inter(rc, fr, enc->ext), 0, 0), HAS_FRE));
	bind_builtin(c, "domain", B_DOMAIN);
	bind_builtin(c, "range", B_RANGE);
	bind_builtin(c, "different-values", B_DIFFERENT_VALUES);
	/* stdlib.cat */
	cc_bind(c, "emptyset", cc_vset(c, set_new(rc), 0, 0));
	cc_bind(c, "po-loc", cc_containing(cc_vrel(c, rel_inter(rc, enc->po, enc->loc), 0, 0),
				     HAS_PO_LOC));
	cc_bind(c, "rfe", cc_vrel(c, rel_inter(rc, rf, enc->ext), 0, 0));
	cc_bind(c, "rfi", cc_vrel(c, rel_inter(rc, rf, enc->int_), 0, 0));
	/* co0: initial writes first; herd7 also puts final writes last,
	 * which only matters for its co generation (the encoder's here) */
	cc_bind(c, "co0", cc_vrel(c, rel_inter(rc, enc->loc, rel_cross(rc, cls[EVC_IW],
				set_diff(rc, W, cls[EVC_IW]))), 0, 0));
	bind_builtin(c, "toid", B_TOID);
	bind_builtin(c, "fencerel", B_FENCEREL);
	bind_builtin(c, "ctrlcfence", B_CTRLCFENCE);
	bind_builtin(c, "imply", B_IMPLY);
	bind_builtin(c, "nodetour", B_NODETOUR);
	bind_builtin(c, "singlestep", B_SINGLESTEP);
	bind_builtin(c, "map", B_MAP);
}
