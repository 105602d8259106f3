/*
 * clause.c - the final clauses of a litmus test: "locations [...]",
 * "filter PROP" and the quantified condition ("exists", "~exists",
 * "forall", or a bare "(PROP)" which herd7 reads as exists; none at all is
 * "forall (true)").  It resolves atoms to registers and locations (a
 * register the thread never mentions is created with its initial value)
 * and prints the condition as herd7 does after "Condition exists ".
 *
 * It does not read the init block or the processes (litmus.c).
 */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "fe.h"
#include "lexer.h"
#include "common/strbuf.h"

/* State of the clause parse. */
struct cl {
	struct fe *fe;   /* the parse */
	struct lexer lx; /* over the clauses */
	int depth;       /* nesting of parentheses and negations */
};

/* Deeper conditions are refused rather than risking the stack. */
#define MAX_DEPTH 200

static int cl_error(struct cl *c, struct token t, const char *what)
{
	if (t.kind == T_ERROR)
		return 0;
	if (t.kind == T_EOF)
		return fe_error(c->fe, t.off, "truncated file: expected %s", what);
	return fe_error(c->fe, t.off, "expected %s, got '%s'", what,
			tok_str(&c->lx, t));
}

static int expect(struct cl *c, const char *p, const char *what)
{
	struct token t = lex_next(&c->lx);
	if (tok_is(&c->lx, t, p))
		return 1;
	return cl_error(c, t, what);
}

/* A register "N:name" whose "N" and ":" are already read. */
static int reg_obs(struct cl *c, struct token num, struct ir_observable *o)
{
	struct fe *fe = c->fe;
	struct token name = lex_next(&c->lx);
	if (name.kind != T_NAME)
		return cl_error(c, name, "a register name after ':'");
	long tid = num.num;
	if (tid < 0 || tid >= fe->prog->nthreads)
		return fe_error(fe, num.off,
				"unknown thread %ld: the test has processes "
				"P0..P%d", tid, fe->prog->nthreads - 1);
	char *nm = tok_str(&c->lx, name);
	int r = fe_reg_find(fe, (int)tid, nm);
	if (r < 0) {
		const struct ir_thread *th = &fe->prog->threads[tid];
		for (int i = 0; i < th->nparams; i++)
			if (strcmp(fe->prog->locs[th->params[i]].name, nm) == 0)
				return fe_error(fe, name.off,
						"'%s' is a parameter (a shared "
						"location) of P%ld, not a "
						"register: write %s=... to test "
						"its final value", nm, tid, nm);
		/* Never mentioned by the thread: it keeps its initial value. */
		r = fe_reg_use(fe, (int)tid, nm, NULL, fe_pos(fe, name.off));
	}
	o->thread = (int)tid;
	o->index = r;
	return 1;
}

/* The location named by t; a field or element ("s.x", "a[1]") must be one
 * of a struct or array of the test.  -1 (error recorded) if not. */
static int part_use(struct cl *c, struct token t)
{
	char *nm = tok_str(&c->lx, t);
	if (strpbrk(nm, ".[") && ir_find_loc(c->fe->prog, nm) < 0) {
		fe_error(c->fe, t.off, "no location '%s': not a field or element "
			 "of a struct or array of the test", nm);
		return -1;
	}
	return fe_loc_use(c->fe, nm, t.off);
}

/* An observable: "N:reg", "name" or "[name]". */
static int observable(struct cl *c, struct ir_observable *o, const char *what)
{
	struct token t = lex_next(&c->lx);
	if (t.kind == T_NUM && tok_is(&c->lx, lex_peek(&c->lx), ":")) {
		lex_next(&c->lx);
		return reg_obs(c, t, o);
	}
	int brk = tok_is(&c->lx, t, "[");
	if (brk)
		t = lex_next(&c->lx);
	if (t.kind != T_NAME)
		return cl_error(c, t, what);
	o->thread = -1;
	o->index = part_use(c, t);
	return o->index >= 0 && (!brk || expect(c, "]", "']'"));
}

