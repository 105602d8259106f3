/*
 * kmod_instr.c - the module generator's instructions and threads: each IR
 * instruction as the kernel primitive it stands for, with the static walk's
 * checks (see kmod_int.h).  The module's frame, condition and files are in
 * kmod.c.
 */
#include "kernel/kmod_int.h"

#include <stdio.h>
#include <string.h>

/* ---- instructions ---- */

static void gen_block(struct gen *g, const struct ir_block *b, struct astate *s);
static int block_writes(const struct ir_block *b);
static void gen_stutter_count(struct gen *g, int n);

static void put_dst(struct gen *g, const struct ir_instr *in)
{
	km_indent(g);
	if (in->dst >= 0)
		fprintf(g->o, "R%d = (long)", in->dst);
}

static void gen_load(struct gen *g, const struct ir_instr *in)
{
	enum access acc = km_access_of(g, in);
	const char *prim;
	if (acc == ACC_LONG) {
		prim = in->order == IR_ORD_PLAIN ? "" : in->order == IR_ORD_ONCE ? "READ_ONCE" :
			in->order == IR_ORD_ACQUIRE ? "smp_load_acquire" : NULL;
	} else {
		prim = in->order == IR_ORD_ONCE || in->order == IR_ORD_PLAIN ? "read" :
			in->order == IR_ORD_ACQUIRE ? "read_acquire" : NULL;
	}
	if (!prim) {
		km_gen_error(g, in->pos, "a load with %s ordering has no kernel primitive",
			  ir_order_name(in->order));
		return;
	}
	put_dst(g, in);
	if (acc == ACC_LONG) {
		if (in->order == IR_ORD_PLAIN) {
			km_put_lval(g, in, "a plain load");
		} else if (in->order == IR_ORD_ONCE) {
			fprintf(g->o, "%s(", prim);
			km_put_lval(g, in, prim);
			fputc(')', g->o);
		} else {
			fprintf(g->o, "%s(", prim);
			km_put_addr(g, in, prim, acc);
			fputc(')', g->o);
		}
	} else {
		fprintf(g->o, "%s_%s(", acc == ACC_ATOMIC ? "atomic" : "atomic_long", prim);
		km_put_addr(g, in, "atomic_read", acc);
		fputc(')', g->o);
	}
	fputs(";\n", g->o);
}

static void gen_store(struct gen *g, const struct ir_instr *in)
{
	enum access acc = km_access_of(g, in);
	km_indent(g);
	if (acc == ACC_LONG) {
		if (in->order == IR_ORD_PLAIN) {
			km_put_lval(g, in, "a plain store");
			fputs(" = ", g->o);
		} else if (in->order == IR_ORD_ONCE) {
			fputs("WRITE_ONCE(", g->o);
			km_put_lval(g, in, "WRITE_ONCE");
			fputs(", ", g->o);
		} else if (in->order == IR_ORD_RELEASE) {
			fputs("smp_store_release(", g->o);
			km_put_addr(g, in, "smp_store_release", acc);
			fputs(", ", g->o);
		} else {
			km_gen_error(g, in->pos, "a store with %s ordering has no kernel primitive",
				  ir_order_name(in->order));
			return;
		}
	} else {
		const char *fam = acc == ACC_ATOMIC ? "atomic" : "atomic_long";
		if (in->order == IR_ORD_ONCE || in->order == IR_ORD_PLAIN)
			fprintf(g->o, "%s_set(", fam);
		else if (in->order == IR_ORD_RELEASE)
			fprintf(g->o, "%s_set_release(", fam);
		else {
			km_gen_error(g, in->pos, "an atomic store with %s ordering has no kernel primitive",
				  ir_order_name(in->order));
			return;
		}
		km_put_addr(g, in, "atomic_set", acc);
		fputs(", ", g->o);
	}
	km_put_expr(g, in->b);
	fputs(in->order == IR_ORD_PLAIN && acc == ACC_LONG ? ";\n" : ");\n", g->o);
}

