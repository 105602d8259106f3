/*
 * kapi.c - the table of kernel primitives (see kapi.h).  Each row says how
 * herd7's LKMM turns the call into events, in IR terms; the lowering itself
 * is in clower.c.  The assertions BUG_ON, WARN_ON(_ONCE) and assert are
 * lkmmc's own additions.
 */
#include "kapi.h"

#include <stdio.h>
#include <string.h>

/* Row builders: name, kind, nargs, addr_arg, addr_lvalue, order, fence,
 * rmw, arith, implicit_one, test, returns. */
#define LOAD(n, lv, o) { n, K_LOAD, 1, 0, lv, o, 0, 0, 0, 0, 0, 1, NULL }
#define STORE(n, lv, o) { n, K_STORE, 2, 0, lv, o, 0, 0, 0, 0, 0, 0, NULL }
#define FENCE(n, f) { n, K_FENCE, 0, -1, 0, 0, f, 0, 0, 0, 0, 0, NULL }
#define XCHG(n, o) { n, K_RMW, 2, 0, 0, o, 0, IR_RMW_XCHG, 0, 0, 0, 1, NULL }
#define CMPXCHG(n, o) { n, K_RMW, 3, 0, 0, o, 0, IR_RMW_CMPXCHG, 0, 0, 0, 1, NULL }
/* atomic_OP_return(V, X) / atomic_fetch_OP(V, X) */
#define AVX(n, o, r, a) { n, K_RMW, 2, 1, 0, o, 0, r, a, 0, 0, 1, NULL }
/* atomic_inc_return(X) / atomic_fetch_inc(X) */
#define AX(n, o, r, a) { n, K_RMW, 1, 0, 0, o, 0, r, a, 1, 0, 1, NULL }
/* The four orderings of a family: no suffix is fully ordered. */
#define FOUR(M, n, ...)                                         \
	M(n, IR_ORD_MB, __VA_ARGS__),                           \
	M(n "_relaxed", IR_ORD_ONCE, __VA_ARGS__),              \
	M(n "_acquire", IR_ORD_ACQUIRE, __VA_ARGS__),           \
	M(n "_release", IR_ORD_RELEASE, __VA_ARGS__)
#define XCHG4(n, o, unused) XCHG(n, o)
#define CMPXCHG4(n, o, unused) CMPXCHG(n, o)

/* A lock primitive with the lock and (2) a flags argument. */
#define LOCK1(n, k) { n, k, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL }
#define LOCK2(n, k) { n, k, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL }

static const struct kapi table[] = {
	/* Marked and plain-ish accesses. */
	LOAD("READ_ONCE", 1, IR_ORD_ONCE),
	STORE("WRITE_ONCE", 1, IR_ORD_ONCE),
	LOAD("smp_load_acquire", 0, IR_ORD_ACQUIRE),
	STORE("smp_store_release", 0, IR_ORD_RELEASE),
	LOAD("rcu_dereference", 1, IR_ORD_ONCE),
	STORE("rcu_assign_pointer", 1, IR_ORD_RELEASE),
	{ "smp_store_mb", K_STORE_MB, 2, 0, 1, IR_ORD_ONCE, IR_F_MB, 0, 0, 0,
	  0, 0, NULL },
	/* Fences, RCU's read-side markers and synchronize_rcu among them:
	 * one row per call of frontend/ir.h's table. */
#define FENCE_ROW(e, tag, call) FENCE(call, e),
	IR_FENCE_TABLE(FENCE_ROW)
#undef FENCE_ROW
	/* Exchange. */
	FOUR(XCHG4, "xchg", 0),
	FOUR(CMPXCHG4, "cmpxchg", 0),
	/* Spinlocks. */
	{ "spin_lock", K_LOCK, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ "spin_unlock", K_UNLOCK, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ "spin_trylock", K_TRYLOCK, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
	{ "spin_is_locked", K_ISLOCKED, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
	/* RCU (the table above has rcu_read_lock, rcu_read_unlock and
	 * synchronize_rcu). */
	FENCE("synchronize_rcu_expedited", IR_F_SYNC_RCU),
	/* SRCU. */
	{ "srcu_read_lock", K_SRCU_LOCK, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
	{ "srcu_read_unlock", K_SRCU_UNLOCK, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ "synchronize_srcu", K_SRCU_SYNC, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ "synchronize_srcu_expedited", K_SRCU_SYNC, 1, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, NULL },
	/* Atomics: plain reads and writes. */
	LOAD("atomic_read", 0, IR_ORD_ONCE),
	STORE("atomic_set", 0, IR_ORD_ONCE),
	LOAD("atomic_read_acquire", 0, IR_ORD_ACQUIRE),
	STORE("atomic_set_release", 0, IR_ORD_RELEASE),
	/* Atomics without a value: R[noreturn]; W[once]. */
	{ "atomic_add", K_RMW, 2, 1, 0, IR_ORD_ONCE, 0, IR_RMW_OP, IR_ADD, 0,
	  0, 0, NULL },
	{ "atomic_sub", K_RMW, 2, 1, 0, IR_ORD_ONCE, 0, IR_RMW_OP, IR_SUB, 0,
	  0, 0, NULL },
	{ "atomic_inc", K_RMW, 1, 0, 0, IR_ORD_ONCE, 0, IR_RMW_OP, IR_ADD, 1,
	  0, 0, NULL },
	{ "atomic_dec", K_RMW, 1, 0, 0, IR_ORD_ONCE, 0, IR_RMW_OP, IR_SUB, 1,
	  0, 0, NULL },
	/* Atomics with a value. */
	FOUR(AVX, "atomic_add_return", IR_RMW_OP_RETURN, IR_ADD),
	FOUR(AVX, "atomic_fetch_add", IR_RMW_FETCH_OP, IR_ADD),
	FOUR(AX, "atomic_inc_return", IR_RMW_OP_RETURN, IR_ADD),
	FOUR(AX, "atomic_fetch_inc", IR_RMW_FETCH_OP, IR_ADD),
	FOUR(AVX, "atomic_sub_return", IR_RMW_OP_RETURN, IR_SUB),
	FOUR(AVX, "atomic_fetch_sub", IR_RMW_FETCH_OP, IR_SUB),
	FOUR(AX, "atomic_dec_return", IR_RMW_OP_RETURN, IR_SUB),
	FOUR(AX, "atomic_fetch_dec", IR_RMW_FETCH_OP, IR_SUB),
	FOUR(XCHG4, "atomic_xchg", 0),
	FOUR(CMPXCHG4, "atomic_cmpxchg", 0),
	/* Tests: a fully ordered op_return compared with 0. */
	{ "atomic_sub_and_test", K_RMW_TEST, 2, 1, 0, IR_ORD_MB, 0,
	  IR_RMW_OP_RETURN, IR_SUB, 0, IR_EQ, 1, NULL },
	{ "atomic_dec_and_test", K_RMW_TEST, 1, 0, 0, IR_ORD_MB, 0,
	  IR_RMW_OP_RETURN, IR_SUB, 1, IR_EQ, 1, NULL },
	{ "atomic_inc_and_test", K_RMW_TEST, 1, 0, 0, IR_ORD_MB, 0,
	  IR_RMW_OP_RETURN, IR_ADD, 1, IR_EQ, 1, NULL },
	{ "atomic_add_negative", K_RMW_TEST, 2, 1, 0, IR_ORD_MB, 0,
	  IR_RMW_OP_RETURN, IR_ADD, 0, IR_LT, 1, NULL },
	/* herd7 built-in: atomic_add_unless(X, a, u). */
	{ "atomic_add_unless", K_RMW, 3, 0, 0, IR_ORD_MB, 0,
	  IR_RMW_ADD_UNLESS, IR_ADD, 0, 0, 1, NULL },
	/* Assertions (lkmmc, not herd7): no events, checked apart from the
	 * final condition.  WARN_ON's value is its argument's truth. */
	{ "BUG_ON", K_ASSERT, 1, -1, 0, 0, 0, 0, 0, 0, IR_NE, 0, NULL },
	{ "WARN_ON", K_ASSERT, 1, -1, 0, 0, 0, 0, 0, 0, IR_NE, 1, NULL },
	{ "WARN_ON_ONCE", K_ASSERT, 1, -1, 0, 0, 0, 0, 0, 0, IR_NE, 1, NULL },
	{ "assert", K_ASSERT, 1, -1, 0, 0, 0, 0, 0, 0, IR_EQ, 0, NULL },
	/* Kernel idioms over the primitives above.  Interrupts and bottom
	 * halves do not exist in the model: the irq/bh lock variants are the
	 * plain lock (their flags argument is evaluated, not modelled). */
	LOCK2("spin_lock_irqsave", K_LOCK),
	LOCK2("spin_unlock_irqrestore", K_UNLOCK),
	LOCK2("raw_spin_lock_irqsave", K_LOCK),
	LOCK2("raw_spin_unlock_irqrestore", K_UNLOCK),
	LOCK1("spin_lock_bh", K_LOCK),
	LOCK1("spin_unlock_bh", K_UNLOCK),
	LOCK1("spin_lock_irq", K_LOCK),
	LOCK1("spin_unlock_irq", K_UNLOCK),
	LOCK1("raw_spin_lock", K_LOCK),
	LOCK1("raw_spin_unlock", K_UNLOCK),
	{ "raw_spin_trylock", K_TRYLOCK, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, NULL },
	{ "cpu_relax", K_NOP, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	/* The kernel's smp_acquire__after_ctrl_dep() is smp_rmb(). */
	FENCE("smp_acquire__after_ctrl_dep", IR_F_RMB),
	/* smp_cond_load_* and atomic_cond_read_* are prelude macros over
	 * these (see cparse.c): a READ_ONCE loop, then smp_rmb() for
	 * acquire, as the kernel's generic barrier.h defines them. */
	{ "__lkmmc_cond_load_relaxed", K_COND_LOAD, 2, 0, 0, IR_ORD_ONCE, 0,
	  0, 0, 0, 0, 1, NULL },
	{ "__lkmmc_cond_load_acquire", K_COND_LOAD, 2, 0, 0, IR_ORD_ACQUIRE,
	  IR_F_RMB, 0, 0, 0, 0, 1, NULL },
};

#define NTABLE ((int)(sizeof table / sizeof table[0]))

const struct kapi *kapi_find(const struct kapi_table *t, const char *name)
{
	/* atomic_long_t is atomic_t in the model. */
	static const char along[] = "atomic_long_";
	char buf[128];
	if (strncmp(name, along, sizeof along - 1) == 0 &&
	    strlen(name) < sizeof buf - 8) {
		snprintf(buf, sizeof buf, "atomic_%s", name + sizeof along - 1);
		name = buf;
	}
	int n = t ? t->nrows : NTABLE;
	const struct kapi *rows = t ? t->rows : table;
	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

const struct kapi *kapi_at(const struct kapi_table *t, int i)
{
	if (t)
		return i >= 0 && i < t->nrows ? &t->rows[i] : NULL;
	return i >= 0 && i < NTABLE ? &table[i] : NULL;
}
