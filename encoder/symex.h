/*
 * symex.h - what the files of symbolic execution share (symex.c: the
 * instructions; symex_deps.c: dependency sets; symex_eval.c: expressions;
 * symex_path.c: paths, joins and loops), and nobody else sees: the
 * context of one thread's run and the state of one path.
 */
#ifndef LKMMC_ENCODER_SYMEX_H
#define LKMMC_ENCODER_SYMEX_H

#include "encoder/encoder.h"
#include "encoder/internal.h"
#include "encoder/z3util.h"

/* A set of read events, sorted, immutable once built. */
struct deps {
	int *ids;      /* event indices */
	Z3_ast *cond;  /* when the dependency holds (NULL entry: always) */
	int n;         /* how many */
};

/* herd7 computes dependencies from the event graph of one path: data
 * flow (addr, data) is value flow through registers and arithmetic; ctrl
 * runs from the reads a branch condition depends on to the events inside
 * the branch, where a register written inside a branch counts as one of
 * those events, so a condition on it later is ctrl-dependent on the
 * first branch's reads too (its value need not come from them: `if (r0)
 * t = 1; else t = 0; if (t) W` orders W after r0's read).  Such control
 * reads never become data or addr: `WRITE_ONCE(*y, t)` after the join
 * depends on nothing.  Hence two sets per register, each path-sensitive
 * (an entry's condition says on which paths it holds). */
struct regval {
	Z3_ast v;       /* symbolic value */
	struct deps d;  /* reads its value flows from (addr, data, ctrl) */
	struct deps t;  /* reads deciding the branches that assigned it, or
			 * that of the registers it was computed from (ctrl
			 * only) */
};

struct state {
	Z3_ast guard;        /* path condition */
	struct regval *regs; /* one per register of the thread */
};

struct loop_ctx {
	struct state *exits;   /* states leaving by break */
	int nexits, cap;       /* count, capacity */
	struct state *conts;   /* states reaching continue */
	int nconts, ccap;      /* count, capacity */
	struct loop_ctx *outer;/* enclosing loop */
};

struct symex {
	struct encoding *enc;     /* where events go */
	Z3_context z;             /* enc->z */
	struct rel_ctx *rc;       /* &enc->rc: its and/or/fresh terms */
	struct diag *d;           /* first error */
	int unroll;               /* loop bound */
	const struct ir_thread *th; /* thread being run */
	int po;                   /* next program-order index */
	int cap;                  /* capacity of enc->ev */
	struct deps ctrl;         /* reads deciding the current path */
	Z3_ast named_from;        /* the last guard sx_path_guard named */
	Z3_ast named;             /* its name */
	struct loop_ctx *loop;    /* innermost loop */
	Z3_ast f;                 /* false literal */
	Z3_ast t;                 /* true literal */
	Z3_ast stopped;           /* paths of this thread stopped at a bound */
	const unsigned char *plain_written; /* per location: a plain store may
				   * write it (spin_plain_written) */
	int failed;               /* an error was reported */
};

/* Whether a guard is false (rel.c's and2/or2 use NULL for false). */
static inline int is_false(struct symex *sx, Z3_ast g)
{
	return !g || Z3_get_bool_value(sx->z, g) == Z3_L_FALSE;
}

/* a || b as a literal: the false one where rel_or2 gives NULL. */
static inline Z3_ast or_lit(struct symex *sx, Z3_ast a, Z3_ast b)
{
	Z3_ast r = rel_or2(sx->rc, a, b);
	return r ? r : sx->f;
}

/* A truth value as C's number: 1 or 0. */
static inline Z3_ast b2i(struct symex *sx, Z3_ast b)
{
	return Z3_mk_ite(sx->z, b, z3u_int(sx->z, 1), z3u_int(sx->z, 0));
}

/* A number as C's truth value: v != 0. */
static inline Z3_ast nonzero(struct symex *sx, Z3_ast v)
{
	return Z3_mk_not(sx->z, Z3_mk_eq(sx->z, v, z3u_int(sx->z, 0)));
}

/* Dependency sets (symex_deps.c): a | b; a when g holds; a where g holds
 * and b elsewhere; the one read e. */
struct deps sx_deps_union(struct symex *sx, struct deps a, struct deps b);
struct deps sx_deps_when(struct symex *sx, struct deps a, Z3_ast g);
struct deps sx_deps_merge(struct symex *sx, struct deps a, struct deps b,
			  Z3_ast g);
struct deps sx_deps_one(struct symex *sx, int e);

/* Expressions (symex_eval.c): e's value in st, and a op b of two values
 * (an RMW's arithmetic). */
struct regval sx_eval(struct symex *sx, struct state *st,
		      const struct ir_expr *e);
Z3_ast sx_arith(struct symex *sx, enum ir_binop op, Z3_ast a, Z3_ast b);

/* Paths (symex_path.c): a path condition named once in the facts; a copy
 * of a state; states merged by their guards; a state appended to an
 * array; an IR_LOOP run from st. */
Z3_ast sx_path_guard(struct symex *sx, Z3_ast g);
struct state sx_copy_state(struct symex *sx, const struct state *st);
struct state sx_merge(struct symex *sx, struct state *s, int k);
void sx_push_state(struct symex *sx, struct state **arr, int *n, int *cap,
		   struct state s);
void sx_exec_loop(struct symex *sx, struct state *st, const struct ir_instr *in);

/* The instructions of block b run from st (symex.c). */
void sx_exec_block(struct symex *sx, struct state *st, const struct ir_block *b);

#endif
