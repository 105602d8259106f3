/*
 * test_encoder.c - unit tests of the encoder's symbolic execution
 * (encode_program, encoder/encoder.h) on IR built by hand: the events and
 * guards of a branch, a loop unrolled to the bound, a register dependency
 * through a branch, and C's arithmetic (division truncating toward zero,
 * x / 0 = 0).  Claims about terms are proved with Z3 from the program's
 * facts alone (no model, no rf choice); it uses only encoder.h, not the
 * encoder's internals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "encoder/encoder.h"
#include "frontend/ir.h"
#include "tests/encfix.h"
#include "tests/irb.h"

/* Do the program's facts imply claim (1), or is claim possible with them
 * (possible: 1)? */
static int ask(const struct encfix *f, Z3_ast claim, int possible)
{
	Z3_context z = f->z;
	Z3_solver s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, s);
	for (unsigned i = 0; i < Z3_ast_vector_size(z, f->enc->facts); i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, f->enc->facts, i));
	Z3_solver_assert(z, s, possible ? claim : Z3_mk_not(z, claim));
	Z3_lbool r = Z3_solver_check(z, s);
	Z3_solver_dec_ref(z, s);
	assert_int_not_equal(r, Z3_L_UNDEF);
	return possible ? r == Z3_L_TRUE : r == Z3_L_FALSE;
}

static int holds(const struct encfix *f, Z3_ast claim)
{
	return ask(f, claim, 0);
}

static int possible(const struct encfix *f, Z3_ast claim)
{
	return ask(f, claim, 1);
}

/* The events of instruction in (one per iteration for a loop's), in
 * order; their number in *n. */
static int events_of(const struct encoding *enc, const struct ir_instr *in,
		     int *ev, int max)
{
	int n = 0;
	for (int e = 0; e < enc->n; e++)
		if (enc->ev[e].instr == in && n < max)
			ev[n++] = e;
	return n;
}

/* The one event of in. */
static int event_of(const struct encoding *enc, const struct ir_instr *in)
{
	int ev[2];
	assert_int_equal(events_of(enc, in, ev, 2), 1);
	return ev[0];
}

static Z3_ast eq(const struct encfix *f, Z3_ast a, long v)
{
	return Z3_mk_eq(f->z, a, Z3_mk_int64(f->z, v, Z3_get_sort(f->z, a)));
}

static Z3_ast iff(const struct encfix *f, Z3_ast a, Z3_ast b)
{
	return Z3_mk_iff(f->z, a, b);
}

static Z3_ast implies(const struct encfix *f, Z3_ast a, Z3_ast b)
{
	return Z3_mk_implies(f->z, a, b);
}

static int has_dep(const int *dep, int n, int e)
{
	for (int i = 0; i < n; i++)
		if (dep[i] == e)
			return 1;
	return 0;
}

static int thread_events(const struct encoding *enc, int t)
{
	int n = 0;
	for (int e = 0; e < enc->n; e++)
		n += enc->ev[e].thread == t;
	return n;
}

/* P1: x = 1;  P0: r0 = x; if (r0 == 1) ...: the IF (branches empty,
 * valid until P0 grows). */
static struct ir_instr *if_read_one(struct irb *b)
{
	irb_store(b, irb_body(b, 1), 0, irb_num(b, 1), IR_ORD_ONCE);
	struct ir_block *p0 = irb_body(b, 0);
	irb_load(b, p0, 0, 0, IR_ORD_ONCE);
	struct ir_instr *in = irb_add(b, p0, IR_IF);
	in->a = irb_bin(b, IR_EQ, irb_reg(b, 0), irb_num(b, 1));
	return in;
}

/* P0: r0 = x; if (r0 == 1) y = 1; else z = 1;  P1: x = 1;
 * Three events in P0; each store's guard is its branch's condition on
 * the value read, the two exclusive, and both depend on the read by
 * control. */
