/*
 * catcomp.c - compile a parsed cat model (models/cat/cat.h) over one encoding
 * into the relation algebra of encoder/rel.h: the statements (axioms,
 * flags, includes, with ... from) and the compilations of a model (the
 * eager check, the builds for a test).  This comment says how the whole
 * compiler works; its parts are catload.c (loading from disk), catval.c
 * (values), catlet.c (let, let rec), cateval.c (expressions) and catlib.c
 * (herd7's primitives and library), sharing catcomp_int.h.
 *
 * The compiler is an evaluator over symbolic values: an event set is a
 * set_t (one formula per event), a relation a rel_t, and the model's
 * statements run in order in an environment of names.  Axioms become
 * formulas that must hold, flags formulas the checker asks about, exactly
 * as models/lkmm_bell.c, lkmm_lock.c and lkmm_cat.c build them by hand for
 * the built-in 6.1 model.
 *
 * Closures and let rec.  r* and r+ are Horn variables (rel_star/rel_plus,
 * at least the least fixpoint) and a let rec whose body is monotone gets
 * Horn variables too; that is exact only where the value is wanted small
 * (see rel.h and the polarity argument in models/lkmm.c).  Every value
 * carries two bit masks of the approximation sites (closures, let recs) it
 * may be larger ("over") or smaller ("under") than its true value through;
 * differences and complements swap them.  An axiom or flag that would be
 * made easier by an approximation (an "empty E" or "acyclic E" whose E may
 * be too small, a "~empty E" whose E may be too large) marks those sites,
 * and the model is compiled again with them exact: closures by repeated
 * squaring (ceil(log2 k) named steps over the k events involved), let rec
 * by Kleene stages from the empty relation until the stages are the same
 * formulas or as many stages as the relation has possible pairs.  A let
 * rec whose body is not monotone (the bell's rcu-rscs) is always Kleene.
 * The sites found are kept in the model, so later tests compile once.
 *
 * Work saved, none of it LKMM-specific.  A model is first compiled
 * eagerly over a one-location program with no thread (cc_check_model): every
 * name and type is checked there, and the sites that must be exact are
 * learnt.  The tests' compilations are then lazy: a let binding is
 * evaluated when first used (cc_force()), and "a & b", "a \ b", "a ; b" do
 * not build b when a is statically empty, so that 6.1's xbstar and the
 * plain-access relations are not built for a test without plain accesses
 * (what models/lkmm_cat.c decides by hand).  A closure of the same relation
 * is built once however often the model writes it, and "a ; b*" builds
 * only the rows of b* in the range of a (rel_star_from), each row once;
 * "a ; p* ; q*" is one closure when q ends in p* (catstar.c: 6.1's
 * hb* ; pb*); "a ; name" builds only
 * the rows of a let-bound sequence that a can reach (cc_seq_with: 6.1's
 * rcu-link, entered only from grace periods and critical sections);
 * the right operand of "a & b" and "a \ b" only at the pairs a can hold,
 * which reaches closures as the rows or columns they must build
 * (catwithin.c: 6.1's xbstar only in the columns of races' ends); and
 * the closure of a union with a known order in it is built over the
 * other members' events (catstar.c: lock.cat's co with critical).
 * tests/e2e-cat.sh checks the result against the built-in model.
 *
 * What herd7 enumerates and the encoder chooses instead (named here, as
 * the brief of issue 14 allows): rf and co are the encoder's choices
 * (encoder/execution.c, encoder/locks.c); herd7's initial rf is the
 * encoder's restricted to the reads herd7 makes before lock.cat (not LKR,
 * LF, RL, RU), its initial co to the writes (not LKW, UL).  "with X from cross(C)" binds X to the
 * encoder's rf and co restricted to the candidate pairs of C: the only
 * such choices in the LKMM are lock.cat's rf of LF and RU events, for
 * which the encoder picks exactly one write per read among those
 * candidates.  "with X from generate_orders(S, pco)" (and generate_cos)
 * binds X to the encoder's co on S (a total order per location) and adds
 * the axiom that it extends pco, as herd7's linearisations do.  map f S
 * applies f to S as a whole and keeps the union (a collection is
 * represented by the union of its members): exact for functions that
 * distribute over union, which pair-to-relation and lock.cat's
 * possible-rf functions are.
 *
 * herd7's library files (stdlib.cat, cross.cat, cos-opt.cat) are built in
 * as C functions in catlib.c (cc_lib_*), written from their documented
 * meaning.
 * The tag sets come from the events' model tags: the model's .def is
 * read (frontend/kdef.c) and the front end lowers each macro into herd7's
 * primitives with the tags the .def writes, so a tag is the set of events
 * carrying it and one the .def never uses is empty.  A model folder with
 * no .def keeps the built-in primitives; its tags are then the encoder's
 * event classes of the same name (catlib.c's tag_class).
 */
