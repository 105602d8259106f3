/*
 * strbuf.c - growing text buffer; see strbuf.h.  It knows nothing of
 * litmus tests.
 */
#include "strbuf.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

void strbuf_put(struct strbuf *b, const char *s, size_t n)
{
	XGROW(b->p, b->cap, b->len + n + 1, 256);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void strbuf_str(struct strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}
