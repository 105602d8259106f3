/*
 * catparse.c - lexer and parser of herd7's cat language (.cat and .bell).
 *
 * It covers what the LKMM's model files of Linux 6.1 to 7.2 use: let, let
 * rec ... and ..., functions (f(x, y) = e, curried f x = e, fun x -> e),
 * application, the operators | ++ ; \ & * ~ ^-1 ? * + [S] {} {a, b} 0 _,
 * tags, try ... with, if "variant" then ... else, include, enum,
 * instructions, with ... from, acyclic/irreflexive/empty (also as flags,
 * negated, named with "as"), and show/unshow (parsed, then ignored).
 * Operator precedence, lowest first: | ++ ; \ & * (cartesian), prefix ~,
 * postfix, application.  A '*' or '+' directly followed by something that
 * can start an operand is the cartesian product; otherwise it is the
 * closure.  Everything else (match, procedure, call, forall, ...) is a
 * located error: "file:line:col: error: unsupported ...".
 *
 * It does not evaluate anything; the cat compiler (catcomp.c) does.
 */
#include "models/cat/cat.h"

#include <ctype.h>
#include <string.h>

#include "common/arena.h"

enum tok {
	T_EOF, T_IDENT, T_STRING, T_TAG, T_NUM, T_UNDERSCORE,
	T_LPAR, T_RPAR, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE, T_COMMA,
	T_BAR, T_BARBAR, T_AMP, T_BSLASH, T_SEMI, T_STAR, T_PLUS, T_PLUSPLUS,
	T_QUEST, T_TILDE, T_INV, T_EQ, T_ARROW, T_OTHER,
};

struct lexer {
	struct arena *arena;   /* where names go */
	const char *path;      /* for messages */
	const char *p;         /* next character */
	int line, col;         /* of p */
	struct diag *d;        /* errors */
	/* the current token */
	enum tok t;            /* its kind */
	const char *text;      /* T_IDENT, T_STRING, T_TAG: its text */
	int tline, tcol;       /* where it starts */
	int site;              /* next approximation site number */
};

static void adv(struct lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.';
}

/* Skip blanks and comments ((* nested *) and // to the end of the line).
 * Returns 0 on an unterminated comment. */
static int skip(struct lexer *lx)
{
	for (;;) {
		while (isspace((unsigned char)*lx->p))
			adv(lx);
		if (lx->p[0] == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				adv(lx);
			continue;
		}
		if (lx->p[0] == '(' && lx->p[1] == '*') {
			int line = lx->line, col = lx->col, depth = 0;
			do {
				if (!*lx->p)
					return diag_error(lx->d, lx->path, line, col,
							  "unterminated comment");
				if (lx->p[0] == '(' && lx->p[1] == '*') {
					depth++;
					adv(lx);
				} else if (lx->p[0] == '*' && lx->p[1] == ')') {
					depth--;
					adv(lx);
				}
				adv(lx);
			} while (depth > 0);
			continue;
		}
		return 1;
	}
}

/* The identifier characters from lx->p on, as a token of kind t whose
 * text starts at b. */
static int word(struct lexer *lx, const char *b, enum tok t)
{
	while (is_ident_char((unsigned char)*lx->p))
		adv(lx);
	lx->t = t;
	lx->text = arena_strndup(lx->arena, b, (size_t)(lx->p - b));
	return 1;
}