#include "models/cat/catcomp_int.h"

#include <string.h>

#include "common/arena.h"

static void add_axiom_rel(struct comp *c, const char *name, enum model_check kind,
			 int negated, Z3_ast f, rel_t r)
{
	if (c->nax == c->ax_cap) {
		int cap = c->ax_cap * 2 + 8;
		c->ax = arena_grow(c->a, c->ax, sizeof *c->ax, (size_t)c->ax_cap, (size_t)cap);
		c->ax_rel = arena_grow(c->a, c->ax_rel, sizeof *c->ax_rel, (size_t)c->ax_cap,
				       (size_t)cap);
		c->ax_cap = cap;
	}
	c->ax_rel[c->nax] = r;
	c->ax[c->nax++] = (struct model_axiom){.name = name, .kind = kind,
					       .negated = negated, .holds = f, .rel = -1};
}

void cc_add_axiom(struct comp *c, const char *name, enum model_check kind, Z3_ast f)
{
	add_axiom_rel(c, name, kind, 0, f, NULL);
}

static void add_flag(struct comp *c, const char *name, Z3_ast f)
{
	for (int i = 0; i < c->nfl; i++)
		if (strcmp(c->fl_name[i], name) == 0) {
			c->fl[i] = rel_or2(c->rc, c->fl[i], f);
			return;
		}
	if (c->nfl == c->fl_cap) {
		int cap = c->fl_cap * 2 + 8;
		c->fl = arena_grow(c->a, c->fl, sizeof *c->fl, (size_t)c->fl_cap, (size_t)cap);
		c->fl_name = arena_grow(c->a, c->fl_name, sizeof *c->fl_name,
					(size_t)c->fl_cap, (size_t)cap);
		c->fl_cap = cap;
	}
	c->fl_name[c->nfl] = name;
	c->fl[c->nfl++] = f;
}

static int check_stmt(struct comp *c, const struct cat_stmt *s)
{
	struct rel_ctx *rc = c->rc;
	struct val *v = cc_eval(c, s->e);
	if (!v)
		return 0;
	/* the check is antitone in its expression; negation flips it */
	c->bad |= s->negated ? v->over : v->under;
	Z3_ast f;
	rel_t r = NULL;
	if (v->k == VK_EMPTY) {
		f = rc->t;
	} else if (s->check == CC_EMPTY && v->k == VK_SET) {
		f = set_is_empty(rc, v->s);
	} else {
		if (!(r = cc_as_rel(c, s->e, v)))
			return 0;
		if (s->check == CC_EMPTY)
			f = rel_is_empty(rc, r);
		else if (s->check == CC_IRREFLEXIVE)
			f = rel_irreflexive(rc, r);
		else if (s->negated)
			f = rel_cyclic(rc, r, s->name ? s->name : "cyclic");
		else
			f = rel_acyclic(rc, r, s->name ? s->name : "acyclic");
	}
	if (s->negated && !(s->check == CC_ACYCLIC && v->k != VK_EMPTY))
		f = rel_not(rc, f);
	if (s->flag)
		add_flag(c, s->name, f);
	else {
		if (s->check == CC_ACYCLIC && !s->negated &&
		    (v->contains & HAS_COHERENCE) == HAS_COHERENCE)
			c->coherent = 1;
		if (s->check == CC_EMPTY && !s->negated && (v->contains & HAS_ATOMIC))
			c->atomic = 1;
		add_axiom_rel(c, s->name ? s->name : arena_printf(c->a, "%s:%d", s->file, s->line),
			      s->check == CC_ACYCLIC ? MC_ACYCLIC
			      : s->check == CC_EMPTY ? MC_EMPTY : MC_IRREFLEXIVE,
			      s->negated, f, s->negated ? NULL : r);
	}
	return 1;
}

