/*
 * genmc.h - lkmmc's <genmc.h> for whole C programs written for GenMC:
 * GenMC's verification builtins, as lkmmc reads them.  It is lkmmc's own
 * text, written from the names GenMC v0.9 documents.
 *
 * __VERIFIER_assume(c) has a meaning: an execution in which c is false
 * where the call stands is discarded, as herd7's filter discards one (its
 * assertions, data races and final state do not count).  GenMC's hints
 * that wrap code (__VERIFIER_local_write(s), __VERIFIER_final_CAS(c),
 * ...) only help GenMC's search: here they are the code they wrap.  The
 * other builtins are declared so that a program including this header
 * parses; a call of one is lkmmc's located error naming it.
 */
#ifndef LKMMC_GENMC_H
#define LKMMC_GENMC_H

void __VERIFIER_assume(int cond);

/* Declared only: a call is a located error. */
int __VERIFIER_nondet_int(void);
void __VERIFIER_loop_begin(void);
void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(int cond);

/* Hints for GenMC's search: the statement or expression itself. */
#define __VERIFIER_local_write(s) do { s; } while (0)
#define __VERIFIER_final_write(s) do { s; } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c) (c)

#endif
