/*
 * lexer.h - tokens of the litmus-level syntax: the header, the init block,
 * process headers and the final clauses.  Process bodies are C and are not
 * lexed here (see cscan.h).
 */
#ifndef LKMMC_LEXER_H
#define LKMMC_LEXER_H

#include <stddef.h>

struct fe;

enum tok_kind {
	T_EOF,    /* end of the range */
	T_NAME,   /* identifier: letters, digits, '_' */
	T_NUM,    /* decimal or 0x hex digits (no sign) */
	T_STRING, /* "..." */
	T_PUNCT,  /* one of { } ( ) [ ] ; : , * & ~ = == != /\ \/ => - ! + */
	T_ERROR,  /* lexing failed; the diag says why */
};

struct token {
	enum tok_kind kind; /* what it is */
	size_t off;         /* offset of its first byte in the litmus text */
	size_t len;         /* its length in bytes */
	long num;           /* T_NUM: the value */
};

/* A lexer over text[off, end) of the parse fe. */
struct lexer {
	struct fe *fe;  /* text, errors */
	size_t off;     /* next byte to read */
	size_t end;     /* end of the range */
	struct token peeked; /* lookahead, valid when have_peek */
	int have_peek;  /* 1 when peeked holds the next token */
};

void lex_init(struct lexer *lx, struct fe *fe, size_t off, size_t end);
/* Skip white space and comments ((* *) nested, slash-star, //).  Returns 0
 * and records an error on an unterminated comment. */
int lex_skip(struct lexer *lx);
struct token lex_next(struct lexer *lx);
struct token lex_peek(struct lexer *lx);
/* Is tok the punctuation / name s? */
int tok_is(const struct lexer *lx, struct token tok, const char *s);
/* A copy of the token's text. */
char *tok_str(const struct lexer *lx, struct token tok);
/* Read the rest of a test name (letters, digits, _ / . - + [ ]) from the
 * current position; returns its length (0 if none). */
size_t lex_test_name(struct lexer *lx, size_t *start);

#endif