static int run_file(struct comp *c, const struct cat_file *f);

static int run_stmt(struct comp *c, const struct cat_stmt *s)
{
	struct rel_ctx *rc = c->rc;
	c->file = s->file;
	switch (s->kind) {
	case CS_LET:
		return cc_let_bindings(c, s->binds, s->nbinds, s->rec, s->site, NULL);
	case CS_CHECK:
		return check_stmt(c, s);
	case CS_INCLUDE:
		if (strcmp(s->name, "cross.cat") == 0) {
			cc_lib_cross(c);
			return 1;
		}
		if (strcmp(s->name, "cos-opt.cat") == 0) {
			cc_lib_cos_opt(c, s);
			return !c->d->set;
		}
		if (strcmp(s->name, "stdlib.cat") == 0)
			return 1; /* always there */
		for (int i = 0; i < c->m->nincs; i++)
			if (strcmp(c->m->incs[i].name, s->name) == 0) {
				int ok = run_file(c, &c->m->incs[i].file);
				c->file = s->file;
				return ok;
			}
		return diag_error(c->d, s->file, s->line, s->col,
				  "unsupported: include of the library file \"%s\"", s->name);
	case CS_ENUM:
		for (int i = 0; i < s->ntags; i++) {
			const char *t = s->tags[i];
			char *name = arena_strdup(c->a, t);
			if (name[0] >= 'a' && name[0] <= 'z')
				name[0] = (char)(name[0] - 'a' + 'A');
			cc_bind(c, name, cc_vset(c, cc_tag_set(c, t), 0, 0));
		}
		return 1;
	case CS_INSTR:
	case CS_SHOW:
		return 1;
	case CS_WITH: {
		struct val *v = cc_eval(c, s->e);
		if (!v)
			return 0;
		if (v->k != VK_CHOICE)
			return diag_error(c->d, s->file, s->e->line, s->e->col,
					  "unsupported: 'with ... from' over %s (only cross(...) "
					  "and generate_orders(...))", cc_kind_name(v->k));
		rel_t x;
		if (v->order_set) {
			x = rel_diff(rc, rel_inter(rc, c->enc->co, v->r), rel_id(rc, set_all(rc)));
			/* herd7's orders extend the base order */
			rel_t base = rel_diff(rc, rel_inter(rc, v->order_base, v->r),
					      rel_id(rc, set_all(rc)));
			c->bad |= v->under;
			cc_add_axiom(c, arena_printf(c->a, "%s-extends-base", s->name), MC_EMPTY,
				  rel_is_empty(rc, rel_diff(rc, base, x)));
		} else {
			x = rel_inter(rc, rel_union(rc, c->enc->rf, c->enc->co), v->r);
			/* One candidate per member: with a member per event
			 * of a map (its candidates end at that event, as
			 * lock.cat's do), an event whose member has no
			 * candidate the execution chose rules it out, as
			 * an empty member leaves herd7's cross empty. */
			if (v->keys) {
				c->bad |= v->over;
				cc_add_axiom(c, arena_printf(c->a, "%s-chosen", s->name), MC_EMPTY,
					  set_is_empty(rc, set_diff(rc, v->keys, set_range(rc, x))));
			}
		}
		cc_bind(c, s->name, cc_vrel(c, x, v->over, v->under));
		return 1;
	}
	}
	return diag_error_kind(c->d, DIAG_INTERNAL, s->file, s->line, s->col,
			       "internal error: statement");
}

static int run_file(struct comp *c, const struct cat_file *f)
{
	for (int i = 0; i < f->nstmts; i++)
		if (!run_stmt(c, &f->stmts[i]))
			return 0;
	return 1;
}

/* The relations of out: the names explanations and pictures show (one
 * the cat never builds stays empty), then each axiom's, named by it. */
static void keep_rels(struct comp *c, struct lkmm *out)
{
	int n = LR_COUNT;
	for (int a = 0; a < c->nax; a++)
		n += c->ax_rel[a] != NULL;
	struct model_rel *rel = arena_alloc(c->a, (size_t)n * sizeof *rel);
	memset(rel, 0, (size_t)n * sizeof *rel);
	for (int r = 0; r < LR_COUNT; r++) {
		struct val *v = cc_lookup(c->env, lkmm_rel_name((enum lkmm_rel)r));
		rel[r].name = lkmm_rel_name((enum lkmm_rel)r);
		rel[r].r = v && v->k == VK_REL ? v->r : rel_new(c->rc);
	}
	n = LR_COUNT;
	for (int a = 0; a < c->nax; a++)
		if (c->ax_rel[a]) {
			rel[n] = (struct model_rel){.name = c->ax[a].name, .r = c->ax_rel[a]};
			c->ax[a].rel = n++;
		}
	out->rel = rel;
	out->nrels = n;
}

