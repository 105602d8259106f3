/*
 * firsterr.c - --first-error: one error of a C program, found fast, shown
 * with its execution (firsterr.h).
 *
 * The full answer looks for every error and proves the others absent; on
 * the broken lock programs of bench/gen-families.sh the first error was
 * known after 40 ms and the proofs went on for over a minute (ticket lock
 * without its acquire, 8 threads).  Here one question, under symmetry
 * breaking (the errors are invariant under renaming interchangeable
 * threads), asks for any consistent execution with an error; its model is
 * shown as the full answer shows an error, re-checked as a witness is, and
 * nothing more is asked.  "No error" is that question's "no".
 *
 * Sequentially consistent executions come first, in two passes.
 *  - Before the model is built over the whole program
 *    (first_error_before_model, on a problem encoded without it): the
 *    schedules below give executions of the program alone, and each is
 *    judged by the model built over that execution alone
 *    (problem_open_instance: every choice a constant, so the relations
 *    fold as they are built, in milliseconds).  The model over the whole
 *    program took 4.3 of the 8.7 s of the per-index MCS lock of 8
 *    threads without its release, whose race this pass shows in 0.3 s;
 *    the lock programs that lose a release or an acquire race on their
 *    plain accesses already in such an interleaving.
 *  - Then, the model built (first_error_interleaved, before the model's
 *    solver is made): a solver of the program alone with
 *    acyclic(po | rf | co | fr) proposes a few, and each is evaluated
 *    against the model's formulas outside Z3 (a circuit,
 *    encoder/circuit.h: the axioms and the errors, exactly, closures as
 *    least fixpoints), whose reasons rule out, for the next proposal,
 *    what the last one lacked.  The model's definitions never reach Z3,
 *    whose preprocessing of them was most of the question's time (20 of
 *    the 23 s of the per-index MCS lock of 6 threads without its
 *    release).
 * Tried before without the circuit: each execution confirmed by the
 * model's solver with its choices fixed, which cost as much as the
 * model's own question, and only assertion failures looked for, which
 * those programs have in weak executions only.  Tried with the instances:
 * Z3's sequentially consistent proposals judged before the model, each
 * ruling out only its reads-from (an instance gives no reasons in terms
 * of the choices): none of the queued rwlock's races was found that way,
 * and the correct programs paid 1-3 s for it.
 */
#include "solver/firsterr.h"

#include <stdlib.h>

#include "common/clock.h"
#include "common/xalloc.h"
#include "encoder/circuit.h"
#include "encoder/rel.h"
#include "solver/readback.h"
#include "solver/options.h"
#include "solver/deadline.h"
#include "solver/lazy.h"
#include "solver/problem.h"
#include "solver/report.h"
#include "solver/symmetry.h"

/* Show the error of x; back: its re-check's answer. */
static void show_execution(const struct check_options *opt, const struct problem *p,
			   struct execution *x, int (*recheck)(const struct problem *,
							       struct execution *, void *),
			   void *arg, FILE *out, FILE *err)
{
	double t1 = clock_now();
	fprintf(out, "Program %s\n", p->prog->file);
	int shown = report_error_in(opt, p, x, out, err);
	double t2 = clock_now();
	int back = shown && recheck(p, x, arg);
	if (opt->stats)
		fprintf(err, "stats: first error: shown %.3fs, re-checked %.3fs\n",
			t2 - t1, clock_now() - t2);
	fprintf(out, "  re-checked against the model: %s\n\n",
		back ? "consistent, the error happens in it" : "FAILED (internal error)");
	fputs("Stopped at the first error (--first-error): other errors "
	      "were not looked for\n", out);
}

/* As a witness: its choices fed back to s, the model must accept it. */
static int recheck_in_solver(const struct problem *p, struct execution *x, void *arg)
{
	Z3_solver s = arg;
	Z3_solver_push(p->z, s);
	execution_assert_choices(x, s);
	int back = problem_ask(p, s, NULL) == Z3_L_TRUE;
	Z3_solver_pop(p->z, s, 1);
	return back;
}