static void gen_rmw(struct gen *g, const struct ir_instr *in)
{
	enum access acc = km_access_of(g, in);
	const char *sfx = km_order_suffix(in->order);
	const char *op = in->arith == IR_SUB ? "sub" : "add";
	if (!sfx) {
		km_gen_error(g, in->pos, "'%s': a read-modify-write with plain ordering has no kernel primitive",
			  in->text ? in->text : ir_rmw_name(in->rmw));
		return;
	}
	if (in->rmw != IR_RMW_XCHG && in->rmw != IR_RMW_CMPXCHG &&
	    in->arith != IR_ADD && in->arith != IR_SUB) {
		km_gen_error(g, in->pos, "'%s': atomic %s has no kernel primitive here",
			  in->text ? in->text : ir_rmw_name(in->rmw), ir_binop_name(in->arith));
		return;
	}
	/* xchg/cmpxchg on a plain cell are the generic ones; the arithmetic
	 * ones need an atomic type: a long cell is an atomic_long_t. */
	const char *fam = acc == ACC_ATOMIC ? "atomic_" : "atomic_long_";
	if (acc == ACC_LONG && (in->rmw == IR_RMW_XCHG || in->rmw == IR_RMW_CMPXCHG))
		fam = "";
	enum access addr_acc = acc == ACC_LONG && *fam ? ACC_ATOMIC_LONG : acc;
	put_dst(g, in);
	char prim[64];
	switch (in->rmw) {
	case IR_RMW_XCHG:
	case IR_RMW_CMPXCHG: {
		const char *base = in->rmw == IR_RMW_XCHG ? "xchg" : "cmpxchg";
		snprintf(prim, sizeof prim, "%s%s%s", fam, base, sfx);
		fprintf(g->o, "%s(", prim);
		if (!*fam) {
			/* The generic macros take the cell's type from the pointer. */
			km_put_addr(g, in, prim, ACC_LONG);
		} else {
			km_put_addr(g, in, prim, addr_acc);
		}
		fputs(", ", g->o);
		km_put_expr(g, in->b);
		if (in->rmw == IR_RMW_CMPXCHG) {
			fputs(", ", g->o);
			km_put_expr(g, in->c);
		}
		break;
	}
	case IR_RMW_OP_RETURN:
	case IR_RMW_FETCH_OP:
	case IR_RMW_OP:
		if (in->rmw == IR_RMW_OP && in->order != IR_ORD_ONCE) {
			km_gen_error(g, in->pos, "'%s': a non-returning atomic with %s ordering has no "
				  "kernel primitive", in->text ? in->text : "atomic op",
				  ir_order_name(in->order));
			return;
		}
		if (in->rmw == IR_RMW_OP_RETURN)
			snprintf(prim, sizeof prim, "%s%s_return%s", fam, op, sfx);
		else if (in->rmw == IR_RMW_FETCH_OP)
			snprintf(prim, sizeof prim, "%sfetch_%s%s", fam, op, sfx);
		else
			snprintf(prim, sizeof prim, "%s%s", fam, op);
		fprintf(g->o, "%s(", prim);
		km_put_expr(g, in->b);
		fputs(", ", g->o);
		km_put_addr(g, in, prim, addr_acc);
		break;
	case IR_RMW_ADD_UNLESS:
		if (in->order != IR_ORD_MB || in->arith != IR_ADD) {
			km_gen_error(g, in->pos, "'%s': add_unless exists only fully ordered",
				  in->text ? in->text : "add_unless");
			return;
		}
		snprintf(prim, sizeof prim, "%sadd_unless", fam);
		fprintf(g->o, "%s(", prim);
		km_put_addr(g, in, prim, addr_acc);
		fputs(", ", g->o);
		km_put_expr(g, in->b);
		fputs(", ", g->o);
		km_put_expr(g, in->c);
		break;
	}
	fputs(");\n", g->o);
}

/* The end of a guarded call: when its guard fails the call is skipped
 * and the run marked (LK_ST_VIOLATION). */
static void else_violation(struct gen *g)
{
	km_line(g, "} else {");
	km_line(g, "\tlk_st |= LK_ST_VIOLATION;");
	km_line(g, "}");
}

