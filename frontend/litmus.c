/*
 * litmus.c - the litmus-level parse: the "C name" header (with its optional
 * doc string and key=value lines), the init block (with struct objects
 * "struct foo s;", arrays "int a[3];" and their parts "s.x = 1;"), where
 * the optional C preamble before P0 ends, and the process headers
 * "PN(params) { body }".  It fills the locations, threads, parameters and
 * register initialisations of the ir_program, then hands the preamble and
 * bodies to cparse.c and the final clauses to clause.c.
 *
 * It does not look inside process bodies (C) nor at the clauses.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "cparse.h"
#include "cscan.h"
#include "fe.h"
#include "lexer.h"

/* A register initialisation from the init block, applied once the
 * processes are known. */
struct reg_init {
	int tid;              /* thread N of "N:reg" */
	const char *name;     /* register name */
	const char *ctype;    /* declared type, NULL if none */
	struct ir_value val;  /* initial value */
	int has_value;        /* 0 for a bare declaration "int 0:r1;" */
	size_t off;           /* where "N:reg" is */
	struct reg_init *next; /* next one, in file order */
};

/* State of the init-block parse. */
struct init_ctx {
	struct fe *fe;          /* the parse */
	struct lexer lx;        /* over the init block */
	struct reg_init *head;  /* register initialisations, in order */
	struct reg_init **tail; /* where the next one goes */
};

static int at_process(const struct fe *fe, size_t off, int *id, size_t *lparen);

/* --- header ------------------------------------------------------------ */

/* Skip the header; leaves lx at the '{' of the init block. */
static int parse_header(struct fe *fe, struct lexer *lx)
{
	struct token t = lex_next(lx);
	if (t.kind == T_ERROR)
		return 0;
	if (t.kind != T_NAME)
		return fe_error(fe, t.off,
				"missing header: a litmus test starts with "
				"'C <test name>'");
	if (!tok_is(lx, t, "C")) {
		char *arch = tok_str(lx, t);
		return fe_error(fe, t.off,
				"not a C litmus test (architecture '%s'); lkmmc "
				"reads herd7's C dialect, starting with "
				"'C <test name>'", arch);
	}
	size_t start;
	size_t n = lex_test_name(lx, &start);
	if (n == 0)
		return fe_error(fe, lx->off,
				"missing test name after 'C' in the header");
	/* "C C-relseq.litmus" names the test C-relseq, as herd7 prints it. */
	static const char suffix[] = ".litmus";
	size_t ns = sizeof suffix - 1;
	if (n > ns && strncmp(fe->text + start + n - ns, suffix, ns) == 0)
		n -= ns;
	fe->prog->name = arena_strndup(fe->arena, fe->text + start, n);
	/* Doc string, key=value lines and comments, up to '{'. */
	for (;;) {
		if (!lex_skip(lx))
			return 0;
		if (lx->off >= lx->end)
			return fe_error(fe, lx->off,
					"truncated file: no init block "
					"'{ ... }' after the header");
		char c = fe->text[lx->off];
		if (c == '{')
			return 1;
		if (c == '"') {
			if (lex_next(lx).kind == T_ERROR)
				return 0;
			continue;
		}
		/* herd7 skips anything else up to '{' (key=value lines such
		 * as "Cycle=..." or stray text); a process header there means
		 * the init block is missing. */
		int id;
		size_t lp;
		if (at_process(fe, lx->off, &id, &lp))
			return fe_error(fe, lx->off,
					"missing init block before P%d (write "
					"'{}' if nothing needs initialising)", id);
		while (lx->off < lx->end && fe->text[lx->off] != '\n' &&
		       fe->text[lx->off] != '{' &&
		       !(fe->text[lx->off] == '(' && lx->off + 1 < lx->end &&
			 fe->text[lx->off + 1] == '*'))
			lx->off++;
	}
}

/* --- init block -------------------------------------------------------- */

#define MAX_ITEM 64

/* Normalised type text from tokens: words separated by one space, then
 * " *" and further "*"s. */
