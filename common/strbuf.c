/*
 * strbuf.c - growing text buffer; see strbuf.h.  It knows nothing of
 * litmus tests.
 */
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

void strbuf_put(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (b->len + n + 1 > cap)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void strbuf_str(struct strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}
