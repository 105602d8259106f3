/*
 * readback.c - a concrete execution read back from a model; see readback.h.
 */
#include "solver/readback.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "common/check.h"
#include "common/xalloc.h"

static long eval_long(Z3_context z, Z3_model m, Z3_ast t)
{
	Z3_ast v = NULL;
	int64_t x = 0;
	if (t && Z3_model_eval(z, m, t, 1, &v) && Z3_get_numeral_int64(z, v, &x))
		return (long)x;
	return 0;
}

long execution_eval(const struct execution *x, Z3_ast t)
{
	return eval_long(x->enc->z, x->m, t);
}

int execution_holds(const struct execution *x, Z3_ast f)
{
	if (!f)
		return 0;
	Z3_ast v = NULL;
	return Z3_model_eval(x->enc->z, x->m, f, 1, &v) &&
	       Z3_get_bool_value(x->enc->z, v) == Z3_L_TRUE;
}

int execution_in(const struct execution *x, rel_t r, int a, int b)
{
	assert(r && a >= 0 && a < x->enc->n && b >= 0 && b < x->enc->n);
	return execution_holds(x, REL_AT(r, x->enc->n, a, b));
}

struct execution *execution_choices(const struct encoding *enc, Z3_model m)
{
	struct execution *x = xcalloc(1, sizeof *x);
	int n = enc->n;
	x->enc = enc;
	x->m = m;
	x->on = xcalloc((size_t)n, 1);
	x->val = xcalloc((size_t)n, sizeof(long));
	x->loc = xmalloc(sizeof(int) * (size_t)n);
	x->rf_src = xmalloc(sizeof(int) * (size_t)n);
	for (int e = 0; e < n; e++) {
		const struct event *ev = &enc->ev[e];
		x->on[e] = (unsigned char)execution_holds(x, ev->guard);
		x->val[e] = eval_long(enc->z, m, ev->val);
		x->loc[e] = ev->loc;
		if (ev->loc < 0 && ev->addr)
			x->loc[e] = enc_address_loc(enc, eval_long(enc->z, m, ev->addr));
		x->rf_src[e] = -1;
	}
	for (int w = 0; w < n; w++)
		for (int r = 0; r < n; r++)
			if (REL_AT(enc->rf_var, n, w, r) &&
			    execution_holds(x, REL_AT(enc->rf_var, n, w, r))) {
				/* the encoding's rf: an executed read reads from
				 * one executed write (what is printed as its
				 * source, and fed back as the choice) */
				CHECK_DEEP(!x->on[r] || (x->rf_src[r] < 0 && x->on[w]),
					   "read %d reads from %d and %d", r, x->rf_src[r], w);
				x->rf_src[r] = w;
			}
	return x;
}

struct execution *execution_new(const struct encoding *enc, Z3_model m)
{
	/* The least model changes only the closure variables, which none of
	 * the choices read: they are the same before and after. */
	rel_least_model(&enc->rc, m);
	return execution_choices(enc, m);
}

void execution_free(struct execution *x)
{
	if (!x)
		return;
	free(x->on);
	free(x->val);
	free(x->loc);
	free(x->rf_src);
	free(x);
}

void execution_print_value(const struct execution *x, long v, FILE *out)
{
	int l = enc_address_loc(x->enc, v);
	if (l >= 0)
		fputs(x->enc->prog->locs[l].name, out);
	else if (v == ENC_SYMBOLIC)
		fputs("S", out);
	else
		fprintf(out, "%ld", v);
}

