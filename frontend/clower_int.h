/*
 * clower_int.h - private to clower*.c and cprog.c: the state of one thread's
 * lowering and the functions the lowering's files share (cprog.c lowers a
 * program's threads and reads main with them).  Nobody else includes it.
 */
#ifndef LKMMC_CLOWER_INT_H
#define LKMMC_CLOWER_INT_H

#include <stddef.h>

#include <clang-c/Index.h>

#include "fe.h"
#include "kapi.h"

struct ctu;

/* A block being built. */
struct bb {
	struct ir_instr *v; /* instructions */
	int n, cap;         /* count, room */
};

/* Where an instruction comes from. */
struct src {
	struct ir_pos pos; /* line:col of the call or statement */
	const char *text;  /* its source text */
};

/* What is known about a register while lowering (parallel to regs). */
struct regx {
	int implicit;     /* never declared: herd7 implicit register */
	int assigned;     /* written somewhere (or initialised) */
	size_t first_use; /* litmus offset of its first use */
};

/* What a parameter or local of an inlined helper stands for. */
struct binding {
	CXCursor decl;        /* its ParmDecl or VarDecl */
	int reg;              /* the register holding it, -1 when val is set */
	struct ir_expr *val;  /* a parameter bound to a constant or address */
};

/* One inlined call of a helper function of the preamble. */
struct frame {
	CXCursor fn;            /* the helper's definition */
	const char *name;       /* its name */
	int instance;           /* which inlined call of the thread (1, 2, ...) */
	int ret;                /* register of the return value, -1 for void */
	int flag;               /* set to 1 by a return inside a loop, -1 if none */
	int wrapped;            /* 1: the body is a one-pass IR_LOOP that a
				 * return leaves with IR_BREAK */
	int loop_base;          /* open loops when the body started */
	int nreturns;           /* return statements lowered so far */
	int cond_at_entry;      /* lw.cond when the call was inlined */
	size_t call_off;        /* litmus offset of the call in the litmus file
				 * (positions in headers map there) */
	struct binding *binds;  /* its parameters and locals */
	int nbinds, cap;        /* count, room */
	struct frame *outer;    /* the caller's frame, NULL in the process body */
};

/* A label whose gotos are lowered as the continue (backward) or break
 * (forward) of a one-pass loop around the code between them. */
struct jump {
	CXCursor label;  /* the LabelStmt */
	int depth;       /* w->nloops inside that loop */
	int backward;    /* 1: goto = IR_CONTINUE; 0: goto = IR_BREAK */
};

/* What an open loop of the IR is, for break and continue. */
enum loop_kind {
	LOOP_NO_CONTINUE, /* continue would skip a do-while's test or a for's
			   * increment, or leave an inlined helper's body */
	LOOP_CONTINUE,    /* a loop continue may go round again */
	LOOP_SWITCH,      /* the one-pass loop of a switch */
	LOOP_GOTO,        /* the one-pass loop of a goto region */
};

/* The lowering of one thread. */
struct lw {
	struct ctu *t;            /* the test and its TU */
	struct fe *fe;            /* the parse */
	const struct fe_proc *p;  /* the process */
	int tid;                  /* its thread index */
	enum loop_kind loops[64]; /* open loops, innermost last */
	int nloops;               /* how many */
	struct regx *rx;          /* per register */
	int nrx;                  /* room in rx */
	struct frame *fr;         /* innermost inlined helper, NULL if none */
	int ninlines;             /* helper calls inlined so far */
	int cond;                 /* nesting of conditional code (if arms,
				   * loop bodies, && || ?: operands) */
	struct jump *jumps;       /* labels that gotos may reach */
	int njumps, jcap;         /* count, room */
	int exits;                /* a program's thread: 1 + the register that
				   * abort()/exit() sets to 1, 0 when none */
	int in_main;              /* 1: main's code before the first
				   * pthread_create (cprog_init.c runs it
				   * on the initial state) */
	int assumes;              /* a program's thread: 1 + the register a
				   * false __VERIFIER_assume() sets to 1 (the
				   * execution is discarded), 0 when none */
};

/* Pseudo destinations for cl_call(). */
#define DST_NONE (-1)   /* result discarded */
#define DST_VALUE (-2)  /* result wanted in a fresh temporary */

