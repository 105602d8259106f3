/*
 * repair_enc.c - --repair's candidates asked of one encoding (see
 * repair_enc.h): the choice text, its problem, one query per candidate.
 *
 * Why a query here answers as a check of the patched text would: the
 * choice text is the original with each change's own text put under
 * `__lkmmc_choice(K)`, a value 0 or 1 no constraint fixes (IR_E_CHOICE).
 * With the choices of a set true and the others false, each `if` and `?:`
 * around a change takes the branch that is the patched text's code, and
 * the other branch holds no event that executes; the choices are not
 * reads, so they make no dependency (a branch on them adds no ctrl edge),
 * and the registers after the join hold what the patched text computes.
 * So the consistent executions under those assumptions are those of the
 * patched text, event for event.  The verdict is judged as the checker's
 * exists-only answer would be: for exists and ~exists the outcome is
 * wrong when the condition is reachable (herd7's Observation is then not
 * Never), for forall when the condition's negation is reachable or the
 * condition is not (not Always); an assertion that can fail is wrong
 * either way.  Only loop-free tests are asked: with a loop the checker's
 * answer also depends on its spin and bound checks (solver/bounds.c),
 * which the query does not make.
 *
 * It does not choose the sets (repair.c), print anything, or decide what
 * a repair is worth.
 */
#include "repair/repair_enc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/xalloc.h"
#include "encoder/encoder.h"
#include "frontend/frontend.h"
#include "solver/problem.h"

struct repair_enc {
	Z3_context z;              /* the context of the one encoding */
	struct ir_program *prog;   /* the choice text's program (owned) */
	struct problem p;          /* its encoding and model */
	Z3_solver s;               /* consistent executions, herd7's cut */
	Z3_ast reach;              /* the outcome's proposition: the
				    * condition (exists, ~exists) or its
				    * negation (forall) */
	Z3_ast fails;              /* some assertion fails, or false */
	Z3_ast *choice;            /* per change of the menu: its Boolean */
	Z3_ast *assume;            /* room for one query's assumptions */
	int n;                     /* changes in the menu */
	double deadline;           /* no query past it (0: none) */
};

/* ---- the choice text ------------------------------------------------- */

/* One piece of the choice text: text[off, off+del) becomes ins. */
struct piece {
	size_t off, del;  /* the span replaced (del 0: an insertion at off) */
	char *ins;        /* what comes instead (owned) */
	int order;        /* menu order, for insertions at one offset */
};

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The call whose name contains or starts at off: [*a, *e) from its name to
 * its ')'.  0 when there is none. */
static int call_span(const char *text, size_t len, size_t off, size_t *a, size_t *e)
{
	size_t s = off, n;
	while (s > 0 && is_ident(text[s - 1]))
		s--;
	for (n = s; n < len && is_ident(text[n]); n++)
		;
	if (n == s)
		return 0;
	while (n < len && isspace((unsigned char)text[n]))
		n++;
	if (n >= len || text[n] != '(')
		return 0;
	int depth = 0;
	for (; n < len; n++) {
		if (text[n] == '(')
			depth++;
		else if (text[n] == ')' && --depth == 0) {
			*a = s;
			*e = n + 1;
			return 1;
		}
	}
	return 0;
}

/* Whether the call [a, e) is a statement of its own: what precedes it
 * ends a statement, a block's start or a condition, and ';' follows.
 * *semi gets the ';'. */
static int call_statement(const char *text, size_t len, size_t a, size_t e, size_t *semi)
{
	size_t k = e;
	while (k < len && (text[k] == ' ' || text[k] == '\t'))
		k++;
	if (k >= len || text[k] != ';')
		return 0;
	*semi = k;
	size_t b = a;
	while (b > 0 && isspace((unsigned char)text[b - 1]))
		b--;
	if (b == 0)
		return 0;
	char c = text[b - 1];
	if (c == ';' || c == '{' || c == '}' || c == ')')
		return 1;
	return b >= 4 && strncmp(text + b - 4, "else", 4) == 0 &&
	       (b == 4 || !is_ident(text[b - 5]));
}

/* A statement text s (blanks around it kept) with "if (PREFIX) " before
 * its first non-blank character. */
static char *guarded(const char *s, size_t n, const char *prefix)
{
	size_t lead = 0;
	while (lead < n && isspace((unsigned char)s[lead]))
		lead++;
	struct strbuf b = {0};
	strbuf_put(&b, s, lead);
	strbuf_str(&b, "if (");
	strbuf_str(&b, prefix);
	strbuf_str(&b, ") ");
	strbuf_put(&b, s + lead, n - lead);
	return b.p;
}

/* Whether an inserted text is a statement (it ends with ';'), not a
 * suffix put into a name (--prune's _relaxed). */
static int ends_statement(const char *s)
{
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n > 0 && s[n - 1] == ';';
}

