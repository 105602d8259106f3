/*
 * ir.h - the program IR: what the front end produces and the encoder consumes.
 *
 * A litmus test becomes one ir_program: the shared locations with their
 * initial values, one ir_thread per process with its registers and a tree of
 * instructions, and the final clauses (locations, filter, quantified
 * condition).  Expressions in the IR are pure (registers, constants,
 * addresses of locations, arithmetic); every memory access, fence or other
 * kernel primitive is its own instruction, in the order the thread performs
 * it.  The IR does not know about events, relations or the memory model:
 * the encoder derives those.
 *
 * Everything reachable from an ir_program lives in its arena and is freed by
 * ir_program_free().
 */
#ifndef LKMMC_IR_H
#define LKMMC_IR_H

#include <stddef.h>

struct arena;

/* A position in the litmus file (1-based line and column). */
struct ir_pos {
	int line; /* line in the litmus file, 0 if unknown */
	int col;  /* column in that line, 0 if unknown */
};

/* What a location holds, as far as the model cares. */
enum ir_loc_kind {
	IR_LOC_INT,      /* int, long, intptr_t, unsigned long... */
	IR_LOC_PTR,      /* a pointer (its value may name a location) */
	IR_LOC_ATOMIC,   /* atomic_t / atomic_long_t */
	IR_LOC_SPINLOCK, /* spinlock_t: only lock primitives touch it */
	IR_LOC_SRCU,     /* struct srcu_struct: only srcu primitives touch it */
};

/* A value: an integer or the address of a shared location. */
enum ir_value_kind { IR_VAL_INT, IR_VAL_LOC };
struct ir_value {
	enum ir_value_kind kind; /* integer or address */
	long num;                /* the integer, when kind == IR_VAL_INT */
	int loc;                 /* location index, when kind == IR_VAL_LOC */
};

/* A shared memory location. */
struct ir_location {
	const char *name;      /* its name in the test ("x") */
	const char *ctype;     /* its C type as written ("int", "spinlock_t") */
	enum ir_loc_kind kind; /* how the model treats it */
	struct ir_value init;  /* initial value (0 unless the init block says) */
	struct ir_pos pos;     /* where it is declared (init block or first use) */
};

/* Registers: thread-local, no events.  Temporaries made by the front end
 * (to flatten expressions with several accesses) are registers too. */
struct ir_reg {
	const char *name;     /* "r0", or "%t3" for a front-end temporary */
	const char *ctype;    /* C type as declared, "int" when implicit */
	int is_temp;          /* 1 for a front-end temporary */
	int has_init;         /* 1 when the init block sets it (0:r1=2;) */
	struct ir_value init; /* that initial value (else 0) */
	struct ir_pos pos;    /* declaration or first assignment */
};

/* Pure expressions. */
enum ir_expr_kind {
	IR_E_CONST, /* an integer constant */
	IR_E_LOC,   /* the address of a shared location (&x, or x as a pointer) */
	IR_E_REG,   /* the current value of a register */
	IR_E_UNARY, /* op a */
	IR_E_BINARY,/* a op b */
	IR_E_COND,  /* a ? b : c (all pure) */
	IR_E_CHOICE,/* 0 or 1, left open: --repair's choice num of a change
		     * (repair/repair_enc.c); only in texts it parses with
		     * frontend_set_choices on */
};
enum ir_unop { IR_NEG, IR_LNOT, IR_BNOT };
enum ir_binop {
	IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_MOD,
	IR_BAND, IR_BOR, IR_BXOR, IR_SHL, IR_SHR,
	IR_EQ, IR_NE, IR_LT, IR_LE, IR_GT, IR_GE,
	IR_LAND, IR_LOR, /* only between pure operands: no short-circuit needed */
};
struct ir_expr {
	enum ir_expr_kind kind; /* which of the fields below apply */
	long num;               /* IR_E_CONST: the value */
	int loc;                /* IR_E_LOC: location index */
	int reg;                /* IR_E_REG: register index in the thread */
	int op;                 /* IR_E_UNARY: ir_unop; IR_E_BINARY: ir_binop */
	struct ir_expr *a, *b, *c; /* operands */
	struct ir_pos pos;      /* where the expression starts */
};