static void gen_fence(struct gen *g, const struct ir_instr *in, struct astate *s)
{
	/* The RCU markers are tracked around their call; every other fence
	 * of the kernel is its call alone (frontend/ir.h's table). */
	switch (in->fence) {
	case IR_F_MB:
	case IR_F_RMB:
	case IR_F_WMB:
	case IR_F_BARRIER:
	case IR_F_BEFORE_ATOMIC:
	case IR_F_AFTER_ATOMIC:
	case IR_F_AFTER_SPINLOCK:
	case IR_F_AFTER_UNLOCK_LOCK:
		km_line(g, "%s();", ir_fence_call(in->fence));
		return;
	case IR_F_RCU_LOCK:
		km_line(g, "%s();", ir_fence_call(in->fence));
		km_line(g, "lk_rcu++;");
		s->rcu_min++;
		s->rcu_max++;
		s->rcu_pos = in->pos;
		return;
	case IR_F_RCU_UNLOCK:
		if (s->rcu_max <= 0) {
			km_gen_error(g, in->pos, "rcu_read_unlock() outside any RCU read-side "
				  "critical section of P%d", g->th->id);
			return;
		}
		km_line(g, "if (lk_rcu > 0) {");
		km_line(g, "\t%s();", ir_fence_call(in->fence));
		km_line(g, "\tlk_rcu--;");
		else_violation(g);
		if (s->rcu_min > 0)
			s->rcu_min--;
		s->rcu_max--;
		return;
	case IR_F_SYNC_RCU:
		if (!km_check_may_sleep(g, in, s, "synchronize_rcu()"))
			return;
		km_line(g, "if (lk_rcu || lk_held)");
		km_line(g, "\tlk_st |= LK_ST_VIOLATION;");
		km_line(g, "else");
		km_line(g, "\t%s();", ir_fence_call(in->fence));
		return;
	case IR_F_OTHER: /* a model's own fence: no kernel code known */
		break;
	}
	km_gen_error(g, in->pos, "unknown fence %d", (int)in->fence);
}

static void gen_lock(struct gen *g, const struct ir_instr *in, struct astate *s)
{
	const char *prim = in->op == IR_LOCK ? "spin_lock()" : in->op == IR_UNLOCK ? "spin_unlock()" :
		in->op == IR_TRYLOCK ? "spin_trylock()" : "spin_is_locked()";
	int k = km_sync_loc(g, in, IR_LOC_SPINLOCK, prim);
	if (k < 0)
		return;
	int bit = g->ord[k];
	unsigned long long m = 1ULL << bit;
	const char *name = km_cn(g, k);
	switch (in->op) {
	case IR_LOCK:
	case IR_TRYLOCK:
		if (in->op == IR_LOCK && (s->must_held & m)) {
			km_gen_error(g, in->pos, "spin_lock(%s) while P%d already holds '%s' "
				  "(taken at line %d): the thread would deadlock on itself",
				  name, g->th->id, name, s->lock_pos[bit].line);
			return;
		}
		km_line(g, "if (lk_held & %lluULL) {", m);
		km_line(g, "\tlk_st |= LK_ST_VIOLATION;");
		if (in->op == IR_TRYLOCK && in->dst >= 0)
			km_line(g, "\tR%d = 0;", in->dst);
		km_line(g, "} else {");
		g->depth++;
		if (in->op == IR_LOCK) {
			km_line(g, "spin_lock(&in->v_%s);", name);
			km_line(g, "lk_held |= %lluULL;", m);
			s->must_held |= m;
		} else {
			if (in->dst >= 0) {
				km_line(g, "R%d = (long)spin_trylock(&in->v_%s);", in->dst, name);
				km_line(g, "if (R%d)", in->dst);
			} else {
				km_line(g, "if (spin_trylock(&in->v_%s))", name);
			}
			km_line(g, "\tlk_held |= %lluULL;", m);
		}
		g->depth--;
		km_line(g, "}");
		s->may_held |= m;
		s->lock_pos[bit] = in->pos;
		return;
	case IR_UNLOCK:
		if (!(s->may_held & m)) {
			km_gen_error(g, in->pos, "spin_unlock(%s) but P%d does not hold '%s'",
				  name, g->th->id, name);
			return;
		}
		km_line(g, "if (lk_held & %lluULL) {", m);
		km_line(g, "\tspin_unlock(&in->v_%s);", name);
		km_line(g, "\tlk_held &= ~%lluULL;", m);
		else_violation(g);
		s->must_held &= ~m;
		s->may_held &= ~m;
		return;
	default:
		put_dst(g, in);
		fprintf(g->o, "spin_is_locked(&in->v_%s);\n", name);
		return;
	}
}