/* The flags of out, in alphabetical order, as herd7 prints them. */
static void keep_flags(struct comp *c, struct lkmm *out)
{
	struct model_flag *fl = arena_alloc(c->a, ((size_t)c->nfl + 1) * sizeof *fl);
	for (int i = 0; i < c->nfl; i++) {
		int j = i;
		for (; j > 0 && strcmp(fl[j - 1].name, c->fl_name[i]) > 0; j--)
			fl[j] = fl[j - 1];
		fl[j] = (struct model_flag){c->fl_name[i], c->fl[i]};
	}
	out->flag = fl;
	out->nflags = c->nfl;
}

static int compile_once(struct cat_model *m, struct encoding *enc, uint64_t exact,
			int stages, struct lkmm *out, uint64_t *bad, struct diag *d)
{
	struct comp c = {.m = m, .enc = enc, .rc = &enc->rc, .a = enc->arena, .d = d,
			 .exact = exact, .file = m->bell.path, .stages = stages,
			 .lazy = m->checked};
	cc_initial_env(&c);
	if (!run_file(&c, &m->bell) || !run_file(&c, &m->cat))
		return 0;
	if (!m->checked) { /* the eager compilation: every expression built */
		m->coherent = c.coherent;
		m->atomic = c.atomic;
	}
	m->checked = 1;
	memset(out, 0, sizeof *out);
	keep_rels(&c, out);
	keep_flags(&c, out);
	out->naxioms = c.nax;
	out->axiom = c.ax;
	out->label = lkmm_labels;
	out->nlabels = lkmm_nlabels;
	out->race_flag = out->race = -1;
	out->rcu_unconverged = c.unconverged;
	*bad = c.bad & ~exact;
	return 1;
}

/* Compile the model eagerly over a program of one location and no
 * thread: every name and type the model uses is checked there, whatever
 * the tests, so that their compilations may be lazy (struct comp), and
 * the approximation sites that must be exact are learnt. */
int cc_check_model(struct cat_model *m, struct diag *d)
{
	Z3_config cfg = Z3_mk_config();
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	struct arena *a = arena_new();
	struct ir_program *p = arena_alloc(a, sizeof *p);
	memset(p, 0, sizeof *p);
	p->arena = a;
	p->file = m->cat.path;
	p->name = "model-check";
	p->locs = arena_alloc(a, sizeof *p->locs);
	memset(p->locs, 0, sizeof *p->locs);
	p->locs[0].name = "x";
	p->locs[0].ctype = "int";
	p->nlocs = 1;
	struct encoder_options opt = {.unroll = 1};
	struct encoding *enc = encode_program(z, p, &opt, d);
	int ok = 0;
	if (enc) {
		/* the sites that need exact compilation show here too (their
		 * polarity does not depend on the test): learnt once, not
		 * per test with a second compilation */
		struct lkmm out;
		uint64_t bad = 0;
		while ((ok = compile_once(m, enc, m->exact, 0, &out, &bad, d)) && bad)
			m->exact |= bad;
		encoding_free(enc);
	}
	arena_free(a);
	Z3_del_context(z);
	return ok;
}

int cat_model_build(struct cat_model *m, struct encoding *enc, struct lkmm *out,
		    struct diag *d)
{
	for (;;) {
		uint64_t bad = 0;
		if (!compile_once(m, enc, m->exact, 0, out, &bad, d))
			return 0;
		if (!bad)
			return 1;
		/* approximations where they are not exact: compile again
		 * (the first attempt's variables stay unconstrained) */
		m->exact |= bad;
	}
}

int cat_model_build_exact(struct cat_model *m, struct encoding *enc, int stages,
			  struct lkmm *out, struct diag *d)
{
	uint64_t bad = 0;
	return compile_once(m, enc, 0, stages > 0 ? stages : 1, out, &bad, d);
}