/* Memory-ordering annotation of an access, as herd7 tags its events. */
enum ir_order {
	IR_ORD_PLAIN,    /* plain C access: no tag */
	IR_ORD_ONCE,     /* READ_ONCE, WRITE_ONCE, _relaxed RMWs */
	IR_ORD_ACQUIRE,  /* smp_load_acquire, _acquire RMWs */
	IR_ORD_RELEASE,  /* smp_store_release, rcu_assign_pointer, _release RMWs */
	IR_ORD_MB,       /* fully ordered RMW: F[mb]; R; W; F[mb] */
};

/* The kernel's fences, one row each: X(enumerator, herd7's tag of its F
 * event as linux-kernel.bell names it, the kernel C call that makes it).
 * The one table of them: enum ir_fence, ir_fence_name, ir_fence_call and
 * the front end's primitives (kapi.c) are made from it, and --to-c
 * (ir_to_c.c) and --kmod (kernel/kmod_instr.c) print its calls, so a
 * fence added here is parsed, named and printed alike.  The RCU
 * read-side markers are fences too. */
#define IR_FENCE_TABLE(X)                                                 \
	X(IR_F_MB, "mb", "smp_mb")                                        \
	X(IR_F_RMB, "rmb", "smp_rmb")                                     \
	X(IR_F_WMB, "wmb", "smp_wmb")                                     \
	X(IR_F_BARRIER, "barrier", "barrier")                             \
	X(IR_F_RCU_LOCK, "rcu-lock", "rcu_read_lock")                     \
	X(IR_F_RCU_UNLOCK, "rcu-unlock", "rcu_read_unlock")               \
	X(IR_F_SYNC_RCU, "sync-rcu", "synchronize_rcu")                   \
	X(IR_F_BEFORE_ATOMIC, "before-atomic", "smp_mb__before_atomic")   \
	X(IR_F_AFTER_ATOMIC, "after-atomic", "smp_mb__after_atomic")      \
	X(IR_F_AFTER_SPINLOCK, "after-spinlock", "smp_mb__after_spinlock") \
	X(IR_F_AFTER_UNLOCK_LOCK, "after-unlock-lock", "smp_mb__after_unlock_lock")

/* Fences (one F event each), in the table's order. */
enum ir_fence {
#define IR_FENCE_ENUM(e, tag, call) e,
	IR_FENCE_TABLE(IR_FENCE_ENUM)
#undef IR_FENCE_ENUM
	IR_F_OTHER,      /* a fence of a model's .def with no tag above: its
			  * model tags (ir_instr.tags) say what it is */
};

/* Read-modify-write shapes (linux-kernel.def plus herd7's add_unless). */
enum ir_rmw {
	IR_RMW_XCHG,       /* dst = old; store a */
	IR_RMW_CMPXCHG,    /* dst = old; if old == a store b (else only a read) */
	IR_RMW_OP_RETURN,  /* dst = old arith a; store that */
	IR_RMW_FETCH_OP,   /* dst = old; store old arith a */
	IR_RMW_OP,         /* no dst; store old arith a; the read is noreturn */
	IR_RMW_ADD_UNLESS, /* dst = (old != b); if so store old + a */
};

