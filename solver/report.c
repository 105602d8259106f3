/*
 * report.c - witnesses, races, explanations and a C program's answer
 * (report.h).
 *
 * Every execution shown is read from a model of the problem's solver
 * (solver/readback.h) and printed as steps (solver/interleave.h); a
 * witness is fed back to the solver with its choices fixed, so that a
 * printed execution is one the model accepts.
 */
#include "solver/report.h"

#include "solver/bounds.h"
#include "solver/options.h"
#include "solver/dot.h"
#include "solver/readback.h"
#include "solver/explain.h"
#include "solver/explanation.h"
#include "solver/interleave.h"
#include "solver/deadline.h"
#include "solver/problem.h"
#include "solver/result.h"
#include "common/xalloc.h"

int report_timed_out(struct diag *d, const struct ir_program *prog, const char *what)
{
	/* A program is asked --exists-only's questions already; what is left
	 * is to stop at its first error. */
	return diag_error_kind(d, DIAG_TIMEOUT, prog->file, 0, 0,
			       "solver gave up while %s (time-out or resource limit); "
			       "try --timeout with a larger value or %s", what,
			       prog->is_program ? "--first-error" : "--exists-only");
}

/* Draw x where opt asks (--dot, --svg). */
static int draw(const struct check_options *opt, const struct execution *x,
		const struct lkmm *m, const struct ir_program *prog, struct diag *d)
{
	if (!opt->picture || dot_write(x, m, opt->picture, opt->picture_svg))
		return 1;
	return diag_error(d, prog->file, 0, 0, "could not write the picture to %s%s",
			  opt->picture, opt->picture_svg ? " (is graphviz's dot installed?)" : "");
}

/* An execution of s reaching cond: x, its model and whether the model
 * accepts it when fed back. */
struct witness {
	struct execution *x;
	Z3_model m;
	int back;
};

/* The execution (found: the model of an earlier query of cond on s,
 * NULL: ask); 0 when cond is not reached. */
static int witness_find(const struct check_options *opt, const struct problem *p,
			Z3_solver s, Z3_ast cond, Z3_model found, struct witness *w)
{
	w->m = found;
	if (!w->m) {
		if (problem_ask(p, s, cond) != Z3_L_TRUE)
			return 0;
		w->m = Z3_solver_get_model(p->z, s);
	}
	Z3_model_inc_ref(p->z, w->m);
	/* A litmus test's witness not drawn is read from its choices alone
	 * (execution_record): no closure's least fixpoint is read. */
	w->x = p->prog->is_program || opt->picture
		? execution_new(p->enc, w->m) : execution_choices(p->enc, w->m);
	return 1;
}

/* Feed the execution back: with its events, rf and co fixed, the model
 * (all axioms are in s) must accept it and reach the condition.  Asked
 * after the execution was read (printed or recorded): the terms reading
 * it makes come first, as they always did, so that Z3 answers the
 * questions that follow as it always did. */
static void witness_recheck(const struct problem *p, Z3_solver s, Z3_ast cond,
			    struct witness *w)
{
	Z3_solver_push(p->z, s);
	execution_assert_choices(w->x, s);
	w->back = problem_ask(p, s, cond) == Z3_L_TRUE;
	Z3_solver_pop(p->z, s, 1);
}

/* Draw w where opt asks, and let it go; 0 (d filled) when the picture
 * could not be written or w failed its re-check. */
static int witness_end(const struct check_options *opt, const struct problem *p,
		       struct witness *w, struct diag *d)
{
	int ok = draw(opt, w->x, &p->m, p->prog, d);
	if (!w->back)
		ok = diag_error_kind(d, DIAG_INTERNAL, p->prog->file, 0, 0,
				     "internal error: the witness failed its re-check");
	execution_free(w->x);
	Z3_model_dec_ref(p->z, w->m);
	return ok;
}

