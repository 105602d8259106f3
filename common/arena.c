/*
 * arena.c - bump allocator in chunks; see arena.h.
 */
#include "arena.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chunk {
	struct chunk *next; /* previously filled chunk */
	size_t size;        /* usable bytes in data */
	size_t used;        /* bytes handed out */
	max_align_t data[]; /* the memory */
};

struct arena {
	struct chunk *head; /* chunk being filled, NULL before the first alloc */
	size_t held;        /* bytes of all its chunks (for the memory limit) */
};

struct arena *arena_new(void)
{
	return xcalloc(1, sizeof(struct arena));
}

void arena_free(struct arena *arena)
{
	if (!arena)
		return;
	struct chunk *c = arena->head;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	free(arena);
}

void *arena_alloc(struct arena *arena, size_t size)
{
	const size_t align = sizeof(max_align_t);
	size = (size + align - 1) / align * align;
	struct chunk *c = arena->head;
	if (size > 65536) {
		/* A block of its own, behind the chunk being filled: calloc of
		 * a large block maps fresh zero pages, so the parts never
		 * written (most of a sparse relation matrix) cost no memory. */
		struct chunk *big = xcalloc(1, sizeof *big + size);
		big->size = big->used = size;
		arena->held += size;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			arena->head = big;
		}
		return big->data;
	}
	if (!c || c->size - c->used < size) {
		size_t want = size > 65536 ? size : 65536;
		c = xmalloc(sizeof *c + want);
		c->next = arena->head;
		c->size = want;
		arena->held += want;
		c->used = 0;
		arena->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

size_t arena_bytes(const struct arena *arena)
{
	return arena->held;
}

char *arena_strndup(struct arena *arena, const char *s, size_t n)
{
	char *p = arena_alloc(arena, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *arena, const char *s)
{
	return arena_strndup(arena, s, strlen(s));
}

char *arena_printf(struct arena *arena, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(arena, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *arena_grow(struct arena *arena, void *old, size_t size, size_t count,
		 size_t new_count)
{
	void *p = arena_alloc(arena, size * new_count);
	if (old && count)
		memcpy(p, old, size * count);
	return p;
}