enum ir_op {
	IR_ASSIGN,      /* dst = a */
	IR_LOAD,        /* dst = load[order](a) */
	IR_STORE,       /* store[order](a, b) */
	IR_RMW,         /* dst = rmw[rmw, order, arith](a, b, c) */
	IR_FENCE,       /* fence */
	IR_LOCK,        /* spin_lock(a) */
	IR_UNLOCK,      /* spin_unlock(a) */
	IR_TRYLOCK,     /* dst = spin_trylock(a) */
	IR_ISLOCKED,    /* dst = spin_is_locked(a) */
	IR_SRCU_LOCK,   /* dst = srcu_read_lock(a) */
	IR_SRCU_UNLOCK, /* srcu_read_unlock(a, b) */
	IR_SRCU_SYNC,   /* synchronize_srcu(a) */
	IR_IF,          /* if (a) then else */
	IR_LOOP,        /* repeat body until an IR_BREAK (while/for/do) */
	IR_BREAK,       /* leave the innermost IR_LOOP */
	IR_CONTINUE,    /* next iteration of the innermost IR_LOOP */
	IR_ASSERT,      /* a must hold (BUG_ON(c), WARN_ON(c): a is !c;
			 * assert(c): a is c); text names the check */
};

/* Which events of an instruction a tag mask is for: the event (the read of
 * an RMW), an RMW's write, the read of an RMW that fails (cmpxchg,
 * add_unless), the fences around a fully ordered RMW (IR_ORD_MB). */
enum { IR_TAG_EV, IR_TAG_W, IR_TAG_FAIL, IR_TAG_FENCE, IR_TAG_SLOTS };

struct ir_block {
	struct ir_instr *items; /* the instructions, in program order */
	int count;              /* how many */
};

struct ir_instr {
	enum ir_op op;          /* what it does */
	struct ir_pos pos;      /* source position of the primitive or statement */
	const char *text;       /* source text of the call/statement, for output */
	int dst;                /* destination register index, -1 if none */
	struct ir_expr *a, *b, *c; /* operands: address first, then values */
	enum ir_order order;    /* IR_LOAD/STORE/RMW: ordering annotation */
	enum ir_fence fence;    /* IR_FENCE: which fence */
	enum ir_rmw rmw;        /* IR_RMW: which shape */
	enum ir_binop arith;    /* IR_RMW op forms: IR_ADD or IR_SUB */
	unsigned long tags[IR_TAG_SLOTS]; /* model tags of its events (bits
				 * of ir_program.tag_names; all 0 with the
				 * built-in primitives), see IR_TAG_* */
	struct ir_block then_b; /* IR_IF: then branch; IR_LOOP: body */
	struct ir_block else_b; /* IR_IF: else branch (may be empty) */
};

struct ir_thread {
	int id;                 /* process number N of PN */
	struct ir_pos pos;      /* position of "PN(" */
	struct ir_reg *regs;    /* registers, indexed by ir_expr.reg / dst */
	int nregs;              /* how many */
	int *params;            /* location index of each parameter */
	int nparams;            /* how many parameters */
	struct ir_block body;   /* the thread's code */
};

/* Final condition language. */
enum ir_cond_kind { IR_C_TRUE, IR_C_FALSE, IR_C_ATOM, IR_C_NOT, IR_C_AND, IR_C_OR,
		   IR_C_EXPR /* a program's final assert: a C condition */ };
/* What an atom or a "locations" item observes. */
struct ir_observable {
	int thread;             /* thread id for a register, -1 for a location */
	int index;              /* register index in that thread, or location */
};
struct ir_cond {
	enum ir_cond_kind kind; /* which of the fields apply */
	struct ir_observable lhs;  /* IR_C_ATOM: what is compared */
	struct ir_value rhs;       /* IR_C_ATOM: with this value (equality) */
	struct ir_cond *a, *b;     /* IR_C_NOT (a), IR_C_AND/OR (a, b) */
	struct ir_pos pos;
	/* Added by the front end: herd7 also compares two observables,
	 * as in "0:r1=1:r2" or "x=0:r1". */
	int rhs_is_obs;            /* IR_C_ATOM: 1 when rhs_obs replaces rhs */
	struct ir_observable rhs_obs; /* IR_C_ATOM: the observable compared */
	/* Added for whole C programs (frontend/cprog.c): */
	struct ir_expr *expr;      /* IR_C_EXPR: holds when non-zero; an
				    * IR_E_LOC in it is that location's
				    * final value; only + - *, comparisons,
				    * !, unary -, && and || */
	const char *text;          /* IR_C_EXPR: its source text */
};

