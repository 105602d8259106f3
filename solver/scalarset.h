/*
 * scalarset.h - threads that run the same code with different arguments,
 * interchangeable when the argument is an identity the program only copies
 * and compares for equality (a "scalarset", as Murphi calls such a type).
 *
 * pthread_create(&t[i], NULL, worker, (void *)i) gives each thread its
 * own index; the front end lowers each thread's "me = (intptr_t)arg" to
 * an assignment of its own constant, so no two such threads have the
 * same code and symmetry.c's renaming does not apply to them.  It does
 * when the index is only data: renaming two of those threads, and
 * exchanging their two index values everywhere in the execution, gives
 * an execution of the same program, with the same failures in the renamed
 * threads, whenever every value that can hold an index (the registers and
 * locations the analysis below finds) is only
 *  - copied (assigned, stored, loaded),
 *  - compared with == or != to another such value, or to a constant that
 *    is no renamed thread's index,
 *  - and set to such constants (initial values, stores, assignments);
 * never used in arithmetic, as an address, by an RMW, in another
 * comparison, or observed by the final condition, the filter or the
 * locations clause.  A thread whose index is one of those constants (the
 * initial 0 of the variable where the lock holder writes its index: the
 * thread given 0) keeps its place; so do threads with observed registers.
 *
 * It finds nothing when the threads differ otherwise (in their code, in a
 * constant that is not an assignment's whole value, or in two arguments
 * that do not carry the same value), or when some access has a computed
 * address (an index used to pick an array slot, as the MCS lock's nodes).
 */
#ifndef LKMMC_SCALARSET_H
#define LKMMC_SCALARSET_H

struct ir_program;
struct ir_thread;

/* Do a and b have the same code, registers and parameters? */
int scalarset_same_code(const struct ir_thread *a, const struct ir_thread *b);

/* rep: per thread, the lowest thread it is interchangeable with (its own
 * number when none), as symmetry_classes builds it from identical code;
 * pinned: per thread, 1 when its registers are observed.  Joins into rep
 * the classes of threads that differ only by an index as above.  Returns
 * how many threads joined such a class. */
int scalarset_join(const struct ir_program *p, const char *pinned, int *rep);

#endif
