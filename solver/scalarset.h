/*
 * scalarset.h - threads that run the same code with different arguments,
 * interchangeable when the argument is an identity the program only copies
 * and compares for equality (a "scalarset", as Murphi calls such a type).
 *
 * pthread_create(&t[i], NULL, worker, (void *)i) gives each thread its
 * own index; the front end lowers each thread's "me = (intptr_t)arg" to
 * an assignment of its own constant, so no two such threads have the
 * same code and symmetry.c's renaming does not apply to them.  It does
 * when the index is only data: renaming two of those threads, exchanging
 * their two index values everywhere in the execution, and exchanging
 * their slots in the arrays subscripted by indices, gives an execution of
 * the same program, with the same failures in the renamed threads,
 * whenever every value that can hold index + o (the registers and
 * locations the analysis below finds, each with its one offset o) is
 * only
 *  - copied (assigned, stored, loaded, exchanged by xchg or cmpxchg),
 *  - shifted by a constant ("me + 1", "prev - 1": another offset),
 *  - compared with == or != to another such value of the same offset,
 *    or to a constant that is no renamed thread's index once shifted,
 *    or tested for zero (compared with 0),
 *  - compared with <, <=, > or >= to a constant that every renamed
 *    index is on the same side of (the front end's range check of a
 *    subscript),
 *  - used as the subscript of an array (the front end's chain of
 *    "(X == k) ? &a[k] : ..."), whose slots for the renamed indices are
 *    alike (type, initial value, what they hold) and reached only
 *    through such subscripts,
 *  - and set to such constants (initial values that may be read,
 *    stores, assignments);
 * never used in other arithmetic, as a pointer, by an RMW that adds, in
 * another comparison, or observed by the final condition, the filter or
 * the locations clause.  A thread whose index is one of those constants
 * (the initial 0 of the variable where the lock holder writes its index,
 * when some thread may read it before writing it: the thread given 0),
 * or the index of a slot named outright ("locked[2]"), keeps its place;
 * so do threads with observed registers.  An initial value no thread can
 * read is no constant met: a register set before it is read, a location
 * each thread reads only after writing it itself (under a coherent
 * model such a read never reads the initial write); renaming leaves that
 * value, and the initial write, as they are.
 *
 * It finds nothing when the threads differ otherwise (in their code, in a
 * constant that is not an assignment's whole value, or in two arguments
 * that do not carry the same value), or when some access whose targets
 * are unknown (a pointer) coexists with a location holding indices.
 */
#ifndef LKMMC_SCALARSET_H
#define LKMMC_SCALARSET_H

struct ir_program;
struct ir_thread;

/* Do a and b have the same code, registers and parameters? */
int scalarset_same_code(const struct ir_thread *a, const struct ir_thread *b);

/* rep: per thread, the lowest thread it is interchangeable with (its own
 * number when none), as symmetry_classes builds it from identical code;
 * pinned: per thread, 1 when its registers are observed; coherent: the
 * model has coherence (acyclic po-loc | com), so a location a thread
 * reads only after writing it shows that thread no initial value.  Joins
 * into rep the classes of threads that differ only by an index as above.
 * Returns how many threads joined such a class. */
int scalarset_join(const struct ir_program *p, const char *pinned, int coherent, int *rep);

#endif