enum ir_quant { IR_Q_EXISTS, IR_Q_NOT_EXISTS, IR_Q_FORALL };

/* A whole C program's assert() (or BUG_ON()) in main after the joins:
 * checked on the final state.  The program's condition is "forall" of
 * their conjunction; each is also asked on its own, to name the one that
 * fails. */
struct ir_final_assert {
	struct ir_cond *cond;   /* what must hold at the end */
	struct ir_pos pos;      /* where it stands in main */
	const char *text;       /* its source text */
};

struct ir_program {
	struct arena *arena;    /* owns everything below */
	const char *file;       /* path of the litmus file */
	const char *name;       /* test name from the "C name" header */
	struct ir_location *locs; /* shared locations */
	int nlocs;
	struct ir_thread *threads; /* processes, threads[i].id == i */
	int nthreads;
	struct ir_observable *observed; /* the "locations [...]" clause */
	int nobserved;
	struct ir_cond *filter;  /* the filter clause, NULL if none */
	enum ir_quant quant;     /* exists / ~exists / forall */
	struct ir_cond *cond;    /* the final condition (inside the quantifier) */
	const char *cond_text;   /* the condition as herd7 prints it */
	int is_program;          /* 1: read from a whole C program (answers
				  * in its terms: solver/check.c) */
	struct ir_final_assert *asserts; /* a program's final asserts */
	int nasserts;            /* how many */
	const char **thread_fn;  /* a program: per thread, "fn(arg)"; NULL
				  * for a litmus test */
	const char *const *tag_names; /* the model tags instructions carry
				  * (bit i: tag_names[i]), from the .def the
				  * program was lowered with; NULL with the
				  * built-in primitives.  Not owned: the
				  * macro table's (frontend/kapi.h) */
	int ntags;               /* how many */
};

void ir_program_free(struct ir_program *prog);

/* Abort (common/check.h) when p breaks an invariant its consumers rely
 * on: every register, location and observable index in range, threads
 * numbered in order, operands present, break/continue inside a loop, no
 * model tags without a .def (ir_check.c).  The front end calls it on what
 * it returns when common/check.h's deep checks are on. */
void ir_program_check(const struct ir_program *p);

/* The observables a final state shows, in herd7's order: those of the
 * final condition and of the "locations" clause, once each, registers (by
 * thread, then name) before locations (by name).  *cols is malloc'ed;
 * returns how many. */
int ir_columns(const struct ir_program *p, struct ir_observable **cols);

/* A column's name as herd7 prints it: "0:r1" or "[x]". */
void ir_column_label(const struct ir_program *p, struct ir_observable o,
		     char *buf, size_t size);

/* Find a location by name; -1 when absent. */
int ir_find_loc(const struct ir_program *prog, const char *name);

/* Names for printing (stable; used by --dump-ir and the output). */
const char *ir_order_name(enum ir_order order);
/* herd7's tag of a fence ("mb"; "other" for IR_F_OTHER). */
const char *ir_fence_name(enum ir_fence fence);
/* The kernel C call of a fence ("smp_mb"), NULL for IR_F_OTHER, which no
 * kernel call makes. */
const char *ir_fence_call(enum ir_fence fence);
const char *ir_rmw_name(enum ir_rmw rmw);
const char *ir_binop_name(enum ir_binop op);
/* x op y as the encoding computes it on 64 bits (x / 0 and x % 0 are 0,
 * shifts as bvshl/bvashr), into *r; 0 when it overflows a long.  The one
 * evaluator of constants: encoder/values.c and the C front end's folding
 * (cl_fold) both call it. */
int ir_apply_binop(enum ir_binop op, long x, long y, long *r);

#endif
