/*
 * bounds.c - assertion and unwinding checks, after the verdict (bounds.h).
 *
 * One solver holds the program, the model's axioms and the filter, but not
 * herd7's cut (enc->drop): paths that stop at a loop bound stay in.  Then:
 *   assertions  is some IR_ASSERT's failure condition satisfiable?  Each
 *               assertion that can fail is reported with an execution.
 *   unwinding   a path stopped at the bound is cut off for real only when
 *               no iteration on it stuttered (wrote nothing and left the
 *               registers as they were): a stuttering iteration can be left
 *               out of an execution without changing anything else, so an
 *               execution with one is the same as a shorter one the bound
 *               covers.  Such a cut-off path means the verdict misses
 *               executions: warn (try --unroll N+1).
 *               Paths after an iteration without effect (encoder/symex_path.c, "spin
 *               loops") are recorded too, never as cut off.
 *   spinning    a path whose last iteration stuttered (or had no effect)
 *               while every read in it
 *               saw the final value of its location can repeat it forever:
 *               no later write will let it out.  When every path stopped at
 *               a bound in an execution is such a path, those threads hang
 *               in that execution: warn.  (Stuttering on an older value is
 *               not a hang: a later iteration may read a newer one, which
 *               the shorter execution covers; and while another thread is
 *               only cut short, the final values are not final yet.)
 * Each finding is first asked for all sites at once under symmetry
 * breaking (symmetry.h; the question is invariant under renaming
 * interchangeable threads): "none" ends it, the usual and costly answer.
 * --unroll auto re-encodes the test with bounds 2, 3, ... until no path is
 * cut off.  This file asks and reports; it does not print the verdict.
 */
#include "solver/bounds.h"

#include <stdlib.h>

#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "encoder/z3util.h"
#include "models/lkmm.h"
#include "solver/options.h"
#include "solver/deadline.h"
#include "solver/readback.h"
#include "solver/interleave.h"
#include "solver/problem.h"
#include "solver/scalarset.h"
#include "solver/symmetry.h"

static int block_has(const struct ir_block *b, enum ir_op op)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (in->op == op || block_has(&in->then_b, op) ||
		    block_has(&in->else_b, op))
			return 1;
	}
	return 0;
}

static int prog_has(const struct ir_program *prog, enum ir_op op)
{
	for (int t = 0; t < prog->nthreads; t++)
		if (block_has(&prog->threads[t].body, op))
			return 1;
	return 0;
}

int bounds_needed(const struct ir_program *prog)
{
	return prog_has(prog, IR_LOOP) || prog_has(prog, IR_ASSERT);
}

/* The final value of the location event e accesses. */
static Z3_ast final_at(const struct encoding *enc, int e)
{
	Z3_context z = enc->z;
	const struct event *ev = &enc->ev[e];
	if (ev->loc >= 0)
		return enc->final_loc[ev->loc];
	Z3_ast v = z3u_int(z, ENC_SYMBOLIC);
	for (int x = 0; x < enc->prog->nlocs; x++)
		v = Z3_mk_ite(z, Z3_mk_eq(z, ev->addr, z3u_int(z, enc_loc_address(x))),
			      enc->final_loc[x], v);
	return v;
}

/* Every read of the bound's last iteration saw its location's final value.
 * With it, the counts of those final values that have one: they hold in
 * every execution the model allows, and the question is asked with the
 * model's axioms; Z3 then knows a counter's final value without ordering
 * its RMWs (encoder/execution.c, build_final_count). */