/* The right side of an atom: a value or another observable. */
static int atom_rhs(struct cl *c, struct ir_cond *a)
{
	struct token t = lex_peek(&c->lx);
	int neg = tok_is(&c->lx, t, "-");
	if (neg || tok_is(&c->lx, t, "&"))
		lex_next(&c->lx);
	t = lex_next(&c->lx);
	if (t.kind == T_NUM && !neg && tok_is(&c->lx, lex_peek(&c->lx), ":")) {
		lex_next(&c->lx);
		a->rhs_is_obs = 1;
		return reg_obs(c, t, &a->rhs_obs);
	}
	if (t.kind == T_NUM) {
		a->rhs.kind = IR_VAL_INT;
		a->rhs.num = neg ? -t.num : t.num;
		return 1;
	}
	if (t.kind == T_NAME && !neg) {
		a->rhs.kind = IR_VAL_LOC;
		a->rhs.loc = part_use(c, t);
		return a->rhs.loc >= 0;
	}
	if (tok_is(&c->lx, t, "[") && !neg) {
		struct token n = lex_next(&c->lx);
		if (n.kind != T_NAME)
			return cl_error(c, n, "a location name after '['");
		a->rhs_is_obs = 1;
		a->rhs_obs.thread = -1;
		a->rhs_obs.index = part_use(c, n);
		return a->rhs_obs.index >= 0 && expect(c, "]", "']'");
	}
	return cl_error(c, t, "a value (number or location name)");
}

static struct ir_cond *node(struct cl *c, enum ir_cond_kind k, size_t off)
{
	struct ir_cond *n = arena_alloc(c->fe->arena, sizeof *n);
	n->kind = k;
	n->pos = fe_pos(c->fe, off);
	return n;
}

static struct ir_cond *prop_or(struct cl *c);

static struct ir_cond *prop_nested(struct cl *c);

static struct ir_cond *prop_atom(struct cl *c)
{
	struct token t = lex_peek(&c->lx);
	if (c->depth >= MAX_DEPTH) {
		fe_error(c->fe, t.off, "condition nested too deeply");
		return NULL;
	}
	c->depth++;
	struct ir_cond *r = prop_nested(c);
	c->depth--;
	return r;
}

static struct ir_cond *prop_nested(struct cl *c)
{
	struct token t = lex_peek(&c->lx);
	if (tok_is(&c->lx, t, "(")) {
		lex_next(&c->lx);
		struct ir_cond *p = prop_or(c);
		if (!p)
			return NULL;
		struct token r = lex_next(&c->lx);
		if (!tok_is(&c->lx, r, ")")) {
			if (r.kind == T_EOF)
				fe_error(c->fe, t.off,
					 "truncated file: this '(' is never "
					 "closed by ')'");
			else
				cl_error(c, r, "')' or a connective /\\ \\/");
			return NULL;
		}
		return p;
	}
	if (tok_is(&c->lx, t, "~") || tok_is(&c->lx, t, "not")) {
		lex_next(&c->lx);
		struct ir_cond *a = prop_atom(c);
		if (!a)
			return NULL;
		struct ir_cond *n = node(c, IR_C_NOT, t.off);
		n->a = a;
		return n;
	}
	if (tok_is(&c->lx, t, "true") || tok_is(&c->lx, t, "false")) {
		lex_next(&c->lx);
		return node(c, tok_is(&c->lx, t, "true") ? IR_C_TRUE : IR_C_FALSE,
			    t.off);
	}
	if (t.kind != T_NUM && t.kind != T_NAME && !tok_is(&c->lx, t, "[")) {
		lex_next(&c->lx);
		cl_error(c, t, "a condition atom such as 0:r1=1 or x=1");
		return NULL;
	}
	struct ir_cond *a = node(c, IR_C_ATOM, t.off);
	if (!observable(c, &a->lhs, "a register or location"))
		return NULL;
	struct token op = lex_next(&c->lx);
	int ne = tok_is(&c->lx, op, "!=");
	if (!ne && !tok_is(&c->lx, op, "=") && !tok_is(&c->lx, op, "==")) {
		cl_error(c, op, "'=' in the condition atom");
		return NULL;
	}
	if (!atom_rhs(c, a))
		return NULL;
	if (!ne)
		return a;
	struct ir_cond *n = node(c, IR_C_NOT, t.off);
	n->a = a;
	return n;
}