/* Show the error of the model of s (asked: errors held), re-checked. */
static void show(const struct check_options *opt, const struct problem *p,
		 Z3_solver s, FILE *out, FILE *err)
{
	Z3_model m = Z3_solver_get_model(p->z, s);
	Z3_model_inc_ref(p->z, m);
	struct execution *x = execution_new(p->enc, m);
	show_execution(opt, p, x, recheck_in_solver, s, out, err);
	execution_free(x);
	Z3_model_dec_ref(p->z, m);
}

/*
 * The sequentially consistent executions first: at most SC_TRIES of them,
 * and none once the pass has taken SC_PATIENCE times its first execution's
 * time (at least SC_MIN_SECONDS): on a correct program the pass is lost
 * time, a few times that of a query over the program alone; when none has
 * an error, the model's question decides (a Never never depends on this
 * pass).  The per-index MCS lock of 8 threads without its release shows
 * its race in Z3's 9th to 25th execution, 6.7 to 7.8 s into the pass, 4.1
 * s of it to the first (the schedules' time counts): twice that let one
 * run of three fall to the model's search (over 60 s).
 */
#define SC_TRIES 64
#define SC_PATIENCE 3.0
#define SC_MIN_SECONDS 1.0

/* What the pass keeps: the circuit of the axioms and the errors. */
struct sc_pass {
	struct circuit *c;
	int *axiom;     /* the axioms' nodes */
	int naxioms;
	int errors;     /* the errors' node */
	Z3_ast errors_f; /* and formula */
};

/* Whether an edge of strict lies on a cycle of strict | weak in x: the
 * transitive closure of the pairs x has (Warshall), and a strict edge
 * (i, j) with j reaching i.  Only among the events x executes: the
 * axioms speak of the execution's events (and the pairs of the others,
 * asked of Z3 one by one, made this 1.6 s of the 8-thread queued
 * rwlock's first error). */
static int cyclic_in(const struct execution *x, const struct rel_acyclic_check *chk, int n)
{
	int *ev = xmalloc(sizeof(int) * ((size_t)n + 1)), m = 0;
	for (int e = 0; e < n; e++)
		if (x->on[e])
			ev[m++] = e;
	size_t mm = (size_t)m;
	unsigned char *strict = xcalloc(mm * mm + 1, 1), *reach = xcalloc(mm * mm + 1, 1);
	for (int a = 0; a < m; a++)
		for (int b = 0; b < m; b++) {
			int i = ev[a], j = ev[b];
			size_t ab = (size_t)a * mm + (size_t)b;
			strict[ab] = REL_AT(chk->strict, n, i, j) && execution_in(x, chk->strict, i, j);
			reach[ab] = strict[ab] || (chk->weak && REL_AT(chk->weak, n, i, j) &&
						   execution_in(x, chk->weak, i, j));
		}
	for (size_t k = 0; k < mm; k++)
		for (size_t i = 0; i < mm; i++)
			if (reach[i * mm + k])
				for (size_t j = 0; j < mm; j++)
					reach[i * mm + j] |= reach[k * mm + j];
	int cyclic = 0;
	for (size_t i = 0; i < mm && !cyclic; i++)
		for (size_t j = 0; j < mm && !cyclic; j++)
			cyclic = strict[i * mm + j] && (i == j || reach[j * mm + i]);
	free(strict);
	free(reach);
	free(ev);
	return cyclic;
}

/*
 * The re-check of an execution found here, by other means than the
 * circuit that found it: x is read off the model with the circuit's
 * values of the named relations, its closures again by encoder/horn.c,
 * every formula by Z3's evaluator, each acyclicity axiom by a search for
 * a cycle through a strict edge among the pairs x has.  The model's
 * solver is not asked: its preprocessing is what this pass avoids.
 */