static void test_branch(void **state)
{
	(void)state;
	struct irb b = irb_new("branch", 3, 2);
	struct ir_block *p0 = irb_body(&b, 0);
	struct ir_instr *in = if_read_one(&b);
	irb_store(&b, &in->then_b, 1, irb_num(&b, 1), IR_ORD_ONCE);
	irb_store(&b, &in->else_b, 2, irb_num(&b, 1), IR_ORD_ONCE);
	struct encfix f;
	encfix_open(&f, b);
	const struct encoding *enc = f.enc;
	assert_int_equal(thread_events(enc, 0), 3);
	int r = event_of(enc, &p0->items[0]);
	int wy = event_of(enc, &p0->items[1].then_b.items[0]);
	int wz = event_of(enc, &p0->items[1].else_b.items[0]);
	assert_true(enc->ev[r].cls & EVC_BIT(EVC_R));
	assert_true(enc->ev[wy].cls & EVC_BIT(EVC_W));
	assert_true(enc->ev[wz].cls & EVC_BIT(EVC_W));
	assert_int_equal(enc->ev[wy].loc, 1);
	assert_int_equal(enc->ev[wz].loc, 2);
	assert_true(enc->ev[r].po < enc->ev[wy].po);
	assert_true(holds(&f, enc->ev[r].guard));
	Z3_ast one = eq(&f, enc->ev[r].val, 1);
	assert_true(possible(&f, one));
	assert_true(possible(&f, Z3_mk_not(f.z, one)));
	assert_true(holds(&f, iff(&f, enc->ev[wy].guard, one)));
	assert_true(holds(&f, iff(&f, enc->ev[wz].guard, Z3_mk_not(f.z, one))));
	assert_true(holds(&f, eq(&f, enc->ev[wy].val, 1)));
	assert_true(has_dep(enc->ev[wy].ctrl_dep, enc->ev[wy].nctrl_dep, r));
	assert_true(has_dep(enc->ev[wz].ctrl_dep, enc->ev[wz].nctrl_dep, r));
	assert_int_equal(enc->ev[r].nctrl_dep, 0);
	encfix_close(&f);
}

/* P0: loop { r0 = x; y = 1; if (r0) break; }  P1: x = 1;  at unroll k: k reads of x
 * (and k stores: no iteration is without effect, which the encoder could
 * leave out), the i+1-th only after the i-th read 0; the loop still runs
 * at the bound on the path where every read gave 0. */
static void loop_at(int k)
{
	struct irb b = irb_new("loop", 2, 2);
	irb_store(&b, irb_body(&b, 1), 0, irb_num(&b, 1), IR_ORD_ONCE);
	struct ir_block *p0 = irb_body(&b, 0);
	struct ir_instr *loop = irb_add(&b, p0, IR_LOOP);
	irb_load(&b, &loop->then_b, 0, 0, IR_ORD_ONCE);
	irb_store(&b, &loop->then_b, 1, irb_num(&b, 1), IR_ORD_ONCE);
	irb_break_if(&b, &loop->then_b, irb_reg(&b, 0));
	struct encfix f;
	encfix_open_unroll(&f, b, k);
	const struct encoding *enc = f.enc;
	int ev[8];
	int n = events_of(enc, &p0->items[0].then_b.items[0], ev, 8);
	assert_int_equal(n, k);
	assert_int_equal(thread_events(enc, 0), 2 * k);
	assert_true(holds(&f, enc->ev[ev[0]].guard));
	for (int i = 1; i < n; i++) {
		assert_true(enc->ev[ev[i - 1]].po < enc->ev[ev[i]].po);
		assert_true(holds(&f, iff(&f, enc->ev[ev[i]].guard,
			Z3_mk_and(f.z, 2, (Z3_ast[]){enc->ev[ev[i - 1]].guard,
				eq(&f, enc->ev[ev[i - 1]].val, 0)}))));
	}
	/* the bound's records (one per path reaching it) */
	assert_true(enc->nbounds >= 1);
	int reachable = 0;
	for (int i = 0; i < enc->nbounds; i++) {
		const struct enc_bound *eb = &enc->bounds[i];
		assert_ptr_equal(eb->loop, &p0->items[0]);
		assert_true(holds(&f, implies(&f, eb->reach,
					      eq(&f, enc->ev[ev[n - 1]].val, 0))));
		reachable += possible(&f, eb->reach);
	}
	assert_true(reachable > 0);
	encfix_close(&f);
}

