/*
 * repair.c - the search for the cheapest repairs, and pruning; see
 * repair.h.
 *
 * Every candidate is a set of changes of the menu, one per slot at most.
 * The search first checks the strongest change of every slot together: if
 * even that reaches the outcome, no repair exists in the menu (every
 * repair is weaker than it, and ordering is monotone in the changes: a
 * fence or a stronger annotation never makes a new execution consistent).
 * Then it enumerates sets by increasing total cost; a set is skipped
 * without a check when a set that failed orders at least as much (the same
 * changes, or the strongest of the slot, at every slot it uses), and the
 * search stops at the first cost with a repair.  Each candidate is a
 * query of one encoding with every change under a choice (repair_enc.h),
 * or where the test does not allow that, its text parsed and checked from
 * scratch; each repair printed is checked from scratch once more, with
 * --explain, to name the axiom that forbids the outcome.
 */
#include "repair/repair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/exitcode.h"
#include "common/xalloc.h"
#include "frontend/frontend.h"
#include "repair/repair_enc.h"
#include "repair/repair_menu.h"
#include "repair/udiff.h"
#include "solver/explanation.h"

/* How many sets of one cost the search may enumerate (most are ruled
 * out without a check): a bound on its own time on huge menus. */
#define REPAIR_MAX_LEAVES 20000000L

/* What a check of one text says. */
enum verdict {
	V_BAD,   /* the outcome is reached or an assertion can fail */
	V_GOOD,  /* never reached, every assertion holds */
	V_ERROR, /* the text does not parse or could not be checked */
};

/* One test's repair. */
struct repair_ctx {
	const struct repair_options *ro; /* the options */
	struct frontend *fe;        /* parses every candidate */
	struct checker *quick;      /* exists-only, no witness */
	struct checker *explainer;  /* exists-only with --explain */
	const char *path;           /* the file */
	char *text;                 /* its text (owned) */
	FILE *out;                  /* where answers go */
	FILE *sink;                 /* checkers' warnings, dropped */
	FILE *stats;                /* --stats: the menu goes here, or NULL */
	struct repair_menu menu;    /* the changes */
	long checks;                /* candidates checked so far */
	int **failed;               /* sets that failed: per slot, the
				     * change used or -1 (owned) */
	int nfailed, capfailed;     /* how many, allocated */
	int **found;                /* repairs found: pick arrays (owned) */
	int nfound, capfound;       /* how many, allocated */
	int gave_up;                /* max_checks, the leaf limit or the
				     * deadline reached */
	long leaves;                /* sets of the right cost enumerated */
	int one_at_a_time;          /* growth by halves took more checks than
				     * changes once: later growths go one
				     * change at a time */
	int no_thread_step;         /* a failed set's growth found no thread
				     * whose candidates alone keep it failing:
				     * later growths do not try again */
	double deadline;            /* clock_now() to stop at (--timeout),
				     * 0: none */
	struct diag why;            /* the last check's error */
	const struct check_options *co; /* the quick checker's options */
	struct repair_enc *one;     /* the one encoding candidates are asked
				     * of, NULL: each checked from scratch */
	const char *one_why;        /* why there is none (--stats) */
	long one_checks;            /* candidates it answered */
	double one_open_s, one_ask_s; /* seconds building it, asking it */
	double first_ask_s;         /* of those, its first query's (which
				     * takes in the encoding) */
	double scratch_s;           /* seconds of the test's own check from
				     * scratch: what a candidate costs that
				     * way */
};

int repair_wanted(const struct repair_options *ro)
{
	return ro->repair || ro->prune || ro->strip;
}

/* Check one text.  With keep, *keep receives the checker's explanation
 * (--explain's answer, explanation.h; NULL without one). */
