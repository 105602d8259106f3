/*
 * pattern.h - static shapes of relations: n x n bit matrices.
 *
 * A pattern says, for each pair of events, whether a relation may hold
 * there (its entry is not statically false) or must (its entry is the true
 * literal).  rel.c computes closures of such shapes before it makes any Z3
 * term, so that pairs fixed by the program alone get no variable and no
 * constraint.  This file knows nothing of Z3, events or the model.
 */
#ifndef LKMMC_PATTERN_H
#define LKMMC_PATTERN_H

#include <stddef.h>
#include <stdint.h>

struct pattern {
	int n;          /* number of events (rows and columns) */
	int words;      /* 64-bit words per row */
	uint64_t *bits; /* row-major, words per row; bit b of row a: (a, b) */
};

struct pattern *pattern_new(int n);   /* all pairs clear */
void pattern_free(struct pattern *p);

static inline int pattern_get(const struct pattern *p, int a, int b)
{
	return (int)((p->bits[(size_t)a * (size_t)p->words + (size_t)(b >> 6)] >> (b & 63)) & 1u);
}

static inline void pattern_set(struct pattern *p, int a, int b)
{
	p->bits[(size_t)a * (size_t)p->words + (size_t)(b >> 6)] |= (uint64_t)1 << (b & 63);
}

/* p := p+ (Warshall's algorithm over rows of words). */
void pattern_close(struct pattern *p);
/* A new pattern holding p+. */
struct pattern *pattern_plus(const struct pattern *p);
/* Row a of p as words (p->words of them). */
static inline uint64_t *pattern_row(const struct pattern *p, int a)
{
	return p->bits + (size_t)a * (size_t)p->words;
}
/* Does p (not necessarily closed) have a cycle, self-loops included? */
int pattern_has_cycle(const struct pattern *p);
/* The transitive reduction of an acyclic p: the pairs (a, b) of p with no
 * c such that (a, c) is in p and (c, b) in p+.  Its closure is p+.  NULL
 * when p has a cycle (the reduction is then not unique). */
struct pattern *pattern_reduction(const struct pattern *p);

#endif