static Z3_ast reads_final(const struct encoding *enc, const struct enc_bound *b)
{
	Z3_context z = enc->z;
	int nlocs = enc->prog->nlocs, any_loc = 0;
	unsigned char *read = xcalloc((size_t)nlocs + 1, 1); /* locations read */
	Z3_ast all = Z3_mk_true(z);
	for (int e = b->first_ev; e < b->end_ev; e++)
		if ((enc->ev[e].cls & EVC_BIT(EVC_R)) && enc->ev[e].val) {
			all = z3u_and2(z, all, Z3_mk_implies(z, enc->ev[e].guard,
				Z3_mk_eq(z, enc->ev[e].val, final_at(enc, e))));
			if (enc->ev[e].loc >= 0)
				read[enc->ev[e].loc] = 1;
			else
				any_loc = 1;
		}
	for (int x = 0; enc->final_count && x < nlocs; x++)
		if (enc->final_count[x] && (read[x] || any_loc))
			all = z3u_and2(z, all, enc->final_count[x]);
	free(read);
	return all;
}

/* A path cut off at the bound with no stuttering iteration. */
static Z3_ast cut_off(const struct encoding *enc, const struct enc_bound *b)
{
	return z3u_and2(enc->z, b->reach, Z3_mk_not(enc->z, b->stutter_any));
}

/* A path that can repeat its last iteration forever. */
static Z3_ast spins(const struct encoding *enc, const struct enc_bound *b)
{
	return Z3_mk_and(enc->z, 3, (Z3_ast[]){b->reach, b->last_stutter,
					       reads_final(enc, b)});
}

/* One finding per source loop or assertion (unrolling copies them). */
struct site {
	const struct ir_instr *in; /* the IR_LOOP or IR_ASSERT */
	int thread;                /* its thread */
	int place;                 /* in's place in its thread's code
				    * (pre-order), the same in a thread
				    * with the same code */
	Z3_ast when;               /* the finding's condition */
	int found;                 /* 1 once reported */
};

/* in's pre-order place in b, counting from *k; -1 when not in b. */
static int place_in(const struct ir_block *b, const struct ir_instr *in, int *k)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *x = &b->items[i];
		if (x == in)
			return *k;
		++*k;
		int p = place_in(&x->then_b, in, k);
		if (p < 0)
			p = place_in(&x->else_b, in, k);
		if (p >= 0)
			return p;
	}
	return -1;
}

static int add_site(const struct encoding *enc, struct site *s, int n,
		    const struct ir_instr *in, int thread, Z3_ast when)
{
	for (int i = 0; i < n; i++)
		if (s[i].in == in && s[i].thread == thread) {
			s[i].when = z3u_or2(enc->z, s[i].when, when);
			return n;
		}
	int k = 0;
	s[n] = (struct site){in, thread,
			     place_in(&enc->prog->threads[thread].body, in, &k), when, 0};
	return n + 1;
}

static Z3_ast any_left(Z3_context z, const struct site *s, int n)
{
	Z3_ast f = Z3_mk_false(z);
	for (int i = 0; i < n; i++)
		if (!s[i].found)
			f = z3u_or2(z, f, s[i].when);
	return f;
}

enum finding { F_ASSERT, F_CUT, F_SPIN };

static void warn(const struct encoding *enc, const struct site *s, enum finding f,
		 int unroll, FILE *err)
{
	const char *file = enc->prog->file;
	const char *text = s->in->text ? s->in->text : "";
	fprintf(err, "%s:%d:%d: warning: ", file, s->in->pos.line, s->in->pos.col);
	switch (f) {
	case F_ASSERT:
		fprintf(err, "assertion can fail in P%d: %s (an execution is on "
			"the standard output)\n", s->thread, text);
		break;
	case F_CUT:
		fprintf(err, "unwinding bound reached at line %d (loop needs more "
			"than %d iteration%s in some execution; try --unroll %d or "
			"--unroll auto); the answer leaves those executions out, "
			"so a \"Never\" may be wrong for the real code\n",
			s->in->pos.line, unroll, unroll == 1 ? "" : "s", unroll + 1);
		break;
	case F_SPIN:
		fprintf(err, "P%d spins forever at line %d in some execution "
			"(its loop sees only final values and can never exit: a "
			"hang; an execution is on the standard output)\n",
			s->thread, s->in->pos.line);
		break;
	}
}

