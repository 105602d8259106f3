/*
 * cprog_int.h - what the files reading a whole C program share
 * (cprog.c: main and the translation unit; cprog_global.c: the globals;
 * cprog_init.c: main's initial stores; cprog_cond.c: main's final
 * asserts): the state of reading one program
 * and its small tools.  Not a public interface: cparse.h is.
 */
#ifndef LKMMC_CPROG_INT_H
#define LKMMC_CPROG_INT_H

#include "clower_int.h"
#include "kapi.h"

/* At most this many threads, and iterations of a loop in main. */
#define MAX_THREADS 64

/* One thread main starts. */
struct spawn {
	CXCursor fn;          /* its function's definition */
	struct ir_expr *arg;  /* the argument: constant or address */
	const char *label;    /* "fn(arg)" for messages */
};

/* A pthread_t handle ("t", "t[2]") and the thread it started. */
struct handle {
	const char *key; /* the handle's name and index */
	int tid;         /* the thread */
	int joined;      /* 1 once joined */
};

/* Where main is. */
enum phase {
	PH_INIT,  /* before the first pthread_create: initial stores */
	PH_SPAWN, /* creating threads */
	PH_JOIN,  /* joining them (and asserting on the end state) */
};

/* A local of main given a value over the final state after the joins
 * (int a = READ_ONCE(x);): main's asserts read that expression. */
struct final_local {
	CXCursor decl; /* the local */
	CXCursor expr; /* what it was last given */
};

/* The state of reading one program. */
struct cprog {
	struct ctu *t;                  /* the TU */
	struct fe *fe;                  /* the parse */
	struct lw w;                    /* main's lowering (its values) */
	struct frame fr;                /* main's frame: loop indices */
	struct fe_proc mainp;           /* main as a process, for positions */
	struct spawn th[MAX_THREADS];   /* threads in creation order */
	int nth;                        /* how many */
	struct handle h[MAX_THREADS];   /* handles */
	int nh;                         /* how many */
	enum phase phase;               /* where main is */
	struct ir_final_assert *as;     /* final asserts */
	int nas, ascap;                 /* count, room */
	int exits[MAX_THREADS];         /* per thread: 1 + the register its
					 * abort()/exit() sets, 0: none */
	struct final_local *fl;         /* main's locals read after the joins */
	int nfl, flcap;                 /* count, room */
	int assumes[MAX_THREADS];       /* per thread: 1 + the register a
					 * false __VERIFIER_assume() sets, 0:
					 * none */
	struct ir_cond *keep;           /* main's __VERIFIER_assume()s after
					 * the joins, as one condition on the
					 * final state (NULL: none) */
};

/* The value of expression c in main, without any access: a constant or
 * a global's address, into *out.  0 (no error recorded) when it is not
 * one; -1 when lowering it failed (error recorded). */
int cprog_main_value(struct cprog *pc, CXCursor c, struct ir_value *out);
/* The called function's name of call c. */
char *cprog_callee(struct cprog *pc, CXCursor c);
/* Is the type spelled ty a pthread handle (or an array of them)? */
int cprog_is_handle_type(const char *ty);
/* The spelling of c's type. */
char *cprog_type_of(struct cprog *pc, CXCursor c);

/* Has every thread main created been joined? */
int cprog_all_joined(const struct cprog *pc);
/* e, or when e names a local of main given a final-state expression
 * after the joins, that expression (followed through such locals). */
CXCursor cprog_final_alias(struct cprog *pc, CXCursor e);

/* cprog_global.c: the initialiser of VarDecl v, if any. */
int cprog_var_init(struct cprog *pc, CXCursor v, CXCursor *init);
/* cprog_global.c: declare the file-scope variable v as a shared location. */
int cprog_declare_global(struct cprog *pc, CXCursor v);
/* cprog_init.c: main's statement c before the first pthread_create, run
 * on the initial state (stores set it). */
int cprog_init_store(struct cprog *pc, CXCursor c);
/* cprog_init.c: the value of expression e of main before the first
 * pthread_create, reading the globals' initial values, into *out; 0 (no
 * error recorded) when it is none, -1 on an error (recorded). */
int cprog_init_value(struct cprog *pc, CXCursor e, struct ir_value *out);
/* cprog_cond.c: main's assert() or BUG_ON() call c (k: which), checked on
 * the final state. */
int cprog_assert(struct cprog *pc, CXCursor c, const struct kapi *k);
/* cprog_cond.c: once the threads are lowered, each assert holds too on a
 * path that ends at abort() or exit(). */
void cprog_exempt_exits(struct cprog *pc);
/* cprog_cond.c: main's __VERIFIER_assume() call c after the joins: the
 * executions whose final state makes its argument false are discarded. */
int cprog_assume(struct cprog *pc, CXCursor c);
/* cprog_cond.c: the program's filter (ir_program.filter), once the
 * threads are lowered: no thread's __VERIFIER_assume() was false, and
 * main's hold on the final state; NULL when there are none. */
struct ir_cond *cprog_filter(struct cprog *pc);

#endif
