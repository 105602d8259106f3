/*
 * check.c - queries and herd7-format output for one litmus test.
 *
 * All queries share one solver holding the program's facts, the model's
 * definitions, its axioms and the filter:
 *   states  enumerate the distinct final states (values of the observed
 *           registers and locations) with blocking clauses;
 *   flags   one query per flag that is not statically false;
 *   exists-only mode asks only whether the condition (and its negation)
 *           is reachable.
 * From the states follow Positive/Negative (lkmmc counts states, herd7
 * counts executions), the Observation word and Ok/No.
 */
#include "solver/check.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encoder/encoder.h"
#include "models/lkmm.h"
#include "solver/bounds.h"
#include "common/clock.h"
#include "solver/cubes.h"
#include "solver/dot.h"
#include "solver/execution.h"
#include "solver/explain.h"
#include "solver/interleave.h"
#include "solver/states.h"
#include "solver/symmetry.h"
#include "solver/deadline.h"
#include "solver/memwatch.h"
#include "common/xalloc.h"

struct checker {
	struct check_options opt; /* options for every test */
	FILE *err;                /* where warnings go (stderr by default) */
	int err_fd;               /* a copy of the process's standard error
				   * as it was at the start, for the memory
				   * limit's last word (memwatch.h) */
};

static void on_z3_error(Z3_context z, Z3_error_code e)
{
	/* Z3 errors are bugs in lkmmc, not in the test: fail loudly. */
	fprintf(stderr, "lkmmc: internal Z3 error: %s\n", Z3_get_error_msg(z, e));
	abort();
}

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

static void assert_vector(Z3_context z, Z3_solver s, Z3_ast_vector v)
{
	unsigned k = Z3_ast_vector_size(z, v);
	for (unsigned i = 0; i < k; i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, v, i));
}

/* One satisfiability question under an extra assumption, ending by the
 * test's deadline (0: none). */
static Z3_lbool ask(Z3_context z, Z3_solver s, Z3_ast extra, double deadline)
{
	deadline_arm(z, s, deadline);
	if (!extra)
		return Z3_solver_check(z, s);
	return Z3_solver_check_assumptions(z, s, 1, &extra);
}

static int timed_out(struct diag *d, const struct ir_program *prog, const char *what)
{
	return diag_error(d, prog->file, 0, 0,
			  "solver gave up while %s (time-out or resource limit); "
			  "try --timeout with a larger value or --exists-only", what);
}

/* One execution that reaches the proposition, as text. */
static int draw(const struct check_options *opt, const struct execution *x,
		const struct lkmm *m, const struct ir_program *prog, struct diag *d)
{
	if (!opt->picture || dot_write(x, m, opt->picture, opt->picture_svg))
		return 1;
	return diag_error(d, prog->file, 0, 0, "could not write the picture to %s%s",
			  opt->picture, opt->picture_svg ? " (is graphviz's dot installed?)" : "");
}