static void show(const struct encoding *enc, const struct site *s, enum finding f,
		 int unroll, FILE *out)
{
	const char *text = s->in->text ? s->in->text : "";
	switch (f) {
	case F_ASSERT:
		fprintf(out, "Assertion failed: %s at %s:%d:%d in P%d\n", text,
			enc->prog->file, s->in->pos.line, s->in->pos.col, s->thread);
		break;
	case F_CUT:
		fprintf(out, "Unwinding bound %d reached: P%d line %d %s needs more "
			"iterations in a consistent execution (left out of the "
			"answer above)\n", unroll, s->thread, s->in->pos.line, text);
		break;
	case F_SPIN:
		if (enc->prog->is_program)
			fprintf(out, "Spins forever at %s:%d: P%d %s never exits "
				"in a consistent execution (it sees only final "
				"values)\n", enc->prog->file, s->in->pos.line,
				s->thread, text);
		else
			fprintf(out, "Spins forever: P%d line %d %s never exits in a "
				"consistent execution\n", s->thread, s->in->pos.line, text);
		break;
	}
}

/* Threads of x stopped at a loop bound: the final register values printed
 * for them are those of paths that left the loop, not theirs. */
static void stopped(const struct execution *x, const struct encoding *enc, FILE *out)
{
	for (int i = 0; i < enc->nbounds; i++) {
		const struct enc_bound *b = &enc->bounds[i];
		int first = 1;
		for (int j = 0; j < i; j++)
			first &= enc->bounds[j].loop != b->loop || enc->bounds[j].thread != b->thread;
		if (first && execution_holds(x, b->reach))
			fprintf(out, "  P%d %s in its loop at line %d "
				"(the final values of its registers above mean nothing)\n",
				b->thread, b->spin ? "spins" : "stops at the bound",
				b->loop->pos.line);
	}
}

/* x as the steps of an execution, and the threads it leaves at a bound. */
static void show_execution(const struct check_options *opt, const struct problem *p,
			   const struct execution *x, FILE *out)
{
	fputs("  in this execution:\n", out);
	interleave_show(x, &p->m, opt->witness, out);
	stopped(x, p->enc, out);
}

/* Report every site that some execution reaches, one query per group of
 * sites a model shows.  The question is invariant under renaming
 * interchangeable threads (symmetry.h): the queries fix one order of them,
 * and a site found in one thread is also reported for the threads with
 * the same code, at the same place.  Returns 1 if any was found, -1 on a
 * time-out. */
static int find(const struct check_options *opt, const struct problem *p,
		Z3_solver slv, struct site *s, int n, enum finding f, int executions,
		FILE *out, FILE *err)
{
	Z3_context z = p->z;
	const struct encoding *enc = p->enc;
	int unroll = p->unroll;
	if (Z3_get_bool_value(z, Z3_simplify(z, any_left(z, s, n))) == Z3_L_FALSE)
		return 0; /* no site at all, or none reachable on any path */
	int *rep = symmetry_classes(enc);
	Z3_solver_push(z, slv);
	symmetry_break(enc, slv);
	int any = 0;
	for (;;) {
		Z3_lbool r = problem_ask(p, slv, any_left(z, s, n));
		if (r != Z3_L_TRUE) {
			any = r == Z3_L_UNDEF ? -1 : any;
			break;
		}
		Z3_model m = Z3_solver_get_model(z, slv);
		Z3_model_inc_ref(z, m);
		struct execution *x = execution_new(enc, m);
		int shown = 0;
		for (int i = 0; i < n; i++) {
			if (s[i].found || !execution_holds(x, s[i].when))
				continue;
			s[i].found = 1;
			shown++;
			warn(enc, &s[i], f, unroll, err);
			show(enc, &s[i], f, unroll, out);
			for (int j = 0; j < n; j++) {
				if (s[j].found || s[j].place != s[i].place ||
				    rep[s[j].thread] != rep[s[i].thread])
					continue;
				s[j].found = 1;
				warn(enc, &s[j], f, unroll, err);
				show(enc, &s[j], f, unroll, out);
				int same = scalarset_same_code(&enc->prog->threads[s[j].thread],
							       &enc->prog->threads[s[i].thread]);
				fprintf(out, "  (P%d runs the same code as P%d%s%s%s)\n",
					s[j].thread, s[i].thread, same ? "" : " with its own index",
					executions || opt->witness
					? ": the execution below with the two swapped" : "",
					(executions || opt->witness) && !same ? ", and their indices" : "");
			}
		}
		if (executions || opt->witness)
			show_execution(opt, p, x, out);
		fputc('\n', out);
		execution_free(x);
		Z3_model_dec_ref(z, m);
		any = 1;
		if (!shown) { /* the model must show one: do not loop */
			any = -1;
			break;
		}
	}
	Z3_solver_pop(z, slv, 1);
	free(rep);
	return any;
}

