/*
 * check.c - one litmus test's check: the attempts, the queries of the
 * verdict and what is printed, in which order.
 *
 * An attempt opens the test's problem (problem.h) and one solver holding
 * the program's facts, the model's definitions, its axioms and the
 * filter.  It asks first about assertions and cut-off loops (bounds.h),
 * then adds herd7's cut and asks:
 *   states  the distinct final states (values of the observed registers
 *           and locations), by cubes (cubes.h) or one by one (states.h);
 *   flags   one query per flag that is not statically false;
 *   exists-only mode asks only whether the condition (and its negation)
 *           is reachable.
 * From the states follow Positive/Negative (lkmmc counts states, herd7
 * counts executions), the Observation word and Ok/No.  Everything
 * found goes into the caller's result (result.h: witnesses, races and
 * explanations are found by report.h), which is printed once the
 * attempt is kept (check_result_print).
 */
#include "solver/check.h"
#include "solver/lazy.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "encoder/encoder.h"
#include "encoder/z3util.h"
#include "models/lkmm.h"
#include "solver/bounds.h"
#include "solver/cubes.h"
#include "solver/firsterr.h"
#include "common/memlimit.h"
#include "solver/problem.h"
#include "solver/report.h"
#include "solver/states.h"
#include "solver/symmetry.h"
#include "common/xalloc.h"

struct checker {
	struct check_options opt; /* options for every test */
	FILE *err;                /* where warnings go (stderr by default) */
	int err_fd;               /* a copy of the process's standard error
				   * as it was at the start, for the memory
				   * limit's last word (memlimit.h) */
};

struct checker *checker_new(const struct check_options *opt)
{
	struct checker *c = xcalloc(1, sizeof *c);
	c->opt = *opt;
	c->err = stderr;
	c->err_fd = dup(STDERR_FILENO);
	/* Z3's difference-logic solver prints a warning for each term it
	 * cannot take; checker_run handles that case by starting again, so
	 * the warning is noise.  (A process-wide Z3 setting, set once.) */
	Z3_global_param_set("warning", "false");
	/* Listing states builds one model a state; Z3's compaction of each
	 * model's function tables (there are none: every symbol is a
	 * constant) cost a third of the listing on the random tests. */
	Z3_global_param_set("model.compact", "false");
	return c;
}

void checker_set_err(struct checker *c, FILE *err)
{
	c->err = err;
}

void checker_free(struct checker *c)
{
	if (!c)
		return;
	if (c->err_fd >= 0)
		close(c->err_fd);
	free(c);
}

static int run_in(struct checker *c, Z3_context z, const struct ir_program *prog,
		  struct check_result *r, double t0, enum enc_arith mode,
		  struct memlimit *limit, int *retry);

/* One attempt in a fresh context (about 1 ms): terms of a non-reference-
 * counted context live until it is deleted, so a shared one would grow
 * over a batch of thousands of tests.  The memory limit holds while it
 * runs; an attempt stopped by it reports the limit's error. */
static int attempt(struct checker *c, const struct ir_program *prog,
		   struct check_result *r, double t0, enum enc_arith mode, int *retry)
{
	Z3_context z = problem_context(1);
	struct memlimit lim;
	memlimit_begin(&lim, prog->file, c->opt.max_memory_mb * 1024L,
		       c->opt.memory_exit ? c->opt.memory_exit : 1,
		       c->err_fd >= 0 ? c->err_fd : STDERR_FILENO);
	int ok = run_in(c, z, prog, r, t0, mode, &lim, retry);
	memlimit_end(&lim);
	Z3_del_context(z);
	if (lim.over && !ok) { /* an answer found within it stands */
		*retry = 0;
		/* what was found before it stays in r, and is printed */
		r->error = (struct diag){0};
		return diag_error_kind(&r->error, DIAG_MEMORY, prog->file, 0, 0,
				       "too large for the memory limit: %ld MB allowed, of "
				       "which %ld MB were in use when the check began "
				       "(stopped after %.1f s); try --exists-only, a smaller "
				       "--unroll, or --max-memory MB",
				       c->opt.max_memory_mb, lim.start_rss_kb / 1024,
				       clock_now() - t0);
	}
	return ok;
}