static int print_witness(const struct check_options *opt, Z3_context z, Z3_solver s,
			 const struct encoding *enc, const struct lkmm *lm,
			 Z3_ast cond, Z3_model found, double deadline, FILE *out,
			 struct diag *d, const char *title)
{
	/* found: the model of an earlier query of cond on s, if any */
	Z3_model m = found;
	if (!m) {
		if (ask(z, s, cond, deadline) != Z3_L_TRUE)
			return 1;
		m = Z3_solver_get_model(z, s);
	}
	Z3_model_inc_ref(z, m);
	struct execution *x = execution_new(enc, m);
	fputs(title, out);
	interleave_show(x, lm, opt->witness, out);
	/* Feed the execution back: with its events, rf and co fixed, the
	 * model (all axioms are in s) must accept it and reach the condition. */
	Z3_solver_push(z, s);
	execution_assert_choices(x, s);
	int back = ask(z, s, cond, deadline) == Z3_L_TRUE;
	Z3_solver_pop(z, s, 1);
	fprintf(out, "  re-checked against the model: %s\n\n",
		back ? "consistent, reaches the condition" : "FAILED (internal error)");
	int ok = draw(opt, x, lm, enc->prog, d);
	if (!back)
		ok = diag_error(d, enc->prog->file, 0, 0, "internal error: the witness failed its re-check");
	execution_free(x);
	Z3_model_dec_ref(z, m);
	return ok;
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

/* The two racing accesses of one execution that raises data-race (for a
 * program, in its terms, with a located error on err). */
static void print_race(const struct check_options *opt, Z3_context z, Z3_solver s,
		       const struct encoding *enc, const struct lkmm *lm,
		       Z3_ast flag, double deadline, FILE *out, FILE *err)
{
	if (ask(z, s, flag, deadline) != Z3_L_TRUE)
		return;
	Z3_model m = Z3_solver_get_model(z, s);
	Z3_model_inc_ref(z, m);
	struct execution *x = execution_new(enc, m);
	for (int a = 0; a < enc->n; a++)
		for (int b = 0; b < enc->n; b++)
			if (execution_in(x, lm->rel[LR_RACE], a, b)) {
				if (enc->prog->is_program) {
					program_race(x, a, b, out, err);
				} else {
					fputs("Data race: ", out);
					execution_print_event(x, a, out);
					fputs("\n      and: ", out);
					execution_print_event(x, b, out);
					fputc('\n', out);
				}
				fputs("  in this execution:\n", out);
				interleave_show(x, lm, opt->witness, out);
				fputc('\n', out);
				a = b = enc->n; /* one race is enough */
			}
	execution_free(x);
	Z3_model_dec_ref(z, m);
}

/* Why the proposition is never reached: a solver without the axioms. */
static int explain(const struct check_options *opt, Z3_context z,
		   const struct encoding *enc, const struct lkmm *m,
		   const struct ir_program *prog, Z3_ast cond, double deadline,
		   FILE *out, struct diag *d)
{
	Z3_solver s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, s);
	assert_vector(z, s, enc->facts);
	assert_vector(z, s, enc->drop);
	assert_vector(z, s, enc->rc.defs);
	if (prog->filter)
		Z3_solver_assert(z, s, enc_cond(enc, prog->filter));
	struct execution *x = NULL;
	/* one limit for all of explain's questions: the time left now */
	deadline_arm(z, s, deadline);
	int ok = explain_never(enc, m, s, cond, out, opt->picture ? &x : NULL);
	fputc('\n', out);
	if (!ok)
		diag_error(d, prog->file, 0, 0, "could not explain why the condition is never reached (see the output)");
	if (x) {
		ok &= draw(opt, x, m, prog, d);
		Z3_model_dec_ref(z, x->m);
		execution_free(x);
	}
	Z3_solver_dec_ref(z, s);
	return ok;
}

static const char *quant_word(enum ir_quant q)
{
	switch (q) {
	case IR_Q_EXISTS: return "Allowed";
	case IR_Q_NOT_EXISTS: return "Forbidden";
	case IR_Q_FORALL: return "Required";
	}
	return "Allowed";
}

static const char *quant_text(enum ir_quant q)
{
	switch (q) {
	case IR_Q_EXISTS: return "exists";
	case IR_Q_NOT_EXISTS: return "~exists";
	case IR_Q_FORALL: return "forall";
	}
	return "exists";
}

/* A whole C program's answer in its terms, instead of herd7's block:
 * each final assert some execution violates (with that execution), the
 * flags as errors, or "No errors".  Returns 0 (d filled) on a time-out;
 * *bad is set when something can go wrong. */