int bounds_assert_sites(const struct encoding *enc)
{
	int n = 0;
	for (int i = 0; i < enc->nasserts; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = enc->asserts[j].instr == enc->asserts[i].instr &&
			       enc->asserts[j].thread == enc->asserts[i].thread;
		n += !seen;
	}
	return n;
}

/* A hang is an execution where every path stopped at a bound spins for
 * good: one still making progress, or stuttering on a value that a later
 * write replaces, is only cut short. */
static Z3_ast all_spin_of(const struct encoding *enc)
{
	Z3_context z = enc->z;
	Z3_ast all_spin = Z3_mk_true(z);
	for (int i = 0; i < enc->nbounds; i++)
		all_spin = z3u_and2(z, all_spin, Z3_mk_implies(z, enc->bounds[i].reach,
							   spins(enc, &enc->bounds[i])));
	return all_spin;
}

/* The three findings' conditions over every site: kind[0] an assertion
 * fails, kind[1] a path is cut off at a bound, kind[2] the threads hang. */
static void findings_of(const struct problem *p, Z3_ast kind[3])
{
	Z3_context z = p->z;
	const struct encoding *enc = p->enc;
	Z3_ast all_spin = all_spin_of(enc);
	kind[0] = kind[1] = kind[2] = Z3_mk_false(z);
	for (int i = 0; i < enc->nasserts; i++)
		kind[0] = z3u_or2(z, kind[0], enc->asserts[i].fails);
	for (int i = 0; i < enc->nbounds; i++) {
		kind[1] = z3u_or2(z, kind[1], cut_off(enc, &enc->bounds[i]));
		kind[2] = z3u_or2(z, kind[2], z3u_and2(z, enc->bounds[i].reach, all_spin));
	}
}

Z3_ast bounds_anything(const struct problem *p, int *kinds)
{
	Z3_ast kind[3];
	findings_of(p, kind);
	*kinds = 0;
	for (int k = 0; k < 3; k++) {
		kind[k] = Z3_simplify(p->z, kind[k]);
		*kinds += Z3_get_bool_value(p->z, kind[k]) != Z3_L_FALSE;
	}
	return Z3_mk_or(p->z, 3, kind);
}

/* Whether no execution fails an assertion, is cut off at a bound or
 * hangs (all_spin: every path stopped at a bound spins), asked as one
 * question under symmetry breaking (each of the three is invariant under
 * renaming interchangeable threads, so their disjunction is).  A correct
 * program's three "none" answers then cost one proof instead of three:
 * the per-thread ticket lock of 6 threads spent 4.2 s proving no
 * assertion fails and 3.6 s more that nothing hangs.  Asked only when
 * there are two kinds of finding or more; a "yes" or a time-out leaves
 * the questions to find(). */