static int recheck_by_evaluation(const struct problem *p, struct execution *x, void *arg)
{
	const struct sc_pass *sp = arg;
	const struct rel_ctx *rc = &p->enc->rc;
	for (int a = 0; a < p->m.naxioms; a++) {
		Z3_ast holds = p->m.axiom[a].holds;
		if (!holds)
			continue;
		int k = 0;
		while (k < rc->nacyc && !Z3_is_eq_ast(p->z, rc->acyc[k].holds, holds))
			k++;
		if (k < rc->nacyc ? cyclic_in(x, &rc->acyc[k], p->enc->n)
				  : !execution_holds(x, holds))
			return 0;
	}
	return execution_holds(x, sp->errors_f);
}

/* Add to s the clause that rules out what made node's value in the last
 * evaluation (its justification's atoms). */
static void rule_out(const struct problem *p, struct circuit *c, Z3_solver s, int node)
{
	Z3_solver_assert(p->z, s, circuit_clause(c, node, NULL, NULL));
}

/* The circuit of p's axioms and errors; 0 when one cannot be evaluated. */
static int sc_pass_open(struct sc_pass *sp, const struct problem *p, Z3_ast errors)
{
	sp->c = circuit_new(&p->enc->rc);
	sp->axiom = lazy_axiom_nodes(sp->c, p, &sp->naxioms);
	if (!sp->axiom)
		return 0;
	sp->errors = circuit_root(sp->c, errors);
	sp->errors_f = errors;
	return sp->errors >= 0;
}

/* After circuit_eval: the execution is consistent and has an error. */
static int sc_holds(const struct sc_pass *sp)
{
	for (int i = 0; i < sp->naxioms; i++)
		if (circuit_value(sp->c, sp->axiom[i]) == 0)
			return 0;
	return circuit_value(sp->c, sp->errors) == 1;
}

/* Evaluate the model of s; 1 when it is consistent and has an error,
 * else a clause ruling out what it lacked is added to s. */
static int sc_try(const struct problem *p, struct sc_pass *sp, Z3_solver s, Z3_model m)
{
	if (!circuit_eval(sp->c, m))
		return -1;
	for (int i = 0; i < sp->naxioms; i++)
		if (circuit_value(sp->c, sp->axiom[i]) == 0) {
			rule_out(p, sp->c, s, sp->axiom[i]);
			return 0;
		}
	if (circuit_value(sp->c, sp->errors) == 1)
		return 1;
	rule_out(p, sp->c, s, sp->errors);
	return 0;
}

/* A solver of the program alone, without the model (symmetry breaking
 * is the caller's), for Z3's proposals: herd7's cut holds (its
 * executions run to their ends). */
static Z3_solver program_solver(const struct problem *p)
{
	return problem_solver(p, PG_FACTS | PG_CUT | PG_PROGRAM_DEFS | PG_FILTER, 1);
}

/* The solver of the schedules: the program alone, herd7's cut left to
 * each schedule's assumption (a thread that spins forever is a hang
 * only outside the cut: with the cut asserted, the lost wake-up of
 * litmus-tests/programs/spin-lost-wakeup.c had no schedule's execution
 * at all), Z3's relevancy filter on (problem.h). */
static Z3_solver schedule_solver(const struct problem *p)
{
	return problem_solver(p, PG_FACTS | PG_PROGRAM_DEFS | PG_FILTER, PROBLEM_TUNED_RELEVANT);
}

/* Make the executions of s sequentially consistent: po | rf | co | fr
 * acyclic.  Only for Z3's own proposals: a schedule's pins already give
 * an interleaving (but for the soft reads it lets go, which the axioms
 * still judge), and the ranks of this constraint made the first schedule
 * of the 8-thread ttas lock without its release 0.50 s instead of 0.18. */
