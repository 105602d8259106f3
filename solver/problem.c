/*
 * problem.c - a test's encoding and model as groups of constraints, and
 * the solvers over them (problem.h).
 *
 * Solvers are Z3's plain SMT core (Z3_mk_simple_solver): the default
 * solver's tactic set-up costs 10 ms a test.  The arithmetic is tuned here
 * for the mode check.c chose; the queries and what is made of their
 * answers are the callers'.
 */
#include "solver/problem.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/clock.h"
#include "common/memlimit.h"
#include "encoder/z3util.h"
#include "solver/options.h"
#include "solver/deadline.h"
#include "solver/lazy.h"
#include "solver/symmetry.h"

/*
 * The most events for which the dense difference-logic solver is used.
 * Two threads of N stores to the same two locations (bench/gen-families.sh
 * long-shared, long-xy: no fences, every read's candidates spread over the
 * other thread's stores) are where it pays: --exists-only on long-shared-100
 * (284 events) 13.6 s with simplex, 1.8 s dense; long-shared-150 40 s,
 * 5.3 s; long-xy-100 (242 events) over 90 s, 3.7 s; full mode on those two
 * 12.2 and 70 s against 2.0 and 4.6 s.  With a fence before each read
 * (long-mb, long4-mb) the search is easy and the matrix costs: 20-40 %
 * more time (long4-mb-100, 572 events: 0.81 s, 0.99 s) and up to 2.5x
 * the memory (long-mb-200, 566 events: 410 MB, 1.0 GB), growing with the
 * square of the events (long-mb-400, 1,126 events: 1.2 GB, 4.1 GB for
 * the same time).  From 200 events up to this many the gains are 7-20x
 * and the losses fractions of a second.
 */
#define DENSE_DIFF_MAX_EVENTS 600

/* Z3's parameters for p's solvers. */
static Z3_params make_params(Z3_context z, const struct check_options *opt,
			     const struct encoding *enc, enum enc_arith arith)
{
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	if (opt->timeout_ms)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), opt->timeout_ms);
	if (arith == ENC_ARITH_DIFF) {
		/* Floyd-Warshall's dense difference logic is the fastest,
		 * but keeps a matrix over all integer variables: past
		 * DENSE_DIFF_MAX_EVENTS the simplex-based solver takes its
		 * place. */
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "arith.solver"),
				   enc->n > DENSE_DIFF_MAX_EVENTS ? 5 : 3);
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "relevancy"), 0);
	}
	return p;
}

/* Z3 ran out of memory_max_size (common/memlimit.h): the limit's error.
 * Anything else is a bug of lkmmc's. */
static void on_z3_error(Z3_context z, Z3_error_code e)
{
	if (e == Z3_MEMOUT_FAIL)
		memlimit_out_of_memory();
	fprintf(stderr, "lkmmc: internal Z3 error: %s\n", Z3_get_error_msg(z, e));
	abort();
}

Z3_context problem_context(int models)
{
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", models ? "true" : "false");
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(z, on_z3_error);
	return z;
}

enum problem_status problem_open_program(struct problem *p, Z3_context z,
					 const struct ir_program *prog,
					 const struct check_options *opt, int unroll,
					 double deadline, enum enc_arith arith,
					 struct memlimit *limit, struct diag *d)
{
	*p = (struct problem){.z = z, .prog = prog, .unroll = unroll,
			      .deadline = deadline, .arith = arith,
			      .model = opt->model};
	struct encoder_options eopt = {.unroll = unroll, .deadline = deadline,
				       /* --explain shows the candidate execution
					* an axiom forbids: keep them all */
				       .coherent = model_coherent(opt->model) &&
						   !opt->explain,
				       .atomic = model_atomic(opt->model),
				       .limit = limit,
				       .max_memory_kb = opt->max_memory_mb * 1024L};
	p->enc = encode_program(z, prog, &eopt, d);
	if (!p->enc)
		return PROBLEM_FAILED;
	if (p->enc->rc.expired || clock_past(deadline)) { /* stopped part-way */
		encoding_free(p->enc);
		p->enc = NULL;
		return PROBLEM_EXPIRED;
	}
	p->params = make_params(z, opt, p->enc, arith);
	return PROBLEM_READY;
}

