/*
 * cscan.h - a light scanner over C text: skips C comments, strings and
 * character literals, matches braces, and splits C into tokens.  Used to
 * find where a process body ends, to find the identifiers a body uses
 * (implicit registers) and to read the operator of an expression clang
 * kept with a type error (a RecoveryExpr has no operator in the AST).  It
 * is not a C parser.
 */
#ifndef LKMMC_CSCAN_H
#define LKMMC_CSCAN_H

#include <stddef.h>

enum ctok_kind {
	CT_EOF,    /* end of the range */
	CT_IDENT,  /* identifier or keyword */
	CT_NUM,    /* number (pp-number) */
	CT_STR,    /* string or character literal */
	CT_PUNCT,  /* operator or punctuation, longest match */
	CT_HASH,   /* '#' (a preprocessor directive) */
	CT_BAD,    /* unterminated comment / literal */
};

struct ctok {
	enum ctok_kind kind; /* what it is */
	size_t off;          /* offset of its first byte */
	size_t len;          /* its length */
};

/* First offset at or after off that is not white space or a C comment
 * (or end).  Sets *bad to the comment start when a comment is unterminated. */
size_t cscan_skip(const char *t, size_t off, size_t end, size_t *bad);
/* The token at or after off. */
struct ctok cscan_token(const char *t, size_t off, size_t end);
/* Offset of the '}' matching the '{' at open: returns 1 and sets *close.
 * Otherwise sets *bad_off to where it gave up and returns 0 (the unmatched
 * '{', or an unterminated comment or literal) or -1 (braces nested more
 * than 256 deep). */
int cscan_match_brace(const char *t, size_t open, size_t end, size_t *close,
		      size_t *bad_off);

#endif