/* Read the next token into lx.  Returns 0 on a lexical error. */
static int next(struct lexer *lx)
{
	if (!skip(lx))
		return 0;
	lx->tline = lx->line;
	lx->tcol = lx->col;
	lx->text = NULL;
	const char *s = lx->p;
	int c = (unsigned char)*s;
	if (!c) {
		lx->t = T_EOF;
		return 1;
	}
	if (is_ident_start(c) && !(c == '_' && !is_ident_char((unsigned char)s[1])))
		return word(lx, s, T_IDENT);
	if (c == '\'') {
		adv(lx);
		if (!is_ident_start((unsigned char)*lx->p))
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "a tag needs a name after the quote");
		return word(lx, lx->p, T_TAG);
	}
	if (c == '"') {
		adv(lx);
		const char *b = lx->p;
		while (*lx->p && *lx->p != '"' && *lx->p != '\n')
			adv(lx);
		if (*lx->p != '"')
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "unterminated string");
		lx->text = arena_strndup(lx->arena, b, (size_t)(lx->p - b));
		adv(lx);
		lx->t = T_STRING;
		return 1;
	}
	if (isdigit(c)) {
		while (isdigit((unsigned char)*lx->p))
			adv(lx);
		if (lx->p - s != 1 || c != '0')
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "unsupported: the number %.*s (only 0, the empty relation)",
					  (int)(lx->p - s), s);
		lx->t = T_NUM;
		return 1;
	}
	static const struct { const char *s; enum tok t; } punct[] = {
		{"^-1", T_INV}, {"++", T_PLUSPLUS}, {"||", T_BARBAR}, {"->", T_ARROW},
		{"(", T_LPAR}, {")", T_RPAR}, {"[", T_LBRACK}, {"]", T_RBRACK},
		{"{", T_LBRACE}, {"}", T_RBRACE}, {",", T_COMMA}, {"|", T_BAR},
		{"&", T_AMP}, {"\\", T_BSLASH}, {";", T_SEMI}, {"*", T_STAR},
		{"+", T_PLUS}, {"?", T_QUEST}, {"~", T_TILDE}, {"=", T_EQ},
		{"_", T_UNDERSCORE},
	};
	for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++) {
		size_t k = strlen(punct[i].s);
		if (strncmp(s, punct[i].s, k) == 0) {
			for (size_t j = 0; j < k; j++)
				adv(lx);
			lx->t = punct[i].t;
			return 1;
		}
	}
	if (c == '^')
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "unsupported: '%.2s' (only ^-1, the inverse)", s);
	return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
			  "unexpected character '%c'", c);
}

static int is_kw(const struct lexer *lx, const char *kw)
{
	return lx->t == T_IDENT && strcmp(lx->text, kw) == 0;
}

/* Words that end an expression or start a statement. */
static const char *const keywords[] = {
	"let", "rec", "and", "in", "as", "acyclic", "irreflexive", "empty",
	"flag", "include", "enum", "instructions", "with", "from", "show",
	"unshow", "try", "if", "then", "else", "fun", "match", "procedure",
	"call", "forall", "do", "end", "begin", "events", "assert", "when",
};
/* Of those, the ones the parser does not support at all. */
static const char *const unsupported_kw[] = {
	"match", "procedure", "call", "forall", "do", "end", "begin", "events",
	"assert", "when",
};

static int is_keyword(const struct lexer *lx)
{
	if (lx->t != T_IDENT)
		return 0;
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (strcmp(lx->text, keywords[i]) == 0)
			return 1;
	return 0;
}

static int unsupported_keyword(struct lexer *lx)
{
	for (size_t i = 0; i < sizeof unsupported_kw / sizeof unsupported_kw[0]; i++)
		if (is_kw(lx, unsupported_kw[i]))
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "unsupported: '%s' in a cat file", lx->text);
	return 1;
}

static int expect(struct lexer *lx, enum tok t, const char *what)
{
	if (lx->t != t) {
		const char *got = lx->t == T_EOF ? "the end of the file"
			: lx->t == T_IDENT ? arena_printf(lx->arena, "'%s'", lx->text)
			: lx->t == T_TAG ? arena_printf(lx->arena, "the tag '%s", lx->text)
			: lx->t == T_STRING ? "a string"
			: "another symbol";
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "expected %s, found %s", what, got);
	}
	return next(lx);
}

static struct cat_expr *mk(struct lexer *lx, enum cat_ek k, int line, int col)
{
	struct cat_expr *e = arena_alloc(lx->arena, sizeof *e);
	e->kind = k;
	e->line = line;
	e->col = col;
	e->site = -1;
	return e;
}

static struct cat_expr *mk2(struct lexer *lx, enum cat_ek k, struct cat_expr *a,
			    struct cat_expr *b)
{
	struct cat_expr *e = mk(lx, k, a->line, a->col);
	e->a = a;
	e->b = b;
	return e;
}

static struct cat_expr *expr(struct lexer *lx);
static int bindings(struct lexer *lx, struct cat_binding **out, int *n);

/* Can the current token start an operand (for '*' and '+' as binary)? */
static int starts_operand(const struct lexer *lx)
{
	switch (lx->t) {
	case T_IDENT: return !is_keyword(lx);
	case T_LPAR: case T_LBRACK: case T_LBRACE: case T_TILDE:
	case T_UNDERSCORE: case T_NUM: case T_TAG:
		return 1;
	default: return 0;
	}
}

