/*
 * xalloc.c - allocation that aborts on out-of-memory; see xalloc.h.
 */
#include "xalloc.h"
#include "memlimit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
	if (!p)
		memlimit_out_of_memory(); /* the limited check's error, or abort */
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t count, size_t size)
{
	return check(calloc(count ? count : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

void *xmalloc_array(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return check(NULL);
	return xmalloc(count * size);
}

void *xrealloc_array(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return check(NULL);
	return xrealloc(p, count * size);
}

size_t xgrow_cap(size_t cap, size_t need, size_t first)
{
	if (need <= cap)
		return cap;
	size_t c = cap ? cap : (first ? first : 1);
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : 2 * c;
	return c;
}
