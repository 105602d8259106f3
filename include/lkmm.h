/*
 * lkmm.h - lkmmc's header for whole C programs: the kernel primitives of
 * the Linux-kernel memory model (the macros of tools/memory-model's
 * linux-kernel.def, Linux 6.1, with the kernel's argument order) and the
 * kernel types they act on, as lkmmc's front end reads them.  It is
 * lkmmc's own text, written from the list of macros in linux-kernel.def.
 *
 * lkmmc builds this file into its binary and finds it by itself
 * (#include <lkmm.h>); `make install` also puts a copy under
 * PREFIX/include/lkmmc for reading.  The functions are declarations only:
 * lkmmc turns each call into the events the model gives it.  It is not an
 * implementation for a C compiler.
 *
 * READ_ONCE(x), WRITE_ONCE(x, v) and the other macros of the kernel that
 * take an lvalue take it here too (READ_ONCE(x) of a global int x); the
 * atomic_*() and spin_*() functions take a pointer (&v, &lock).
 */
#ifndef LKMMC_LKMM_H
#define LKMMC_LKMM_H

/* Kernel integer types. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h> /* intptr_t, as GenMC's headers give it */

/* atomic_t, atomic_long_t (atomic64_t is atomic_long_t): one location
 * each.  ATOMIC_INIT(i) gives its initial value. */
typedef int atomic_t;
typedef long atomic_long_t;
typedef long atomic64_t;
#define ATOMIC_INIT(i) (i)
#define ATOMIC_LONG_INIT(i) (i)
#define ATOMIC64_INIT(i) (i)

/* spinlock_t: only the spin_*() primitives touch it; it starts unlocked. */
typedef int spinlock_t;
typedef int raw_spinlock_t;
#define DEFINE_SPINLOCK(x) spinlock_t x
#define DEFINE_RAW_SPINLOCK(x) spinlock_t x
#define __SPIN_LOCK_UNLOCKED(x) 0

/* SRCU domains. */
struct srcu_struct { int lkmmc_srcu; };
#define DEFINE_SRCU(x) struct srcu_struct x
#define DEFINE_STATIC_SRCU(x) static struct srcu_struct x

/* Accesses that take an lvalue x (a variable, *p, s.f, a[i]). */
long READ_ONCE();                 /* READ_ONCE(x) */
long WRITE_ONCE();                /* WRITE_ONCE(x, v) */
long smp_load_acquire();          /* smp_load_acquire(p) */
long smp_store_release();         /* smp_store_release(p, v) */
long rcu_dereference();           /* rcu_dereference(x) */
long rcu_assign_pointer();        /* rcu_assign_pointer(x, v) */
long smp_store_mb();              /* smp_store_mb(x, v) */

/* Fences. */
void smp_mb(void);
void smp_rmb(void);
void smp_wmb(void);
void smp_mb__before_atomic(void);
void smp_mb__after_atomic(void);
void smp_mb__after_spinlock(void);
void smp_mb__after_unlock_lock(void);
void smp_acquire__after_ctrl_dep(void);
void barrier(void);
void cpu_relax(void);

/* Exchange on a pointer p: xchg(p, v), cmpxchg(p, old, new), each also
 * _relaxed, _acquire and _release. */
long xchg();
long xchg_relaxed();
long xchg_acquire();
long xchg_release();
long cmpxchg();
long cmpxchg_relaxed();
long cmpxchg_acquire();
long cmpxchg_release();

/* Spinlocks. */
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);
int spin_is_locked(spinlock_t *lock);
long spin_lock_irqsave();         /* spin_lock_irqsave(lock, flags) */
long spin_unlock_irqrestore();    /* spin_unlock_irqrestore(lock, flags) */
long raw_spin_lock_irqsave();
long raw_spin_unlock_irqrestore();
void spin_lock_bh(spinlock_t *lock);
void spin_unlock_bh(spinlock_t *lock);
void spin_lock_irq(spinlock_t *lock);
void spin_unlock_irq(spinlock_t *lock);
void raw_spin_lock(spinlock_t *lock);
void raw_spin_unlock(spinlock_t *lock);
int raw_spin_trylock(spinlock_t *lock);