int report_witness(const struct check_options *opt, const struct problem *p,
		   Z3_solver s, Z3_ast cond, Z3_model found, FILE *out,
		   struct diag *d, const char *title)
{
	struct witness w;
	if (!witness_find(opt, p, s, cond, found, &w))
		return 1;
	fputs(title, out);
	interleave_show(w.x, &p->m, opt->witness, out);
	witness_recheck(p, s, cond, &w);
	fprintf(out, "  re-checked against the model: %s\n\n",
		w.back ? "consistent, reaches the condition" : "FAILED (internal error)");
	return witness_end(opt, p, &w, d);
}

int report_witness_data(const struct check_options *opt, const struct problem *p,
			Z3_solver s, Z3_ast cond, Z3_model found,
			struct check_result *r, struct diag *d)
{
	struct witness w;
	if (!witness_find(opt, p, s, cond, found, &w))
		return 1;
	r->witness = xcalloc(1, sizeof *r->witness);
	execution_record(w.x, r->witness);
	witness_recheck(p, s, cond, &w);
	r->witness_rechecked = w.back;
	return witness_end(opt, p, &w, d);
}

/* A program's race in its terms: "Data race between FILE:L1 and FILE:L2
 * on x", the two statements, and on err a located error. */
static void program_race(const struct execution *x, int a, int b, FILE *out,
			 FILE *err)
{
	const struct encoding *enc = x->enc;
	const char *file = enc->prog->file;
	const char *loc = x->loc[a] >= 0 ? enc->prog->locs[x->loc[a]].name : "?";
	const struct ir_instr *ia = enc->ev[a].instr, *ib = enc->ev[b].instr;
	int la = ia ? ia->pos.line : 0, lb = ib ? ib->pos.line : 0;
	fprintf(out, "Data race between %s:%d and %s:%d on %s\n", file, la, file, lb, loc);
	for (int k = 0; k < 2; k++) {
		int e = k ? b : a;
		const struct ir_instr *in = enc->ev[e].instr;
		fprintf(out, "  P%d line %d: %s  (%s)\n", enc->ev[e].thread,
			in ? in->pos.line : 0, in && in->text ? in->text : "",
			enc->ev[e].cls & EVC_BIT(EVC_W) ? "a write" : "a read");
	}
	fprintf(err, "%s:%d:%d: error: data race on %s between line %d (P%d) and "
		"line %d (P%d) (an execution is on the standard output)\n", file, la,
		ia ? ia->pos.col : 0, loc, la, enc->ev[a].thread, lb, enc->ev[b].thread);
}

/* The first race of x (one that raises data-race): its two events in
 * *a and *b; 0: none. */
static int race_pair(const struct problem *p, const struct execution *x, int *a, int *b)
{
	const struct encoding *enc = p->enc;
	for (*a = 0; *a < enc->n; ++*a)
		for (*b = 0; *b < enc->n; ++*b)
			if (execution_in(x, p->m.rel[p->m.race].r, *a, *b))
				return 1;
	return 0;
}

/* A litmus test's race of x as data (result.h). */
static struct check_race *race_record(const struct execution *x, int a, int b)
{
	struct check_race *race = xcalloc(1, sizeof *race);
	execution_record_event(x, a, &race->a);
	execution_record_event(x, b, &race->b);
	execution_record(x, &race->x);
	return race;
}

/* The first race of x, with x; 0: none. */
static int race_in(const struct check_options *opt, const struct problem *p,
		   const struct execution *x, FILE *out, FILE *err)
{
	int a, b;
	if (!race_pair(p, x, &a, &b))
		return 0;
	if (!p->prog->is_program) {
		struct check_race *race = race_record(x, a, b);
		check_race_print(race, out);
		check_race_free(race);
		return 1;
	}
	program_race(x, a, b, out, err);
	fputs("  in this execution:\n", out);
	interleave_show(x, &p->m, opt->witness, out);
	return 1; /* one race is enough */
}

/* An execution of s that raises data-race (its model referenced), or
 * NULL. */
