/*
 * kapi.h - the kernel primitives a process body may call: every macro of
 * the LKMM's linux-kernel.def plus herd7's built-in atomic_add_unless, with
 * their arity, which argument is the address and how each becomes IR.
 * Kernel idioms that are wrappers over these (spin_lock_irqsave,
 * raw_spin_lock, atomic_long_*, cpu_relax, the smp_cond_load family) are
 * rows too.  It does not lower calls (clower.c does).
 */
#ifndef LKMMC_KAPI_H
#define LKMMC_KAPI_H

#include "ir.h"

enum kapi_kind {
	K_LOAD,      /* dst = load[order](addr) */
	K_STORE,     /* store[order](addr, v) */
	K_STORE_MB,  /* smp_store_mb: store[once](addr, v); fence mb */
	K_FENCE,     /* one fence */
	K_RMW,       /* dst = rmw[rmw, order, arith](addr, values...) */
	K_RMW_TEST,  /* tmp = op_return; dst = (tmp == 0) or (tmp < 0) */
	K_LOCK,      /* spin_lock(addr) */
	K_UNLOCK,    /* spin_unlock(addr) */
	K_TRYLOCK,   /* dst = spin_trylock(addr) */
	K_ISLOCKED,  /* dst = spin_is_locked(addr) */
	K_SRCU_LOCK, /* dst = srcu_read_lock(addr) */
	K_SRCU_UNLOCK, /* srcu_read_unlock(addr, v) */
	K_SRCU_SYNC, /* synchronize_srcu(addr) */
	K_ASSERT,    /* an assertion on its argument (BUG_ON, WARN_ON, assert) */
	K_NOP,       /* no event (cpu_relax) */
	K_COND_LOAD, /* dst = spin on load[once](addr) until a condition on
		      * VAL holds; then smp_rmb() when order is acquire */
};

struct kapi {
	const char *name;     /* the C name */
	enum kapi_kind kind;  /* how it lowers */
	int nargs;            /* arity */
	int addr_arg;         /* index of the address argument, -1 if none */
	int addr_lvalue;      /* 1: that argument is an lvalue "*p" (READ_ONCE
			       * style); 0: a pointer "p" */
	enum ir_order order;  /* K_LOAD/STORE/RMW: ordering */
	enum ir_fence fence;  /* K_FENCE: which */
	enum ir_rmw rmw;      /* K_RMW/K_RMW_TEST: shape */
	enum ir_binop arith;  /* RMW arithmetic (IR_ADD/IR_SUB) */
	int implicit_one;     /* the value operand is the constant 1 (inc/dec) */
	enum ir_binop test;   /* K_RMW_TEST: IR_EQ (== 0) or IR_LT (< 0);
			       * K_ASSERT: fails when the argument is IR_NE
			       * (BUG_ON, WARN_ON) or IR_EQ (assert) to 0 */
	int returns;          /* 1 when the call has a value */
};

/* The primitive called name, or NULL.  atomic_long_X is atomic_X. */
const struct kapi *kapi_find(const char *name);
/* The i-th primitive (0-based), NULL past the end: to declare them all. */
const struct kapi *kapi_at(int i);

#endif