static struct ir_cond *prop_bin(struct cl *c, int level)
{
	const char *conn = level ? "/\\" : "\\/";
	struct ir_cond *l = level ? prop_atom(c) : prop_bin(c, 1);
	while (l) {
		struct token t = lex_peek(&c->lx);
		if (tok_is(&c->lx, t, "=>")) {
			fe_error(c->fe, t.off,
				 "implication '=>' is not supported; write "
				 "~a \\/ b");
			return NULL;
		}
		if (!tok_is(&c->lx, t, conn))
			break;
		lex_next(&c->lx);
		struct ir_cond *r = level ? prop_atom(c) : prop_bin(c, 1);
		if (!r)
			return NULL;
		struct ir_cond *n = node(c, level ? IR_C_AND : IR_C_OR, t.off);
		n->pos = l->pos;
		n->a = l;
		n->b = r;
		l = n;
	}
	return l;
}

static struct ir_cond *prop_or(struct cl *c)
{
	return prop_bin(c, 0);
}

/* --- printing as herd7 ------------------------------------------------- */

static void put_obs(struct strbuf *b, const struct ir_program *prog,
		    struct ir_observable o)
{
	char buf[64];
	if (o.thread >= 0) {
		snprintf(buf, sizeof buf, "%d:", o.thread);
		strbuf_str(b, buf);
		strbuf_str(b, prog->threads[o.thread].regs[o.index].name);
	} else {
		strbuf_str(b, "[");
		strbuf_str(b, prog->locs[o.index].name);
		strbuf_str(b, "]");
	}
}

/* herd7 parenthesises an \/ under a /\ and nothing else; "not" always. */
static void put_cond(struct strbuf *b, const struct ir_program *prog,
		     const struct ir_cond *c, int under_and)
{
	char buf[64];
	switch (c->kind) {
	case IR_C_TRUE:
		strbuf_str(b, "true");
		break;
	case IR_C_FALSE:
		strbuf_str(b, "false");
		break;
	case IR_C_ATOM:
		put_obs(b, prog, c->lhs);
		strbuf_str(b, "=");
		if (c->rhs_is_obs) {
			put_obs(b, prog, c->rhs_obs);
		} else if (c->rhs.kind == IR_VAL_LOC) {
			strbuf_str(b, prog->locs[c->rhs.loc].name);
		} else {
			snprintf(buf, sizeof buf, "%ld", c->rhs.num);
			strbuf_str(b, buf);
		}
		break;
	case IR_C_EXPR: /* a program's C condition, as written */
		strbuf_str(b, "(");
		strbuf_str(b, c->text);
		strbuf_str(b, ")");
		break;
	case IR_C_NOT:
		strbuf_str(b, "not (");
		put_cond(b, prog, c->a, 0);
		strbuf_str(b, ")");
		break;
	case IR_C_AND:
		put_cond(b, prog, c->a, 1);
		strbuf_str(b, " /\\ ");
		put_cond(b, prog, c->b, 1);
		break;
	case IR_C_OR:
		if (under_and)
			strbuf_str(b, "(");
		put_cond(b, prog, c->a, 0);
		strbuf_str(b, " \\/ ");
		put_cond(b, prog, c->b, 0);
		if (under_and)
			strbuf_str(b, ")");
		break;
	}
}

/* --- the clauses ------------------------------------------------------- */

