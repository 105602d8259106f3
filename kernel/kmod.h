/*
 * kmod.h - litmus test (program IR) -> Linux kernel module that runs it.
 *
 * "lkmmc --kmod OUTDIR FILE.litmus..." writes, per test, OUTDIR/MOD/MOD.c
 * (our generated test part followed by our harness, kernel/harness.tmpl),
 * OUTDIR/MOD/Makefile (Kbuild) and OUTDIR/MOD/test.info (test name, litmus
 * file, default iteration count), plus OUTDIR/Makefile, which builds every
 * module under OUTDIR in one Kbuild run.  MOD is "lk_" and the test name
 * with every character outside [A-Za-z0-9_] turned into '_' (a suffix keeps
 * names unique within a batch).
 *
 * Every primitive maps to the real kernel primitive (READ_ONCE,
 * smp_store_release, xchg_acquire, atomic_fetch_add_release, spin_trylock,
 * synchronize_rcu, srcu_read_lock on a real srcu_struct...).  A test that
 * cannot run in the harness (a spin lock taken twice, a grace period inside
 * a read-side critical section, a lock or RCU reader still held when a
 * process returns, an address the harness cannot resolve) fails generation
 * with a located message naming the primitive.  Calls whose trouble
 * depends on the path taken are guarded at run time instead: the harness
 * skips the call and drops that outcome, counted as a "violation".
 */
#ifndef LKMMC_KMOD_H
#define LKMMC_KMOD_H

#include "common/diag.h"
#include "frontend/ir.h"

struct kmod_options {
	unsigned long iters; /* default iteration count of the module */
	int unroll;          /* loop bound, as the checker's --unroll */
};

struct kmod_batch;

/* One batch per OUTDIR; it keeps module names unique.  NULL on error
 * (OUTDIR cannot be created; the reason is in d). */
struct kmod_batch *kmod_batch_new(const char *outdir, const struct kmod_options *opt,
				  struct diag *d);
void kmod_batch_free(struct kmod_batch *b);

/* Generate the module for prog.  Returns 1, or 0 with the located reason
 * in d (nothing is written for that test then). */
int kmod_generate(struct kmod_batch *b, const struct ir_program *prog, struct diag *d);

#endif