/* The pieces of one slot (changes idx[0..k) of m). 0: no known shape. */
static int slot_pieces(const struct repair_menu *m, const char *text, size_t len,
		       const int *idx, int k, struct piece **ps, int *np, int *cap)
{
	const struct repair_edit *e0 = &m->ch[idx[0]].edit;
	int inserts = 1;
	for (int j = 0; j < k; j++)
		inserts &= m->ch[idx[j]].edit.del == 0 && ends_statement(m->ch[idx[j]].edit.ins);
	if (inserts) { /* fences at a gap: each under its own choice */
		for (int j = 0; j < k; j++) {
			const struct repair_edit *e = &m->ch[idx[j]].edit;
			char c[48];
			snprintf(c, sizeof c, "__lkmmc_choice(%d)", idx[j]);
			XGROW(*ps, *cap, *np + 1, 16);
			(*ps)[(*np)++] = (struct piece){e->off, 0,
				guarded(e->ins, strlen(e->ins), c), idx[j]};
		}
		return 1;
	}
	/* a statement that goes (--prune's fences): kept unless chosen */
	const char *span = text + e0->off;
	size_t t = e0->del;
	while (t > 0 && isspace((unsigned char)span[t - 1]))
		t--;
	if (k == 1 && e0->ins[strspn(e0->ins, " \t\n")] == '\0' && t > 0 &&
	    span[t - 1] == ';' && memchr(span, ';', t - 1) == NULL) {
		char c[48];
		snprintf(c, sizeof c, "!__lkmmc_choice(%d)", idx[0]);
		XGROW(*ps, *cap, *np + 1, 16);
		(*ps)[(*np)++] = (struct piece){e0->off, e0->del,
			guarded(span, e0->del, c), idx[0]};
		return 1;
	}
	/* a call rewritten (annotations): the whole call, one per choice */
	size_t a, e, semi;
	if (!call_span(text, len, e0->off, &a, &e))
		return 0;
	for (int j = 0; j < k; j++) {
		const struct repair_edit *x = &m->ch[idx[j]].edit;
		if (x->off < a || x->off + x->del > e)
			return 0;
	}
	int stmt = call_statement(text, len, a, e, &semi);
	struct strbuf b = {0};
	strbuf_str(&b, stmt ? "{ " : "(");
	for (int j = 0; j < k; j++) {
		const struct repair_edit *x = &m->ch[idx[j]].edit;
		char c[48];
		snprintf(c, sizeof c, stmt ? "if (__lkmmc_choice(%d)) " : "__lkmmc_choice(%d) ? ",
			 idx[j]);
		strbuf_str(&b, c);
		strbuf_put(&b, text + a, x->off - a);
		strbuf_str(&b, x->ins);
		strbuf_put(&b, text + x->off + x->del, e - x->off - x->del);
		strbuf_str(&b, stmt ? "; else " : " : ");
	}
	strbuf_put(&b, text + a, e - a);
	strbuf_str(&b, stmt ? "; }" : ")");
	XGROW(*ps, *cap, *np + 1, 16);
	(*ps)[(*np)++] = (struct piece){a, (stmt ? semi + 1 : e) - a, b.p, idx[0]};
	return 1;
}

static int by_offset(const void *pa, const void *pb)
{
	const struct piece *a = pa, *b = pb;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if ((a->del == 0) != (b->del == 0)) /* insertions first */
		return a->del == 0 ? -1 : 1;
	return a->order - b->order;
}

char *repair_choice_text(const struct repair_menu *m, const char *text)
{
	size_t len = strlen(text);
	struct piece *ps = NULL;
	int np = 0, cap = 0, ok = 1;
	int *idx = xmalloc_array((size_t)m->n + 1, sizeof *idx);
	for (int s = 0; s < m->nslots && ok; s++) {
		int k = 0;
		for (int i = 0; i < m->n; i++)
			if (m->ch[i].slot == s)
				idx[k++] = i;
		ok = k == 0 || slot_pieces(m, text, len, idx, k, &ps, &np, &cap);
	}
	free(idx);
	if (np)
		qsort(ps, (size_t)np, sizeof *ps, by_offset);
	struct strbuf b = {0};
	size_t at = 0;
	for (int i = 0; i < np && ok; i++) {
		if (ps[i].off < at) {
			ok = 0; /* two changes in one span (nested calls) */
			break;
		}
		strbuf_put(&b, text + at, ps[i].off - at);
		strbuf_str(&b, ps[i].ins);
		at = ps[i].off + ps[i].del;
	}
	for (int i = 0; i < np; i++)
		free(ps[i].ins);
	free(ps);
	if (!ok) {
		free(b.p);
		return NULL;
	}
	strbuf_put(&b, text + at, len - at);
	return b.p ? b.p : xstrdup("");
}

/* ---- the one encoding ------------------------------------------------ */

static int has_loop(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		if (in->op == IR_LOOP || has_loop(&in->then_b) || has_loop(&in->else_b))
			return 1;
	}
	return 0;
}

