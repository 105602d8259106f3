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
 * Threads of one function given different indices are interchangeable
 * too when the index is only data (scalarset.h): the classes include
 * them, and renaming them exchanges their indices as well.
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

/*
 * Decide statically what symmetry_break's order implies for locks: in a
 * class whose ordering writes are the lock acquisitions (LKW) of one
 * spinlock, each thread taking and releasing it once, unconditionally,
 * and no other write touching that lock, coherence of the lock is IW,
 * LKW, UL of the first thread, LKW, UL of the second, ...  So the LKR of
 * the first thread reads from the initial write and that of each next
 * one from the UL of the previous one (lock.cat: from the write
 * co-just-before its LKW).  Those rf entries of enc become the true
 * literal and the other entries into these LKRs statically false, with
 * the matching facts on the rf variables, before a model is built, so
 * that po-unlock-lock-po and the closures over it are static.  The
 * executions left are those symmetry_break keeps (the same writes in the
 * same order), so every query that renaming threads preserves keeps its
 * answer; explanations, which list the candidates, are not among them.
 * Returns how many threads it fixed.
 */
int symmetry_fix_locks(struct encoding *enc);

#endif