static const char *kind_of(const struct event *ev)
{
	static const struct {
		enum ev_class c;
		const char *name;
	} kinds[] = {
		{EVC_LKR, "LKR"}, {EVC_LKW, "LKW"}, {EVC_UL, "UL"}, {EVC_LF, "LF"},
		{EVC_RL, "RL"}, {EVC_RU, "RU"}, {EVC_SRCU_LOCK, "srcu-lock"},
		{EVC_SRCU_UNLOCK, "srcu-unlock"}, {EVC_SYNC_SRCU, "sync-srcu"},
		{EVC_IW, "W"}, {EVC_R, "R"}, {EVC_W, "W"}, {EVC_F, "F"},
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (ev->cls & EVC_BIT(kinds[i].c))
			return kinds[i].name;
	return "?";
}

void execution_print_pair(const struct execution *x, int a, const char *sep,
			  int b, FILE *out)
{
	execution_print_event(x, a, out);
	fputs(sep, out);
	execution_print_event(x, b, out);
}

void execution_print_event(const struct execution *x, int e, FILE *out)
{
	const struct event *ev = &x->enc->ev[e];
	const char *loc = x->loc[e] >= 0 ? x->enc->prog->locs[x->loc[e]].name : "?";
	if (ev->thread < 0) {
		fprintf(out, "init %s=", loc);
		execution_print_value(x, x->val[e], out);
		return;
	}
	fprintf(out, "P%d:%d %s", ev->thread, ev->instr ? ev->instr->pos.line : 0,
		kind_of(ev));
	if (ev->addr) {
		fprintf(out, " %s", loc);
		if (ev->val && !(ev->cls & EVC_BIT(EVC_F))) {
			fputc('=', out);
			execution_print_value(x, x->val[e], out);
		}
	}
	if (ev->instr && ev->instr->text)
		fprintf(out, "  %s", ev->instr->text);
}

/* The writes to location l in coherence order. */
static int co_order(const struct execution *x, int l, int *out)
{
	const struct encoding *enc = x->enc;
	int k = 0;
	for (int w = 0; w < enc->n; w++)
		if (x->on[w] && enc->ts[w] && x->loc[w] == l)
			out[k++] = w;
	for (int i = 1; i < k; i++) /* insertion sort by timestamp */
		for (int j = i; j > 0; j--) {
			long a = eval_long(enc->z, x->m, enc->ts[out[j - 1]]);
			long b = eval_long(enc->z, x->m, enc->ts[out[j]]);
			if (a <= b)
				break;
			int t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return k;
}

void execution_print(const struct execution *x, FILE *out)
{
	const struct encoding *enc = x->enc;
	const struct ir_program *p = enc->prog;
	int n = enc->n;
	for (int t = 0; t < p->nthreads; t++) {
		fprintf(out, "  P%d:\n", t);
		for (int e = 0; e < n; e++) {
			const struct event *ev = &enc->ev[e];
			if (ev->thread != t || !x->on[e])
				continue;
			fputs("    ", out);
			execution_print_event(x, e, out);
			if (x->rf_src[e] >= 0) {
				int w = x->rf_src[e];
				fputs("  reads ", out);
				execution_print_value(x, x->val[e], out);
				if (enc->ev[w].thread < 0)
					fputs(" from init", out);
				else
					fprintf(out, " from P%d:%d", enc->ev[w].thread,
						enc->ev[w].instr ? enc->ev[w].instr->pos.line : 0);
			}
			fputc('\n', out);
		}
	}
	int *order = xmalloc(sizeof(int) * (size_t)(n ? n : 1));
	for (int l = 0; l < p->nlocs; l++) {
		int k = co_order(x, l, order);
		if (k < 2)
			continue;
		fprintf(out, "  co %s:", p->locs[l].name);
		for (int i = 0; i < k; i++) {
			fputs(i ? " -> " : " ", out);
			execution_print_value(x, x->val[order[i]], out);
			if (enc->ev[order[i]].thread < 0)
				fputs(" (init)", out);
			else
				fprintf(out, " (P%d:%d)", enc->ev[order[i]].thread,
					enc->ev[order[i]].instr ? enc->ev[order[i]].instr->pos.line : 0);
		}
		fputc('\n', out);
	}
	free(order);
	for (int r = 0; r < n; r++)
		for (int w = 0; w < n; w++)
			if (x->on[r] && x->on[w] && enc->ev[w].thread >= 0 &&
			    enc->ev[w].thread != enc->ev[r].thread &&
			    execution_in(x, enc->fr, r, w)) {
				fputs("  fr: ", out);
				execution_print_pair(x, r, "  -->  ", w, out);
				fputc('\n', out);
			}
	fputs("  final:", out);
	for (int l = 0; l < p->nlocs; l++) {
		fprintf(out, " [%s]=", p->locs[l].name);
		execution_print_value(x, eval_long(enc->z, x->m, enc->final_loc[l]), out);
		fputc(';', out);
	}
	for (int t = 0; t < p->nthreads; t++)
		for (int r = 0; r < p->threads[t].nregs; r++) {
			if (p->threads[t].regs[r].is_temp)
				continue;
			fprintf(out, " %d:%s=", t, p->threads[t].regs[r].name);
			execution_print_value(x, eval_long(enc->z, x->m, enc->final_reg[t][r]), out);
			fputc(';', out);
		}
	fputc('\n', out);
}

void execution_assert_choices(const struct execution *x, Z3_solver s)
{
	const struct encoding *enc = x->enc;
	Z3_context z = enc->z;
	int n = enc->n;
	for (int e = 0; e < n; e++) {
		Z3_ast g = enc->ev[e].guard;
		Z3_solver_assert(z, s, x->on[e] ? g : Z3_mk_not(z, g));
		if (x->rf_src[e] >= 0)
			Z3_solver_assert(z, s, REL_AT(enc->rf_var, n, x->rf_src[e], e));
	}
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			Z3_ast co = REL_AT(enc->co, n, a, b);
			if (co && x->on[a] && x->on[b] && execution_holds(x, co))
				Z3_solver_assert(z, s, co);
		}
}
