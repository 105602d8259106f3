/*
 * irb.h - an IR builder for unit tests: programs written instruction by
 * instruction, without the front end.
 *
 * A program has locations x, y, z, l, ... (ctype int) and threads with
 * registers r0 and r1; its condition is "forall (true)" until set.  Blocks
 * grow as instructions are added.  Everything lives in the program's arena
 * (ir_program_free).  It checks nothing: the tests build valid IR.
 */
#ifndef LKMMC_TESTS_IRB_H
#define LKMMC_TESTS_IRB_H

#include "frontend/ir.h"

struct arena;

struct irb {
	struct ir_program *p; /* what is built */
	struct arena *a;      /* where (p->arena) */
};

struct irb irb_new(const char *name, int nlocs, int nthreads);

/* Expressions: of kind k with the number, location or register v. */
struct ir_expr *irb_expr(struct irb *b, enum ir_expr_kind k, long v);
struct ir_expr *irb_num(struct irb *b, long v);
struct ir_expr *irb_loc(struct irb *b, int l);
struct ir_expr *irb_reg(struct irb *b, int r);
struct ir_expr *irb_bin(struct irb *b, enum ir_binop op, struct ir_expr *l,
			struct ir_expr *r);

/* Thread t's body. */
struct ir_block *irb_body(struct irb *b, int t);
/* A new instruction at the end of blk (no destination, ONCE order, line
 * 10 + its index); valid until the next one is added to blk. */
struct ir_instr *irb_add(struct irb *b, struct ir_block *blk, enum ir_op op);
/* Shorthands: location l = v; register reg = location l; a fence; if (c)
 * break; */
void irb_store(struct irb *b, struct ir_block *blk, int l, struct ir_expr *v,
	       enum ir_order o);
void irb_load(struct irb *b, struct ir_block *blk, int reg, int l,
	      enum ir_order o);
void irb_fence(struct irb *b, struct ir_block *blk, enum ir_fence f);
void irb_break_if(struct irb *b, struct ir_block *blk, struct ir_expr *c);

/* Final conditions: thread t's register reg = v; location l = v; and. */
struct ir_cond *irb_reg_is(struct irb *b, int t, int reg, long v);
struct ir_cond *irb_loc_is(struct irb *b, int l, long v);
struct ir_cond *irb_and(struct irb *b, struct ir_cond *x, struct ir_cond *y);
/* exists (c) */
void irb_exists(struct irb *b, struct ir_cond *c);
/* Add thread's register index (thread -1: location index) to the
 * "locations [...]" clause. */
void irb_observe(struct irb *b, int thread, int index);

#endif