enum problem_status problem_add_model(struct problem *p, const struct check_options *opt,
				      struct diag *d)
{
	enum problem_status st = PROBLEM_READY;
	/* Before the model: its relations over the lock's rf become static.
	 * --explain lists the candidates, which must not be narrowed. */
	if (!opt->explain)
		p->locks_fixed = symmetry_fix_locks(p->enc);
	if (p->enc->rc.expired) /* stopped part-way: nothing to build on */
		st = PROBLEM_EXPIRED;
	else if (!model_build(opt->model, p->enc, opt->explain, &p->m, d))
		st = PROBLEM_FAILED;
	else if (p->enc->rc.expired || clock_past(p->deadline))
		st = PROBLEM_EXPIRED;
	if (st != PROBLEM_READY) {
		problem_close(p);
		return st;
	}
	if (opt->lazy)
		p->lazy = lazy_new(p);
	return PROBLEM_READY;
}

enum problem_status problem_open(struct problem *p, Z3_context z,
				 const struct ir_program *prog,
				 const struct check_options *opt, int unroll,
				 double deadline, enum enc_arith arith,
				 struct memlimit *limit, struct diag *d)
{
	enum problem_status st = problem_open_program(p, z, prog, opt, unroll, deadline,
						      arith, limit, d);
	return st == PROBLEM_READY ? problem_add_model(p, opt, d) : st;
}

int problem_open_instance(struct problem *ip, const struct problem *p, Z3_model m,
			  struct diag *d)
{
	*ip = *p;
	ip->enc = enc_instance(p->enc, m);
	ip->m = (struct lkmm){0};
	ip->lazy = NULL;
	ip->locks_fixed = 0;
	/* relations built past the deadline are incomplete: no verdict */
	if (model_build(p->model, ip->enc, 0, &ip->m, d) && !ip->enc->rc.expired)
		return 1;
	enc_instance_free(ip->enc);
	*ip = (struct problem){0};
	return 0;
}

void problem_close_instance(struct problem *ip)
{
	enc_instance_free(ip->enc);
	*ip = (struct problem){0};
}

void problem_close(struct problem *p)
{
	if (p->params)
		Z3_params_dec_ref(p->z, p->params);
	lazy_free(p->lazy);
	encoding_free(p->enc);
	*p = (struct problem){0};
}

void problem_assert_range(Z3_context z, Z3_solver s, Z3_ast_vector v,
			 unsigned from, unsigned to)
{
	for (unsigned i = from; i < to; i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, v, i));
}

/* problem_assert_range under the memory limit: a solver takes in what
 * it is given at once, so a large encoding can pass the limit there.  It
 * stops at the limit; problem_check then asks nothing more. */
static void assert_limited(const struct problem *p, Z3_solver s, Z3_ast_vector v,
			   unsigned from, unsigned to)
{
	const struct rel_ctx *rc = &p->enc->rc;
	for (unsigned i = from; i < to; i += 256) {
		if (memlimit_over(rc->limit, arena_bytes(rc->arena)))
			return;
		problem_assert_range(p->z, s, v, i, to - i > 256 ? i + 256 : to);
	}
}

void problem_assert(const struct problem *p, Z3_solver s, unsigned groups)
{
	Z3_context z = p->z;
	const struct encoding *enc = p->enc;
	unsigned ndefs = Z3_ast_vector_size(z, enc->rc.defs);
	if (groups & PG_FACTS)
		assert_limited(p, s, enc->facts, 0, Z3_ast_vector_size(z, enc->facts));
	if (groups & PG_CUT)
		assert_limited(p, s, enc->drop, 0, Z3_ast_vector_size(z, enc->drop));
	if (groups & PG_PROGRAM_DEFS)
		assert_limited(p, s, enc->rc.defs, 0, enc->ndefs_program);
	if (groups & PG_MODEL_DEFS)
		assert_limited(p, s, enc->rc.defs, enc->ndefs_program, ndefs);
	if (groups & PG_AXIOMS) {
		for (int a = 0; a < p->m.naxioms; a++)
			if (p->m.axiom[a].holds)
				Z3_solver_assert(z, s, p->m.axiom[a].holds);
	}
	if ((groups & PG_FILTER) && p->prog->filter)
		Z3_solver_assert(z, s, enc_cond(enc, p->prog->filter));
}