static int program_answer(struct checker *c, Z3_context z, Z3_solver s,
			  const struct encoding *enc, const struct lkmm *m,
			  const int *raised, int found, int unroll, int completes,
			  double deadline, FILE *out, struct diag *d, int *bad)
{
	const struct ir_program *prog = enc->prog;
	int ok = 1;
	fprintf(out, "Program %s\n", prog->file);
	if (!completes) {
		/* herd7's "Never 0 0": no consistent execution at all. */
		fputs("Deadlock: no execution of the program reaches its end "
		      "(a lock taken twice or never released, an RCU grace "
		      "period inside a read-side section)\n", out);
		fprintf(c->err, "%s: error: deadlock: no execution reaches the "
			"end of the program\n", prog->file);
		*bad = 1;
	}
	for (int i = 0; ok && i < prog->nasserts; i++) {
		const struct ir_final_assert *a = &prog->asserts[i];
		Z3_ast v = Z3_mk_not(z, enc_cond(enc, a->cond));
		Z3_lbool r = ask(z, s, v, deadline);
		if (r == Z3_L_UNDEF)
			return timed_out(d, prog, "checking the final asserts");
		if (r != Z3_L_TRUE)
			continue;
		char title[1200];
		snprintf(title, sizeof title, "Assertion violated at %s:%d: %s\n"
			 "  in this execution:\n", prog->file, a->pos.line, a->text);
		ok = print_witness(&c->opt, z, s, enc, m, v, NULL, deadline, out, d, title);
		fprintf(c->err, "%s:%d:%d: error: assertion violated: %s\n",
			prog->file, a->pos.line, a->pos.col, a->text);
		*bad = 1;
	}
	for (int f = 0; ok && f < FL_COUNT; f++) {
		if (!raised[f])
			continue;
		*bad = 1;
		if (f == FL_DATA_RACE) {
			print_race(&c->opt, z, s, enc, m, m->flag[f], deadline, out,
				   c->err);
		} else {
			fprintf(out, "Flag %s\n", lkmm_flag_name((enum lkmm_flag)f));
			fprintf(c->err, "%s: error: %s\n", prog->file,
				lkmm_flag_name((enum lkmm_flag)f));
		}
	}
	if (ok && !*bad && !(found & (BOUNDS_ASSERT_FAILS | BOUNDS_SPINS)))
		fprintf(out, "No errors (bound %d, %d events)\n", unroll, enc->n);
	return ok;
}

/* How the solver's arithmetic is set up for one attempt at a test. */
enum arith_mode {
	ARITH_DIFF,    /* difference logic, no relevancy filter: the fast set-up */
	ARITH_GENERAL, /* Z3's general linear arithmetic: always applicable */
};

/* A test of this many events or more is large: difference logic uses
 * Z3's simplex-based solver (arith.solver 5) rather than the dense one
 * (3), and final states are listed one at a time, not by cubes (whose
 * second, exact copy of the model costs more than it saves when there
 * are few states, as in big programs). */
#define LARGE_TEST_EVENTS 200

static int run_in(struct checker *c, Z3_context z, const struct ir_program *prog,
		  FILE *out, struct diag *d, double t0, enum arith_mode mode,
		  const atomic_int *stop, int *retry);

/* One attempt in a fresh context (about 1 ms): terms of a non-reference-
 * counted context live until it is deleted, so a shared one would grow
 * over a batch of thousands of tests.  The memory limit is watched while
 * it runs; an attempt stopped by it reports the limit's error. */
static int attempt(struct checker *c, const struct ir_program *prog, FILE *out,
		   struct diag *d, double t0, enum arith_mode mode, int *retry)
{
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(z, on_z3_error);
	struct memwatch w;
	memwatch_start(&w, prog->file, c->opt.max_memory_mb * 1024L,
		       c->opt.memory_exit ? c->opt.memory_exit : 1,
		       c->err_fd >= 0 ? c->err_fd : STDERR_FILENO);
	int ok = run_in(c, z, prog, out, d, t0, mode, &w.over, retry);
	memwatch_stop(&w);
	Z3_del_context(z);
	if (atomic_load(&w.over) && !ok) { /* an answer found in time stands */
		*retry = 0;
		*d = (struct diag){0};
		return diag_error(d, prog->file, 0, 0,
				  "too large for the memory limit: the resident set "
				  "neared %ld MB (stopped after %.1f s); try "
				  "--exists-only, a smaller --unroll, or --max-memory MB",
				  c->opt.max_memory_mb, clock_now() - t0);
	}
	return ok;
}