static void make_sc(const struct problem *p, Z3_solver s)
{
	struct encoding *enc = p->enc;
	struct rel_ctx *rc = &enc->rc; /* its ranks are added there */
	rel_t com = rel_union3(rc, enc->rf, enc->co, enc->fr);
	Z3_solver_assert(p->z, s, rel_acyclic(rc, rel_union(rc, enc->po, com), "sc"));
}

/*
 * Schedules, tried before Z3 proposes executions of its own: each thread
 * in turn up to its first read in a loop that iterates, then each in
 * turn to its end (a lock's waiters queue up while the first holds it,
 * and it is handed from one holder to the next: the MCS lock hands over
 * through its waiter's node only then, and its release-less variant
 * races only then); the threads in turn; round robin by 1, 2 and 3
 * events (holders that overlap: a lock
 * that lets two in), then merges of random slices (a fixed seed: the
 * same tries every run), an RMW's two events always together.  Each pins
 * rf and co (encoder.h: enc_schedule), the reads inside loops softly:
 * pinned, a spin's read that comes before the write it waits for leaves
 * no execution (spin loops are assumed to end), so the pins of the reads
 * in an unsat core are dropped and the schedule asked again, and that
 * read reads the write it waits for.  Whether an error shows then
 * depends on the program, not on the model Z3 happens to find first (the mutex of bench/ that lets two holders in showed it
 * in Z3's 2nd or 27th sequentially consistent execution depending on
 * what the context had been asked before).
 */
#define SCHEDULES 16
#define RELAX_ROUNDS 4

/* Whether the execution m has an error; if so it is shown (1). */
typedef int judge_fn(const struct check_options *opt, const struct problem *p, Z3_model m,
		     void *arg, FILE *out, FILE *err);

/* b (the body of a loop, or code inside it) continues that loop. */
static int continues(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (in->op == IR_CONTINUE ||
		    (in->op != IR_LOOP && (continues(&in->then_b) || continues(&in->else_b))))
			return 1;
	}
	return 0;
}

/* A loop that can run its body more than once: not the one-pass loop
 * the front end puts around a function with an early return, a switch
 * or a goto region (its body ends in a break and never continues). */
static int iterates(const struct ir_instr *loop)
{
	const struct ir_block *b = &loop->then_b;
	return !(b->count > 0 && b->items[b->count - 1].op == IR_BREAK) || continues(b);
}

/* Mark in soft the read events of the instructions of b (in a loop
 * when in_loop) that stand inside a loop that iterates. */
static void mark_loop_reads(const struct encoding *enc, const struct ir_block *b,
			    int in_loop, char *soft)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		for (int e = 0; e < enc->n && in_loop; e++)
			if (enc->ev[e].instr == in && (enc->ev[e].cls & EVC_BIT(EVC_R)))
				soft[e] = 1;
		mark_loop_reads(enc, &in->then_b, in_loop || (in->op == IR_LOOP && iterates(in)),
				soft);
		mark_loop_reads(enc, &in->else_b, in_loop, soft);
	}
}

/* Per event: 1 for a read inside a loop of its thread's code. */
static char *loop_reads(const struct encoding *enc)
{
	char *soft = xcalloc((size_t)enc->n + 1, 1);
	for (int t = 0; t < enc->prog->nthreads; t++)
		mark_loop_reads(enc, &enc->prog->threads[t].body, 0, soft);
	return soft;
}

/* Place thread t's next event (cur[t]) at the next position, an RMW's
 * write with its read. */
static void place_next(const struct encoding *enc, int t, int *cur, const char *soft_read,
		       int *pos, int *next, int *left)
{
	int e = cur[t]++;
	pos[e] = soft_read[e] ? -++*next : ++*next;
	--*left;
	int peer = enc->ev[e].rmw_peer;
	if (peer == cur[t] && enc->ev[peer].thread == t) {
		cur[t]++;
		pos[peer] = ++*next;
		--*left;
	}
}

/* Schedule number k into pos (enc_schedule's positions; a read of
 * soft_read at minus its place: placed softly). */