/* A comma-separated list up to close (the opening token is consumed). */
static int expr_list(struct lexer *lx, enum tok close, const char *what,
		     struct cat_expr ***items, int *n)
{
	int cap = 0;
	*items = NULL;
	*n = 0;
	if (lx->t == close)
		return next(lx);
	for (;;) {
		struct cat_expr *x = expr(lx);
		if (!x)
			return 0;
		if (*n == cap) {
			*items = arena_grow(lx->arena, *items, sizeof **items, (size_t)cap,
					    (size_t)(cap ? 2 * cap : 4));
			cap = cap ? 2 * cap : 4;
		}
		(*items)[(*n)++] = x;
		if (lx->t == T_COMMA) {
			if (!next(lx))
				return 0;
			continue;
		}
		return expect(lx, close, what);
	}
}

/* { e, ... } or ( e, ... ) after its opening token: an expression of
 * kind k with the items up to end (what: the error message). */
static struct cat_expr *list_atom(struct lexer *lx, enum cat_ek k, enum tok end,
				  const char *what, int line, int col)
{
	if (!next(lx))
		return NULL;
	struct cat_expr *e = mk(lx, k, line, col);
	if (!expr_list(lx, end, what, &e->items, &e->nitems))
		return NULL;
	return e;
}

static struct cat_expr *atom(struct lexer *lx)
{
	int line = lx->tline, col = lx->tcol;
	struct cat_expr *e;
	if (!unsupported_keyword(lx))
		return NULL;
	switch (lx->t) {
	case T_IDENT:
		if (is_keyword(lx)) {
			diag_error(lx->d, lx->path, line, col,
				   "expected an expression, found the keyword '%s'", lx->text);
			return NULL;
		}
		e = mk(lx, CE_VAR, line, col);
		e->name = lx->text;
		return next(lx) ? e : NULL;
	case T_TAG:
		e = mk(lx, CE_TAG, line, col);
		e->name = lx->text;
		return next(lx) ? e : NULL;
	case T_STRING:
		e = mk(lx, CE_STRING, line, col);
		e->name = lx->text;
		return next(lx) ? e : NULL;
	case T_NUM:
		e = mk(lx, CE_EMPTY, line, col);
		return next(lx) ? e : NULL;
	case T_UNDERSCORE:
		e = mk(lx, CE_UNIV, line, col);
		return next(lx) ? e : NULL;
	case T_LBRACK:
		if (!next(lx))
			return NULL;
		e = mk(lx, CE_BRACKET, line, col);
		if (!(e->a = expr(lx)) || !expect(lx, T_RBRACK, "']'"))
			return NULL;
		return e;
	case T_LBRACE:
		if (!(e = list_atom(lx, CE_SETLIT, T_RBRACE, "',' or '}'", line, col)))
			return NULL;
		if (e->nitems == 0)
			e->kind = CE_EMPTYSET;
		return e;
	case T_LPAR:
		if (!(e = list_atom(lx, CE_TUPLE, T_RPAR, "',' or ')'", line, col)))
			return NULL;
		if (e->nitems == 1)
			return e->items[0];
		return e;
	case T_EOF:
		diag_error(lx->d, lx->path, line, col,
			   "expected an expression, found the end of the file");
		return NULL;
	default:
		diag_error(lx->d, lx->path, line, col, "expected an expression");
		return NULL;
	}
}

/* Application by juxtaposition: f x y, f(x, y). */
static struct cat_expr *app(struct lexer *lx)
{
	struct cat_expr *e = atom(lx);
	while (e && (lx->t == T_LPAR || lx->t == T_LBRACE ||
		     (lx->t == T_IDENT && !is_keyword(lx)))) {
		struct cat_expr *arg = atom(lx);
		if (!arg)
			return NULL;
		e = mk2(lx, CE_APP, e, arg);
	}
	return e;
}

static struct cat_expr *postfix(struct lexer *lx)
{
	struct cat_expr *e = app(lx);
	for (;;) {
		if (!e)
			return NULL;
		enum cat_ek k;
		switch (lx->t) {
		case T_INV: k = CE_INV; break;
		case T_QUEST: k = CE_OPT; break;
		case T_STAR: k = CE_STAR; break;
		case T_PLUS: k = CE_PLUS; break;
		default: return e;
		}
		const char *save_p = lx->p;
		int sl = lx->line, sc = lx->col, tl = lx->tline, tc = lx->tcol;
		enum tok st = lx->t;
		if (!next(lx))
			return NULL;
		if ((k == CE_STAR || k == CE_PLUS) && starts_operand(lx)) {
			if (k == CE_PLUS) {
				diag_error(lx->d, lx->path, tl, tc,
					   "unsupported: '+' between two operands (use '|' or '++')");
				return NULL;
			}
			/* a cartesian product: give the '*' back */
			lx->p = save_p;
			lx->line = sl;
			lx->col = sc;
			lx->tline = tl;
			lx->tcol = tc;
			lx->t = st;
			return e;
		}
		e = mk2(lx, k, e, NULL);
		if (k == CE_STAR || k == CE_PLUS)
			e->site = lx->site++;
	}
}