static enum arith_mode first_mode(const struct ir_program *prog);

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
 * arithmetic.  The first attempt writes to a temporary file (to memory
 * when there is none) so that nothing of it is printed when it is
 * abandoned.
 */
int checker_run(struct checker *c, const struct ir_program *prog, FILE *out,
		struct diag *d)
{
	double t0 = clock_now();
	int retry = 0;
	if (first_mode(prog) == ARITH_GENERAL)
		return attempt(c, prog, out, d, t0, ARITH_GENERAL, &retry);
	/* The first attempt's output waits in a temporary file rather than in
	 * memory: a 19-process chain lists 84 MB of states. */
	char *buf = NULL, *ebuf = NULL;
	size_t len = 0, elen = 0;
	FILE *mem = tmpfile();
	int in_memory = !mem; /* no temporary file: memory it is */
	if (in_memory)
		mem = open_memstream(&buf, &len);
	FILE *emem = open_memstream(&ebuf, &elen);
	if (!mem || !emem)
		abort();
	FILE *err = c->err;
	c->err = emem;
	int quiet = quiet_begin();
	int ok = attempt(c, prog, mem, d, t0, ARITH_DIFF, &retry);
	quiet_end(quiet);
	c->err = err;
	fclose(emem);
	if (retry) {
		*d = (struct diag){0};
		ok = attempt(c, prog, out, d, t0, ARITH_GENERAL, &retry);
	} else if (in_memory) {
		fflush(mem);
		fwrite(buf, 1, len, out);
		fwrite(ebuf, 1, elen, err);
	} else {
		char chunk[1 << 16];
		size_t k;
		rewind(mem);
		while ((k = fread(chunk, 1, sizeof chunk, mem)) > 0)
			fwrite(chunk, 1, k, out);
		fwrite(ebuf, 1, elen, err);
	}
	fclose(mem);
	free(buf);
	free(ebuf);
	return ok;
}

/* Does an expression compute beyond "term + constant" (r1 + r2, r & 8,
 * r * 2), or turn a truth value into a number (r = (a == b), c || d)?
 * Z3's difference-logic solver takes neither.  as_value: the expression
 * is used as a number, not as a branch or assertion condition. */
static int expr_computes(const struct ir_expr *e, int as_value)
{
	if (!e)
		return 0;
	switch (e->kind) {
	case IR_E_CONST:
	case IR_E_LOC:
	case IR_E_REG:
		return 0;
	case IR_E_UNARY:
		if (e->op != IR_LNOT || as_value)
			return 1;
		return expr_computes(e->a, 0);
	case IR_E_COND:
		return expr_computes(e->a, 0) || expr_computes(e->b, as_value) ||
		       expr_computes(e->c, as_value);
	case IR_E_BINARY:
		break;
	}
	switch ((enum ir_binop)e->op) {
	case IR_ADD:
	case IR_SUB:
		if (e->a->kind != IR_E_CONST && e->b->kind != IR_E_CONST)
			return 1;
		return expr_computes(e->a, 1) || expr_computes(e->b, 1);
	case IR_EQ: case IR_NE: case IR_LT: case IR_LE: case IR_GT: case IR_GE:
		return as_value || expr_computes(e->a, 1) || expr_computes(e->b, 1);
	case IR_LAND:
	case IR_LOR:
		return as_value || expr_computes(e->a, 0) || expr_computes(e->b, 0);
	default:
		return 1; /* *, /, %, bitwise operators, shifts */
	}
}

static int block_computes(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int cond = in->op == IR_IF || in->op == IR_ASSERT;
		if (expr_computes(in->a, !cond) || expr_computes(in->b, 1) ||
		    expr_computes(in->c, 1))
			return 1;
		/* old + a in an RMW: outside the fragment unless a is a constant */
		if (in->op == IR_RMW && in->rmw != IR_RMW_XCHG && in->rmw != IR_RMW_CMPXCHG &&
		    in->b && in->b->kind != IR_E_CONST)
			return 1;
		if (block_computes(&in->then_b) || block_computes(&in->else_b))
			return 1;
	}
	return 0;
}