static void make_schedule(const struct encoding *enc, int k, const char *soft_read,
			  unsigned *seed, int *pos)
{
	int nt = enc->prog->nthreads, n = enc->n, next = 0;
	int *cur = xmalloc(sizeof(int) * ((size_t)nt + 1));
	for (int t = 0; t < nt; t++) {
		cur[t] = n;
		for (int e = n - 1; e >= 0; e--)
			if (enc->ev[e].thread == t)
				cur[t] = e; /* its first event (events by thread, in po) */
	}
	for (int e = 0; e < n; e++)
		pos[e] = 0;
	int left = 0;
	for (int e = 0; e < n; e++)
		left += enc->ev[e].thread >= 0;
	if (k == 0)
		/* hand-overs: each thread in turn up to its first read in a
		 * loop (a lock's waiters queue up before anyone holds it
		 * long), then in turn */
		for (int t = 0; t < nt; t++)
			while (cur[t] < n && enc->ev[cur[t]].thread == t && !soft_read[cur[t]])
				place_next(enc, t, cur, soft_read, pos, &next, &left);
	int t = 0;
	while (left > 0) {
		int slice;
		if (k <= 1)
			slice = n; /* in turn */
		else if (k <= 4)
			slice = k - 1; /* round robin */
		else {
			*seed = *seed * 1103515245u + 12345u;
			slice = 1 + (int)((*seed >> 16) % 6);
			t = (int)((*seed >> 8) % (unsigned)nt);
		}
		for (int tries = 0; tries < nt && (cur[t] >= n || enc->ev[cur[t]].thread != t); tries++)
			t = (t + 1) % nt;
		for (int i = 0; i < slice && cur[t] < n && enc->ev[cur[t]].thread == t; i++)
			place_next(enc, t, cur, soft_read, pos, &next, &left);
		t = (t + 1) % nt;
	}
	free(cur);
}

/* Show the error of m, found by the circuit of sp. */
static void show_model(const struct check_options *opt, const struct problem *p,
		       struct sc_pass *sp, Z3_model m, FILE *out, FILE *err)
{
	/* the model's relations as the circuit has them */
	circuit_fix_model(sp->c, m);
	struct execution *x = execution_new(p->enc, m);
	show_execution(opt, p, x, recheck_by_evaluation, sp, out, err);
	execution_free(x);
}

/* Ask s under the assumptions a[0..n) (reordered), dropping those of
 * each "no"'s core, a few times: the schedule's execution but for the
 * soft reads that cannot read as placed. */
static Z3_lbool ask_relaxed(Z3_context z, Z3_solver s, Z3_ast *a, int n, double stop)
{
	for (int round = 0; round < RELAX_ROUNDS; round++) {
		Z3_lbool r = problem_ask_until(z, s, (unsigned)n, a, stop);
		if (r != Z3_L_FALSE || n == 0)
			return r;
		Z3_ast_vector core = Z3_solver_get_unsat_core(z, s);
		Z3_ast_vector_inc_ref(z, core);
		unsigned nc = Z3_ast_vector_size(z, core);
		int kept = 0;
		for (int i = 0; i < n; i++) {
			int in_core = 0;
			for (unsigned j = 0; j < nc && !in_core; j++)
				in_core = Z3_is_eq_ast(z, a[i], Z3_ast_vector_get(z, core, j));
			if (!in_core)
				a[kept++] = a[i];
		}
		Z3_ast_vector_dec_ref(z, core);
		if (kept == n) /* the schedule itself has no execution */
			return Z3_L_FALSE;
		n = kept;
	}
	return problem_ask_until(z, s, (unsigned)n, a, stop);
}

/* An error in the execution of one of the schedules, shown: 1; else 0.
 * At most SCHEDULES tries; the first (which also takes the formula in)
 * as long as it takes, the others within SC_MIN_SECONDS after it: on the
 * MCS lock of bench/ most have no execution, and 2 s more for them made
 * its first error 25 % slower at 8 threads. */