static struct cat_expr *unary(struct lexer *lx)
{
	if (lx->t == T_TILDE) {
		int line = lx->tline, col = lx->tcol;
		if (!next(lx))
			return NULL;
		struct cat_expr *a = unary(lx);
		if (!a)
			return NULL;
		struct cat_expr *e = mk(lx, CE_COMPL, line, col);
		e->a = a;
		return e;
	}
	return postfix(lx);
}

static struct cat_expr *cross(struct lexer *lx)
{
	struct cat_expr *e = unary(lx);
	if (e && lx->t == T_STAR) {
		if (!next(lx))
			return NULL;
		struct cat_expr *b = unary(lx);
		if (!b)
			return NULL;
		e = mk2(lx, CE_CROSS, e, b);
	}
	return e;
}

/* One left-associative level: sub (op sub)*. */
static struct cat_expr *level(struct lexer *lx, int lv)
{
	static const struct { enum tok t; enum cat_ek k; } ops[] = {
		{T_BAR, CE_UNION}, {T_PLUSPLUS, CE_ADD}, {T_SEMI, CE_SEQ},
		{T_BSLASH, CE_DIFF}, {T_AMP, CE_INTER},
	};
	if (lv == (int)(sizeof ops / sizeof ops[0]))
		return cross(lx);
	struct cat_expr *e = level(lx, lv + 1);
	while (e && lx->t == ops[lv].t) {
		if (!next(lx))
			return NULL;
		struct cat_expr *b = level(lx, lv + 1);
		if (!b)
			return NULL;
		e = mk2(lx, ops[lv].k, e, b);
	}
	return e;
}

/* One parameter name into out[*n] (at most cap of them) and the token
 * after it, else the error message what. */
static int param(struct lexer *lx, const char **out, int *n, int cap, const char *what)
{
	if (lx->t != T_IDENT || is_keyword(lx))
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol, "%s", what);
	if (*n == cap)
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "unsupported: more than %d parameters", cap);
	out[(*n)++] = lx->text;
	return next(lx);
}

/* Parameters of a function: (a, b), (a), or curried names up to '='. */
static int params(struct lexer *lx, const char ***out, int *n, enum tok end)
{
	int cap = 8;
	*out = arena_alloc(lx->arena, sizeof **out * (size_t)cap);
	*n = 0;
	if (lx->t == T_LPAR) {
		if (!next(lx))
			return 0;
		while (lx->t != T_RPAR) {
			if (!param(lx, *out, n, cap, "expected a parameter name"))
				return 0;
			if (lx->t == T_COMMA && !next(lx))
				return 0;
		}
		return next(lx);
	}
	while (lx->t != end) {
		if (!param(lx, *out, n, cap, end == T_EQ ? "expected a parameter name or '='"
						   : "expected a parameter name or '->'"))
			return 0;
	}
	return 1;
}

/* After "let": an optional "rec" (a new approximation site into *site),
 * then the bindings. */
static int let_head(struct lexer *lx, int *rec, int *site,
		    struct cat_binding **binds, int *nbinds)
{
	if (!next(lx))
		return 0;
	if (is_kw(lx, "rec")) {
		*rec = 1;
		*site = lx->site++;
		if (!next(lx))
			return 0;
	}
	return bindings(lx, binds, nbinds);
}

/* The keyword kw (else the error message what), then an expression into
 * *out. */
static int kw_expr(struct lexer *lx, const char *kw, const char *what,
		   struct cat_expr **out)
{
	if (!is_kw(lx, kw))
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol, "%s", what);
	return next(lx) && (*out = expr(lx)) != NULL;
}

/* if "variant" then a else b, after "if" */
static struct cat_expr *if_expr(struct lexer *lx, int line, int col)
{
	struct cat_expr *e = mk(lx, CE_IF, line, col);
	if (!next(lx))
		return NULL;
	if (lx->t != T_STRING) {
		diag_error(lx->d, lx->path, lx->tline, lx->tcol,
			   "unsupported: an if condition other than a variant name in quotes");
		return NULL;
	}
	e->name = lx->text;
	if (!next(lx) || !kw_expr(lx, "then", "expected 'then'", &e->a) ||
	    !kw_expr(lx, "else", "expected 'else'", &e->b))
		return NULL;
	return e;
}