/* The set-up to try first: general arithmetic straight away when the
 * program visibly computes, which spares a failed first attempt. */
static enum arith_mode first_mode(const struct ir_program *prog)
{
	for (int t = 0; t < prog->nthreads; t++)
		if (block_computes(&prog->threads[t].body))
			return ARITH_GENERAL;
	return ARITH_DIFF;
}

/* Did the solver give up because of the difference-logic fragment rather
 * than a time-out or resource limit? */
static int outside_fragment(Z3_context z, Z3_solver s)
{
	const char *why = Z3_solver_get_reason_unknown(z, s);
	return !strstr(why, "timeout") && !strstr(why, "canceled") &&
	       !strstr(why, "resource") && !strstr(why, "memory");
}

static int run_in(struct checker *c, Z3_context z, const struct ir_program *prog,
		  FILE *out, struct diag *d, double t0, enum arith_mode mode,
		  const atomic_int *stop, int *retry)
{
	double deadline = c->opt.timeout_ms ? t0 + c->opt.timeout_ms / 1000.0 : 0;
	struct encoder_options eopt = {.unroll = c->opt.unroll, .deadline = deadline,
				       /* --explain shows the candidate execution
					* an axiom forbids: keep them all */
				       .coherent = model_coherent(c->opt.model) &&
						    !c->opt.explain,
				       .stop = stop,
				       .max_memory_kb = c->opt.max_memory_mb * 1024L};
	if (c->opt.unroll_auto &&
	    !bounds_auto_unroll(&c->opt, z, prog, deadline, stop, &eopt.unroll, d))
		return 0;
	struct encoding *enc = encode_program(z, prog, &eopt, d);
	if (!enc)
		return 0;
	if (enc->rc.expired) { /* stopped part-way: nothing to build on */
		encoding_free(enc);
		return timed_out(d, prog, "encoding the test");
	}
	struct lkmm m;
	if (!model_build(c->opt.model, enc, c->opt.explain, &m, d)) {
		encoding_free(enc);
		return 0;
	}
	double t_enc = clock_now();
	if (enc->rc.expired || clock_past(deadline)) {
		encoding_free(enc);
		return timed_out(d, prog, "encoding the test");
	}

	/* The plain SMT core: the default solver's tactic set-up costs 10 ms. */
	Z3_solver s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, s);
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	if (c->opt.timeout_ms)
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), c->opt.timeout_ms);
	if (mode == ARITH_DIFF) {
		/* Floyd-Warshall's dense difference logic is the fastest on
		 * tests of litmus size, but keeps a matrix over all integer
		 * variables: from a few hundred events the simplex-based
		 * solver is faster and needs a fraction of the memory. */
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "arith.solver"),
				   enc->n >= LARGE_TEST_EVENTS ? 5 : 3);
		Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "relevancy"), 0);
	}
	Z3_solver_set_params(z, s, p);
	bounds_assert_problem(z, s, enc, &m);

	/* Assertions and cut-off loops first, without herd7's cut: a bug is
	 * found by the first query, and the verdict's queries then reuse the
	 * solver (the encoding is taken in once).  herd7 prints "Loop" before
	 * Ok/No when its bound cut executions; the report follows the block. */
	char *report = NULL;
	size_t report_len = 0;
	int found = 0;
	{
		FILE *rep = open_memstream(&report, &report_len);
		if (!rep)
			abort();
		found = bounds_report(&c->opt, z, s, enc, &m, eopt.unroll, deadline, rep,
				      c->err);
		fclose(rep);
	}
	double t_bounds = clock_now();
	if ((found & BOUNDS_UNKNOWN) && mode == ARITH_DIFF && !clock_past(deadline) &&
	    outside_fragment(z, s)) {
		*retry = 1; /* difference logic gave up: general arithmetic */
		free(report);
		Z3_params_dec_ref(z, p);
		Z3_solver_dec_ref(z, s);
		encoding_free(enc);
		return 0;
	}
	Z3_solver_push(z, s);
	assert_vector(z, s, enc->drop);
	int symmetric = symmetry_break(enc, s);

	Z3_ast cond = enc_cond(enc, prog->cond);
	int ok = 1;
	struct state_set *states = state_set_new(enc);
	long pos = 0, neg = 0;
	int exact = 1;
	Z3_model reached = NULL; /* --exists-only: the model reaching cond */
	struct cubes_stats cube_stats = {0};
	if (c->opt.exists_only || prog->is_program) {
		/* Reachability of the proposition and of its negation. */
		Z3_lbool yes = ask(z, s, cond, deadline);
		if (yes == Z3_L_TRUE) { /* kept for the witness */
			reached = Z3_solver_get_model(z, s);
			Z3_model_inc_ref(z, reached);
		}
		Z3_lbool no = ask(z, s, Z3_mk_not(z, cond), deadline);
		if (yes == Z3_L_UNDEF || no == Z3_L_UNDEF)
			ok = timed_out(d, prog, "checking reachability");
		pos = yes == Z3_L_TRUE;
		neg = no == Z3_L_TRUE;
		exact = 0;
	} else {
		int done = c->opt.no_cubes || enc->n >= LARGE_TEST_EVENTS ? CUBES_NOT_APPLICABLE
			: cubes_enumerate(states, enc, s, p, symmetric, deadline,
					  c->opt.model, &cube_stats);
		if (done == CUBES_NOT_APPLICABLE)
			done = state_set_enumerate(states, s, deadline);
		if (done == STATES_OUT_OF_RANGE) {
			ok = diag_error(d, prog->file, 0, 0, "a final value does not fit in "
					"64 bits (the test's arithmetic overflows a long); "
					"try --exists-only");
		} else if (!done) {
			char what[96];
			snprintf(what, sizeof what, "enumerating final states (%ld found so far)",
				 state_set_size(states));
			ok = timed_out(d, prog, what);
		}
		pos = state_set_count(states, 1);
		neg = state_set_count(states, 0);
	}

	double t_states = clock_now();
	int raised[FL_COUNT] = {0};
	for (int f = 0; ok && f < FL_COUNT; f++) {
		if (Z3_get_bool_value(z, m.flag[f]) == Z3_L_FALSE)
			continue;
		Z3_lbool r = ask(z, s, m.flag[f], deadline);
		if (r == Z3_L_UNDEF)
			ok = timed_out(d, prog, "checking flags");
		raised[f] = r == Z3_L_TRUE;
	}
	int *cat_raised = calloc((size_t)m.ncat_flags + 1, sizeof *cat_raised);
	for (int f = 0; ok && f < m.ncat_flags; f++) {
		if (Z3_get_bool_value(z, m.cat_flag[f]) == Z3_L_FALSE)
			continue;
		Z3_lbool r = ask(z, s, m.cat_flag[f], deadline);
		if (r == Z3_L_UNDEF)
			ok = timed_out(d, prog, "checking flags");
		cat_raised[f] = r == Z3_L_TRUE;
	}

	if (c->opt.stats)
		fprintf(c->err, "stats: events %d, defs %u, facts %u, symmetric threads "
			"ordered %d; encode %.3fs, bounds %.3fs, states %.3fs, flags %.3fs\n",
			enc->n, Z3_ast_vector_size(z, enc->rc.defs),
			Z3_ast_vector_size(z, enc->facts), symmetric, t_enc - t0,
			t_bounds - t_enc, t_states - t_bounds, clock_now() - t_states);
	if (c->opt.stats && cube_stats.consistent_queries)
		fprintf(c->err, "stats: cubes: %ld consistency and %ld violation queries, "
			"%ld whole cubes holding %ld states, %d rcu-order stages\n",
			cube_stats.consistent_queries, cube_stats.violation_queries,
			cube_stats.whole_cubes, cube_stats.states_in_cubes,
			cube_stats.rcu_stages);
	/* Relations built past the deadline (cubes' exact model) are
	 * incomplete: nothing asked of them is printed. */
	if (ok && enc->rc.expired)
		ok = timed_out(d, prog, "building relations");
	int program_bad = 0;
	if (ok && prog->is_program)
		ok = program_answer(c, z, s, enc, &m, raised, found, eopt.unroll,
				    pos > 0 || neg > 0, deadline, out, d,
				    &program_bad);
	else if (ok) {
		/* The proposition's counts; ~exists prints the negation's. */
		int validated;
		switch (prog->quant) {
		case IR_Q_EXISTS: validated = pos > 0; break;
		case IR_Q_NOT_EXISTS: validated = pos == 0; break;
		default: validated = neg == 0; break;
		}
		const char *obs = pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes";
		fprintf(out, "Test %s %s\n", prog->name, quant_word(prog->quant));
		if (exact) {
			fprintf(out, "States %ld\n", state_set_size(states));
			state_set_print(states, out);
		}
		fprintf(out, "%s%s\n", found & BOUNDS_REACHED ? "Loop " : "",
			validated ? "Ok" : "No");
		fprintf(out, "Witnesses\n");
		if (prog->quant == IR_Q_NOT_EXISTS)
			fprintf(out, "Positive: %ld Negative: %ld\n", neg, pos);
		else
			fprintf(out, "Positive: %ld Negative: %ld\n", pos, neg);
		for (int f = 0; f < FL_COUNT; f++)
			if (raised[f])
				fprintf(out, "Flag %s\n", lkmm_flag_name((enum lkmm_flag)f));
		for (int f = 0; f < m.ncat_flags; f++)
			if (cat_raised[f])
				fprintf(out, "Flag %s\n", m.cat_flag_name[f]);
		fprintf(out, "Condition %s %s\n", quant_text(prog->quant),
			prog->cond_text ? prog->cond_text : "");
		fprintf(out, "Observation %s %s %ld %ld\n", prog->name, obs, pos, neg);
		fprintf(out, "Time %s %.2f\n", prog->name, clock_now() - t0);
		fprintf(out, "\n");
	}
	if (ok && !prog->is_program &&
	    (c->opt.witness || (c->opt.exists_only && !c->opt.herd7_only) || (c->opt.picture && !c->opt.explain)) &&
	    pos > 0)
		ok = print_witness(&c->opt, z, s, enc, &m, cond, reached, deadline,
				   out, d, "Witness: an execution reaching the condition\n");
	if (reached)
		Z3_model_dec_ref(z, reached);
	if (ok && c->opt.explain && pos == 0 && !prog->is_program)
		ok = explain(&c->opt, z, enc, &m, prog, cond, deadline, out, d);
	/* A program that cannot fail: why no execution violates an assert. */
	if (ok && c->opt.explain && neg == 0 && prog->is_program && prog->nasserts)
		ok = explain(&c->opt, z, enc, &m, prog, Z3_mk_not(z, cond), deadline, out, d);
	if (ok && c->opt.explain && raised[FL_DATA_RACE] && !prog->is_program)
		print_race(&c->opt, z, s, enc, &m, m.flag[FL_DATA_RACE], deadline, out,
			   c->err);
	/* Past the deadline nothing is retried: the limit is the cause. */
	int expired = c->opt.timeout_ms && clock_now() > t0 + c->opt.timeout_ms / 1000.0;
	if (!ok && mode == ARITH_DIFF && !expired && outside_fragment(z, s)) 
		*retry = 1;
	if (ok) {
		fputs(report, out);
		ok = CHECK_DONE;
		if ((found & (BOUNDS_ASSERT_FAILS | BOUNDS_SPINS)) || program_bad)
			ok |= CHECK_CODE_FAILS;
		if (c->opt.unroll_auto && (found & (BOUNDS_REACHED | BOUNDS_UNKNOWN)))
			ok |= CHECK_BOUND_LIMIT;
	}
	free(report);
	free(cat_raised);
	state_set_free(states);
	Z3_params_dec_ref(z, p);
	Z3_solver_dec_ref(z, s);
	encoding_free(enc);
	return ok;
}
