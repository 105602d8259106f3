/*
 * kapi.h - the kernel primitives a process body may call: every macro of
 * the LKMM's linux-kernel.def plus herd7's built-in atomic_add_unless, with
 * their arity, which argument is the address and how each becomes IR.
 * Kernel idioms that are wrappers over these (spin_lock_irqsave,
 * raw_spin_lock, atomic_long_*, cpu_relax, the smp_cond_load family) are
 * rows too.  It does not lower calls (clower.c does).
 *
 * Two kinds of tables: the built-in one (kapi.c: Linux 6.1's .def written
 * as rows), and one read from a model's linux-kernel.def (kdef.c), whose
 * rows are K_DEF: each macro a list of herd7 primitives (__load{tags},
 * __xchg{tags}, ...) with its arguments, so that a macro a newer kernel
 * adds needs no C change.  NULL stands for the built-in table.
 */
#ifndef LKMMC_KAPI_H
#define LKMMC_KAPI_H

#include "common/diag.h"
#include "ir.h"

struct arena;

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
	K_DEF,       /* a macro of a model's .def: struct kdef_macro */
};

/* herd7's event primitives, as a .def names them. */
enum kprim {
	KP_LOAD, KP_STORE, KP_FENCE, KP_XCHG, KP_CMPXCHG, KP_ATOMIC_OP,
	KP_OP_RETURN, KP_FETCH_OP, KP_ADD_UNLESS, KP_LOCK, KP_UNLOCK,
	KP_TRYLOCK, KP_ISLOCKED, KP_SRCU,
};

/* An operand of a primitive in a macro body. */
struct kdef_arg {
	int param;   /* the macro parameter, -1 for a constant */
	int deref;   /* how many '*' before it (0 or 1) */
	long num;    /* the constant, when param is -1 */
};

/* One primitive call of a macro body. */
struct kdef_step {
	enum kprim prim;          /* which primitive */
	unsigned long tags;       /* its {tags} (bits of the table's names) */
	struct kdef_arg arg[3];   /* its operands, the op token left out */
	int nargs;                /* how many */
	enum ir_binop op;         /* __atomic_*op*: IR_ADD, IR_SUB, IR_BAND,
				   * IR_BOR or IR_BXOR */
	int andnot;               /* the op is &~ (IR_BAND with ~value) */
	int line;                 /* where it is in the .def */
	/* What herd7 makes of it (kdef.c, see kapi_table.syntactic): */
	unsigned long ev[IR_TAG_SLOTS]; /* the tags of each event */
	enum ir_order order;      /* loads, stores, RMWs: the nearest
				   * built-in ordering (the encoder's own
				   * event classes; IR_ORD_MB: fences around) */
	enum ir_fence fence;      /* fences: the built-in fence of that name,
				   * IR_F_OTHER if none */
};

/* A macro of the .def. */
struct kdef_macro {
	int nparams;              /* its parameters */
	struct kdef_step *steps;  /* its body's primitives, in order (macros
				   * it calls are inlined) */
	int nsteps;               /* how many */
	int value;                /* an expression: the last step's value */
	int has_cmp;              /* the value is compared: "... == 0" */
	enum ir_binop cmp;        /* IR_EQ, IR_NE, IR_LT, IR_LE, IR_GT, IR_GE */
	long cmp_num;             /* with this constant */
	int line;                 /* where it is defined */
};

/* A table of primitives (NULL: the built-in one). */
struct kapi_table {
	struct arena *arena;      /* everything below */
	struct kapi *rows;        /* the macros, then lkmmc's idioms */
	int nrows;                /* how many */
	const char **tags;        /* the tag names of the .def, bit i each */
	int ntags;                /* how many */
	unsigned long once_tags;  /* READ_ONCE's load tags (the idioms'
				   * loops read with them) */
	unsigned long rmb_tags;   /* smp_rmb's fence tags */
	int syntactic;            /* herd7's variant lkmmv2: an RMW's events
				   * carry its tags as written (7.2's 'MB on
				   * R and W), else herd7's older reading
				   * (mb: F[mb] around R[once] W[once];
				   * acquire on the read only, release on
				   * the write only) */
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
	const struct kdef_macro *def; /* K_DEF: the macro */
};

/* The primitive called name in table t (NULL: built-in), or NULL.
 * atomic_long_X is atomic_X. */
const struct kapi *kapi_find(const struct kapi_table *t, const char *name);
/* The i-th primitive (0-based), NULL past the end: to declare them all. */
const struct kapi *kapi_at(const struct kapi_table *t, int i);

/* Read a linux-kernel.def (text, named path in messages) into a table;
 * syntactic: the model's configuration sets variant lkmmv2.  lkmmc's
 * idioms (raw_spin_lock, cpu_relax, BUG_ON, smp_cond_load_*, ...) are
 * added over the table's macros, and herd7's atomic_add_unless when the
 * .def has none.  Returns NULL and fills d at the first line it cannot
 * read (file:line:col). */
struct kapi_table *kdef_parse(const char *path, const char *text, int syntactic,
			      struct diag *d);
void kapi_table_free(struct kapi_table *t);

#endif