static void gen_srcu(struct gen *g, const struct ir_instr *in, struct astate *s)
{
	const char *prim = in->op == IR_SRCU_LOCK ? "srcu_read_lock()" :
		in->op == IR_SRCU_UNLOCK ? "srcu_read_unlock()" : "synchronize_srcu()";
	int k = km_sync_loc(g, in, IR_LOC_SRCU, prim);
	if (k < 0)
		return;
	int n = g->ord[k];
	const char *name = km_cn(g, k);
	switch (in->op) {
	case IR_SRCU_LOCK:
		km_line(g, "lk_idx = srcu_read_lock(&lk_srcu_%s);", name);
		km_line(g, "lk_srcu[%d][lk_idx & 1]++;", n);
		if (in->dst >= 0)
			km_line(g, "R%d = lk_idx;", in->dst);
		s->srcu_min[n]++;
		return;
	case IR_SRCU_UNLOCK:
		km_indent(g);
		fputs("lk_idx = (int)", g->o);
		km_put_expr(g, in->b);
		fputs(";\n", g->o);
		km_line(g, "if ((lk_idx == 0 || lk_idx == 1) && lk_srcu[%d][lk_idx] > 0) {", n);
		km_line(g, "\tsrcu_read_unlock(&lk_srcu_%s, lk_idx);", name);
		km_line(g, "\tlk_srcu[%d][lk_idx]--;", n);
		else_violation(g);
		if (s->srcu_min[n] > 0)
			s->srcu_min[n]--;
		return;
	default:
		if (!km_check_may_sleep(g, in, s, "synchronize_srcu()"))
			return;
		if (s->srcu_min[n] > 0) {
			km_gen_error(g, in->pos, "synchronize_srcu(%s) inside P%d's own SRCU read-side "
				  "critical section of '%s': a deadlock", name, g->th->id, name);
			return;
		}
		km_line(g, "if (lk_rcu || lk_held || lk_srcu[%d][0] || lk_srcu[%d][1])", n, n);
		km_line(g, "\tlk_st |= LK_ST_VIOLATION;");
		km_line(g, "else");
		km_line(g, "\tsynchronize_srcu(&lk_srcu_%s);", name);
		return;
	}
}

static void gen_instr(struct gen *g, const struct ir_instr *in, struct astate *s)
{
	if (g->failed)
		return;
	if (in->text && in->op != IR_IF && in->op != IR_LOOP) {
		km_indent(g);
		fprintf(g->o, "/* %d: ", in->pos.line);
		km_put_comment(g->o, in->text);
		fputs(" */\n", g->o);
	}
	switch (in->op) {
	case IR_ASSIGN:
		put_dst(g, in);
		km_put_expr(g, in->a);
		fputs(";\n", g->o);
		return;
	case IR_LOAD: gen_load(g, in); return;
	case IR_STORE: gen_store(g, in); return;
	case IR_RMW: gen_rmw(g, in); return;
	case IR_FENCE: gen_fence(g, in, s); return;
	case IR_LOCK:
	case IR_UNLOCK:
	case IR_TRYLOCK:
	case IR_ISLOCKED: gen_lock(g, in, s); return;
	case IR_SRCU_LOCK:
	case IR_SRCU_UNLOCK:
	case IR_SRCU_SYNC: gen_srcu(g, in, s); return;
	case IR_IF: {
		km_indent(g);
		fprintf(g->o, "if ");
		km_put_cond(g, in->a);
		fprintf(g->o, " { /* %d */\n", in->pos.line);
		struct astate t = *s, e = *s;
		g->depth++;
		gen_block(g, &in->then_b, &t);
		g->depth--;
		if (in->else_b.count) {
			km_line(g, "} else {");
			g->depth++;
			gen_block(g, &in->else_b, &e);
			g->depth--;
		}
		km_line(g, "}");
		*s = t;
		km_merge(s, &e);
		return;
	}
	case IR_LOOP: {
		int n = g->nloops++;
		km_line(g, "for (lk_n%d = 0, lk_c%d = 0;;) { /* loop at line %d */", n, n,
			in->pos.line);
		g->depth++;
		if (block_writes(&in->then_b)) {
			/* Entering the body once more than the bound: the checker
			 * drops such executions, so the harness drops this outcome
			 * (and stops a loop that would spin on forever). */
			km_line(g, "if (++lk_n%d > LK_UNROLL) {", n);
			km_line(g, "\tlk_st |= LK_ST_UNROLL;");
			km_line(g, "\tif (lk_n%d > LK_LOOP_CAP)", n);
			km_line(g, "\t\tbreak;");
			km_line(g, "}");
		} else {
			gen_stutter_count(g, n);
		}
		km_weaken(s);
		gen_block(g, &in->then_b, s);
		km_weaken(s);
		g->depth--;
		km_line(g, "}");
		return;
	}
	case IR_BREAK: km_line(g, "break;"); return;
	case IR_CONTINUE: km_line(g, "continue;"); return;
	case IR_ASSERT:
		km_gen_error(g, in->pos, "assertions (%s) are not run in kernel "
			  "modules; lkmmc checks them: drop --kmod for this test",
			  in->text ? in->text : "BUG_ON/WARN_ON/assert");
		return;
	}
	km_gen_error(g, in->pos, "unknown instruction %d", (int)in->op);
}