static void test_loop_unrolled(void **state)
{
	(void)state;
	loop_at(2);
	loop_at(3);
}

/* P0: r0 = x; if (r0 == 1) r1 = r0; else r1 = 5; y = r1;  P1: x = 1;
 * The store's value is r0 on one branch and 5 on the other; it depends
 * on the read by data exactly on the first. */
static void test_dependency_through_branch(void **state)
{
	(void)state;
	struct irb b = irb_new("dep", 2, 2);
	struct ir_block *p0 = irb_body(&b, 0);
	struct ir_instr *in = if_read_one(&b);
	struct ir_instr *then = irb_add(&b, &in->then_b, IR_ASSIGN);
	then->dst = 1;
	then->a = irb_reg(&b, 0);
	struct ir_instr *els = irb_add(&b, &in->else_b, IR_ASSIGN);
	els->dst = 1;
	els->a = irb_num(&b, 5);
	irb_store(&b, p0, 1, irb_reg(&b, 1), IR_ORD_ONCE);
	struct encfix f;
	encfix_open(&f, b);
	const struct encoding *enc = f.enc;
	int r = event_of(enc, &p0->items[0]);
	int w = event_of(enc, &p0->items[2]);
	const struct event *we = &enc->ev[w];
	Z3_ast one = eq(&f, enc->ev[r].val, 1);
	assert_true(possible(&f, one));
	assert_true(possible(&f, Z3_mk_not(f.z, one)));
	assert_true(holds(&f, implies(&f, one, eq(&f, we->val, 1))));
	assert_true(holds(&f, implies(&f, Z3_mk_not(f.z, one), eq(&f, we->val, 5))));
	assert_true(holds(&f, we->guard));
	int k = -1;
	for (int i = 0; i < we->ndata_dep; i++)
		if (we->data_dep[i] == r)
			k = i;
	assert_true(k >= 0);
	assert_non_null(we->data_dep_cond);
	assert_non_null(we->data_dep_cond[k]);
	assert_true(holds(&f, iff(&f, we->data_dep_cond[k], one)));
	encfix_close(&f);
}

/* P0: r0 = v; then stores to x, y, z, ... (n of them) of make(i), an
 * expression over r0.  P1 stores to v each of the nv values. */
static struct irb stores_of(struct ir_expr *(*make)(struct irb *, int i),
			    int n, const long *values, int nv,
			    struct ir_block **body)
{
	struct irb b = irb_new("arith", n + 1, 2);
	*body = irb_body(&b, 0);
	irb_load(&b, *body, 0, n, IR_ORD_ONCE);
	for (int i = 0; i < n; i++)
		irb_store(&b, *body, i, make(&b, i), IR_ORD_ONCE);
	for (int i = 0; i < nv; i++)
		irb_store(&b, irb_body(&b, 1), n, irb_num(&b, values[i]), IR_ORD_ONCE);
	return b;
}

/* r0 / 2, r0 % 2, r0 / 0, r0 / -2 */
static struct ir_expr *arith(struct irb *b, int i)
{
	static const enum ir_binop op[] = {IR_DIV, IR_MOD, IR_DIV, IR_DIV};
	static const long by[] = {2, 2, 0, -2};
	return irb_bin(b, op[i], irb_reg(b, 0), irb_num(b, by[i]));
}

/* C's division truncates toward zero (Z3's div floors) and the remainder
 * takes the dividend's sign; x / 0 is 0 (herd7's).  Checked on a value
 * read (a term) for -7 and 7. */