/* RCU and SRCU. */
void rcu_read_lock(void);
void rcu_read_unlock(void);
void synchronize_rcu(void);
void synchronize_rcu_expedited(void);
int srcu_read_lock(struct srcu_struct *ssp);
void srcu_read_unlock(struct srcu_struct *ssp, int idx);
void synchronize_srcu(struct srcu_struct *ssp);
void synchronize_srcu_expedited(struct srcu_struct *ssp);

/* Atomics on atomic_t *v (the atomic_long_ and atomic64_ names too,
 * declared below for atomic_long_t and atomic64_t). */
#define LKMMC_ATOMIC_OPS(T, P)                                          \
	int P##read(const T *v);                                        \
	void P##set(T *v, int i);                                       \
	int P##read_acquire(const T *v);                                \
	void P##set_release(T *v, int i);                               \
	void P##add(int i, T *v);                                       \
	void P##sub(int i, T *v);                                       \
	void P##inc(T *v);                                              \
	void P##dec(T *v);                                              \
	LKMMC_ATOMIC_ORDERS(T, P, , )                                   \
	LKMMC_ATOMIC_ORDERS(T, P, _relaxed, )                           \
	LKMMC_ATOMIC_ORDERS(T, P, _acquire, )                           \
	LKMMC_ATOMIC_ORDERS(T, P, _release, )                           \
	int P##sub_and_test(int i, T *v);                               \
	int P##dec_and_test(T *v);                                      \
	int P##inc_and_test(T *v);                                      \
	int P##add_negative(int i, T *v);                               \
	int P##add_unless(T *v, int a, int u);
#define LKMMC_ATOMIC_ORDERS(T, P, O, unused)                            \
	int P##add_return##O(int i, T *v);                              \
	int P##fetch_add##O(int i, T *v);                               \
	int P##inc_return##O(T *v);                                     \
	int P##fetch_inc##O(T *v);                                      \
	int P##sub_return##O(int i, T *v);                              \
	int P##fetch_sub##O(int i, T *v);                               \
	int P##dec_return##O(T *v);                                     \
	int P##fetch_dec##O(T *v);                                      \
	int P##xchg##O(T *v, int i);                                    \
	int P##cmpxchg##O(T *v, int old, int new);
LKMMC_ATOMIC_OPS(atomic_t, atomic_)
LKMMC_ATOMIC_OPS(atomic_long_t, atomic_long_)
LKMMC_ATOMIC_OPS(atomic64_t, atomic64_)
#undef LKMMC_ATOMIC_OPS
#undef LKMMC_ATOMIC_ORDERS

/* Spin until a condition on VAL (the value read) holds; the _acquire
 * forms then order later accesses as an acquire. */
long __lkmmc_cond_load_relaxed();
long __lkmmc_cond_load_acquire();
#define smp_cond_load_relaxed(p, c) \
	__lkmmc_cond_load_relaxed((p), ({ long VAL; (c); }))
#define smp_cond_load_acquire(p, c) \
	__lkmmc_cond_load_acquire((p), ({ long VAL; (c); }))
#define atomic_cond_read_relaxed(v, c) \
	__lkmmc_cond_load_relaxed((v), ({ long VAL; (c); }))
#define atomic_cond_read_acquire(v, c) \
	__lkmmc_cond_load_acquire((v), ({ long VAL; (c); }))
#define atomic_long_cond_read_relaxed(v, c) \
	__lkmmc_cond_load_relaxed((v), ({ long VAL; (c); }))
#define atomic_long_cond_read_acquire(v, c) \
	__lkmmc_cond_load_acquire((v), ({ long VAL; (c); }))

/* Assertions (checked where they stand; no events). */
int BUG_ON(long c);
#define BUG() BUG_ON(1)
int WARN_ON(long c);
int WARN_ON_ONCE(long c);

#endif
