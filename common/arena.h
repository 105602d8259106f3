/*
 * arena.h - a bump allocator: many small allocations, one free.
 *
 * The IR and the encoder's per-test data are allocated from arenas so that a
 * whole test is released at once.  Not thread-safe; one arena per owner.
 */
#ifndef LKMMC_ARENA_H
#define LKMMC_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_new(void);
void arena_free(struct arena *arena);

/* Zeroed memory that lives as long as the arena.  Aborts on out-of-memory. */
void *arena_alloc(struct arena *arena, size_t size);
/* The bytes the arena holds (what it handed out, rounded up to its
 * chunks): memlimit.h counts them. */
size_t arena_bytes(const struct arena *arena);
/* A copy of s (or of its first n bytes) in the arena. */
char *arena_strdup(struct arena *arena, const char *s);
char *arena_strndup(struct arena *arena, const char *s, size_t n);
/* printf into the arena. */
char *arena_printf(struct arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Grow an arena array: returns a copy of old (count elements of size) with
 * room for new_count; the old block is simply abandoned. */
void *arena_grow(struct arena *arena, void *old, size_t size, size_t count,
		 size_t new_count);

#endif