/* Whether b may write (or takes a lock, or nests a loop: counted as
 * writing, so that its loop keeps the plain bound). */
static int block_writes(const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		switch (in->op) {
		case IR_ASSIGN: case IR_LOAD: case IR_FENCE: case IR_ISLOCKED:
		case IR_BREAK: case IR_CONTINUE:
			break;
		case IR_IF:
			if (block_writes(&in->then_b) || block_writes(&in->else_b))
				return 1;
			break;
		default:
			return 1;
		}
	}
	return 0;
}

/*
 * A loop whose body writes nothing (a spin-wait) counts only the
 * iterations that change a register towards the bound: one that writes
 * nothing and leaves the registers as it found them "stutters", and the
 * checker takes an execution with such iterations as the same execution
 * without them (solver/bounds.c), which its bound covers.  So a reader
 * that spins a thousand times on flag = 0 while the writer's vCPU waits
 * for the host is an outcome to keep, not one past the bound: on a busy
 * host, counting every entry dropped every run of MP+wmb+condloadacquire.
 * lk_n counts every entry (the cap on spinning forever), lk_c the ones
 * after an iteration that changed a register; lk_sN holds the registers
 * at the last entry.
 */
static void gen_stutter_count(struct gen *g, int n)
{
	km_indent(g);
	fprintf(g->o, "if (lk_n%d++ == 0", n);
	for (int j = 0; j < g->th->nregs; j++)
		fprintf(g->o, " || R%d != lk_s%d[%d]", j, n, j);
	fputs(") {\n", g->o);
	km_line(g, "\tif (++lk_c%d > LK_UNROLL)", n);
	km_line(g, "\t\tlk_st |= LK_ST_UNROLL;");
	km_line(g, "}");
	km_line(g, "if (lk_n%d > LK_LOOP_CAP) {", n);
	km_line(g, "\tlk_st |= LK_ST_UNROLL;");
	km_line(g, "\tbreak;");
	km_line(g, "}");
	for (int j = 0; j < g->th->nregs; j++)
		km_line(g, "lk_s%d[%d] = R%d;", n, j, j);
}

static void gen_block(struct gen *g, const struct ir_block *b, struct astate *s)
{
	for (int i = 0; i < b->count && !g->failed; i++)
		gen_instr(g, &b->items[i], s);
}

static int count_loops(const struct ir_block *b)
{
	int n = 0;
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		n += in->op == IR_LOOP;
		n += count_loops(&in->then_b) + count_loops(&in->else_b);
	}
	return n;
}

/* Grace-period waits in the code (they set how many runs fit in a time). */
int km_count_grace_periods(const struct ir_block *b)
{
	int n = 0;
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		n += in->op == IR_SRCU_SYNC || (in->op == IR_FENCE && in->fence == IR_F_SYNC_RCU);
		n += km_count_grace_periods(&in->then_b) + km_count_grace_periods(&in->else_b);
	}
	return n;
}

void km_put_value(struct gen *g, struct ir_value v)
{
	if (v.kind == IR_VAL_LOC)
		fprintf(g->o, "(long)&in->v_%s", km_cn(g, v.loc));
	else
		fprintf(g->o, "%ldL", v.num);
}