static void test_c_division(void **state)
{
	(void)state;
	static const long want[2][4] = {{-3, -1, 0, 3}, {3, 1, 0, -3}};
	static const long read[2] = {-7, 7};
	struct ir_block *p0;
	struct encfix f;
	encfix_open(&f, stores_of(arith, 4, read, 2, &p0));
	const struct encoding *enc = f.enc;
	Z3_ast rv = enc->ev[event_of(enc, &p0->items[0])].val;
	for (int v = 0; v < 2; v++)
		for (int i = 0; i < 4; i++) {
			assert_true(possible(&f, eq(&f, rv, read[v])));
			Z3_ast w = enc->ev[event_of(enc, &p0->items[1 + i])].val;
			assert_true(holds(&f, implies(&f, eq(&f, rv, read[v]),
						      eq(&f, w, want[v][i]))));
		}
	encfix_close(&f);
}

/* How many facts say "if ... then location x's final value is ...". */
static int final_value_facts(const struct encfix *f, int x)
{
	Z3_context z = f->z;
	int k = 0;
	for (unsigned i = 0; i < Z3_ast_vector_size(z, f->enc->facts); i++) {
		Z3_ast a = Z3_ast_vector_get(z, f->enc->facts, i);
		if (Z3_get_ast_kind(z, a) != Z3_APP_AST)
			continue;
		Z3_app app = Z3_to_app(z, a);
		if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) != Z3_OP_IMPLIES)
			continue;
		Z3_ast then = Z3_get_app_arg(z, app, 1);
		if (Z3_get_ast_kind(z, then) == Z3_APP_AST &&
		    Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, then))) == Z3_OP_EQ &&
		    Z3_is_eq_ast(z, Z3_get_app_arg(z, Z3_to_app(z, then), 0), f->enc->final_loc[x]))
			k++;
	}
	return k;
}

/* A location's final value is its co-last write's; under a coherent
 * model a write its own thread overwrites later is never co-last, so only
 * each thread's last store (and the initial value) gets a fact: P0 stores
 * 1 to 6 to x, P1 10 and 11.  The final values are still exactly 6, 11. */
static void test_final_value_of_last_stores(void **state)
{
	(void)state;
	struct irb b = irb_new("final", 1, 2);
	for (int i = 1; i <= 6; i++)
		irb_store(&b, irb_body(&b, 0), 0, irb_num(&b, i), IR_ORD_ONCE);
	for (int i = 10; i <= 11; i++)
		irb_store(&b, irb_body(&b, 1), 0, irb_num(&b, i), IR_ORD_ONCE);
	struct encfix f;
	encfix_open(&f, b);
	assert_int_equal(final_value_facts(&f, 0), 3); /* init, 6, 11 */
	Z3_ast fin = f.enc->final_loc[0];
	assert_true(possible(&f, eq(&f, fin, 6)));
	assert_true(possible(&f, eq(&f, fin, 11)));
	assert_true(holds(&f, Z3_mk_or(f.z, 2, (Z3_ast[]){eq(&f, fin, 6), eq(&f, fin, 11)})));
	encfix_close(&f);
}

/* Two threads that each do r0 = v; u = r0 + k: with v = u = x (an
 * increment), values flow in a cycle only through reads and po-later
 * writes of one location, which coherence forbids: no thin-air encoding,
 * and x ends 1 or 2.  With v = x, u = y in P0 and the reverse in P1 (load
 * buffering with data), the cycle is possible: "defined" is built. */
static void test_thin_air_only_when_possible(void **state)
{
	(void)state;
	for (int lb = 0; lb < 2; lb++) {
		struct irb b = irb_new("flow", 2, 2);
		for (int t = 0; t < 2; t++) {
			int from = lb && t ? 1 : 0, to = lb && !t ? 1 : 0;
			irb_load(&b, irb_body(&b, t), 0, from, IR_ORD_ONCE);
			irb_store(&b, irb_body(&b, t), to,
				  irb_bin(&b, IR_ADD, irb_reg(&b, 0), irb_num(&b, lb ? 0 : 1)),
				  IR_ORD_ONCE);
		}
		struct encfix f;
		encfix_open(&f, b);
		if (lb) {
			assert_non_null(f.enc->defined);
		} else {
			assert_null(f.enc->defined);
			Z3_ast fin = f.enc->final_loc[0];
			assert_true(possible(&f, eq(&f, fin, 2)));
			assert_true(possible(&f, eq(&f, fin, 1)));
			assert_true(holds(&f, Z3_mk_or(f.z, 2, (Z3_ast[]){eq(&f, fin, 1),
									 eq(&f, fin, 2)})));
		}
		encfix_close(&f);
	}
}