static int by_schedules(const struct check_options *opt, const struct problem *p,
			judge_fn *judge, void *arg, Z3_solver s, FILE *out, FILE *err,
			double t0)
{
	Z3_context z = p->z;
	struct encoding *enc = p->enc;
	char *soft_read = loop_reads(enc);
	int *pos = xmalloc(sizeof(int) * ((size_t)enc->n + 1));
	Z3_ast *soft = xcalloc((size_t)enc->n + 1, sizeof(Z3_ast));
	Z3_ast *assume = xmalloc(sizeof(Z3_ast) * ((size_t)enc->n + 2));
	Z3_ast cut = problem_cut(p);
	unsigned seed = 1;
	int found = 0, k = 0, runs = 0;
	double stop = p->deadline; /* the first: as long as it takes */
	for (; k < SCHEDULES && !found && !clock_past(stop); k++) {
		make_schedule(enc, k, soft_read, &seed, pos);
		Z3_solver_push(z, s);
		Z3_solver_assert(z, s, enc_schedule(enc, pos, soft));
		/* first an execution that runs to its end (herd7's cut):
		 * a soft read left free may otherwise keep its spin going,
		 * and a thread stopped in its loop shows no race or final
		 * assert; dropped like the soft reads when it is in a core */
		int na = 0;
		Z3_ast whole = Z3_mk_fresh_const(z, "whole", Z3_mk_bool_sort(z));
		Z3_solver_assert(z, s, Z3_mk_implies(z, whole, cut));
		assume[na++] = whole;
		for (int e = 0; e < enc->n; e++)
			if (pos[e] < 0 && soft[e]) {
				Z3_ast b = Z3_mk_fresh_const(z, "soft", Z3_mk_bool_sort(z));
				Z3_solver_assert(z, s, Z3_mk_implies(z, b, soft[e]));
				assume[na++] = b;
				soft[e] = NULL;
			}
		Z3_lbool asked = ask_relaxed(z, s, assume, na, stop);
		if (k == 0) { /* the first also took the formula in */
			double patient = clock_now() + SC_MIN_SECONDS;
			if (!p->deadline || patient < p->deadline)
				stop = patient;
		}
		if (asked == Z3_L_TRUE) {
			runs++;
			Z3_model m = Z3_solver_get_model(z, s);
			Z3_model_inc_ref(z, m);
			found = judge(opt, p, m, arg, out, err);
			if (found && opt->stats)
				fprintf(err, "stats: first error: found in schedule %d "
					"(%d with an execution), %.3fs\n", k + 1, runs,
					clock_now() - t0);
			Z3_model_dec_ref(z, m);
		}
		Z3_solver_pop(z, s, 1);
	}
	if (!found && opt->stats)
		fprintf(err, "stats: first error: none in %d schedules (%d with an "
			"execution), %.3fs\n", k, runs, clock_now() - t0);
	free(pos);
	free(soft);
	free(assume);
	free(soft_read);
	return found;
}

/* What judge_by_instance needs. */
struct instance_judge {
	first_error_errors_fn *errors_of; /* the caller's errors of a problem */
	int unjudged;                     /* executions it could not judge */
};

/* judge_fn over the model built on m alone (problem_open_instance): the
 * circuit of its axioms and errors, a few nodes once folded. */
static int judge_by_instance(const struct check_options *opt, const struct problem *p,
			     Z3_model m, void *arg, FILE *out, FILE *err)
{
	struct instance_judge *ij = arg;
	struct problem ip;
	struct diag d = {0};
	if (!problem_open_instance(&ip, p, m, &d)) {
		ij->unjudged++;
		return 0;
	}
	struct sc_pass sp = {0};
	int found = 0;
	if (!sc_pass_open(&sp, &ip, ij->errors_of(&ip)) || !circuit_eval(sp.c, m))
		ij->unjudged++;
	else if (sc_holds(&sp)) {
		show_model(opt, &ip, &sp, m, out, err);
		found = 1;
	}
	circuit_free(sp.c);
	free(sp.axiom);
	problem_close_instance(&ip);
	return found;
}

