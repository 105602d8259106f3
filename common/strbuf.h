/*
 * strbuf.h - a growing, NUL-terminated text buffer in malloc'd memory (the
 * virtual C file, printed conditions).  The owner frees b->p.
 */
#ifndef LKMMC_STRBUF_H
#define LKMMC_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *p;       /* contents, NUL-terminated once anything is put */
	size_t len;    /* bytes used, without the NUL */
	size_t cap;    /* bytes allocated */
};

/* Append n bytes of s. */
void strbuf_put(struct strbuf *b, const char *s, size_t n);
/* Append the string s. */
void strbuf_str(struct strbuf *b, const char *s);

#endif