static struct cat_expr *expr(struct lexer *lx)
{
	int line = lx->tline, col = lx->tcol;
	if (!unsupported_keyword(lx))
		return NULL;
	if (is_kw(lx, "let")) {
		struct cat_expr *e = mk(lx, CE_LET, line, col);
		if (!let_head(lx, &e->rec, &e->site, &e->binds, &e->nbinds) ||
		    !kw_expr(lx, "in", "expected 'in' after the definitions of a let expression",
			     &e->a))
			return NULL;
		return e;
	}
	if (is_kw(lx, "fun")) {
		struct cat_expr *e = mk(lx, CE_FUN, line, col);
		if (!next(lx) || !params(lx, &e->params, &e->nparams, T_ARROW) ||
		    !expect(lx, T_ARROW, "'->'") || !(e->a = expr(lx)))
			return NULL;
		return e;
	}
	if (is_kw(lx, "try")) {
		struct cat_expr *e = mk(lx, CE_TRY, line, col);
		if (!next(lx) || !(e->a = expr(lx)) ||
		    !kw_expr(lx, "with", "expected 'with' after 'try' and its expression", &e->b))
			return NULL;
		return e;
	}
	if (is_kw(lx, "if"))
		return if_expr(lx, line, col);
	return level(lx, 0);
}

/* name [params] = expr (and name ... = expr)* */
static int bindings(struct lexer *lx, struct cat_binding **out, int *n)
{
	int cap = 0;
	*out = NULL;
	*n = 0;
	for (;;) {
		if (lx->t != T_IDENT || is_keyword(lx))
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "expected the name being defined");
		if (*n == cap) {
			*out = arena_grow(lx->arena, *out, sizeof **out, (size_t)cap,
					  (size_t)(cap ? 2 * cap : 4));
			cap = cap ? 2 * cap : 4;
		}
		struct cat_binding *b = &(*out)[(*n)++];
		b->name = lx->text;
		b->line = lx->tline;
		b->col = lx->tcol;
		if (!next(lx))
			return 0;
		struct cat_expr *fun = NULL;
		if (lx->t != T_EQ) {
			fun = mk(lx, CE_FUN, b->line, b->col);
			if (!params(lx, &fun->params, &fun->nparams, T_EQ))
				return 0;
		}
		if (!expect(lx, T_EQ, "'='"))
			return 0;
		struct cat_expr *e = expr(lx);
		if (!e)
			return 0;
		if (fun) {
			fun->a = e;
			e = fun;
		}
		b->e = e;
		if (!is_kw(lx, "and"))
			return 1;
		if (!next(lx))
			return 0;
	}
}

/* A name (not a keyword) into *name and the token after it, else the
 * error message what. */
static int name_tok(struct lexer *lx, const char **name, const char *what)
{
	if (lx->t != T_IDENT || is_keyword(lx))
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol, "%s", what);
	*name = lx->text;
	return next(lx);
}

/* A token of kind t: its text into *text and the token after it, else
 * the error message what. */
static int text_tok(struct lexer *lx, enum tok t, const char **text, const char *what)
{
	if (lx->t != t)
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol, "%s", what);
	*text = lx->text;
	return next(lx);
}

/* enum NAME = 'tag || 'tag ..., after "enum" */
static int stmt_enum(struct lexer *lx, struct cat_stmt *s)
{
	if (!name_tok(lx, &s->name, "expected the name of the enum") ||
	    !expect(lx, T_EQ, "'='"))
		return 0;
	int cap = 0;
	for (;;) {
		if (lx->t != T_TAG)
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "expected a tag ('name) in the enum");
		if (s->ntags == cap) {
			s->tags = arena_grow(lx->arena, s->tags, sizeof *s->tags,
					     (size_t)cap, (size_t)(cap ? 2 * cap : 8));
			cap = cap ? 2 * cap : 8;
		}
		s->tags[s->ntags++] = lx->text;
		if (!next(lx))
			return 0;
		if (lx->t != T_BARBAR)
			return 1;
		if (!next(lx))
			return 0;
	}
}

/* show e [as name], ... (read and ignored), after "show" or "unshow" */
static int stmt_show(struct lexer *lx)
{
	for (;;) {
		if (!expr(lx))
			return 0;
		if (is_kw(lx, "as")) {
			if (!next(lx) || !expect(lx, T_IDENT, "a name after 'as'"))
				return 0;
		}
		if (lx->t != T_COMMA)
			return 1;
		if (!next(lx))
			return 0;
	}
}