static char *type_text(struct fe *fe, struct lexer *lx, const struct token *t,
		       int n)
{
	size_t cap = 16;
	for (int i = 0; i < n; i++)
		cap += t[i].len + 2;
	char *s = arena_alloc(fe->arena, cap);
	size_t len = 0;
	int stars = 0;
	for (int i = 0; i < n; i++) {
		if (tok_is(lx, t[i], "*")) {
			s[len++] = stars++ ? '*' : ' ';
			if (stars == 1)
				s[len++] = '*';
			continue;
		}
		if (len)
			s[len++] = ' ';
		memcpy(s + len, fe->text + t[i].off, t[i].len);
		len += t[i].len;
	}
	s[len] = '\0';
	return s;
}

/* Parse an initial value: N, -N, name, &name, ATOMIC_INIT(v). */
static int init_value(struct fe *fe, struct lexer *lx, const struct token *t,
		      int n, struct ir_value *v, size_t item_off)
{
	if (n >= 4 && tok_is(lx, t[0], "ATOMIC_INIT") && tok_is(lx, t[1], "(") &&
	    tok_is(lx, t[n - 1], ")"))
		return init_value(fe, lx, t + 2, n - 3, v, t[1].off);
	if (n == 1 && t[0].kind == T_NUM) {
		v->kind = IR_VAL_INT;
		v->num = t[0].num;
		return 1;
	}
	if (n == 2 && tok_is(lx, t[0], "-") && t[1].kind == T_NUM) {
		v->kind = IR_VAL_INT;
		v->num = -t[1].num;
		return 1;
	}
	int amp = n == 2 && tok_is(lx, t[0], "&");
	if ((n == 1 || amp) && t[n - 1].kind == T_NAME) {
		v->kind = IR_VAL_LOC;
		v->loc = fe_loc_use(fe, tok_str(lx, t[n - 1]), t[n - 1].off);
		return 1;
	}
	return fe_error(fe, n ? t[0].off : item_off,
			"bad initial value: expected a number, a location name, "
			"&name or ATOMIC_INIT(n)");
}

/* An array "type a[N]" of the init block (nm "a[N]", at offset off;
 * eqt: its '=' if it has one, an error): object a, elements
 * a[0]..a[N-1]. */
static int init_array(struct fe *fe, char *nm, const char *ctype, size_t off,
		      const struct token *eqt)
{
	char *lb = strchr(nm, '[');
	long cnt = strtol(lb + 1, NULL, 10);
	if (strchr(lb + 1, '[') || strchr(nm, '.'))
		return fe_error(fe, off, "declare one-dimensional "
				"arrays in the init block ('int a[3];'); "
				"nest arrays in structs");
	if (cnt < 1 || cnt > 64)
		return fe_error(fe, off, "array '%s' must have 1 to "
				"64 elements", nm);
	if (eqt)
		return fe_error(fe, eqt->off, "an array cannot be given "
				"an initial value; initialise its "
				"elements ('a[1] = 2;')");
	*lb = '\0';
	return fe_array_declare(fe, nm, ctype, cnt, off) >= 0;
}

/* Give location li (named nm at name_off) the initial value v (after the
 * '=' at eq_off), once. */
static int init_loc(struct fe *fe, int li, struct ir_value v, const char *nm,
		    size_t name_off, size_t eq_off)
{
	struct ir_location *loc = &fe->prog->locs[li];
	struct fe_locx *x = &fe->locx[li];
	if (x->has_init) {
		return fe_error(fe, name_off,
				"location '%s' is initialised twice in the init "
				"block", nm);
	}
	if (loc->kind == IR_LOC_SPINLOCK || loc->kind == IR_LOC_SRCU ||
	    x->is_object)
		return fe_error(fe, eq_off,
				"'%s' is %s and cannot be given an initial "
				"value", nm, fe_kind_name(loc->kind));
	x->has_init = 1;
	loc->init = v;
	return 1;
}

