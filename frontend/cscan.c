/*
 * cscan.c - light C scanner (comments, literals, braces, tokens); see
 * cscan.h.  It does not parse C: libclang does (cparse.c).
 */
#include "cscan.h"

#include <ctype.h>
#include <string.h>

size_t cscan_skip(const char *t, size_t off, size_t end, size_t *bad)
{
	while (off < end) {
		char c = t[off];
		char n = off + 1 < end ? t[off + 1] : '\0';
		if (isspace((unsigned char)c) || (c == '\\' && n == '\n')) {
			off += c == '\\' ? 2 : 1;
		} else if (c == '/' && n == '/') {
			while (off < end && t[off] != '\n')
				off++;
		} else if (c == '/' && n == '*') {
			size_t i = off + 2;
			while (i + 1 < end && !(t[i] == '*' && t[i + 1] == '/'))
				i++;
			if (i + 1 >= end) {
				if (bad)
					*bad = off;
				return end;
			}
			off = i + 2;
		} else {
			break;
		}
	}
	return off;
}

/* Operators, longest first. */
static const char *const ops[] = {
	"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
	"!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", NULL,
};

struct ctok cscan_token(const char *t, size_t off, size_t end)
{
	struct ctok tok = { CT_EOF, off, 0 };
	size_t bad = (size_t)-1;
	off = cscan_skip(t, off, end, &bad);
	tok.off = off;
	if (bad != (size_t)-1) {
		tok.kind = CT_BAD;
		tok.off = bad;
		return tok;
	}
	if (off >= end)
		return tok;
	char c = t[off];
	size_t i = off;
	if (isalpha((unsigned char)c) || c == '_') {
		while (i < end && (isalnum((unsigned char)t[i]) || t[i] == '_'))
			i++;
		tok.kind = CT_IDENT;
	} else if (isdigit((unsigned char)c) ||
		   (c == '.' && i + 1 < end && isdigit((unsigned char)t[i + 1]))) {
		while (i < end && (isalnum((unsigned char)t[i]) || t[i] == '_' ||
				   t[i] == '.'))
			i++;
		tok.kind = CT_NUM;
	} else if (c == '"' || c == '\'') {
		i++;
		while (i < end && t[i] != c && t[i] != '\n') {
			if (t[i] == '\\')
				i++;
			i++;
		}
		if (i >= end || t[i] != c) {
			tok.kind = CT_BAD;
			return tok;
		}
		i++;
		tok.kind = CT_STR;
	} else if (c == '#') {
		i++;
		tok.kind = CT_HASH;
	} else {
		tok.kind = CT_PUNCT;
		i++;
		for (int k = 0; ops[k]; k++) {
			size_t n = strlen(ops[k]);
			if (off + n <= end && memcmp(t + off, ops[k], n) == 0) {
				i = off + n;
				break;
			}
		}
	}
	tok.len = i - off;
	return tok;
}

int cscan_match_brace(const char *t, size_t open, size_t end, size_t *close,
		      size_t *bad_off)
{
	/* Stack of open braces, to report the innermost unmatched one. */
	size_t stack[256];
	int depth = 0;
	size_t off = open;
	for (;;) {
		struct ctok tok = cscan_token(t, off, end);
		if (tok.kind == CT_EOF || tok.kind == CT_BAD) {
			*bad_off = tok.kind == CT_BAD ? tok.off
				 : depth > 0 ? stack[depth - 1] : open;
			return 0;
		}
		off = tok.off + tok.len;
		if (tok.kind != CT_PUNCT || tok.len != 1)
			continue;
		if (t[tok.off] == '{') {
			if (depth == (int)(sizeof stack / sizeof stack[0])) {
				*bad_off = tok.off;
				return -1;
			}
			stack[depth++] = tok.off;
		} else if (t[tok.off] == '}') {
			if (--depth == 0) {
				*close = tok.off;
				return 1;
			}
		}
	}
}