/* An RMW of location l with shape rmw: operand v (the new value for an
 * xchg), and w the new value for a cmpxchg that expects v; dst a register
 * or -1. */
static void rmw(struct irb *b, int t, enum ir_rmw rmw, enum ir_binop arith, int l,
		long v, long w, int dst)
{
	struct ir_instr *in = irb_add(b, irb_body(b, t), IR_RMW);
	in->rmw = rmw;
	in->arith = arith;
	in->a = irb_loc(b, l);
	in->b = irb_num(b, v);
	in->c = rmw == IR_RMW_CMPXCHG ? irb_num(b, w) : NULL;
	in->order = IR_ORD_ONCE;
	in->dst = dst;
}

/* A location only RMWs of a constant change write gets its final value
 * counted (build_final_count): c, written by P0's atomic_add(2) and P1's
 * atomic_fetch_sub(1) from 1, ends at 2, and the count agrees.  d, where P0 cmpxchg()s 0 to 5
 * but P1 stores 3, and e, which P0 xchg()s, are not counted. */
static void test_final_value_counted(void **state)
{
	(void)state;
	struct irb b = irb_new("count", 3, 2);
	b.p->locs[0].init = (struct ir_value){.kind = IR_VAL_INT, .num = 1};
	rmw(&b, 0, IR_RMW_OP, IR_ADD, 0, 2, 0, -1);
	rmw(&b, 0, IR_RMW_CMPXCHG, IR_ADD, 1, 0, 5, 0);
	rmw(&b, 0, IR_RMW_XCHG, IR_ADD, 2, 7, 0, 1);
	rmw(&b, 1, IR_RMW_FETCH_OP, IR_SUB, 0, 1, 0, 0);
	irb_store(&b, irb_body(&b, 1), 1, irb_num(&b, 3), IR_ORD_ONCE);
	struct encfix f;
	encfix_open(&f, b);
	assert_non_null(f.enc->final_count);
	assert_non_null(f.enc->final_count[0]);
	assert_null(f.enc->final_count[1]);
	assert_null(f.enc->final_count[2]);
	Z3_ast fin = f.enc->final_loc[0], count = f.enc->final_count[0];
	/* the program alone lets both RMWs read 1 (c ends 0 or 3); the
	 * count, a function of the RMWs executed, fixes c to 2 */
	assert_true(possible(&f, eq(&f, fin, 3)));
	assert_false(possible(&f, Z3_mk_and(f.z, 2, (Z3_ast[]){count, eq(&f, fin, 3)})));
	/* with the model, c ends at 2 and the count is possible there (its
	 * partial sums are its own variables): a miscount would not be */
	Z3_solver_push(f.z, f.s);
	Z3_solver_assert(f.z, f.s, count);
	assert_int_equal(Z3_solver_check(f.z, f.s), Z3_L_TRUE);
	Z3_solver_pop(f.z, f.s, 1);
	Z3_solver_push(f.z, f.s);
	Z3_solver_assert(f.z, f.s, Z3_mk_not(f.z, eq(&f, fin, 2)));
	assert_int_equal(Z3_solver_check(f.z, f.s), Z3_L_FALSE);
	Z3_solver_pop(f.z, f.s, 1);
	encfix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch),
		cmocka_unit_test(test_loop_unrolled),
		cmocka_unit_test(test_dependency_through_branch),
		cmocka_unit_test(test_c_division),
		cmocka_unit_test(test_final_value_of_last_stores),
		cmocka_unit_test(test_thin_air_only_when_possible),
		cmocka_unit_test(test_final_value_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