/* One item "[type] target [= value]" of tokens t[0..n). */
static int init_item(struct init_ctx *ic, struct token *t, int n)
{
	struct fe *fe = ic->fe;
	struct lexer *lx = &ic->lx;
	int eq = -1;
	for (int i = 0; i < n; i++)
		if (tok_is(lx, t[i], "=")) {
			eq = i;
			break;
		}
	int nl = eq < 0 ? n : eq;
	if (nl == 0)
		return fe_error(fe, t[0].off,
				"missing location name before '=' in the init "
				"block");
	/* The target: "name", "N:name" or "[name]". */
	int is_reg = 0, tid = 0, nt;
	struct token name;
	if (nl >= 3 && tok_is(lx, t[nl - 1], "]") && tok_is(lx, t[nl - 3], "[")) {
		name = t[nl - 2];
		nt = nl - 3;
	} else if (nl >= 3 && tok_is(lx, t[nl - 2], ":") &&
		   t[nl - 3].kind == T_NUM) {
		is_reg = 1;
		tid = (int)t[nl - 3].num;
		name = t[nl - 1];
		nt = nl - 3;
	} else {
		name = t[nl - 1];
		nt = nl - 1;
	}
	if (name.kind != T_NAME)
		return fe_error(fe, name.off,
				"expected a location name in the init block, "
				"got '%s'", tok_str(lx, name));
	for (int i = 0; i < nt; i++)
		if (t[i].kind != T_NAME && !tok_is(lx, t[i], "*"))
			return fe_error(fe, t[i].off,
					"unexpected '%s' in the init block "
					"(expected 'type name = value;')",
					tok_str(lx, t[i]));
	char *ctype = nt ? type_text(fe, lx, t, nt) : NULL;
	if (ctype && fe_type_kind(ctype) < 0 && !fe_is_struct_type(ctype) &&
	    !(fe->preamble_end > fe->preamble_off && fe_typedef_name(ctype)))
		return fe_error(fe, t[0].off,
				"type '%s' is not modelled (use int, long, "
				"intptr_t, a pointer, atomic_t, spinlock_t or "
				"struct srcu_struct)", ctype);
	char *nm = tok_str(lx, name);
	int li = -1;
	size_t nlen = strlen(nm);
	if (!is_reg && ctype && nlen > 3 && nm[nlen - 1] == ']') {
		return init_array(fe, nm, ctype, name.off, eq >= 0 ? &t[eq] : NULL);
	}
	if (!is_reg) {
		li = ctype ? fe_loc_declare(fe, nm, ctype, name.off)
			   : fe_loc_use(fe, nm, name.off);
		if (li < 0)
			return 0;
	}
	struct ir_value v = { IR_VAL_INT, 0, 0 };
	if (eq >= 0 && !init_value(fe, lx, t + eq + 1, n - eq - 1, &v,
				   t[eq].off))
		return 0;
	if (is_reg) {
		struct reg_init *ri = arena_alloc(fe->arena, sizeof *ri);
		ri->tid = tid;
		ri->name = nm;
		ri->ctype = ctype;
		ri->val = v;
		ri->has_value = eq >= 0;
		ri->off = t[nl - 3].off;
		*ic->tail = ri;
		ic->tail = &ri->next;
		return 1;
	}
	return eq < 0 || init_loc(fe, li, v, nm, name.off, t[eq].off);
}

/* The init block from the '{' at lx->off; leaves lx after its '}'. */
static int parse_init(struct init_ctx *ic, size_t open)
{
	struct fe *fe = ic->fe;
	struct lexer *lx = &ic->lx;
	lex_init(lx, fe, open + 1, fe->len);
	struct token item[MAX_ITEM];
	int n = 0;
	for (;;) {
		struct token t = lex_next(lx);
		if (t.kind == T_ERROR)
			return 0;
		if (t.kind == T_EOF)
			return fe_error(fe, open,
					"truncated file: the init block '{' is "
					"never closed by '}'");
		int end = tok_is(lx, t, "}");
		if (end || tok_is(lx, t, ";")) {
			if (n > 0 && !init_item(ic, item, n))
				return 0;
			n = 0;
			if (end)
				return 1;
			continue;
		}
		if (tok_is(lx, t, "{"))
			return fe_error(fe, t.off,
					"unexpected '{' in the init block (is a "
					"'}' missing?)");
		if (n == MAX_ITEM)
			return fe_error(fe, t.off,
					"init block item too long (missing ';'?)");
		item[n++] = t;
	}
}