static int locations(struct cl *c)
{
	struct fe *fe = c->fe;
	struct ir_program *prog = fe->prog;
	if (!expect(c, "[", "'[' after 'locations'"))
		return 0;
	int cap = 0;
	for (;;) {
		struct token t = lex_peek(&c->lx);
		if (tok_is(&c->lx, t, "]")) {
			lex_next(&c->lx);
			return 1;
		}
		if (tok_is(&c->lx, t, ";")) {
			lex_next(&c->lx);
			continue;
		}
		struct ir_observable o;
		if (!observable(c, &o, "a register or location in 'locations'"))
			return 0;
		prog->observed = fe_reserve(fe->arena, prog->observed, sizeof o,
					    prog->nobserved, &cap);
		prog->observed[prog->nobserved++] = o;
		t = lex_peek(&c->lx);
		if (!tok_is(&c->lx, t, ";") && !tok_is(&c->lx, t, "]")) {
			lex_next(&c->lx);
			return cl_error(c, t, "';' or ']' in 'locations'");
		}
	}
}

int clause_parse(struct fe *fe)
{
	struct cl c = { .fe = fe };
	struct ir_program *prog = fe->prog;
	lex_init(&c.lx, fe, fe->clauses_off, fe->len);
	struct token t = lex_peek(&c.lx);
	if (t.kind == T_ERROR)
		return 0;
	if (tok_is(&c.lx, t, "locations")) {
		lex_next(&c.lx);
		if (!locations(&c))
			return 0;
		t = lex_peek(&c.lx);
	}
	if (tok_is(&c.lx, t, "filter")) {
		lex_next(&c.lx);
		if (!(prog->filter = prop_or(&c)))
			return 0;
		t = lex_peek(&c.lx);
	}
	if (t.kind == T_ERROR)
		return 0;
	if (t.kind == T_EOF) {
		/* No condition: herd7 checks "forall (true)". */
		prog->quant = IR_Q_FORALL;
		prog->cond = node(&c, IR_C_TRUE, t.off);
	} else {
		if (tok_is(&c.lx, t, "~")) {
			lex_next(&c.lx);
			struct token e = lex_next(&c.lx);
			if (!tok_is(&c.lx, e, "exists"))
				return cl_error(&c, e, "'exists' after '~'");
			prog->quant = IR_Q_NOT_EXISTS;
		} else if (tok_is(&c.lx, t, "exists") || tok_is(&c.lx, t, "final")) {
			lex_next(&c.lx);
			prog->quant = IR_Q_EXISTS;
		} else if (tok_is(&c.lx, t, "forall")) {
			lex_next(&c.lx);
			prog->quant = IR_Q_FORALL;
		} else if (tok_is(&c.lx, t, "(")) {
			prog->quant = IR_Q_EXISTS;
		} else if (tok_is(&c.lx, t, "}")) {
			return fe_error(fe, t.off,
					"unbalanced braces: unexpected '}' after "
					"the body of the last process");
		} else {
			lex_next(&c.lx);
			return cl_error(&c, t, "'exists', '~exists', 'forall', "
					"'filter' or 'locations'");
		}
		if (!(prog->cond = prop_or(&c)))
			return 0;
		if (tok_is(&c.lx, lex_peek(&c.lx), ";"))
			lex_next(&c.lx);
		t = lex_next(&c.lx);
		if (t.kind != T_EOF)
			return cl_error(&c, t, "the end of the test after the "
					"condition (or a connective /\\ \\/)");
	}
	char *s = clause_cond_string(prog, prog->cond);
	prog->cond_text = arena_strdup(fe->arena, s);
	free(s);
	return 1;
}

char *clause_cond_string(const struct ir_program *prog, const struct ir_cond *c)
{
	struct strbuf b = {0};
	strbuf_str(&b, "(");
	put_cond(&b, prog, c, 0);
	strbuf_str(&b, ")");
	return b.p;
}
