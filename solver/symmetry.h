/*
 * symmetry.h - symmetry breaking for interchangeable threads.
 *
 * Threads with the same code, whose registers nothing observes (neither
 * the condition, the filter nor the locations clause), are
 * interchangeable: renaming them maps every consistent execution to a
 * consistent execution with the same final locations and the same flags.
 * So one order of them may be fixed: among the writes they all make
 * unconditionally to one location, coherence order follows thread order.
 * This cuts the n! interleavings of, say, n identical lock holders down
 * to one without changing any answer lkmmc prints.
 *
 * It does not find symmetries of the locations, nor of threads whose
 * registers are observed.
 */
#ifndef LKMMC_SYMMETRY_H
#define LKMMC_SYMMETRY_H

#include <z3.h>

struct encoding;

/* The interchangeable threads of enc's program: an array (free() it) of
 * one entry per thread, the lowest thread it is interchangeable with (its
 * own number when it has none). */
int *symmetry_classes(const struct encoding *enc);

/* Assert the symmetry-breaking constraints of enc's program into s.
 * Returns how many threads they order (0: no symmetry found). */
int symmetry_break(const struct encoding *enc, Z3_solver s);

#endif