static int nothing_found(const struct problem *p, Z3_solver slv)
{
	Z3_context z = p->z;
	int kinds;
	Z3_ast any = bounds_anything(p, &kinds);
	if (kinds < 2)
		return 0;
	Z3_solver_push(z, slv);
	symmetry_break(p->enc, slv);
	Z3_lbool r = problem_ask(p, slv, any);
	Z3_solver_pop(z, slv, 1);
	return r == Z3_L_FALSE;
}

Z3_ast bounds_errors(const struct problem *p)
{
	Z3_ast kind[3];
	findings_of(p, kind);
	return z3u_or2(p->z, kind[0], kind[2]);
}

int bounds_show_in(const struct check_options *opt, const struct problem *p,
		   const struct execution *x, int hangs, FILE *out, FILE *err)
{
	const struct encoding *enc = p->enc;
	struct site s = {0};
	if (!hangs) {
		for (int i = 0; i < enc->nasserts && !s.in; i++)
			if (execution_holds(x, enc->asserts[i].fails))
				add_site(enc, &s, 0, enc->asserts[i].instr,
					 enc->asserts[i].thread, enc->asserts[i].fails);
	} else {
		Z3_ast all_spin = all_spin_of(enc);
		for (int i = 0; i < enc->nbounds && !s.in; i++) {
			Z3_ast hang = z3u_and2(p->z, enc->bounds[i].reach, all_spin);
			if (execution_holds(x, hang))
				add_site(enc, &s, 0, enc->bounds[i].loop,
					 enc->bounds[i].thread, hang);
		}
	}
	if (!s.in)
		return 0;
	enum finding f = hangs ? F_SPIN : F_ASSERT;
	warn(enc, &s, f, p->unroll, err);
	show(enc, &s, f, p->unroll, out);
	show_execution(opt, p, x, out);
	return 1;
}