/* An operator expression: UnaryOperator, BinaryOperator,
 * CompoundAssignOperator, or a RecoveryExpr of either shape (an expression
 * with a type error that clang kept; see cparse.c).  The operator comes
 * from the AST (libclang's operator kinds), wherever it is written (in a
 * macro's body, through its parameters, nested); a RecoveryExpr has none
 * in the AST, so its operator is the token between its operands in the
 * source text. */
struct opform {
	int nkids;       /* 1 unary, 2 binary, 0 not an operator expression */
	CXCursor kid[2]; /* the operands */
	char op[4];      /* the operator token */
	int postfix;     /* unary x++ / x-- */
	int in_macro;    /* a RecoveryExpr whose operator is not in the source
			  * text (it comes from a macro's body): unknown */
};

/* Virtual-file offsets of the start and end of cursor c (w in scope). */
#define b_start(c) cl_b_start(w->t, (c))
#define b_end(c) cl_b_end(w->t, (c))

/* --- clower_util.c: positions, text, cursors, IR construction ---------- */

/* Offset in the virtual file of a location; (size_t)-1 in another file
 * (a header the preamble includes). */
size_t cl_vfile_off(const struct ctu *t, CXSourceLocation loc);
/* Virtual-file offsets of the start and end of cursor c. */
size_t cl_b_start(const struct ctu *t, CXCursor c);
size_t cl_b_end(const struct ctu *t, CXCursor c);
/* Litmus offset of a buffer offset (the call of the helper, or the body
 * start, when unmapped). */