/* --- processes --------------------------------------------------------- */

/* Is there "PN (" at off?  Sets *id and *lparen. */
static int at_process(const struct fe *fe, size_t off, int *id, size_t *lparen)
{
	const char *t = fe->text;
	if (off >= fe->len || t[off] != 'P')
		return 0;
	size_t i = off + 1;
	long n = 0;
	if (i >= fe->len || !isdigit((unsigned char)t[i]))
		return 0;
	while (i < fe->len && isdigit((unsigned char)t[i])) {
		n = n * 10 + (t[i] - '0');
		if (n > 100000)
			return 0;
		i++;
	}
	if (i < fe->len && (isalnum((unsigned char)t[i]) || t[i] == '_'))
		return 0;
	while (i < fe->len && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i >= fe->len || t[i] != '(')
		return 0;
	*id = (int)n;
	*lparen = i;
	return 1;
}

/* Parameters between '(' at lp and ')' at rp. */
static int parse_params(struct fe *fe, struct fe_proc *p, size_t lp, size_t rp)
{
	struct lexer lx;
	lex_init(&lx, fe, lp + 1, rp);
	struct token t[MAX_ITEM];
	int n = 0, cap = 0;
	for (;;) {
		struct token tok = lex_next(&lx);
		if (tok.kind == T_ERROR)
			return 0;
		int end = tok.kind == T_EOF;
		if (!end && !tok_is(&lx, tok, ",")) {
			if (n == MAX_ITEM)
				return fe_error(fe, tok.off, "parameter too long");
			t[n++] = tok;
			continue;
		}
		if (n == 0) {
			if (end && p->nparams == 0)
				return 1; /* P0() */
			return fe_error(fe, tok.off, "missing parameter");
		}
		if (end && p->nparams == 0 && n == 1 && tok_is(&lx, t[0], "void"))
			return 1; /* P0(void) */
		struct token name = t[n - 1];
		if (name.kind != T_NAME || n < 2 || !tok_is(&lx, t[n - 2], "*"))
			return fe_error(fe, t[0].off,
					"parameter '%s' must be a pointer to a "
					"shared location, e.g. 'int *x'",
					tok_str(&lx, t[n - 1]));
		for (int i = 0; i < n - 1; i++)
			if (t[i].kind != T_NAME && !tok_is(&lx, t[i], "*"))
				return fe_error(fe, t[i].off,
						"unexpected '%s' in a parameter",
						tok_str(&lx, t[i]));
		char *nm = tok_str(&lx, name);
		for (int i = 0; i < p->nparams; i++)
			if (strcmp(p->params[i].name, nm) == 0)
				return fe_error(fe, name.off,
						"duplicate parameter '%s'", nm);
		p->params = fe_reserve(fe->arena, p->params, sizeof *p->params,
				       p->nparams, &cap);
		struct fe_param *fp = &p->params[p->nparams++];
		fp->name = nm;
		fp->ctype = type_text(fe, &lx, t, n - 2);
		fp->off = name.off;
		if (fe_loc_declare(fe, nm, fp->ctype, name.off) < 0)
			return 0;
		n = 0;
		if (end)
			return 1;
	}
}

/* The C preamble: when the init block is not followed by a process, C text
 * (preprocessor lines, struct definitions, typedefs, helper functions) runs
 * up to the first "PN(" outside braces and preprocessor lines.  Sets
 * fe->preamble_off/end; returns the offset of the first process. */