int bounds_report(const struct check_options *opt, const struct problem *p,
		  Z3_solver slv, int clean, FILE *asserts, FILE *out, FILE *err)
{
	Z3_context z = p->z;
	const struct encoding *enc = p->enc;
	int unroll = p->unroll;
	if (enc->nasserts == 0 && enc->nbounds == 0 && !bounds_needed(enc->prog))
		return 0;
	if (clock_past(p->deadline)) {
		fprintf(err, "%s: warning: the assertion/unwinding check gave up "
			"(time-out); try a larger --timeout\n", enc->prog->file);
		return BOUNDS_UNKNOWN;
	}
	int k = enc->nasserts > enc->nbounds ? enc->nasserts : enc->nbounds;
	struct site *s = calloc((size_t)(k ? k : 1), sizeof *s);
	if (!s)
		abort();
	int found = 0, n, r;
	double t[4];
	t[0] = clock_now();
	Z3_ast all_spin = all_spin_of(enc);
	if (!clean && nothing_found(p, slv))
		clean = BOUNDS_CLEAN;

	n = 0;
	for (int i = 0; i < enc->nasserts; i++)
		n = add_site(enc, s, n, enc->asserts[i].instr, enc->asserts[i].thread,
			     enc->asserts[i].fails);
	r = (clean & BOUNDS_CLEAN_ERRORS) ? 0 : find(opt, p, slv, s, n, F_ASSERT, 1, asserts, err);
	found |= r < 0 ? BOUNDS_UNKNOWN : r ? BOUNDS_ASSERT_FAILS : 0;
	/* A program's answer says it with main's asserts counted in. */
	if (r == 0 && n > 0 && !enc->prog->is_program)
		fprintf(asserts, "Assertions: none of %d can fail\n\n", n);
	t[1] = clock_now();

	n = 0;
	for (int i = 0; i < enc->nbounds; i++)
		n = add_site(enc, s, n, enc->bounds[i].loop, enc->bounds[i].thread,
			     cut_off(enc, &enc->bounds[i]));
	/* After a time-out the next questions would time out too. */
	r = r < 0 ? r : (clean & BOUNDS_CLEAN_CUT) ? 0 : find(opt, p, slv, s, n, F_CUT, 0, out, err);
	found |= r < 0 ? BOUNDS_UNKNOWN : r ? BOUNDS_REACHED : 0;
	t[2] = clock_now();

	n = 0;
	for (int i = 0; i < enc->nbounds; i++)
		n = add_site(enc, s, n, enc->bounds[i].loop, enc->bounds[i].thread,
			     z3u_and2(z, enc->bounds[i].reach, all_spin));
	r = r < 0 ? r : (clean & BOUNDS_CLEAN_ERRORS) ? 0 : find(opt, p, slv, s, n, F_SPIN, 1, out, err);
	found |= r < 0 ? BOUNDS_UNKNOWN : r ? BOUNDS_SPINS : 0;
	t[3] = clock_now();
	if (opt->stats) {
		int counted = 0;
		for (int x = 0; enc->final_count && x < enc->prog->nlocs; x++)
			counted += enc->final_count[x] != NULL;
		fprintf(err, "stats: bounds: %d loop records, %d assertions, %d final "
			"values counted; assertions %.3fs, unwinding %.3fs, spinning %.3fs\n",
			enc->nbounds, enc->nasserts, counted, t[1] - t[0], t[2] - t[1], t[3] - t[2]);
	}

	if (found & BOUNDS_UNKNOWN)
		fprintf(err, "%s: warning: the assertion/unwinding check gave up "
			"(time-out); try a larger --timeout\n", enc->prog->file);
	if (!(found & (BOUNDS_REACHED | BOUNDS_UNKNOWN)) && prog_has(enc->prog, IR_LOOP)) {
		if (opt->unroll_auto)
			fprintf(out, "Unwinding: --unroll auto chose %d: no consistent "
				"execution needs more iterations\n\n", unroll);
		else
			fprintf(out, "Unwinding: bound %d: no consistent execution "
				"needs more iterations\n\n", unroll);
	} else if ((found & BOUNDS_REACHED) && opt->unroll_auto) {
		fprintf(out, "Unwinding: --unroll auto stopped at its limit %d\n\n", unroll);
		fprintf(err, "%s: warning: --unroll auto reached its limit %d and loops "
			"still need more iterations (raise it with --unroll auto:N)\n",
			enc->prog->file, unroll);
	}
	free(s);
	return found;
}

int bounds_auto_unroll(const struct check_options *opt, Z3_context z,
		       const struct ir_program *prog, double deadline,
		       struct memlimit *limit, int *unroll, struct diag *d)
{
	int n = opt->unroll;
	*unroll = n;
	if (!prog_has(prog, IR_LOOP))
		return 1;
	/* The probes only ask whether an execution needs more iterations:
	 * --explain's separate axioms (and all candidate executions) would
	 * give the same answers, slower. */
	struct check_options probe = *opt;
	probe.explain = 0;
	for (; n <= opt->unroll_auto; n++) {
		*unroll = n;
		struct problem p;
		switch (problem_open(&p, z, prog, &probe, n, deadline, ENC_ARITH_GENERAL, limit, d)) {
		case PROBLEM_READY: break;
		case PROBLEM_FAILED: return 0;
		case PROBLEM_EXPIRED: return 1; /* gave up: the caller reports it */
		}
		Z3_solver s = problem_solver(&p, PG_CONSISTENT, 1);
		Z3_ast f = Z3_mk_false(z);
		for (int i = 0; i < p.enc->nbounds; i++)
			f = z3u_or2(z, f, cut_off(p.enc, &p.enc->bounds[i]));
		Z3_lbool r = problem_ask(&p, s, f);
		Z3_solver_dec_ref(z, s);
		problem_close(&p);
		if (r != Z3_L_TRUE) /* done, or gave up: report at this bound */
			return 1;
	}
	*unroll = opt->unroll_auto;
	return 1;
}