const char *repair_enc_refusal_text(enum repair_enc_refusal why)
{
	switch (why) {
	case REPAIR_ENC_SHAPE: return "two changes in one call, or an edit of no known shape";
	case REPAIR_ENC_UNPARSED: return "the text with every change under a choice does not parse";
	case REPAIR_ENC_LOOP: return "a loop (its spin and bound checks need the checker)";
	case REPAIR_ENC_SLOW: return "the one encoding took longer to build than "
			      "some checks from scratch";
	case REPAIR_ENC_FAILED: break;
	}
	return "the one encoding could not be built";
}

struct repair_enc *repair_enc_open(const struct check_options *co, struct frontend *fe,
				   const char *path, const char *text,
				   const struct repair_menu *m, double build_by,
				   double deadline, enum repair_enc_refusal *why)
{
	char *t = repair_choice_text(m, text);
	if (!t) {
		*why = REPAIR_ENC_SHAPE;
		return NULL;
	}
	struct diag d = {0};
	frontend_set_choices(fe, 1);
	struct ir_program *prog = frontend_parse_text(fe, path, t, &d);
	frontend_set_choices(fe, 0);
	free(t);
	if (!prog) {
		*why = REPAIR_ENC_UNPARSED;
		return NULL;
	}
	int loops = 0;
	for (int i = 0; i < prog->nthreads; i++)
		loops |= has_loop(&prog->threads[i].body);
	if (loops) {
		*why = REPAIR_ENC_LOOP;
		ir_program_free(prog);
		return NULL;
	}
	struct repair_enc *re = xcalloc(1, sizeof *re);
	re->prog = prog;
	re->n = m->n;
	re->deadline = deadline;
	re->z = problem_context(0);
	/* general arithmetic: a query outside difference logic would need
	 * a second encoding (and Z3 says so on stderr) */
	double by = deadline > 0 && deadline < build_by ? deadline : build_by;
	enum problem_status st = problem_open(&re->p, re->z, prog, co, co->unroll, by,
					      ENC_ARITH_GENERAL, NULL, &d);
	if (st != PROBLEM_READY) {
		*why = st == PROBLEM_EXPIRED ? REPAIR_ENC_SLOW : REPAIR_ENC_FAILED;
		Z3_del_context(re->z);
		ir_program_free(prog);
		free(re);
		return NULL;
	}
	Z3_context z = re->z;
	re->s = problem_solver(&re->p, PG_CONSISTENT | PG_CUT, 1);
	Z3_ast cond = enc_cond(re->p.enc, prog->cond);
	re->reach = prog->quant == IR_Q_FORALL ? Z3_mk_not(z, cond) : cond;
	Z3_ast *f = xmalloc_array((size_t)re->p.enc->nasserts + 1, sizeof *f);
	int nf = 0;
	for (int i = 0; i < re->p.enc->nasserts; i++)
		if (re->p.enc->asserts[i].fails)
			f[nf++] = re->p.enc->asserts[i].fails;
	re->fails = nf ? Z3_mk_or(z, (unsigned)nf, f) : Z3_mk_false(z);
	free(f);
	re->choice = xmalloc_array((size_t)m->n + 1, sizeof *re->choice);
	re->assume = xmalloc_array((size_t)m->n + 2, sizeof *re->assume);
	for (int i = 0; i < m->n; i++)
		re->choice[i] = enc_choice(z, i);
	return re;
}

/* Ask with the choices of pick and one more assumption x, by by. */
static Z3_lbool ask(struct repair_enc *re, const int *pick, Z3_ast x, double by)
{
	Z3_context z = re->z;
	for (int i = 0; i < re->n; i++)
		re->assume[i] = pick[i] ? re->choice[i] : Z3_mk_not(z, re->choice[i]);
	re->assume[re->n] = x;
	return problem_ask_until(z, re->s, (unsigned)re->n + 1, re->assume, by);
}

int repair_enc_bad(struct repair_enc *re, const int *pick, double by)
{
	Z3_context z = re->z;
	if (re->deadline > 0 && re->deadline < by)
		by = re->deadline;
	Z3_lbool r = ask(re, pick, Z3_mk_or(z, 2, (Z3_ast[]){re->reach, re->fails}), by);
	if (r != Z3_L_FALSE || re->prog->quant != IR_Q_FORALL)
		return r == Z3_L_UNDEF ? -1 : r == Z3_L_TRUE;
	/* forall: Always also needs the condition to be reached at all */
	r = ask(re, pick, Z3_mk_not(z, re->reach), by);
	return r == Z3_L_UNDEF ? -1 : r == Z3_L_FALSE;
}

void repair_enc_close(struct repair_enc *re)
{
	if (!re)
		return;
	Z3_solver_dec_ref(re->z, re->s);
	problem_close(&re->p);
	Z3_del_context(re->z);
	ir_program_free(re->prog);
	free(re->choice);
	free(re->assume);
	free(re);
}