size_t cl_lit(const struct lw *w, size_t boff);
/* Where c comes from: its position and source text. */
struct src cl_src_of(const struct lw *w, CXCursor c);
/* Record an error at c; returns 0. */
int cl_err_at(struct lw *w, CXCursor c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The cursor's spelling, copied into the IR arena. */
char *cl_spell(struct lw *w, CXCursor c);
/* The expression children of c (at most max); returns how many. */
int cl_expr_kids(struct lw *w, CXCursor c, CXCursor *out, int max);
/* Strip parentheses, casts and implicit conversions. */
CXCursor cl_strip(struct lw *w, CXCursor c);
/* Read e as an operator expression into *f (f->nkids 0 when it is not). */
void cl_opform(struct lw *w, CXCursor e, struct opform *f);
/* clower_call.c: does a call of this name print (printf, puts, ...: no
 * effect on the memory the model sees)? */
int cl_is_print(const char *name);
/* The value of a pure expression of constants (after cl_rv): 1 and *v,
 * or 0 when it is not one. */
int cl_fold(const struct ir_expr *e, long *v);
/* Is op an assignment operator ("=", "+=", ...)? */
int cl_is_assign_op(const char *op);
/* The IR binary operator spelled op; 0 when there is none. */
int cl_binop_of(const char *op, enum ir_binop *out);

/* New IR expressions in the IR arena. */
struct ir_expr *cl_mk(struct lw *w, enum ir_expr_kind kind, struct ir_pos pos);
struct ir_expr *cl_mk_const(struct lw *w, long num, struct ir_pos pos);
struct ir_expr *cl_mk_reg(struct lw *w, int reg, struct ir_pos pos);
struct ir_expr *cl_mk_un(struct lw *w, enum ir_unop op, struct ir_expr *a);
struct ir_expr *cl_mk_bin(struct lw *w, enum ir_binop op, struct ir_expr *a,
			  struct ir_expr *b);
/* Track register r (grow rx as registers appear). */
struct regx *cl_rx(struct lw *w, int r);
/* A fresh temporary register (%tN). */
int cl_temp(struct lw *w, struct ir_pos pos);
/* A new instruction at the end of b; valid until the next emit into b. */
struct ir_instr *cl_emit(struct lw *w, struct bb *b, enum ir_op op,
			 struct src s, int dst);
/* The finished block of b. */
struct ir_block cl_fin(struct bb *b);

/* --- clower_expr.c: expressions, registers, fields and elements --------- */

/* Bind a parameter or local of the innermost inlined helper to register
 * reg, or (reg -1) to the constant or address val. */
struct binding *cl_bind(struct lw *w, CXCursor decl, int reg,
			struct ir_expr *val);
/* A fresh register for a parameter or local of the helper being inlined:
 * "helper:name", "helper:name#2" for the second inlined call. */
int cl_frame_reg(struct lw *w, CXCursor decl);
/* The register a VarDecl names, created on first use. */
int cl_reg_of(struct lw *w, CXCursor decl, CXCursor use);
/* The register an assignment target names, or -1 (error recorded). */
int cl_target_reg(struct lw *w, CXCursor lhs, const char *what);
/* Is c (stripped) memory: a prefix "*p" (sets *ptr to p), a struct field
 * "s->f" / "s.f" or an array element "a[i]" (sets *ptr to c)?  cl_lv_addr()
 * gives its address. */
int cl_is_deref(struct lw *w, CXCursor c, CXCursor *ptr);
/* In a whole C program, the location a file-scope variable named by c
 * (stripped) is; -1 for anything else. */
int cl_global_loc(struct lw *w, CXCursor c);
/* dst = value of rhs, with the access itself writing dst when rhs is one
 * (r = READ_ONCE(*x) is one load, not a load and a copy). */
int cl_assign_to(struct lw *w, int dst, CXCursor rhs, struct bb *b,
		 struct src s);
/* r = r op v for a register, or a plain load and store for *p. */
int cl_update(struct lw *w, CXCursor target, enum ir_binop op,
	      const CXCursor *rhs, struct bb *b, struct src s, int in_expr,
	      struct ir_expr **val);
/* A compound assignment "x op= v" (f read by cl_opform); its value when
 * in_expr. */
struct ir_expr *cl_compound(struct lw *w, CXCursor e, const struct opform *f,
			    struct bb *b, struct src s, int in_expr);
/* The value of expression c, its accesses appended to b; NULL with the
 * error recorded. */
struct ir_expr *cl_rv(struct lw *w, CXCursor c, struct bb *b);
/* The address of memory lvalue c: "*p", "s->f", "s.f", "a[i]". */
struct ir_expr *cl_lv_addr(struct lw *w, CXCursor c, struct bb *b);

/* --- clower_call.c: kernel primitives and inlined helpers --------------- */

/* The call c: its result in register dst (or DST_NONE, DST_VALUE: then
 * *val is set).  Returns 1, or 0 with the error recorded. */
int cl_call(struct lw *w, CXCursor c, struct bb *b, int dst, struct src s,
	    struct ir_expr **val);
/* In a program, does argument arg name a local variable or parameter of
 * the thread (not a global)?  READ_ONCE(r), rcu_dereference(r) and
 * WRITE_ONCE(r, v) of one are cl_local_access(). */
int cl_names_local(struct lw *w, CXCursor arg);
/* READ_ONCE(r) and the like (c; store: WRITE_ONCE(r, v)) on a local r of
 * a program's thread: r is thread-private, a register with no events in
 * the model, as a litmus test's registers are, so the access is r's
 * value (the store, an assignment to r), as cl_call. */
int cl_local_access(struct lw *w, CXCursor c, int store, struct bb *b, int dst,
		    struct src s, struct ir_expr **val);
/* The body of function def inlined at c with its parameters bound to
 * argv (one value per parameter): what a helper call and a program's
 * thread (frontend/cprog.c) share. */
int cl_inline(struct lw *w, CXCursor c, CXCursor def, struct ir_expr **argv,
	      struct bb *b, int dst, struct src s, struct ir_expr **val);

/* --- clower_mem.c: memset and memcpy in a program ----------------------- */

/* memset(), memcpy() (name) call c in a program: in main's initial code,
 * a whole global set to 0 or copied from another (stores to each of its
 * locations, appended to b); else a located error saying what to write
 * instead.  As cl_call. */
int cl_mem_call(struct lw *w, CXCursor c, const char *name, struct bb *b,
		int dst, struct src s, struct ir_expr **val);

/* --- clower_def.c: macros of a model's .def ---------------------------- */

/* The call c of K_DEF macro k (arity and value already checked), as
 * cl_call. */
int cl_def_call(struct lw *w, CXCursor c, const struct kapi *k, struct bb *b,
		int dst, struct src s, struct ir_expr **val);

/* --- clower.c: statements ------------------------------------------------ */

/* Open a loop of the given kind; 0 (error recorded) when nested too deep. */
int cl_push_loop(struct lw *w, CXCursor c, enum loop_kind kind);
/* A local variable declaration (with its initialiser). */
int cl_decl(struct lw *w, CXCursor vd, struct bb *b);
/* Statement c, appended to b. */
int cl_stmt(struct lw *w, CXCursor c, struct bb *b);
/* Leave the innermost inlined frame here (a return, once its value is
 * stored; a program thread's abort()): an IR_BREAK of its one-pass loop
 * when it is wrapped. */
int cl_leave_frame(struct lw *w, struct bb *b, struct src s);

#endif
