/*
 * pattern.c - closure, cycle test and transitive reduction of bit-matrix
 * relation shapes; see pattern.h.  Rows are bitsets, so the closure of n
 * events costs about n^3/64 word operations.
 */
#include "encoder/pattern.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

struct pattern *pattern_new(int n)
{
	struct pattern *p = xmalloc(sizeof *p);
	p->n = n;
	p->words = (n + 63) / 64;
	p->bits = xcalloc((size_t)n * (size_t)p->words + 1, sizeof(uint64_t));
	return p;
}

void pattern_free(struct pattern *p)
{
	if (!p)
		return;
	free(p->bits);
	free(p);
}

#define row pattern_row

/* dst |= src over one row. */
static void row_or(uint64_t *dst, const uint64_t *src, int words)
{
	for (int w = 0; w < words; w++)
		dst[w] |= src[w];
}

void pattern_close(struct pattern *p)
{
	for (int k = 0; k < p->n; k++) {
		const uint64_t *rk = row(p, k);
		for (int a = 0; a < p->n; a++)
			if (a != k && pattern_get(p, a, k))
				row_or(row(p, a), rk, p->words);
	}
}

struct pattern *pattern_plus(const struct pattern *p)
{
	struct pattern *c = pattern_new(p->n);
	memcpy(c->bits, p->bits, sizeof(uint64_t) * (size_t)p->n * (size_t)p->words);
	pattern_close(c);
	return c;
}

int pattern_has_cycle(const struct pattern *p)
{
	struct pattern *c = pattern_plus(p);
	int cyclic = 0;
	for (int a = 0; a < p->n && !cyclic; a++)
		cyclic = pattern_get(c, a, a);
	pattern_free(c);
	return cyclic;
}

struct pattern *pattern_reduction(const struct pattern *p)
{
	int n = p->n, words = p->words;
	struct pattern *plus = pattern_plus(p);
	for (int a = 0; a < n; a++)
		if (pattern_get(plus, a, a)) {
			pattern_free(plus);
			return NULL;
		}
	/* (a, b) is redundant when some successor c of a reaches b. */
	struct pattern *red = pattern_new(n);
	uint64_t *beyond = xmalloc(sizeof(uint64_t) * (size_t)(words ? words : 1));
	for (int a = 0; a < n; a++) {
		memset(beyond, 0, sizeof(uint64_t) * (size_t)words);
		for (int c = 0; c < n; c++)
			if (pattern_get(p, a, c))
				row_or(beyond, row(plus, c), words);
		const uint64_t *ra = row(p, a);
		uint64_t *out = row(red, a);
		for (int w = 0; w < words; w++)
			out[w] = ra[w] & ~beyond[w];
	}
	free(beyond);
	pattern_free(plus);
	return red;
}