/* [flag] [~] acyclic|irreflexive|empty e [as name] */
static int stmt_check(struct lexer *lx, struct cat_stmt *s)
{
	s->kind = CS_CHECK;
	if (is_kw(lx, "flag")) {
		s->flag = 1;
		if (!next(lx))
			return 0;
	}
	if (lx->t == T_TILDE) {
		s->negated = 1;
		if (!next(lx))
			return 0;
	}
	if (is_kw(lx, "acyclic"))
		s->check = CC_ACYCLIC;
	else if (is_kw(lx, "irreflexive"))
		s->check = CC_IRREFLEXIVE;
	else if (is_kw(lx, "empty"))
		s->check = CC_EMPTY;
	else if (s->flag || s->negated)
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "expected acyclic, irreflexive or empty");
	else if (lx->t == T_IDENT)
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "unsupported: a statement starting with '%s'", lx->text);
	else
		return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
				  "expected a statement (let, include, acyclic, flag, ...)");
	if (!next(lx) || !(s->e = expr(lx)))
		return 0;
	if (is_kw(lx, "as") &&
	    (!next(lx) || !text_tok(lx, T_IDENT, &s->name, "expected a name after 'as'")))
		return 0;
	if (s->flag && !s->name)
		return diag_error(lx->d, lx->path, s->line, s->col,
				  "a flag needs a name ('as NAME')");
	return 1;
}

static int stmt(struct lexer *lx, struct cat_stmt *s)
{
	memset(s, 0, sizeof *s);
	s->line = lx->tline;
	s->col = lx->tcol;
	s->file = lx->path;
	s->site = -1;
	if (!unsupported_keyword(lx))
		return 0;
	if (is_kw(lx, "let")) {
		s->kind = CS_LET;
		if (!let_head(lx, &s->rec, &s->site, &s->binds, &s->nbinds))
			return 0;
		if (is_kw(lx, "in"))
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "unsupported: 'let ... in' as a statement");
		return 1;
	}
	if (is_kw(lx, "include")) {
		s->kind = CS_INCLUDE;
		return next(lx) && text_tok(lx, T_STRING, &s->name,
					    "expected a file name in quotes after 'include'");
	}
	if (is_kw(lx, "enum")) {
		s->kind = CS_ENUM;
		return next(lx) && stmt_enum(lx, s);
	}
	if (is_kw(lx, "instructions")) {
		s->kind = CS_INSTR;
		if (!next(lx) ||
		    !name_tok(lx, &s->name, "expected an instruction class after 'instructions'") ||
		    !expect(lx, T_LBRACK, "'['") || !(s->e = expr(lx)))
			return 0;
		return expect(lx, T_RBRACK, "']'");
	}
	if (is_kw(lx, "with")) {
		s->kind = CS_WITH;
		if (!next(lx) || !name_tok(lx, &s->name, "expected a name after 'with'"))
			return 0;
		if (!is_kw(lx, "from"))
			return diag_error(lx->d, lx->path, lx->tline, lx->tcol,
					  "expected 'from' in 'with NAME from EXPR'");
		return next(lx) && (s->e = expr(lx)) != NULL;
	}
	if (is_kw(lx, "show") || is_kw(lx, "unshow")) {
		s->kind = CS_SHOW;
		return next(lx) && stmt_show(lx);
	}
	return stmt_check(lx, s);
}

int cat_parse(struct arena *arena, const char *path, const char *text,
	      struct cat_file *f, int *site, struct diag *d)
{
	struct lexer lx = {.arena = arena, .path = path, .p = text, .line = 1,
			   .col = 1, .d = d, .site = *site};
	memset(f, 0, sizeof *f);
	f->path = path;
	if (!next(&lx))
		return 0;
	if (lx.t == T_STRING) { /* the model's title */
		f->title = lx.text;
		if (!next(&lx))
			return 0;
	}
	int cap = 0;
	while (lx.t != T_EOF) {
		if (f->nstmts == cap) {
			f->stmts = arena_grow(arena, f->stmts, sizeof *f->stmts, (size_t)cap,
					      (size_t)(cap ? 2 * cap : 32));
			cap = cap ? 2 * cap : 32;
		}
		if (!stmt(&lx, &f->stmts[f->nstmts]))
			return 0;
		f->nstmts++;
	}
	*site = lx.site;
	return 1;
}