static int find_preamble(struct fe *fe, size_t off, size_t *first)
{
	struct lexer lx;
	lex_init(&lx, fe, off, fe->len);
	if (!lex_skip(&lx))
		return 0;
	int id;
	size_t lp;
	fe->preamble_off = fe->preamble_end = lx.off;
	*first = lx.off;
	if (lx.off >= fe->len || at_process(fe, lx.off, &id, &lp))
		return 1;
	const char *t = fe->text;
	int depth = 0;
	size_t pos = lx.off;
	for (;;) {
		struct ctok tok = cscan_token(t, pos, fe->len);
		if (tok.kind == CT_EOF)
			return fe_error(fe, lx.off,
					"expected a process 'P0(...) { ... }' "
					"after the init block");
		if (tok.kind == CT_BAD)
			return fe_error(fe, tok.off, "unterminated comment or "
					"literal in the C preamble");
		pos = tok.off + tok.len;
		if (tok.kind == CT_HASH) {
			/* A directive runs to the end of its line (with
			 * backslash continuations). */
			while (pos < fe->len && t[pos] != '\n') {
				if (t[pos] == '\\' && pos + 1 < fe->len &&
				    t[pos + 1] == '\n')
					pos++;
				pos++;
			}
			continue;
		}
		if (tok.kind == CT_PUNCT && tok.len == 1 && t[tok.off] == '{')
			depth++;
		else if (tok.kind == CT_PUNCT && tok.len == 1 && t[tok.off] == '}')
			depth--;
		else if (depth == 0 && tok.kind == CT_IDENT &&
			 at_process(fe, tok.off, &id, &lp)) {
			fe->preamble_end = tok.off;
			*first = tok.off;
			return 1;
		}
	}
}

/* All processes from off; sets fe->clauses_off after the last one. */
static int parse_processes(struct fe *fe, size_t off)
{
	struct lexer lx;
	int cap = 0;
	for (;;) {
		lex_init(&lx, fe, off, fe->len);
		if (!lex_skip(&lx))
			return 0;
		off = lx.off;
		int id;
		size_t lp;
		if (!at_process(fe, off, &id, &lp))
			break;
		for (int i = 0; i < fe->nprocs; i++)
			if (fe->procs[i].id == id) {
				struct ir_pos first = fe_pos(fe, fe->procs[i].name_off);
				return fe_error(fe, off,
						"duplicate process P%d (first "
						"defined at line %d)", id,
						first.line);
			}
		fe->procs = fe_reserve(fe->arena, fe->procs, sizeof *fe->procs,
				       fe->nprocs, &cap);
		struct fe_proc *p = &fe->procs[fe->nprocs++];
		p->id = id;
		p->name_off = off;
		size_t rp = lp;
		while (rp < fe->len && fe->text[rp] != ')' && fe->text[rp] != '{')
			rp++;
		if (rp >= fe->len || fe->text[rp] != ')')
			return fe_error(fe, lp,
					"unbalanced parentheses: the parameter "
					"list of P%d is not closed by ')'", id);
		p->rparen_off = rp;
		if (!parse_params(fe, p, lp, rp))
			return 0;
		lex_init(&lx, fe, rp + 1, fe->len);
		if (!lex_skip(&lx))
			return 0;
		if (lx.off >= fe->len || fe->text[lx.off] != '{')
			return fe_error(fe, lx.off,
					lx.off >= fe->len
					? "truncated file: expected the body '{' "
					  "of P%d"
					: "expected '{' to start the body of P%d",
					id);
		p->body_off = lx.off;
		size_t bad;
		int m = cscan_match_brace(fe->text, p->body_off, fe->len,
					  &p->body_end, &bad);
		if (m < 0)
			return fe_error(fe, bad, "braces nested too deeply");
		if (m == 0) {
			if (fe->text[bad] == '{')
				return fe_error(fe, bad,
						"unbalanced braces: this '{' is "
						"never closed (truncated file?)");
			return fe_error(fe, bad,
					"unterminated comment or literal in the "
					"body of P%d", id);
		}
		off = p->body_end + 1;
	}
	fe->clauses_off = off;
	if (fe->nprocs == 0) {
		if (off >= fe->len)
			return fe_error(fe, off,
					"truncated file: no process after the "
					"init block (expected 'P0(...) { ... }')");
		return fe_error(fe, off,
				"expected a process 'P0(...) { ... }' after the "
				"init block");
	}
	/* Processes must be P0..P(n-1). */
	for (int i = 0; i < fe->nprocs; i++)
		if (fe->procs[i].id >= fe->nprocs)
			return fe_error(fe, fe->procs[i].name_off,
					"process P%d but the test has only %d "
					"processes: number them P0..P%d",
					fe->procs[i].id, fe->nprocs,
					fe->nprocs - 1);
	return 1;
}