/* Z3's difference-logic solver prints "(smt.diff_logic: non-diff logic
 * expression ...)" on the process's standard error when it meets a term
 * outside its fragment, whatever its warning setting; the attempt is then
 * redone with general arithmetic, so the message is noise.  Standard error
 * goes to /dev/null during that attempt: lkmmc's own messages of the
 * attempt, --stats included, go to c->err, a buffer, and are printed only
 * if the attempt is kept.  Returns the saved
 * descriptor for quiet_end, or -1 when nothing was redirected. */
static int quiet_begin(void)
{
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		saved = -1;
	}
	if (null >= 0)
		close(null);
	return saved;
}

static void quiet_end(int saved)
{
	if (saved < 0)
		return;
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/*
 * Litmus tests compare values with constants and order events: their
 * formulas are difference logic unless the program computes (r1 + r2, a
 * data-dependent value).  Z3's difference-logic solver answers those
 * queries several times faster than its general arithmetic, and it says
 * "unknown" (never a wrong answer) when it meets a term outside its
 * fragment; the test is then checked again from scratch with general
 * arithmetic.  An attempt fills r and prints nothing: the answer is
 * printed from r once the attempt is kept (check_result_print), so an
 * abandoned one leaves nothing behind but its warnings, which wait in
 * memory.
 */
int checker_run(struct checker *c, const struct ir_program *prog, FILE *out,
		struct check_result *r)
{
	double t0 = clock_now();
	int retry = 0, ok;
	check_result_reset(r);
	if (enc_arith_mode(prog) == ENC_ARITH_GENERAL) {
		ok = attempt(c, prog, r, t0, ENC_ARITH_GENERAL, &retry);
	} else {
		char *ebuf = NULL;
		size_t elen = 0;
		FILE *emem = open_memstream(&ebuf, &elen);
		if (!emem)
			abort();
		FILE *err = c->err;
		c->err = emem;
		int quiet = quiet_begin();
		ok = attempt(c, prog, r, t0, ENC_ARITH_DIFF, &retry);
		quiet_end(quiet);
		c->err = err;
		fclose(emem);
		if (retry) { /* nothing of the first attempt is kept */
			check_result_reset(r);
			ok = attempt(c, prog, r, t0, ENC_ARITH_GENERAL, &retry);
		} else {
			fwrite(ebuf, 1, elen, err);
		}
		free(ebuf);
	}
	if (out)
		check_result_print(r, out, 1);
	return r->status = ok;
}

/* Did the solver give up because of the difference-logic fragment rather
 * than a time-out or resource limit? */
static int outside_fragment(Z3_context z, Z3_solver s)
{
	const char *why = Z3_solver_get_reason_unknown(z, s);
	return !strstr(why, "timeout") && !strstr(why, "canceled") &&
	       !strstr(why, "resource") && !strstr(why, "memory");
}


/* What the verdict's queries found. */
struct verdict {
	long pos, neg;            /* states (exists-only: 0 or 1) where the
				   * proposition holds, where it does not */
	struct state_set *states; /* the final states listed (empty in
				   * exists-only mode) */
	int exact;                /* states were listed */
	Z3_model reached;         /* --exists-only: the model that reached
				   * the condition, for the witness; NULL */
	int symmetric;            /* symmetric threads were ordered in s */
	struct cubes_stats cubes; /* what the cubes did, for --stats */
	int *raised;              /* the model's flags raised, by index */
	int clear;                /* a program: no execution violates a
				   * final assert or raises a flag (one
				   * question, nothing_bad) */
};

/*
 * On a large test, the execution that runs the threads one after the
 * other (encoder.h: enc_schedule), asked first: Z3 finds it by
 * propagation, where a search for any execution of the long threads of
 * bench/ costs it seconds (long-xy-200: 7.5 s against 0.7 s, and the
 * first of full mode's questions 30 s).  Returns its model (the caller
 * owns a reference), NULL when the test is small, or that schedule has
 * no consistent execution: then nothing is known.
 */
static Z3_model threads_in_turn(const struct problem *p, Z3_solver s)
{
	Z3_context z = p->z;
	struct encoding *enc = p->enc;
	if (enc->n < LARGE_TEST_EVENTS || p->lazy)
		return NULL;
	int *pos = xcalloc((size_t)enc->n + 1, sizeof(int));
	int k = 0;
	for (int t = 0; t < p->prog->nthreads; t++)
		for (int e = 0; e < enc->n; e++)
			if (enc->ev[e].thread == t)
				pos[e] = ++k;
	Z3_ast order = enc_schedule(enc, pos, NULL);
	free(pos);
	if (problem_ask(p, s, order) != Z3_L_TRUE)
		return NULL;
	Z3_model m = Z3_solver_get_model(z, s);
	Z3_model_inc_ref(z, m);
	return m;
}

/* The execution of threads_in_turn answers whichever of cond and its
 * negation it satisfies (*yes or *no made Z3_L_TRUE, *reached its model
 * when it is cond); the other is left to the search, and so are both
 * when there is no such execution. */
static void cond_in_turn(const struct problem *p, Z3_solver s, Z3_ast cond,
			 Z3_lbool *yes, Z3_lbool *no, Z3_model *reached)
{
	Z3_context z = p->z;
	Z3_model m = threads_in_turn(p, s);
	if (!m)
		return;
	Z3_ast val = NULL;
	Z3_lbool holds = Z3_model_eval(z, m, cond, 1, &val) ? Z3_get_bool_value(z, val)
		: Z3_L_UNDEF;
	if (holds == Z3_L_TRUE) {
		*yes = Z3_L_TRUE;
		*reached = m; /* kept for the witness */
		return;
	}
	if (holds == Z3_L_FALSE)
		*no = Z3_L_TRUE;
	Z3_model_dec_ref(z, m);
}

/* The final states, or in exists-only mode (and for programs) whether the
 * proposition and its negation are reachable.  Returns 0 (d filled) when
 * the solver gave up. */
static int find_states(const struct check_options *opt, const struct problem *p,
		       Z3_solver s, Z3_ast cond, struct verdict *v, struct diag *d)
{
	const struct ir_program *prog = p->prog;
	Z3_context z = p->z;
	if (opt->exists_only || prog->is_program) {
		Z3_lbool yes = Z3_L_UNDEF, no = Z3_L_UNDEF;
		if (!v->clear)
			cond_in_turn(p, s, cond, &yes, &no, &v->reached);
		if (yes == Z3_L_UNDEF) {
			yes = problem_ask(p, s, cond);
			if (yes == Z3_L_TRUE) { /* kept for the witness */
				v->reached = Z3_solver_get_model(z, s);
				Z3_model_inc_ref(z, v->reached);
			}
		}
		if (no == Z3_L_UNDEF)
			no = v->clear ? Z3_L_FALSE : problem_ask(p, s, Z3_mk_not(z, cond));
		v->pos = yes == Z3_L_TRUE;
		v->neg = no == Z3_L_TRUE;
		if (yes == Z3_L_UNDEF || no == Z3_L_UNDEF)
			return report_timed_out(d, prog, "checking reachability");
		return 1;
	}
	v->exact = 1;
	/* Z3 starts its searches from the values of its last model (phase
	 * caching): one found without search spares the first of them most
	 * of theirs (long-xy-200, full mode: 43 s to 13 s). */
	Z3_model warm = threads_in_turn(p, s);
	if (warm)
		Z3_model_dec_ref(z, warm);
	int done = opt->no_cubes || p->lazy || p->enc->n >= LARGE_TEST_EVENTS ? CUBES_NOT_APPLICABLE
		: cubes_enumerate(v->states, p, s, v->symmetric, &v->cubes);
	if (done == CUBES_NOT_APPLICABLE)
		done = state_set_enumerate(v->states, s, p->lazy, p->deadline);
	v->pos = state_set_count(v->states, 1);
	v->neg = state_set_count(v->states, 0);
	if (done == STATES_OUT_OF_RANGE)
		return diag_error(d, prog->file, 0, 0, "a final value does not fit in "
				  "64 bits (the test's arithmetic overflows a long); "
				  "try --exists-only");
	if (!done) {
		char what[96];
		snprintf(what, sizeof what, "enumerating final states (%ld found so far)",
			 state_set_size(v->states));
		return report_timed_out(d, prog, what);
	}
	return 1;
}

/* Whether flag can be raised, into *raised (left 0 when the flag is
 * false by construction); 0 on time-out. */
static int ask_flag(const struct problem *p, Z3_solver s, Z3_ast flag, int *raised)
{
	if (Z3_get_bool_value(p->z, flag) == Z3_L_FALSE)
		return 1;
	Z3_lbool r = problem_ask(p, s, flag);
	*raised = r == Z3_L_TRUE;
	return r != Z3_L_UNDEF;
}

/* One query per flag not statically false. */
static int find_flags(const struct problem *p, Z3_solver s, struct verdict *v,
		      struct diag *d)
{
	v->raised = xcalloc((size_t)p->m.nflags + 1, sizeof *v->raised);
	if (v->clear)
		return 1; /* none can be raised */
	for (int f = 0; f < p->m.nflags; f++)
		if (!ask_flag(p, s, p->m.flag[f].raised, &v->raised[f]))
			return report_timed_out(d, p->prog, "checking flags");
	return 1;
}

/* What herd7's block says of v, into r (the states are moved out of v). */
static void record_verdict(const struct problem *p, struct verdict *v, int found,
			   double t0, struct check_result *r)
{
	r->flags = xcalloc((size_t)p->m.nflags + 1, sizeof *r->flags);
	for (int f = 0; f < p->m.nflags; f++)
		if (v->raised[f])
			r->flags[r->nflags++] = xstrdup(p->m.flag[f].name);
	r->verdict = check_verdict_of(v->pos, v->neg);
	r->validated = check_validated(p->prog->quant, v->pos, v->neg);
	r->pos = v->pos;
	r->neg = v->neg;
	r->loop = (found & BOUNDS_REACHED) != 0;
	r->nstates = v->exact ? state_set_size(v->states) : -1;
	if (v->exact)
		state_set_take(v->states, &r->states);
	r->seconds = clock_now() - t0;
}

/* What a printer writes to a stream, as a string (NULL: nothing). */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *capture_begin(struct capture *k)
{
	*k = (struct capture){0};
	k->f = open_memstream(&k->buf, &k->len);
	if (!k->f)
		abort();
	return k->f;
}

/* The text captured, appended to *to (owned). */
static void capture_end(struct capture *k, char **to)
{
	fclose(k->f);
	if (k->len && !*to) {
		*to = k->buf;
		return;
	}
	if (k->len) {
		size_t n = strlen(*to);
		*to = xrealloc(*to, n + k->len + 1);
		memcpy(*to + n, k->buf, k->len + 1);
	}
	free(k->buf);
}

/* What is shown beside the answer: a witness, an explanation, a race,
 * into r. */
static int find_extras(const struct check_options *opt, const struct problem *p,
		       Z3_solver s, Z3_ast cond, const struct verdict *v,
		       struct check_result *r, struct diag *d)
{
	const struct ir_program *prog = p->prog;
	int ok = 1;
	if (!prog->is_program && v->pos > 0 &&
	    (opt->witness || (opt->exists_only && !opt->herd7_only) ||
	     (opt->picture && !opt->explain)))
		ok = report_witness_data(opt, p, s, cond, v->reached, r, d);
	if (ok && opt->explain && v->pos == 0 && !prog->is_program)
		ok = report_explain(opt, p, cond, d, &r->explained);
	/* A program that cannot fail: why no execution violates an assert. */
	if (ok && opt->explain && v->neg == 0 && prog->is_program && prog->nasserts)
		ok = report_explain(opt, p, Z3_mk_not(p->z, cond), d, &r->explained);
	if (ok && opt->explain && p->m.race_flag >= 0 && v->raised[p->m.race_flag] &&
	    !prog->is_program)
		r->race = report_race_data(p, s);
	return ok;
}

/* Assertions and cut-off loops first, without herd7's cut: a bug is found
 * by the first query, and the verdict's queries then reuse the solver
 * (the encoding is taken in once).  herd7 prints "Loop" before Ok/No when
 * its bound cut executions; the report (*report, for after the block)
 * follows the block.  A program's thread assertions go to *asserts
 * instead: its answer shows them with main's asserts (report_program).
 * Returns bounds_report's bits. */
static int check_bounds(struct checker *c, const struct problem *p, Z3_solver s,
			int clean, char **report, char **asserts)
{
	size_t len = 0, alen = 0;
	FILE *rep = open_memstream(report, &len);
	FILE *as = open_memstream(asserts, &alen);
	if (!rep || !as)
		abort();
	int found = bounds_report(&c->opt, p, s, clean, p->prog->is_program ? as : rep,
				  rep, c->err);
	fclose(rep);
	fclose(as);
	return found;
}

/* The encoding, the model and the unroll bound of one attempt. */
static enum problem_status open_problem(struct checker *c, Z3_context z,
					const struct ir_program *prog, double deadline,
					enum enc_arith mode, struct memlimit *limit,
					int program_only, struct problem *p, struct diag *d)
{
	int unroll = c->opt.unroll;
	if (c->opt.unroll_auto &&
	    !bounds_auto_unroll(&c->opt, z, prog, deadline, limit, &unroll, d))
		return PROBLEM_FAILED;
	return (program_only ? problem_open_program : problem_open)(p, z, prog, &c->opt, unroll,
								     deadline, mode, limit, d);
}

static void print_stats(struct checker *c, const struct problem *p, const struct verdict *v,
			const double t[5])
{
	Z3_context z = p->z;
	fprintf(c->err, "stats: events %d, defs %u, facts %u, symmetric threads "
		"ordered %d, their lock rf fixed %d; encode %.3fs, bounds %.3fs, "
		"states %.3fs, flags %.3fs\n",
		p->enc->n, Z3_ast_vector_size(z, p->enc->rc.defs),
		Z3_ast_vector_size(z, p->enc->facts), v->symmetric, p->locks_fixed,
		t[1] - t[0],
		t[2] - t[1], t[3] - t[2], t[4] - t[3]);
	if (c->opt.lazy && !p->lazy)
		fprintf(c->err, "stats: lazy: not used (the model has a negated axiom or "
			"a negation inside a recursive definition): the default encoding\n");
	if (p->lazy) {
		struct lazy_stats ls;
		lazy_get_stats(p->lazy, &ls);
		fprintf(c->err, "stats: lazy: %d nodes, %d atoms; %ld conflicts in the search, %ld atoms implied, "
			"%ld executions ruled out after it, %ld clauses; %ld literals; "
			"%.3fs in Z3, of which %.3fs keeping the circuit's bounds (%ld changes); "
			"%.3fs in full evaluations\n",
			ls.nodes, ls.atoms, ls.conflicts, ls.implied, ls.rounds, ls.clauses, ls.lits, ls.solve_s,
			ls.inc_s, ls.changes, ls.eval_s);
	}
	/* the relations that cost most definitions: where relation
	 * analysis (fewer possible pairs) would pay */
	struct rel_tally *tally;
	int nt = rel_defs_by_name(&p->enc->rc, &tally);
	fprintf(c->err, "stats: defs by relation:");
	for (int i = 0; i < nt && i < 12; i++)
		fprintf(c->err, "%s %s %u", i ? "," : "", tally[i].name, tally[i].defs);
	if (nt > 12) {
		unsigned rest = 0;
		for (int i = 12; i < nt; i++)
			rest += tally[i].defs;
		fprintf(c->err, ", %d others %u", nt - 12, rest);
	}
	fputc('\n', c->err);
	rel_tally_free(tally, nt);
	if (v->cubes.consistent_queries)
		fprintf(c->err, "stats: cubes: %ld consistency and %ld violation queries, "
			"%ld whole cubes holding %ld states, %d rcu-order stages\n",
			v->cubes.consistent_queries, v->cubes.violation_queries,
			v->cubes.whole_cubes, v->cubes.states_in_cubes,
			v->cubes.rcu_stages);
}

/* A program's final asserts and flags as one question: whether no
 * execution violates an assert or raises a flag.  A correct program's
 * "no" to each then costs one proof instead of one a flag and one for
 * the asserts (the per-thread ticket lock of 6 threads: 1.3 s and 0.7 s
 * before).  Asked only when there are two such questions or more; a
 * "yes" or a time-out leaves them to find_states and find_flags. */
/* Some execution violates a final assert (cond false) or raises a flag
 * not false by construction; *nq: how many such questions. */
static Z3_ast verdict_bad(const struct problem *p, Z3_ast cond, int *nq)
{
	Z3_context z = p->z;
	int cap = 1 + p->m.nflags;
	Z3_ast *q = xcalloc((size_t)cap, sizeof *q);
	*nq = 0;
	q[(*nq)++] = Z3_mk_not(z, cond);
	for (int f = 0; f < p->m.nflags; f++) {
		Z3_ast flag = p->m.flag[f].raised;
		if (Z3_get_bool_value(z, flag) != Z3_L_FALSE)
			q[(*nq)++] = flag;
	}
	Z3_ast any = Z3_mk_or(z, (unsigned)*nq, q);
	free(q);
	return any;
}

static int nothing_bad(const struct problem *p, Z3_solver s, Z3_ast cond)
{
	int nq;
	Z3_ast bad = verdict_bad(p, cond, &nq);
	return nq >= 2 && problem_ask(p, s, bad) == Z3_L_FALSE;
}

/* A program's whole "can anything go wrong?" as one question, before
 * the findings (bounds.h) and the verdict are asked one by one: a thread
 * assertion, a cut-off loop or a hang (without herd7's cut, as
 * bounds_report asks them), or, in an execution herd7's cut keeps, a
 * final assert violated or a flag raised.  When none can, a correct
 * program pays one proof for all (the per-index ticket lock of 6 threads:
 * 5.9 s with one proof for the findings and one for the verdict, 4.7 s
 * with this one).  Asked under symmetry breaking, as each of those
 * questions is; only when there are two questions or more.  Returns
 * BOUNDS_CLEAN when none can, else 0. */
static int program_clean(const struct problem *p, Z3_solver s)
{
	Z3_context z = p->z;
	const struct encoding *enc = p->enc;
	int kinds, nq;
	Z3_ast findings = bounds_anything(p, &kinds);
	Z3_ast verdict = verdict_bad(p, enc_cond(enc, p->prog->cond), &nq);
	if (kinds + nq < 2)
		return 0;
	Z3_ast cut = problem_cut(p);
	Z3_solver_push(z, s);
	symmetry_break(enc, s);
	Z3_lbool r = problem_ask(p, s, z3u_or2(z, findings, z3u_and2(z, cut, verdict)));
	Z3_solver_pop(z, s, 1);
	return r == Z3_L_FALSE ? BOUNDS_CLEAN : 0;
}

/* A solver of the program and the model's axioms (not herd7's cut). */
static Z3_solver consistent_solver(const struct problem *p)
{
	return problem_solver(p, PG_CONSISTENT | PG_LAZY, 1);
}

/* The errors --first-error looks for in p (firsterr.h): a thread
 * assertion failed, a hang, or in an execution herd7's cut keeps a final
 * assert violated or a flag raised. */
static Z3_ast first_errors(const struct problem *p)
{
	int nq;
	Z3_ast verdict = verdict_bad(p, enc_cond(p->enc, p->prog->cond), &nq);
	return z3u_or2(p->z, bounds_errors(p), z3u_and2(p->z, problem_cut(p), verdict));
}

/* --first-error on p, its model built, when the schedules showed no
 * error.  Returns what program_clean does (BOUNDS_CLEAN_ERRORS when there
 * is none), or -1 when an error was shown, -2 on a time-out (d). */
static int program_first_error(const struct check_options *opt, const struct problem *p,
			       Z3_solver *s, FILE *out, FILE *err, struct diag *d)
{
	Z3_ast errors = first_errors(p);
	/* The interleavings need no solver of the model: Z3 takes in the
	 * whole model (2.4 s of the 18 s of the per-index MCS lock of 8
	 * threads without its release) only when they show no error.  The
	 * schedules were tried before the model (run_in). */
	if (first_error_interleaved(opt, p, errors, out, err))
		return -1;
	*s = consistent_solver(p);
	switch (first_error(opt, p, *s, errors, out, err, d)) {
	case FIRST_ERROR_SHOWN: return -1;
	case FIRST_ERROR_UNKNOWN: return -2;
	case FIRST_ERROR_NONE: break;
	}
	return BOUNDS_CLEAN_ERRORS;
}

/* The answer to the test on s (bounds already asked, herd7's cut in):
 * states, flags, the output, what is shown beside it.  clean: what a
 * program is known not to do (BOUNDS_CLEAN_* bits: program_clean,
 * program_first_error).  Returns 0 (d filled) or 1;
 * *program_bad: a program can fail. */
static int answer(struct checker *c, const struct problem *p, Z3_solver s, int found,
		  int clean, const char *asserts, double t[5], FILE *prog_out,
		  struct check_result *r, int *program_bad)
{
	struct diag *d = &r->error;
	const struct ir_program *prog = p->prog;
	struct verdict v = {.symmetric = symmetry_break(p->enc, s)};
	Z3_ast cond = enc_cond(p->enc, prog->cond);
	v.states = state_set_new(p->enc);
	v.clear = (clean & BOUNDS_CLEAN_ERRORS) || (prog->is_program && nothing_bad(p, s, cond));
	int ok = find_states(&c->opt, p, s, cond, &v, d);
	t[3] = clock_now();
	ok = ok && find_flags(p, s, &v, d);
	t[4] = clock_now();
	if (c->opt.stats)
		print_stats(c, p, &v, t);
	/* Relations built past the deadline (cubes' exact model) are
	 * incomplete: nothing asked of them is printed. */
	if (ok && p->enc->rc.expired)
		ok = report_timed_out(d, prog, "building relations");
	if (ok && prog->is_program)
		ok = report_program(&c->opt, p, s, v.raised, found, asserts,
				    v.pos > 0 || v.neg > 0, prog_out, c->err, d, program_bad);
	else if (ok)
		record_verdict(p, &v, found, t[0], r);
	if (ok)
		ok = find_extras(&c->opt, p, s, cond, &v, r, d);
	if (v.reached)
		Z3_model_dec_ref(p->z, v.reached);
	free(v.raised);
	state_set_free(v.states);
	return ok;
}

static int run_in(struct checker *c, Z3_context z, const struct ir_program *prog,
		  struct check_result *r, double t0, enum enc_arith mode,
		  struct memlimit *limit, int *retry)
{
	struct diag *d = &r->error;
	r->quant = prog->quant;
	r->program = prog->is_program;
	r->name = xstrdup(prog->name);
	r->cond_text = prog->cond_text ? xstrdup(prog->cond_text) : NULL;
	double deadline = c->opt.timeout_ms ? t0 + c->opt.timeout_ms / 1000.0 : 0;
	struct problem p;
	/* --first-error: the schedules' executions are judged before the
	 * model is built over the whole program (4.3 of the 8.7 s of the
	 * per-index MCS lock of 8 threads without its release), each by
	 * the model built over it alone (firsterr.h) */
	int first = prog->is_program && c->opt.first_error;
	switch (open_problem(c, z, prog, deadline, mode, limit, first, &p, d)) {
	case PROBLEM_READY: break;
	case PROBLEM_FAILED: return 0;
	case PROBLEM_EXPIRED: return report_timed_out(d, prog, "encoding the test");
	}
	/* a program's report, printed by report.c and firsterr.c */
	struct capture k;
	FILE *prog_out = capture_begin(&k);
	int clean = 0; /* -1: the first error is shown */
	if (first && first_error_before_model(&c->opt, &p, first_errors, prog_out, c->err))
		clean = -1;
	else if (first) {
		switch (problem_add_model(&p, &c->opt, d)) {
		case PROBLEM_READY: break;
		case PROBLEM_FAILED: capture_end(&k, &r->program_text); return 0;
		case PROBLEM_EXPIRED:
			capture_end(&k, &r->program_text);
			return report_timed_out(d, prog, "encoding the test");
		}
	}
	double t[5] = {t0, clock_now()}; /* start, encoded, bounds, states, flags */
	Z3_solver s = NULL;
	char *report = NULL, *asserts = NULL;
	if (first && clean == 0)
		clean = program_first_error(&c->opt, &p, &s, prog_out, c->err, d);
	/* the first error shown: nothing more is asked (the 8-thread queued
	 * rwlock's solver took 1.7 s of its 5.4 s to make) */
	if (!s && clean != -1)
		s = consistent_solver(&p);
	if (prog->is_program && !c->opt.first_error)
		clean = program_clean(&p, s);
	int found = clean < 0 ? 0 : check_bounds(c, &p, s, clean, &report, &asserts);
	t[2] = clock_now();
	int ok = 0, program_bad = 0;
	if (clean == -1) {
		ok = 1; /* the first error is shown: nothing more is asked */
		program_bad = 1;
	} else if (clean == -2) {
		if (mode == ENC_ARITH_DIFF && !clock_past(deadline) && outside_fragment(z, s))
			*retry = 1;
	} else if ((found & BOUNDS_UNKNOWN) && mode == ENC_ARITH_DIFF && !clock_past(deadline) &&
	    outside_fragment(z, s)) {
		*retry = 1; /* difference logic gave up: general arithmetic */
	} else {
		Z3_solver_push(z, s);
		problem_assert(&p, s, PG_CUT);
		ok = answer(c, &p, s, found, clean, asserts, t, prog_out, r, &program_bad);
		/* Past the deadline nothing is retried: the limit is the cause. */
		if (!ok && mode == ENC_ARITH_DIFF && !clock_past(deadline) &&
		    outside_fragment(z, s))
			*retry = 1;
	}
	capture_end(&k, &r->program_text);
	if (ok) {
		r->notes = report && *report ? report : NULL;
		if (r->notes)
			report = NULL;
		ok = CHECK_DONE;
		if ((found & (BOUNDS_ASSERT_FAILS | BOUNDS_SPINS)) || program_bad)
			ok |= CHECK_CODE_FAILS;
		if (c->opt.unroll_auto && (found & (BOUNDS_REACHED | BOUNDS_UNKNOWN)))
			ok |= CHECK_BOUND_LIMIT;
		r->findings = (found & BOUNDS_ASSERT_FAILS ? CHECK_FOUND_ASSERT_FAILS : 0) |
			(found & BOUNDS_REACHED ? CHECK_FOUND_LOOP_BOUND : 0) |
			(found & BOUNDS_SPINS ? CHECK_FOUND_SPINS : 0) |
			(program_bad ? CHECK_FOUND_PROGRAM_BAD : 0);
	}
	free(report);
	free(asserts);
	if (s)
		Z3_solver_dec_ref(z, s);
	problem_close(&p);
	return ok;
}


