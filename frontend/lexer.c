/*
 * lexer.c - tokens of the litmus-level syntax (header, init block, process
 * headers, final clauses); see lexer.h.
 *
 * It knows nothing of the grammar; C bodies are handled by cscan.c, because
 * "(*" is a comment here but a dereference in C.
 */
#include "lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "fe.h"

void lex_init(struct lexer *lx, struct fe *fe, size_t off, size_t end)
{
	lx->fe = fe;
	lx->off = off;
	lx->end = end;
	lx->have_peek = 0;
}

int lex_skip(struct lexer *lx)
{
	const char *t = lx->fe->text;
	while (lx->off < lx->end) {
		char c = t[lx->off];
		char n = lx->off + 1 < lx->end ? t[lx->off + 1] : '\0';
		if (isspace((unsigned char)c)) {
			lx->off++;
		} else if (c == '(' && n == '*') {
			size_t start = lx->off;
			int depth = 0;
			while (lx->off < lx->end) {
				if (t[lx->off] == '(' && lx->off + 1 < lx->end &&
				    t[lx->off + 1] == '*') {
					depth++;
					lx->off += 2;
				} else if (t[lx->off] == '*' &&
					   lx->off + 1 < lx->end &&
					   t[lx->off + 1] == ')') {
					lx->off += 2;
					if (--depth == 0)
						break;
				} else {
					lx->off++;
				}
			}
			if (depth > 0)
				return fe_error(lx->fe, start,
						"unterminated comment '(*' "
						"(missing '*)')");
		} else if (c == '/' && n == '*') {
			size_t start = lx->off;
			const char *e = NULL;
			for (size_t i = lx->off + 2; i + 1 < lx->end; i++)
				if (t[i] == '*' && t[i + 1] == '/') {
					e = t + i;
					break;
				}
			if (!e)
				return fe_error(lx->fe, start,
						"unterminated comment '/*' "
						"(missing '*/')");
			lx->off = (size_t)(e - t) + 2;
		} else if (c == '/' && n == '/') {
			while (lx->off < lx->end && t[lx->off] != '\n')
				lx->off++;
		} else {
			break;
		}
	}
	return 1;
}

static const char *const puncts2[] = { "==", "!=", "/\\", "\\/", "=>", NULL };
static const char puncts1[] = "{}()[];:,*&~=-!+<>.";

struct token lex_next(struct lexer *lx)
{
	if (lx->have_peek) {
		lx->have_peek = 0;
		return lx->peeked;
	}
	struct token tok = { T_ERROR, lx->off, 0, 0 };
	if (!lex_skip(lx))
		return tok;
	const char *t = lx->fe->text;
	tok.off = lx->off;
	if (lx->off >= lx->end) {
		tok.kind = T_EOF;
		return tok;
	}
	char c = t[lx->off];
	if (isalpha((unsigned char)c) || c == '_') {
		size_t i = lx->off;
		while (i < lx->end && (isalnum((unsigned char)t[i]) || t[i] == '_'))
			i++;
		/* Fields and elements of shared objects: "s.f", "a[2]",
		 * written without spaces. */
		for (;;) {
			size_t j = i + 1;
			if (i + 1 < lx->end && t[i] == '.' &&
			    (isalpha((unsigned char)t[j]) || t[j] == '_')) {
				while (j < lx->end && (isalnum((unsigned char)t[j]) ||
						       t[j] == '_'))
					j++;
			} else if (i + 2 < lx->end && t[i] == '[' &&
				   isdigit((unsigned char)t[j])) {
				while (j < lx->end && isdigit((unsigned char)t[j]))
					j++;
				if (j >= lx->end || t[j] != ']')
					break;
				j++;
			} else {
				break;
			}
			i = j;
		}
		tok.kind = T_NAME;
		tok.len = i - lx->off;
	} else if (isdigit((unsigned char)c)) {
		size_t i = lx->off;
		while (i < lx->end && (isalnum((unsigned char)t[i]) || t[i] == '_'))
			i++;
		tok.kind = T_NUM;
		tok.len = i - lx->off;
		char buf[64];
		if (tok.len >= sizeof buf) {
			fe_error(lx->fe, tok.off, "number too long");
			tok.kind = T_ERROR;
			return tok;
		}
		memcpy(buf, t + lx->off, tok.len);
		buf[tok.len] = '\0';
		char *endp;
		errno = 0;
		tok.num = strtol(buf, &endp, 0);
		if (*endp || errno) {
			fe_error(lx->fe, tok.off, "bad number '%s'", buf);
			tok.kind = T_ERROR;
			return tok;
		}
	} else if (c == '"') {
		size_t i = lx->off + 1;
		while (i < lx->end && t[i] != '"')
			i++;
		if (i >= lx->end) {
			fe_error(lx->fe, tok.off,
				 "unterminated string (missing '\"')");
			return tok;
		}
		tok.kind = T_STRING;
		tok.len = i + 1 - lx->off;
	} else {
		for (int k = 0; puncts2[k]; k++)
			if (lx->off + 1 < lx->end &&
			    memcmp(t + lx->off, puncts2[k], 2) == 0) {
				tok.kind = T_PUNCT;
				tok.len = 2;
				break;
			}
		if (tok.kind != T_PUNCT && strchr(puncts1, c)) {
			tok.kind = T_PUNCT;
			tok.len = 1;
		}
		if (tok.kind != T_PUNCT) {
			fe_error(lx->fe, tok.off, "unexpected character '%c'",
				 isprint((unsigned char)c) ? c : '?');
			return tok;
		}
	}
	lx->off += tok.len;
	return tok;
}

struct token lex_peek(struct lexer *lx)
{
	if (!lx->have_peek) {
		lx->peeked = lex_next(lx);
		lx->have_peek = 1;
	}
	return lx->peeked;
}

int tok_is(const struct lexer *lx, struct token tok, const char *s)
{
	if (tok.kind != T_PUNCT && tok.kind != T_NAME)
		return 0;
	return fe_word_is(lx->fe->text + tok.off, tok.len, s);
}

char *tok_str(const struct lexer *lx, struct token tok)
{
	return arena_strndup(lx->fe->arena, lx->fe->text + tok.off, tok.len);
}

size_t lex_test_name(struct lexer *lx, size_t *start)
{
	const char *t = lx->fe->text;
	lx->have_peek = 0;
	while (lx->off < lx->end && (t[lx->off] == ' ' || t[lx->off] == '\t'))
		lx->off++;
	*start = lx->off;
	while (lx->off < lx->end) {
		char c = t[lx->off];
		if (isalnum((unsigned char)c) || strchr("_/.-+[]", c))
			lx->off++;
		else
			break;
	}
	return lx->off - *start;
}