static enum verdict judge(struct repair_ctx *r, struct checker *chk, const char *text,
			  struct explanation **keep)
{
	struct diag d = {0};
	struct ir_program *prog = frontend_parse_text(r->fe, r->path, text, &d);
	if (!prog) {
		r->why = d;
		return V_ERROR;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *ms = open_memstream(&buf, &len);
	if (!ms)
		abort();
	checker_set_err(chk, r->sink);
	struct check_result cr = {0};
	int res = checker_run(chk, prog, ms, &cr);
	fclose(ms);
	enum verdict v = V_ERROR;
	if (res && cr.verdict != CHECK_VERDICT_NONE) {
		enum check_verdict want = prog->quant == IR_Q_FORALL ? CHECK_ALWAYS : CHECK_NEVER;
		v = cr.verdict == want && !(res & CHECK_CODE_FAILS) ? V_GOOD : V_BAD;
	} else {
		r->why = cr.error;
	}
	if (keep) {
		*keep = cr.explained;
		cr.explained = NULL;
	}
	check_result_free(&cr);
	ir_program_free(prog);
	free(buf); /* the answer is in cr: its text is not read */
	return v;
}

static int pick_cost(const struct repair_ctx *r, const int *pick)
{
	int c = 0;
	for (int i = 0; i < r->menu.n; i++)
		if (pick[i])
			c += r->ro->costs.cost[r->menu.ch[i].kind];
	return c;
}

/* Whether a set that failed orders at least what pick does. */
static int dominated(const struct repair_ctx *r, const int *pick)
{
	for (int f = 0; f < r->nfailed; f++) {
		const int *fs = r->failed[f];
		int all = 1;
		for (int i = 0; i < r->menu.n && all; i++) {
			if (!pick[i])
				continue;
			int u = fs[r->menu.ch[i].slot];
			all = u == i || (u >= 0 && r->menu.ch[u].strongest);
		}
		if (all)
			return 1;
	}
	return 0;
}

static void remember_failed(struct repair_ctx *r, const int *pick)
{
	int *fs = xmalloc_array((size_t)r->menu.nslots + 1, sizeof *fs);
	for (int s = 0; s < r->menu.nslots; s++)
		fs[s] = -1;
	for (int i = 0; i < r->menu.n; i++)
		if (pick[i])
			fs[r->menu.ch[i].slot] = i;
	XGROW(r->failed, r->capfailed, r->nfailed + 1, 16);
	r->failed[r->nfailed++] = fs;
}

static enum verdict try_pick(struct repair_ctx *r, const int *pick);

/* Put the strongest changes cand[0..n) into g, each in place of the
 * weaker change of its slot (saved in was[], -1: none), or take them out
 * again and put the weaker ones back. */
static void swap_strongest(const struct repair_menu *m, int *g, const int *cand, int *was,
			   int n, int in)
{
	for (int j = 0; j < n; j++) {
		if (in) {
			was[j] = -1;
			for (int k = 0; k < m->n; k++)
				if (g[k] && m->ch[k].slot == m->ch[cand[j]].slot)
					was[j] = k;
			if (was[j] >= 0)
				g[was[j]] = 0;
		} else if (was[j] >= 0) {
			g[was[j]] = 1;
		}
		g[cand[j]] = in;
	}
}

static void grow_halves(struct repair_ctx *r, int *g, const int *cand, int *was, int n);

/* Add the strongest changes cand[0..n) to the failing set g if it still
 * fails with all of them (one check), else each half in turn. */
static void grow_range(struct repair_ctx *r, int *g, const int *cand, int *was, int n)
{
	if (n == 0 || r->checks >= r->ro->max_checks)
		return;
	swap_strongest(&r->menu, g, cand, was, n, 1);
	if (dominated(r, g) || try_pick(r, g) == V_BAD)
		return;
	swap_strongest(&r->menu, g, cand, was, n, 0);
	if (n > 1)
		grow_halves(r, g, cand, was, n);
}

/* cand[0..n) tried by halves, or one by one when they are few (where
 * most of them do not go in, a check per change is the least). */
static void grow_halves(struct repair_ctx *r, int *g, const int *cand, int *was, int n)
{
	if (n <= 3) {
		for (int j = 0; j < n; j++)
			grow_range(r, g, cand + j, was + j, 1);
		return;
	}
	grow_range(r, g, cand, was, n / 2);
	grow_range(r, g, cand + n / 2, was + n / 2, n - n / 2);
}

/* Try the candidates of every thread but one at once, the threads that g
 * orders least first: an outcome that one thread without ordering still
 * reaches (the common case, a cycle through every thread) then costs one
 * check, and the growth goes on inside that thread only (a test where
 * no thread does is not asked again: it would cost a check per thread
 * at every growth).  cand is reordered: those of the thread left out
 * first, in program order;
 * returns how many they are, or n when no thread-wide step kept g
 * failing (every candidate is then still to try). */
static int grow_by_thread(struct repair_ctx *r, int *g, int *cand, int *was, int n)
{
	const struct repair_menu *m = &r->menu;
	int nthreads = 0;
	for (int j = 0; j < n; j++)
		if (m->ch[cand[j]].thread >= nthreads)
			nthreads = m->ch[cand[j]].thread + 1;
	int *picked = xcalloc((size_t)nthreads + 1, sizeof *picked);
	int *has = xcalloc((size_t)nthreads + 1, sizeof *has);
	for (int i = 0; i < m->n; i++)
		if (g[i] && m->ch[i].thread < nthreads)
			picked[m->ch[i].thread]++;
	for (int j = 0; j < n; j++)
		has[m->ch[cand[j]].thread] = 1;
	int *order = xmalloc_array((size_t)n + 1, sizeof *order);
	int left = n;
	for (int least = 0; least <= m->n && left == n; least++)
		for (int t = 0; t < nthreads && left == n && r->checks < r->ro->max_checks; t++) {
			if (!has[t] || picked[t] != least)
				continue;
			int mine = 0, others = 0;
			for (int j = 0; j < n; j++)
				if (m->ch[cand[j]].thread == t)
					order[mine++] = cand[j];
			if (mine == n)
				break; /* one thread only: nothing to split */
			for (int j = 0; j < n; j++)
				if (m->ch[cand[j]].thread != t)
					order[mine + others++] = cand[j];
			swap_strongest(m, g, order + mine, was, others, 1);
			if (dominated(r, g) || try_pick(r, g) == V_BAD) {
				memcpy(cand, order, (size_t)n * sizeof *cand);
				left = mine;
			} else {
				swap_strongest(m, g, order + mine, was, others, 0);
			}
		}
	if (left == n)
		r->no_thread_step = 1;
	free(order);
	free(picked);
	free(has);
	return left;
}

/* A set that failed, made as large as it stays failing: the strongest
 * change of a slot is added (or replaces a weaker one) when the set still
 * reaches the outcome with it, until no single one can be.  Every subset
 * of what is remembered fails too, so one failure rules out many
 * candidates (the counterexample-guided cut of the search).  First every
 * thread but one at once (grow_by_thread), then the rest by halves: a
 * group that keeps the set failing goes in whole with one check, a group
 * that does not is split.  Ordering being monotone in the changes, a group
 * fails with the set exactly when each of its changes would, added one at
 * a time, so the set grown is as large as the one-at-a-time growth's (k
 * changes that must stay out cost about 2k log n checks instead of n).
 * Which largest set it is does not change the repairs found, only the
 * checks skipped: the enumeration's order is fixed and every set skipped
 * is below a set checked failing.  Each group added was checked failing
 * (or is below a set that was), so the set remembered fails. */
static void grow_failed(struct repair_ctx *r, const int *failed)
{
	const struct repair_menu *m = &r->menu;
	int *g = xmalloc_array((size_t)m->n + 1, sizeof *g);
	int *cand = xmalloc_array((size_t)m->n + 1, sizeof *cand);
	int *was = xmalloc_array((size_t)m->n + 1, sizeof *was);
	memcpy(g, failed, (size_t)m->n * sizeof *g);
	int n = 0;
	for (int i = 0; i < m->n; i++)
		if (m->ch[i].strongest && !g[i])
			cand[n++] = i;
	/* not all at once: with them all, g is the strongest set, a repair */
	if (!r->no_thread_step)
		n = grow_by_thread(r, g, cand, was, n);
	/* by halves, until the test shows that most changes stay out (then
	 * a check per change is fewer) */
	long before = r->checks;
	for (int j = 0; r->one_at_a_time && j < n; j++)
		grow_range(r, g, cand + j, was + j, 1);
	if (!r->one_at_a_time)
		grow_halves(r, g, cand, was, n);
	if (r->checks - before > n)
		r->one_at_a_time = 1;
	remember_failed(r, g);
	free(g);
	free(cand);
	free(was);
}

static void keep_parsable(struct repair_ctx *r);

/* The menu made final, and the one encoding of its changes unless
 * --repair-scratch or the test does not allow it.  A change whose text
 * does not parse on its own (keep_parsable) breaks the text with every
 * change under a choice as well, at the same place: when that text
 * parses, no change need be tried alone. */
static void open_one(struct repair_ctx *r)
{
	double t0 = clock_now();
	r->one_why = "--repair-scratch";
	/* where every change is conditional, the encoding loses what the
	 * program alone decides (sure pairs, empty sets): one that takes
	 * longer to build than ten checks from scratch is not worth it */
	double by = t0 + (10 * r->scratch_s > 1 ? 10 * r->scratch_s : 1);
	enum repair_enc_refusal no = REPAIR_ENC_SHAPE;
	int asked = !r->ro->scratch && r->menu.n;
	if (asked)
		r->one = repair_enc_open(r->co, r->fe, r->path, r->text, &r->menu, by,
					 r->deadline, &no);
	if (asked && !r->one)
		r->one_why = repair_enc_refusal_text(no);
	if (!r->one) {
		int unparsed = asked && no == REPAIR_ENC_UNPARSED;
		keep_parsable(r);
		if (unparsed && r->menu.n) {
			r->one = repair_enc_open(r->co, r->fe, r->path, r->text, &r->menu,
						 clock_now() + (by - t0), r->deadline, &no);
			if (!r->one)
				r->one_why = repair_enc_refusal_text(no);
		}
	}
	r->one_open_s = clock_now() - t0;
	if (r->stats)
		fprintf(r->stats, "stats: repair: candidates %s%s (menu ready in %.3f s; "
			"the test's own check took %.3f s)\n",
			r->one ? "asked of one encoding" : "checked from scratch: ",
			r->one ? "" : r->one_why, r->one_open_s, r->scratch_s);
}

/* From now on every candidate from scratch, because of why. */
static void drop_one(struct repair_ctx *r, const char *why)
{
	repair_enc_close(r->one);
	r->one = NULL;
	r->one_why = why;
	if (r->stats)
		fprintf(r->stats, "stats: repair: candidates checked from scratch from now on: %s\n", why);
}

/* Check the set pick: a query of the one encoding, or from scratch with
 * the quick checker (also when that query got no answer). */
static enum verdict try_pick(struct repair_ctx *r, const int *pick)
{
	if (r->one) {
		/* a query may take in the encoding first: five checks'
		 * time, later two; past that, from scratch */
		double t0 = clock_now();
		int bad = repair_enc_bad(r->one, pick, t0 + 0.1 +
					 (r->one_checks ? 2 : 5) * r->scratch_s);
		double t = clock_now() - t0;
		r->one_ask_s += t;
		if (!r->one_checks)
			r->first_ask_s = t;
		if (bad >= 0) {
			r->checks++;
			r->one_checks++;
			/* queries slower than checks from scratch (lock
			 * programs whose every fence became conditional):
			 * the rest from scratch; the answers are the same */
			if (r->one_checks >= 3 &&
			    (r->one_ask_s - r->first_ask_s) / (double)(r->one_checks - 1) > r->scratch_s)
				drop_one(r, "its queries took longer than checks from scratch");
			return bad ? V_BAD : V_GOOD;
		}
		drop_one(r, "a query of the one encoding took longer than some checks from scratch");
	}
	char *t = repair_apply(&r->menu, pick, r->text);
	r->checks++;
	enum verdict v = judge(r, r->quick, t, NULL);
	free(t);
	return v;
}

/* Every set of cost exactly budget, from change i on, one per slot. */
static void enumerate(struct repair_ctx *r, int i, int budget, int *pick, int *slot_used)
{
	if (r->nfound >= r->ro->max || r->gave_up)
		return;
	if (budget == 0) {
		if (++r->leaves > REPAIR_MAX_LEAVES ||
		    (r->deadline > 0 && clock_now() > r->deadline)) {
			r->gave_up = 1;
			return;
		}
		if (dominated(r, pick))
			return;
		if (r->checks >= r->ro->max_checks) {
			r->gave_up = 1;
			return;
		}
		enum verdict v = try_pick(r, pick);
		if (v == V_ERROR)
			return;
		if (v == V_GOOD) {
			int *copy = xmalloc_array((size_t)r->menu.n + 1, sizeof *copy);
			memcpy(copy, pick, (size_t)r->menu.n * sizeof *copy);
			XGROW(r->found, r->capfound, r->nfound + 1, 4);
			r->found[r->nfound++] = copy;
		} else if (r->ro->plain) {
			remember_failed(r, pick);
		} else {
			grow_failed(r, pick);
		}
		return;
	}
	for (int k = i; k < r->menu.n; k++) {
		const struct repair_change *c = &r->menu.ch[k];
		int cost = r->ro->costs.cost[c->kind];
		if (slot_used[c->slot] || cost > budget)
			continue;
		pick[k] = 1;
		slot_used[c->slot] = 1;
		enumerate(r, k + 1, budget - cost, pick, slot_used);
		pick[k] = 0;
		slot_used[c->slot] = 0;
		if (r->nfound >= r->ro->max || r->gave_up)
			return;
	}
}

/* Drop the changes whose text alone does not parse (an edit where C does
 * not allow a statement, a primitive the model lacks). */
static void keep_parsable(struct repair_ctx *r)
{
	int *pick = xcalloc((size_t)r->menu.n + 1, sizeof *pick);
	for (int i = r->menu.n - 1; i >= 0; i--) {
		pick[i] = 1;
		char *t = repair_apply(&r->menu, pick, r->text);
		struct diag d = {0};
		struct ir_program *p = frontend_parse_text(r->fe, r->path, t, &d);
		pick[i] = 0;
		free(t);
		if (p)
			ir_program_free(p);
		else
			repair_menu_drop(&r->menu, i);
	}
	free(pick);
}

/* An --explain answer as far as the execution it shows: its header and
 * its axioms up to the first with an execution (the first axiom, as the
 * re-check's answer is complete). */
static void print_explanation(const struct explanation *e, FILE *out)
{
	if (!e) {
		fputs("  (no explanation: the condition is a forall, only an assertion was failing, or --explain could not name the axiom)\n", out);
		return;
	}
	fputs("  ", out);
	explanation_print_header(e, out);
	for (int i = 0; i < e->naxioms; i++) {
		explanation_print_why(&e->axiom[i], out);
		if (e->axiom[i].status != EXPLAINED_NO_EXECUTION)
			break;
	}
}

static void describe(const struct repair_ctx *r, const int *pick, FILE *out)
{
	const char *sep = "";
	for (int i = 0; i < r->menu.n; i++)
		if (pick[i]) {
			fprintf(out, "%s%s (%d)", sep, r->menu.ch[i].what,
				r->ro->costs.cost[r->menu.ch[i].kind]);
			sep = "; ";
		}
}

/* Re-check pick's text from scratch with --explain; print it as a diff
 * when the re-check agrees.  Returns 1 if printed. */
static int print_verified(struct repair_ctx *r, const int *pick, const char *title)
{
	char *t = repair_apply(&r->menu, pick, r->text);
	struct explanation *e = NULL;
	enum verdict v = judge(r, r->explainer, t, &e);
	if (v == V_ERROR) {
		/* the explanation failed, not necessarily the check */
		explanation_free(e);
		e = NULL;
		v = judge(r, r->quick, t, NULL);
	}
	if (v != V_GOOD) {
		fprintf(r->out, "%s: internal error: the re-check of this change set does not say Never: not printed\n", title);
		explanation_free(e);
		free(t);
		return 0;
	}
	fprintf(r->out, "%s, cost %d: ", title, pick_cost(r, pick));
	describe(r, pick, r->out);
	fputc('\n', r->out);
	const char *rel = r->path + strspn(r->path, "/");
	char *a = xmalloc(strlen(rel) + 3), *b = xmalloc(strlen(rel) + 3);
	sprintf(a, "a/%s", rel);
	sprintf(b, "b/%s", rel);
	udiff_print(r->text, t, a, b, r->out);
	fputs("  re-checked from scratch: never reached, every assertion holds\n", r->out);
	print_explanation(e, r->out);
	free(a);
	free(b);
	explanation_free(e);
	free(t);
	return 1;
}

/* --repair on a test that is wrong (its menu is built). */
static int repair(struct repair_ctx *r, const struct ir_program *prog)
{
	double t0 = clock_now();
	struct repair_menu *m = &r->menu;
	int *pick = xcalloc((size_t)m->n + 1, sizeof *pick);
	int *slot_used = xcalloc((size_t)m->nslots + 1, sizeof *slot_used);
	/* the strongest change of every slot: the most any repair orders */
	int full_cost = 0;
	for (int i = 0; i < m->n; i++)
		if (!slot_used[m->ch[i].slot] && m->ch[i].strongest) {
			pick[i] = slot_used[m->ch[i].slot] = 1;
			full_cost += r->ro->costs.cost[m->ch[i].kind];
		}
	enum verdict v = m->n ? try_pick(r, pick) : V_BAD;
	if (r->stats && v != V_GOOD) {
		char *t = repair_apply(m, pick, r->text);
		fprintf(r->stats, "stats: repair: the test with every change, which %s:\n%s",
			v == V_BAD ? "still reaches the outcome" : "could not be checked", t);
		free(t);
	}
	int status = LKMMC_EXIT_OK;
	if (v == V_ERROR) {
		fprintf(r->out, "Repair %s: internal error: the test with every change of the menu could not be checked: %s\n",
			prog->name, r->why.msg);
		status = LKMMC_EXIT_ERROR;
	} else if (v == V_BAD) {
		fprintf(r->out, "Repair %s: no repair: %s\n", prog->name, m->n == 0
			? "the menu has no change for this test (no gap between two statements, no access to annotate)"
			: "the outcome is still reached with smp_mb() in every gap the menu has and every access it can annotate made acquire/release/fully ordered; "
			  "what forbids it would be outside the menu (a dependency, a lock, RCU, a change of the condition) or nothing at all (coherence alone allows it)");
		status = LKMMC_EXIT_CODE_FAILS;
	} else {
		memset(pick, 0, (size_t)m->n * sizeof *pick);
		memset(slot_used, 0, (size_t)m->nslots * sizeof *slot_used);
		int budget = 0;
		while (!r->nfound && !r->gave_up && budget < full_cost)
			enumerate(r, 0, ++budget, pick, slot_used);
		if (r->stats)
			fprintf(r->stats, "stats: repair: %ld of %ld candidates asked of one encoding, in %.3f s\n",
				r->one_checks, r->checks, r->one_ask_s);
		if (!r->nfound) {
			fprintf(r->out, "Repair %s: gave up after %ld candidates checked and %ld enumerated (%s): the cheapest repair costs more than %d and at most %d\n",
				prog->name, r->checks, r->leaves,
				r->checks >= r->ro->max_checks ? "the limit of checks"
				: r->deadline > 0 && clock_now() > r->deadline ? "--timeout"
				: "the limit of sets enumerated", budget - 1, full_cost);
			status = LKMMC_EXIT_ERROR;
		} else {
			fprintf(r->out, "Repair %s: %d repair%s of cost %d (menu: %d changes in %d slots; %ld candidates checked, %.2f s)\n",
				prog->name, r->nfound, r->nfound > 1 ? "s" : "", budget, m->n,
				m->nslots, r->checks, clock_now() - t0);
			for (int k = 0; k < r->nfound; k++) {
				char title[64];
				snprintf(title, sizeof title, "Repair %d", k + 1);
				if (!print_verified(r, r->found[k], title))
					status = LKMMC_EXIT_ERROR;
			}
		}
	}
	free(pick);
	free(slot_used);
	return status;
}

/* --prune on a test that is right (its removals are the menu). */
static int prune(struct repair_ctx *r, const struct ir_program *prog)
{
	struct repair_menu *m = &r->menu;
	open_one(r);
	int *pick = xcalloc((size_t)m->n + 1, sizeof *pick);
	int *alone = xcalloc((size_t)m->n + 1, sizeof *alone);
	fprintf(r->out, "Prune %s: %d fence%s and annotation%s to try\n", prog->name, m->n,
		m->n == 1 ? "" : "s", m->n == 1 ? "" : "s");
	for (int i = 0; i < m->n; i++) {
		pick[i] = 1;
		alone[i] = try_pick(r, pick) == V_GOOD;
		pick[i] = 0;
		fprintf(r->out, "  %s: %s\n", m->ch[i].what, alone[i]
			? "not needed on its own" : "needed");
	}
	/* greedily together, in program order: a maximal set that can go */
	int ntogether = 0;
	for (int i = 0; i < m->n; i++) {
		if (!alone[i])
			continue;
		pick[i] = 1;
		if (ntogether && try_pick(r, pick) != V_GOOD)
			pick[i] = 0;
		else
			ntogether++;
	}
	int status = LKMMC_EXIT_OK;
	if (ntogether) {
		char title[96];
		snprintf(title, sizeof title, "Prune: %d removal%s together (greedy, in program order)",
			 ntogether, ntogether > 1 ? "s" : "");
		if (!print_verified(r, pick, title))
			status = LKMMC_EXIT_ERROR;
	} else {
		fprintf(r->out, "Prune %s: %s\n", prog->name, m->n
			? "every fence and annotation is needed"
			: "no fence or acquire/release annotation to try");
	}
	free(pick);
	free(alone);
	return status;
}

/* Read a whole file; NULL with d filled. */
static char *slurp(const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r");
	long size = -1;
	if (f && fseek(f, 0, SEEK_END) == 0)
		size = ftell(f);
	if (!f || size < 0 || fseek(f, 0, SEEK_SET) != 0) {
		diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	char *buf = xmalloc((size_t)size + 1);
	size_t n = fread(buf, 1, (size_t)size, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* --strip: every removal at once; the cost of what went on err. */
static int strip(struct repair_ctx *r, FILE *err)
{
	keep_parsable(r);
	int *pick = xmalloc_array((size_t)r->menu.n + 1, sizeof *pick);
	for (int i = 0; i < r->menu.n; i++)
		pick[i] = 1;
	char *t = repair_apply(&r->menu, pick, r->text);
	fputs(t, r->out);
	fprintf(err, "lkmmc: %s: stripped %d fences and annotations, cost %d\n", r->path,
		r->menu.n, pick_cost(r, pick));
	free(t);
	free(pick);
	return LKMMC_EXIT_OK;
}

int repair_file(const struct repair_options *ro, const struct check_options *co,
		struct frontend *fe, const char *path, FILE *out, FILE *err,
		struct diag *d)
{
	struct repair_ctx r = {.ro = ro, .fe = fe, .path = path, .out = out,
			       .stats = co->stats ? err : NULL};
	if (co->timeout_ms)
		r.deadline = clock_now() + co->timeout_ms / 1000.0 * 0.9;
	r.text = slurp(path, d);
	if (!r.text)
		return LKMMC_EXIT_ERROR;
	struct ir_program *prog = frontend_parse_text(fe, path, r.text, d);
	if (!prog) {
		free(r.text);
		return LKMMC_EXIT_ERROR;
	}
	if (prog->is_program) {
		diag_error(d, path, 0, 0, "--repair, --prune and --strip take litmus tests, not whole C programs");
		ir_program_free(prog);
		free(r.text);
		return LKMMC_EXIT_ERROR;
	}
	r.sink = fopen("/dev/null", "w");
	struct check_options q = *co;
	q.exists_only = 1;
	q.herd7_only = 1;
	q.witness = q.explain = q.stats = 0;
	q.picture = NULL;
	r.quick = checker_new(&q);
	struct check_options quick_opt = q;
	r.co = &quick_opt;
	q.herd7_only = 0;
	q.explain = 1;
	r.explainer = checker_new(&q);
	int status = LKMMC_EXIT_OK;
	if (ro->strip) {
		repair_menu_removals(&r.menu, prog, r.text);
		status = strip(&r, err);
	} else {
		double t0 = clock_now();
		enum verdict v = judge(&r, r.quick, r.text, NULL);
		r.scratch_s = clock_now() - t0;
		if (v == V_ERROR) {
			*d = r.why;
			status = LKMMC_EXIT_ERROR;
		} else if (v == V_GOOD) {
			if (ro->prune) {
				repair_menu_removals(&r.menu, prog, r.text);
				status = prune(&r, prog);
			} else {
				fprintf(out, "Repair %s: nothing to repair: the outcome is never reached and every assertion holds\n",
					prog->name);
			}
		} else if (ro->repair) {
			repair_menu_build(&r.menu, prog, r.text);
			open_one(&r);
			if (co->stats)
				for (int i = 0; i < r.menu.n; i++)
					fprintf(err, "stats: repair menu: slot %d: %s, cost %d\n",
						r.menu.ch[i].slot, r.menu.ch[i].what,
						ro->costs.cost[r.menu.ch[i].kind]);
			status = repair(&r, prog);
		} else {
			fprintf(out, "Prune %s: nothing to prune: the outcome is reached (or an assertion can fail); try --repair\n",
				prog->name);
		}
	}
	if (status == LKMMC_EXIT_ERROR && !d->set)
		diag_error(d, path, 0, 0, "%s", r.gave_up
			   ? "--repair gave up before it found a repair (see the output)"
			   : "a repair or its re-check failed (see the output)");
	fflush(out);
	for (int i = 0; i < r.nfailed; i++)
		free(r.failed[i]);
	free(r.failed);
	for (int i = 0; i < r.nfound; i++)
		free(r.found[i]);
	free(r.found);
	repair_enc_close(r.one);
	repair_menu_free(&r.menu);
	checker_free(r.quick);
	checker_free(r.explainer);
	if (r.sink)
		fclose(r.sink);
	ir_program_free(prog);
	free(r.text);
	return status;
}