static struct execution *race_execution(const struct problem *p, Z3_solver s)
{
	Z3_context z = p->z;
	if (p->m.race_flag < 0 ||
	    problem_ask(p, s, p->m.flag[p->m.race_flag].raised) != Z3_L_TRUE)
		return NULL;
	Z3_model m = Z3_solver_get_model(z, s);
	Z3_model_inc_ref(z, m);
	return execution_new(p->enc, m);
}

static void race_execution_free(const struct problem *p, struct execution *x)
{
	Z3_model_dec_ref(p->z, x->m);
	execution_free(x);
}

void report_race(const struct check_options *opt, const struct problem *p,
		 Z3_solver s, FILE *out, FILE *err)
{
	struct execution *x = race_execution(p, s);
	if (!x)
		return;
	if (race_in(opt, p, x, out, err))
		fputc('\n', out);
	race_execution_free(p, x);
}

struct check_race *report_race_data(const struct problem *p, Z3_solver s)
{
	struct execution *x = race_execution(p, s);
	int a, b;
	struct check_race *race = x && race_pair(p, x, &a, &b) ? race_record(x, a, b) : NULL;
	if (x)
		race_execution_free(p, x);
	return race;
}

int report_error_in(const struct check_options *opt, const struct problem *p,
		    const struct execution *x, FILE *out, FILE *err)
{
	const struct ir_program *prog = p->prog;
	if (bounds_show_in(opt, p, x, 0, out, err))
		return 1;
	/* What herd7's cut keeps: a path stopped at a bound has no end. */
	if (execution_holds(x, problem_cut(p))) {
		for (int i = 0; i < prog->nasserts; i++) {
			const struct ir_final_assert *a = &prog->asserts[i];
			if (execution_holds(x, enc_cond(p->enc, a->cond)))
				continue;
			fprintf(out, "Assertion violated at %s:%d: %s\n  in this execution:\n",
				prog->file, a->pos.line, a->text);
			interleave_show(x, &p->m, opt->witness, out);
			fprintf(err, "%s:%d:%d: error: assertion violated: %s\n",
				prog->file, a->pos.line, a->pos.col, a->text);
			return 1;
		}
		int race = p->m.race_flag;
		if (race >= 0 && execution_holds(x, p->m.flag[race].raised) &&
		    race_in(opt, p, x, out, err))
			return 1;
		for (int f = 0; f < p->m.nflags; f++) {
			if (f == race || !execution_holds(x, p->m.flag[f].raised))
				continue;
			const char *name = p->m.flag[f].name;
			fprintf(out, "Flag %s\n  in this execution:\n", name);
			interleave_show(x, &p->m, opt->witness, out);
			fprintf(err, "%s: error: %s\n", prog->file, name);
			return 1;
		}
	}
	return bounds_show_in(opt, p, x, 1, out, err);
}

int report_explain(const struct check_options *opt, const struct problem *p,
		   Z3_ast cond, struct diag *d, struct explanation **made)
{
	/* The candidates: the program and the filter, without the axioms. */
	Z3_context z = p->z;
	Z3_solver s = problem_solver(p, PG_FACTS | PG_CUT | PG_DEFS | PG_FILTER, 0);
	struct execution *x = NULL;
	/* one limit for all of explain's questions: the time left now */
	deadline_arm(z, s, p->deadline);
	struct explanation *e = explain_never(p->enc, &p->m, s, cond,
					      opt->picture ? &x : NULL);
	int ok = explanation_complete(e);
	explanation_free(*made);
	*made = e;
	if (!ok)
		diag_error(d, p->prog->file, 0, 0, "could not explain why the condition is never reached (see the output)");
	if (x) {
		ok &= draw(opt, x, &p->m, p->prog, d);
		Z3_model_dec_ref(z, x->m);
		execution_free(x);
	}
	Z3_solver_dec_ref(z, s);
	return ok;
}

