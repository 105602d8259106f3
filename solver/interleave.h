/*
 * interleave.h - a whole C program's counterexample as one sequence of
 * steps ("as GenMC prints it"): each step a thread, a source line, the
 * statement and the value it read (with the write it read from) or wrote,
 * in an order consistent with the execution.
 *
 * Which order, and why not always an interleaving.  A sequentially
 * consistent execution is an interleaving of its threads: po | rf | co |
 * fr is acyclic, and in any linearisation of it every read reads the
 * latest write to its location listed before it.  A weak execution (the
 * store buffer's two stale reads; message passing without smp_rmb(); load
 * buffering) has a cycle there, and no interleaving of the threads gives
 * it.  So the steps are listed in a linearisation of the model's
 * executes-before order (linux-kernel.cat's hb | pb | rb, acyclic in every
 * execution the model allows), extended by program order, then reads-from,
 * coherence and from-reads edges, each taken when it keeps the order
 * acyclic.  When every edge was taken the header says the execution is
 * an interleaving; otherwise it says it is not, and marks the steps that
 * break the interleaving reading: a read that misses a write listed
 * before it ("not yet visible"), a step listed before a step of its thread
 * that precedes it in program order ("out of program order"), a write
 * listed after one that follows it in coherence order.  A model read from
 * cat files names no executes-before order: the extension starts from
 * nothing.  Among the steps an order allows, the thread of the previous
 * step goes on when it can, else the lowest-numbered thread.
 *
 * Litmus tests keep their per-thread listing (execution_print): herd7's
 * users and the corpus conformance read it.  This file prints; it asks
 * the solver nothing.
 */
#ifndef LKMMC_INTERLEAVE_H
#define LKMMC_INTERLEAVE_H

#include <stdio.h>

struct execution;
struct lkmm;

/* x's steps in the order above, the threads' functions (a program names
 * them), then the final values of the locations.  m: the model's named
 * relations (a cat model's have none; NULL: none either). */
void interleave_print(const struct execution *x, const struct lkmm *m, FILE *out);

/* How an execution is shown to the user: a litmus test's per-thread
 * listing, unchanged; a program's steps, followed by that listing when
 * listing is set (--witness). */
void interleave_show(const struct execution *x, const struct lkmm *m, int listing,
		     FILE *out);

#endif