int first_error_before_model(const struct check_options *opt, const struct problem *p,
			     first_error_errors_fn *errors_of, FILE *out, FILE *err)
{
	double t0 = clock_now();
	struct instance_judge ij = {.errors_of = errors_of};
	Z3_solver s = schedule_solver(p);
	int found = by_schedules(opt, p, judge_by_instance, &ij, s, out, err, t0);
	Z3_solver_dec_ref(p->z, s);
	if (opt->stats && ij.unjudged)
		fprintf(err, "stats: first error: %d executions not judged before the model\n",
			ij.unjudged);
	return found;
}

int first_error_interleaved(const struct check_options *opt, const struct problem *p,
			    Z3_ast errors, FILE *out, FILE *err)
{
	double t0 = clock_now();
	struct sc_pass sp = {0};
	int found = 0, tries = 0;
	double first = 0; /* seconds to the first execution */
	Z3_solver s = NULL;
	if (!sc_pass_open(&sp, p, errors))
		goto done;
	if (opt->stats)
		fprintf(err, "stats: first error: circuit of %d nodes in %.3fs\n",
			circuit_nodes(sp.c), clock_now() - t0);
	double deadline = p->deadline;
	s = program_solver(p);
	make_sc(p, s);
	symmetry_break(p->enc, s);
	/* the patience counts from the pass's start, with at least
	 * SC_MIN_SECONDS of search */
	double t1 = clock_now();
	while (!found && tries < SC_TRIES &&
	       problem_ask_until(p->z, s, 0, NULL, deadline) == Z3_L_TRUE) {
		if (tries++ == 0) {
			first = clock_now() - t0;
			double stop = t0 + SC_PATIENCE * first;
			if (stop < t1 + SC_MIN_SECONDS)
				stop = t1 + SC_MIN_SECONDS;
			if (!deadline || stop < deadline)
				deadline = stop;
		}
		Z3_model m = Z3_solver_get_model(p->z, s);
		Z3_model_inc_ref(p->z, m);
		int r = sc_try(p, &sp, s, m);
		found = r == 1;
		if (found) {
			if (opt->stats)
				fprintf(err, "stats: first error: found in the sequentially "
					"consistent execution %d, %.3fs\n", tries, clock_now() - t0);
			show_model(opt, p, &sp, m, out, err);
		}
		Z3_model_dec_ref(p->z, m);
		if (r < 0)
			break;
	}
done:
	if (!found && opt->stats)
		fprintf(err, "stats: first error: none in %d sequentially consistent "
			"executions, %.3fs (the first after %.3fs)\n", tries,
			clock_now() - t0, first);
	if (s)
		Z3_solver_dec_ref(p->z, s);
	circuit_free(sp.c);
	free(sp.axiom);
	return found > 0;
}

enum first_error_result first_error(const struct check_options *opt,
				    const struct problem *p, Z3_solver s, Z3_ast errors,
				    FILE *out, FILE *err, struct diag *d)
{
	Z3_context z = p->z;
	double t0 = clock_now();
	Z3_solver_push(z, s);
	symmetry_break(p->enc, s);
	Z3_lbool r = problem_ask(p, s, errors);
	if (opt->stats)
		fprintf(err, "stats: first error: asked in %.3fs, %s\n", clock_now() - t0,
			r == Z3_L_TRUE ? "found one" : r == Z3_L_FALSE ? "none" : "gave up");
	if (r == Z3_L_TRUE)
		show(opt, p, s, out, err);
	Z3_solver_pop(z, s, 1);
	if (r == Z3_L_UNDEF) {
		report_timed_out(d, p->prog, "looking for a first error");
		return FIRST_ERROR_UNKNOWN;
	}
	return r == Z3_L_TRUE ? FIRST_ERROR_SHOWN : FIRST_ERROR_NONE;
}