/*
 * Z3 preprocesses what a solver is given at its first query (or push) as
 * one set of formulas, and on a large encoding the program's facts and the
 * model's definitions taken together cost it far more than each alone:
 * on the long threads of bench/gen-families.sh the first query of
 * long-xy-200 (482 events) did not return in 146 s, and with the facts
 * asked alone first (0.2-2 s: a model of the program without the memory
 * model) the whole test answers Never in 17.6 s; long4-mb-200 8.3 s to
 * 2.7 s, long-mb-200 3.0 to 1.6 s, long-shared-200 17.1 to 12.7 s and
 * 2.7 to 2.1 GB, long-xy-100 3.9 to 2.8 s (--exists-only; full mode
 * alike).  Below LARGE_TEST_EVENTS it is not done: on the lock programs of
 * bench/ (60-170 events) the preprocessing it spares (20 of the 23 s of
 * the per-index MCS lock of 6 threads with --first-error) is what makes
 * some searches fast (the queued rwlock of 6 threads: 12 s, 23 s staged),
 * and on small tests the extra query is pure cost.  Which of Z3's steps
 * is slow is not known (Debian's libz3 has no symbols; none of its
 * preprocessing options changes it).
 */
static void assert_facts_first(const struct problem *p, Z3_solver s, unsigned *groups)
{
	if (p->enc->n < LARGE_TEST_EVENTS || !(*groups & PG_FACTS) || !(*groups & ~PG_FACTS))
		return;
	problem_assert(p, s, PG_FACTS);
	/* Its answer is not needed: a time-out or a memory stop shows in
	 * the next query's. */
	(void)problem_ask_until(p->z, s, 0, NULL, p->deadline);
	*groups &= ~(unsigned)PG_FACTS;
}

Z3_solver problem_solver(const struct problem *p, unsigned groups, int tuned)
{
	Z3_solver s = Z3_mk_simple_solver(p->z);
	Z3_solver_inc_ref(p->z, s);
	if (tuned)
		Z3_solver_set_params(p->z, s, p->params);
	if (tuned == PROBLEM_TUNED_RELEVANT) {
		Z3_params relevant = Z3_mk_params(p->z);
		Z3_params_inc_ref(p->z, relevant);
		Z3_params_set_uint(p->z, relevant, Z3_mk_string_symbol(p->z, "relevancy"), 2);
		Z3_solver_set_params(p->z, s, relevant);
		Z3_params_dec_ref(p->z, relevant);
	}
	/* A solver that asked for it is the lazy core's: the program
	 * alone, the model checked by lazy_check.
	 * Its propagator comes after the program's constraints: started
	 * on an empty solver, Z3 4.8.12 sets up no arithmetic (and
	 * answers as if the integers were uninterpreted). */
	int lazy = p->lazy && (groups & PG_LAZY) && !lazy_owner(p->lazy);
	groups &= ~(unsigned)PG_LAZY;
	if (lazy)
		groups &= ~(unsigned)(PG_MODEL_DEFS | PG_AXIOMS);
	assert_facts_first(p, s, &groups);
	problem_assert(p, s, groups);
	if (lazy)
		lazy_adopt(p->lazy, s);
	return s;
}

Z3_lbool problem_ask_until(Z3_context z, Z3_solver s, unsigned n, const Z3_ast *a,
			   double deadline)
{
	if (clock_past(deadline))
		return Z3_L_UNDEF;
	deadline_arm(z, s, deadline);
	return problem_check(z, s, n, a);
}

Z3_lbool problem_check(Z3_context z, Z3_solver s, unsigned n, const Z3_ast *a)
{
	if (memlimit_stopped()) /* s may hold part of its formula */
		return Z3_L_UNDEF;
	Z3_lbool r = n ? Z3_solver_check_assumptions(z, s, n, a) : Z3_solver_check(z, s);
	if (r == Z3_L_UNDEF)
		memlimit_note_unknown(Z3_solver_get_reason_unknown(z, s));
	return r;
}

Z3_lbool problem_ask(const struct problem *p, Z3_solver s, Z3_ast a)
{
	if (lazy_owns(p->lazy, s))
		return lazy_check(p->lazy, s, a ? 1 : 0, a ? &a : NULL, p->deadline);
	return problem_ask_until(p->z, s, a ? 1 : 0, a ? &a : NULL, p->deadline);
}

Z3_ast problem_cut(const struct problem *p)
{
	Z3_context z = p->z;
	Z3_ast cut = Z3_mk_true(z);
	for (unsigned i = 0; i < Z3_ast_vector_size(z, p->enc->drop); i++)
		cut = z3u_and2(z, cut, Z3_ast_vector_get(z, p->enc->drop, i));
	return cut;
}