/* Threads from the processes, then the register initialisations. */
static int make_threads(struct fe *fe, struct reg_init *ri)
{
	struct ir_program *prog = fe->prog;
	int n = fe->nprocs;
	prog->nthreads = n;
	prog->threads = arena_alloc(fe->arena, (size_t)n * sizeof *prog->threads);
	fe->regs_cap = arena_alloc(fe->arena, (size_t)n * sizeof *fe->regs_cap);
	fe->ntemps = arena_alloc(fe->arena, (size_t)n * sizeof *fe->ntemps);
	for (int k = 0; k < n; k++) {
		struct fe_proc *p = &fe->procs[k];
		struct ir_thread *th = &prog->threads[p->id];
		th->id = p->id;
		th->pos = fe_pos(fe, p->name_off);
		th->nparams = p->nparams;
		th->params = arena_alloc(fe->arena,
					 (size_t)(p->nparams + 1) * sizeof(int));
		for (int i = 0; i < p->nparams; i++)
			th->params[i] = ir_find_loc(prog, p->params[i].name);
	}
	for (; ri; ri = ri->next) {
		if (ri->tid < 0 || ri->tid >= n)
			return fe_error(fe, ri->off,
					"the init block sets register %d:%s but "
					"the test has no process P%d", ri->tid,
					ri->name, ri->tid);
		if (fe_reg_find(fe, ri->tid, ri->name) >= 0)
			return fe_error(fe, ri->off,
					"register %d:%s is initialised twice",
					ri->tid, ri->name);
		int r = fe_reg_use(fe, ri->tid, ri->name, ri->ctype,
				   fe_pos(fe, ri->off));
		struct ir_reg *reg = &prog->threads[ri->tid].regs[r];
		reg->has_init = ri->has_value;
		reg->init = ri->val;
	}
	return 1;
}

int litmus_parse(struct fe *fe, struct cparse *cp)
{
	struct lexer lx;
	lex_init(&lx, fe, 0, fe->len);
	if (!parse_header(fe, &lx))
		return 0;
	struct init_ctx ic = { .fe = fe };
	ic.tail = &ic.head;
	/* Where the preamble is, before the init block's items need it (a
	 * typedef'd struct there); the init block has no nested braces. */
	struct lexer pre;
	lex_init(&pre, fe, lx.off + 1, fe->len);
	struct token pt;
	do
		pt = lex_next(&pre);
	while (pt.kind != T_EOF && pt.kind != T_ERROR && !tok_is(&pre, pt, "}"));
	size_t first;
	if (pt.kind == T_ERROR || pt.kind == T_EOF ||
	    !find_preamble(fe, pre.off, &first))
		fe->preamble_off = fe->preamble_end = 0;
	fe->d->set = 0; /* errors are for the real parse to report */
	if (!parse_init(&ic, lx.off))
		return 0;
	if (!find_preamble(fe, ic.lx.off, &first))
		return 0;
	if (!parse_processes(fe, first))
		return 0;
	if (!make_threads(fe, ic.head))
		return 0;
	if (!cparse_bodies(cp, fe))
		return 0;
	if (!clause_parse(fe))
		return 0;
	/* A location whose initial value is an address holds a pointer. */
	for (int i = 0; i < fe->prog->nlocs; i++) {
		struct ir_location *loc = &fe->prog->locs[i];
		if (loc->kind == IR_LOC_INT && loc->init.kind == IR_VAL_LOC)
			loc->kind = IR_LOC_PTR;
	}
	return 1;
}
