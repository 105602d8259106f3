/*
 * xalloc.h - heap allocation that never returns NULL, and array growth.
 *
 * lkmmc's one out-of-memory policy: a failed allocation ends the process
 * through memlimit_out_of_memory(): while a check runs under --max-memory,
 * with that test's memory error (in a batch worker, its limit's exit
 * status); otherwise "lkmmc: out of memory" on stderr and abort (a batch
 * worker that aborts is reported as a crash of its test and replaced).  Callers never test for
 * NULL.  Sizes of 0 are allowed and give a block that can be freed.  It does
 * not track or free anything for the caller (see arena.h for that).
 */
#ifndef LKMMC_XALLOC_H
#define LKMMC_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* malloc for count elements of size, overflow checked. */
void *xmalloc_array(size_t count, size_t size);
void *xrealloc_array(void *p, size_t count, size_t size);

/* The capacity an array of capacity cap needs to hold need elements:
 * cap when it suffices, else doubled (from first when cap is 0) until it
 * does. */
size_t xgrow_cap(size_t cap, size_t need, size_t first);

/* Make room for need elements in the malloc'ed array p whose capacity is
 * the integer lvalue cap (of any integer type), doubling from first. */
#define XGROW(p, cap, need, first)                                             \
	do {                                                                   \
		size_t xg_cap_ = xgrow_cap((size_t)(cap), (size_t)(need),      \
					   (first));                           \
		if (xg_cap_ != (size_t)(cap)) {                                \
			(p) = xrealloc_array((p), xg_cap_, sizeof *(p));       \
			(cap) = xg_cap_;                                       \
		}                                                              \
	} while (0)

#endif