void km_gen_thread(struct gen *g, const struct ir_thread *th)
{
	g->th = th;
	g->nloops = 0;
	int nloops = count_loops(&th->body);
	fprintf(g->o, "\n/* P%d, line %d */\n", th->id, th->pos.line);
	fprintf(g->o, "static void lk_P%d(struct lk_inst *in, long *out)\n{\n", th->id);
	g->depth = 1;
	for (int j = 0; j < th->nregs; j++) {
		const struct ir_reg *r = &th->regs[j];
		km_indent(g);
		fprintf(g->o, "long R%d = ", j);
		if (r->has_init)
			km_put_value(g, r->init);
		else
			fputs("0L", g->o);
		fputs("; /* ", g->o);
		km_put_comment(g->o, r->name);
		fputs(" (", g->o);
		km_put_comment(g->o, r->ctype);
		fputs(") */\n", g->o);
	}
	km_line(g, "long lk_st = 0;");
	km_line(g, "int lk_rcu __maybe_unused = 0;");
	km_line(g, "unsigned long long lk_held __maybe_unused = 0;");
	km_line(g, "int lk_idx __maybe_unused = 0;");
	if (g->nsrcu)
		km_line(g, "int lk_srcu[%d][2] = {{0}};", g->nsrcu);
	for (int n = 0; n < nloops; n++) {
		km_line(g, "unsigned long lk_n%d, lk_c%d __maybe_unused;", n, n);
		if (th->nregs)
			km_line(g, "long lk_s%d[%d] __maybe_unused;", n, th->nregs);
	}
	fputs("\n", g->o);

	struct astate s;
	memset(&s, 0, sizeof s);
	gen_block(g, &th->body, &s);
	if (g->failed)
		return;
	/* Returning with a lock or a reader held cannot run: the next
	 * instance, or a grace period, would wait for it forever. */
	if (s.must_held) {
		for (int k = 0; k < g->p->nlocs; k++)
			if (km_loc(g, k)->kind == IR_LOC_SPINLOCK && (s.must_held >> g->ord[k] & 1)) {
				km_gen_error(g, s.lock_pos[g->ord[k]], "P%d returns holding spin lock '%s' "
					  "taken here: the other threads would spin on it forever",
					  th->id, km_loc(g, k)->name);
				return;
			}
	}
	if (s.rcu_min > 0) {
		km_gen_error(g, s.rcu_pos, "P%d returns inside the RCU read-side critical section "
			  "begun by this rcu_read_lock(): no grace period could end", th->id);
		return;
	}
	for (int k = 0; k < g->p->nlocs; k++)
		if (km_loc(g, k)->kind == IR_LOC_SRCU && s.srcu_min[g->ord[k]] > 0) {
			km_gen_error(g, th->pos, "P%d returns inside an SRCU read-side critical section "
				  "of '%s'", th->id, km_loc(g, k)->name);
			return;
		}
	/* Paths that leave something held: release it, drop the outcome. */
	fputc('\n', g->o);
	km_line(g, "if (lk_held || lk_rcu) {");
	km_line(g, "\tlk_st |= LK_ST_VIOLATION;");
	km_line(g, "\twhile (lk_rcu-- > 0)");
	km_line(g, "\t\trcu_read_unlock();");
	for (int k = 0; k < g->p->nlocs; k++)
		if (km_loc(g, k)->kind == IR_LOC_SPINLOCK)
			km_line(g, "\tif (lk_held & %lluULL)\n\t\t\tspin_unlock(&in->v_%s);",
			     1ULL << g->ord[k], km_cn(g, k));
	km_line(g, "}");
	for (int k = 0; k < g->p->nlocs; k++)
		if (km_loc(g, k)->kind == IR_LOC_SRCU) {
			int n = g->ord[k];
			km_line(g, "for (lk_idx = 0; lk_idx < 2; lk_idx++)");
			km_line(g, "\tfor (; lk_srcu[%d][lk_idx] > 0; lk_srcu[%d][lk_idx]--) {", n, n);
			km_line(g, "\t\tsrcu_read_unlock(&lk_srcu_%s, lk_idx);", km_cn(g, k));
			km_line(g, "\t\tlk_st |= LK_ST_VIOLATION;");
			km_line(g, "\t}");
		}
	for (int j = 0; j < th->nregs; j++)
		km_line(g, "out[%d] = R%d;", j, j);
	km_line(g, "out[%d] = lk_st;", th->nregs);
	fputs("}\n", g->o);
}
