/*
 * kmod_int.h - private to kmod*.c: the state of one module's generation and
 * the functions its files share.  Nobody else includes it.
 */
#ifndef LKMMC_KMOD_INT_H
#define LKMMC_KMOD_INT_H

#include <stdio.h>

#include "common/diag.h"
#include "frontend/ir.h"
#include "kernel/kmod.h"

#define MAX_TRACKED 64 /* spin locks and srcu_structs a test may have */

/* What the static walk knows at a program point. */
struct astate {
	int rcu_min, rcu_max;               /* RCU read-side nesting */
	unsigned long long must_held;       /* locks held on every path */
	unsigned long long may_held;        /* locks held on some path */
	int srcu_min[MAX_TRACKED];          /* SRCU nesting, on every path */
	struct ir_pos lock_pos[MAX_TRACKED];/* where each lock was last taken */
	struct ir_pos rcu_pos;              /* last rcu_read_lock() */
};

/* One module being generated. */
struct gen {
	const struct ir_program *p;     /* the test */
	const struct kmod_options *opt; /* iterations, unroll bound */
	FILE *o;           /* where the C goes */
	struct diag *d;    /* where the first error goes */
	const struct ir_thread *th; /* the thread being generated */
	int *reg_base;     /* first value-vector slot of each thread */
	int locbase;       /* first value-vector slot of the locations */
	int nvals;         /* slots in the value vector */
	int *ord;          /* location -> ordinal among locks / srcu_structs */
	int nlocks, nsrcu; /* how many of each */
	int nloops;        /* loop counters of the current thread */
	int depth;         /* indentation */
	int failed;        /* an error was recorded */
	char **cname;      /* location -> C identifier: its name, with a
			    * struct field "s.f" as s__f, an element "a[1]"
			    * as a__1 */
	char *proc;        /* the test's /proc name (LK_PROC_NAME, test.info's
			    * proc=) */
};

/* How a location is accessed: a long, an atomic_t, an atomic_long_t. */
enum access { ACC_LONG, ACC_ATOMIC, ACC_ATOMIC_LONG };

/* --- kmod.c: names, expressions, addresses, the static walk ------------- */

/* Record "cannot run as a kernel module: ..." at pos; returns 0. */
int km_gen_error(struct gen *g, struct ir_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Indentation, and one indented line of C. */
void km_indent(struct gen *g);
void km_line(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A C string literal. */
void km_put_cstring(FILE *o, const char *s);
/* The text of a comment: no "*" followed by "/". */
void km_put_comment(FILE *o, const char *s);
/* Location k, and its C identifier (see gen.cname). */
const struct ir_location *km_loc(const struct gen *g, int k);
const char *km_cn(const struct gen *g, int k);
/* The kernel primitives' suffix for an ordering ("_acquire", ...). */
const char *km_order_suffix(enum ir_order o);
/* An IR expression as C. */
void km_put_expr(struct gen *g, const struct ir_expr *e);
/* The same as a truth value: (e != 0). */
void km_put_cond(struct gen *g, const struct ir_expr *e);
/* The location itself (READ_ONCE(x)) or its address (smp_load_acquire(&x)). */
int km_put_lval(struct gen *g, const struct ir_instr *in, const char *prim);
/* The address operand of an access as a pointer of the kind want. */
int km_put_addr(struct gen *g, const struct ir_instr *in, const char *prim,
		enum access want);
/* The access kind of the location an instruction's address names. */
enum access km_access_of(const struct gen *g, const struct ir_instr *in);
/* A lock or srcu_struct operand must be a location: returns its index. */
int km_sync_loc(struct gen *g, const struct ir_instr *in, enum ir_loc_kind kind,
		const char *prim);
/* The static walk's state where two paths join (a = a join b). */
void km_merge(struct astate *a, const struct astate *b);
/* Nothing known (inside and after a loop). */
void km_weaken(struct astate *a);
/* Sleeping calls need: no spin lock held, no RCU reader (and for
 * synchronize_srcu, no reader of the same srcu_struct). */
int km_check_may_sleep(struct gen *g, const struct ir_instr *in,
		       const struct astate *s, const char *prim);

/* --- kmod_instr.c: instructions and threads ----------------------------- */

/* Grace-period waits in the code (they set how many runs fit in a time). */
int km_count_grace_periods(const struct ir_block *b);
/* An initial value as C. */
void km_put_value(struct gen *g, struct ir_value v);
/* The kthread function of thread th, with the static walk's checks. */
void km_gen_thread(struct gen *g, const struct ir_thread *th);

#endif
