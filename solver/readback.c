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

/* v as herd7 prints it: a location's name, "S" or the number. */
static char *value_text(const struct execution *x, long v)
{
	int l = enc_address_loc(x->enc, v);
	if (l >= 0)
		return xstrdup(x->enc->prog->locs[l].name);
	if (v == ENC_SYMBOLIC)
		return xstrdup("S");
	char buf[24];
	snprintf(buf, sizeof buf, "%ld", v);
	return xstrdup(buf);
}

void execution_print_value(const struct execution *x, long v, FILE *out)
{
	char *t = value_text(x, v);
	fputs(t, out);
	free(t);
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

static int line_of(const struct event *ev)
{
	return ev->instr ? ev->instr->pos.line : 0;
}

void execution_record_event(const struct execution *x, int e, struct check_event *d)
{
	const struct event *ev = &x->enc->ev[e];
	const char *loc = x->loc[e] >= 0 ? x->enc->prog->locs[x->loc[e]].name : "?";
	*d = (struct check_event){.thread = ev->thread < 0 ? -1 : ev->thread,
				  .line = line_of(ev), .kind = kind_of(ev)};
	if (ev->thread < 0) { /* "init x=0": no kind word, no text */
		d->kind = "W";
		d->loc = xstrdup(loc);
		d->value = value_text(x, x->val[e]);
		return;
	}
	if (ev->addr) {
		d->loc = xstrdup(loc);
		if (ev->val && !(ev->cls & EVC_BIT(EVC_F)))
			d->value = value_text(x, x->val[e]);
	}
	if (ev->instr && ev->instr->text)
		d->text = xstrdup(ev->instr->text);
}

void execution_print_event(const struct execution *x, int e, FILE *out)
{
	struct check_event d;
	execution_record_event(x, e, &d);
	check_event_print(&d, out);
	check_event_free(&d);
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

/* Write w as a source: where it is, and the value v. */
static struct check_write write_of(const struct execution *x, int w, long v)
{
	const struct event *ev = &x->enc->ev[w];
	return (struct check_write){ev->thread < 0 ? -1 : ev->thread,
				    ev->thread < 0 ? 0 : line_of(ev), value_text(x, v)};
}

/* Each thread's executed events in program order, with their sources. */
static void record_events(const struct execution *x, struct check_execution *d)
{
	const struct encoding *enc = x->enc;
	int cap = 0;
	for (int t = 0; t < enc->prog->nthreads; t++)
		for (int e = 0; e < enc->n; e++) {
			if (enc->ev[e].thread != t || !x->on[e])
				continue;
			XGROW(d->events, cap, d->nevents + 1, 16);
			struct check_event *de = &d->events[d->nevents++];
			execution_record_event(x, e, de);
			if (x->rf_src[e] >= 0) {
				de->reads = 1;
				de->from = write_of(x, x->rf_src[e], x->val[e]);
			}
		}
}

static void record_co(const struct execution *x, struct check_execution *d)
{
	const struct encoding *enc = x->enc;
	const struct ir_program *p = enc->prog;
	int *order = xmalloc(sizeof(int) * (size_t)(enc->n ? enc->n : 1));
	d->co = xcalloc((size_t)p->nlocs + 1, sizeof *d->co);
	for (int l = 0; l < p->nlocs; l++) {
		int k = co_order(x, l, order);
		if (k < 2)
			continue;
		struct check_coherence *c = &d->co[d->nco++];
		c->loc = xstrdup(p->locs[l].name);
		c->nwrites = k;
		c->writes = xcalloc((size_t)k, sizeof *c->writes);
		for (int i = 0; i < k; i++)
			c->writes[i] = write_of(x, order[i], x->val[order[i]]);
	}
	free(order);
}

static void record_fr(const struct execution *x, struct check_execution *d)
{
	const struct encoding *enc = x->enc;
	int n = enc->n, cap = 0;
	for (int r = 0; r < n; r++)
		for (int w = 0; w < n; w++)
			if (x->on[r] && x->on[w] && enc->ev[w].thread >= 0 &&
			    enc->ev[w].thread != enc->ev[r].thread &&
			    execution_in(x, enc->fr, r, w)) {
				XGROW(d->fr, cap, d->nfr + 1, 8);
				struct check_fr *f = &d->fr[d->nfr++];
				execution_record_event(x, r, &f->read);
				execution_record_event(x, w, &f->write);
			}
}

/* The final values of the locations, then of the registers. */
static void record_final(const struct execution *x, struct check_execution *d)
{
	const struct encoding *enc = x->enc;
	const struct ir_program *p = enc->prog;
	int cap = 0;
	for (int l = 0; l < p->nlocs; l++) {
		XGROW(d->final, cap, d->nfinal + 1, 16);
		char *label = xmalloc(strlen(p->locs[l].name) + 3);
		sprintf(label, "[%s]", p->locs[l].name);
		d->final[d->nfinal++] = (struct check_final){
			label, value_text(x, eval_long(enc->z, x->m, enc->final_loc[l]))};
	}
	for (int t = 0; t < p->nthreads; t++)
		for (int r = 0; r < p->threads[t].nregs; r++) {
			if (p->threads[t].regs[r].is_temp)
				continue;
			XGROW(d->final, cap, d->nfinal + 1, 16);
			const char *reg = p->threads[t].regs[r].name;
			char *label = xmalloc(strlen(reg) + 16);
			sprintf(label, "%d:%s", t, reg);
			d->final[d->nfinal++] = (struct check_final){
				label,
				value_text(x, eval_long(enc->z, x->m, enc->final_reg[t][r]))};
		}
}

void execution_record(const struct execution *x, struct check_execution *d)
{
	*d = (struct check_execution){.nthreads = x->enc->prog->nthreads};
	record_events(x, d);
	record_co(x, d);
	record_fr(x, d);
	record_final(x, d);
}

void execution_print(const struct execution *x, FILE *out)
{
	struct check_execution d;
	execution_record(x, &d);
	check_execution_print(&d, out);
	check_execution_free(&d);
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