/* Each final assert some execution violates, with that execution. */
static int violated_asserts(const struct check_options *opt, const struct problem *p,
			    Z3_solver s, FILE *out, FILE *err, struct diag *d, int *bad)
{
	const struct ir_program *prog = p->prog;
	int ok = 1;
	for (int i = 0; ok && i < prog->nasserts; i++) {
		const struct ir_final_assert *a = &prog->asserts[i];
		Z3_ast v = Z3_mk_not(p->z, enc_cond(p->enc, a->cond));
		Z3_lbool r = problem_ask(p, s, v);
		if (r == Z3_L_UNDEF)
			return report_timed_out(d, prog, "checking the final asserts");
		if (r != Z3_L_TRUE)
			continue;
		char title[1200];
		snprintf(title, sizeof title, "Assertion violated at %s:%d: %s\n"
			 "  in this execution:\n", prog->file, a->pos.line, a->text);
		ok = report_witness(opt, p, s, v, NULL, out, d, title);
		fprintf(err, "%s:%d:%d: error: assertion violated: %s\n",
			prog->file, a->pos.line, a->pos.col, a->text);
		*bad = 1;
	}
	return ok;
}

/* Some consistent execution reaches the end when the filter is left out. */
static int any_unfiltered(const struct problem *p)
{
	Z3_solver s = problem_solver(p, PG_FACTS | PG_CUT | PG_DEFS | PG_AXIOMS, 1);
	int any = problem_ask(p, s, NULL) == Z3_L_TRUE;
	Z3_solver_dec_ref(p->z, s);
	return any;
}

int report_program(const struct check_options *opt, const struct problem *p,
		   Z3_solver s, const int *raised, int found, const char *asserts,
		   int completes, FILE *out, FILE *err, struct diag *d, int *bad)
{
	const struct ir_program *prog = p->prog;
	fprintf(out, "Program %s\n", prog->file);
	if (!completes && prog->filter && any_unfiltered(p)) {
		/* The filter (__VERIFIER_assume) discards every execution that
		 * ends: nothing is left to go wrong, as GenMC says. */
		fputs("No execution satisfies the program's assumptions "
		      "(__VERIFIER_assume): none is left to check\n", out);
		fprintf(err, "%s: warning: no execution satisfies the program's "
			"assumptions (__VERIFIER_assume): the answer is vacuous\n",
			prog->file);
	} else if (!completes) {
		/* herd7's "Never 0 0": no consistent execution at all. */
		fputs("Deadlock: no execution of the program reaches its end "
		      "(a lock taken twice or never released, an RCU grace "
		      "period inside a read-side section)\n", out);
		fprintf(err, "%s: error: deadlock: no execution reaches the "
			"end of the program\n", prog->file);
		*bad = 1;
	}
	/* One block for all assertions, main's and the threads'. */
	int final_bad = 0;
	int ok = violated_asserts(opt, p, s, out, err, d, &final_bad);
	*bad |= final_bad;
	fputs(asserts ? asserts : "", out);
	int nall = prog->nasserts + bounds_assert_sites(p->enc);
	if (ok && nall && !final_bad &&
	    !(found & (BOUNDS_ASSERT_FAILS | BOUNDS_UNKNOWN)))
		fprintf(out, "Assertions: none of %d can fail\n", nall);
	for (int f = 0; ok && f < p->m.nflags; f++) {
		if (!raised[f])
			continue;
		*bad = 1;
		if (f == p->m.race_flag) {
			report_race(opt, p, s, out, err);
		} else {
			fprintf(out, "Flag %s\n", p->m.flag[f].name);
			fprintf(err, "%s: error: %s\n", prog->file, p->m.flag[f].name);
		}
	}
	if (ok && !*bad && !(found & (BOUNDS_ASSERT_FAILS | BOUNDS_SPINS)))
		fprintf(out, "No errors (bound %d, %d events)\n", p->unroll, p->enc->n);
	return ok;
}
