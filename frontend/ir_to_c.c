/*
 * ir_to_c.c - a parsed litmus test written as a whole C program (lkmmc
 * --to-c; see frontend.h), the form frontend/cprog.c reads back.
 *
 * Every location becomes a global of a C name of its own ("a[1]" is
 * a__1, "s.f" is s__f; an array or struct object is a global that holds
 * nothing, for its address), with its initial value; each thread a
 * function P<n> that runs the thread's IR instructions, each written as
 * the primitive of <lkmm.h> that lowers to it again, with the registers as
 * locals (intptr_t) and, at its end, the registers the condition names
 * copied to globals P<n>_<reg> (with WRITE_ONCE: a marked store to a
 * location nobody else touches changes no answer, and unlike a plain one
 * it does not bring in the data-race flag's encoding: 19-process RCU
 * chains 12 s -> 1.1 s, litmus 1.4 s).  main creates the threads, joins them and
 * asserts what the final condition means for a violation: exists (c) and
 * ~exists (c) become assert(!(c)) (violated when c is reachable), forall
 * (c) assert(c); a filter f is put in front (!(f && c), !f || c).
 *
 * The program is typed as the kernel's headers type it, so that GenMC's
 * <lkmm.h> (v0.9, which takes -lkmm programs) compiles it as well as
 * lkmmc's does: a location is an atomic_t when the test says so or an
 * atomic_*() add or sub names it (atomic_*() take only an atomic_t *),
 * and every access to an atomic_t is the atomic_*() form of it
 * (atomic_read_acquire, atomic_set_release, atomic_cmpxchg, ...: the
 * kernel's smp_load_acquire(), READ_ONCE(), cmpxchg() take a scalar, not a
 * struct); a computed address is cast to the pointer type of the
 * locations it may name (atomic_t *, or intptr_t * when any is not an
 * atomic_t), never to void *, which no atomic builtin takes; cmpxchg()'s
 * old value is cast to the location's type (GenMC compares through a
 * pointer of the old value's type).
 *
 * It prints; it does not parse or check.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/diag.h"
#include "fe.h"
#include "frontend.h"

/* The state of one conversion. */
struct toc {
	const struct ir_program *p; /* the test */
	FILE *o;                    /* where the program goes */
	struct arena *a;            /* names */
	const char **loc;           /* C name of each location */
	char *atomic;               /* 1 for each location declared atomic_t */
	const char **reg;           /* C names of the current thread's registers */
	int depth;                  /* indentation */
	struct diag *d;             /* the first error */
};

/* A C identifier for name: its letters, digits and '_', every other
 * character as '_' (two for '.', '[' so that a[1] is a__1). */
static char *c_name(struct arena *a, const char *prefix, const char *name)
{
	size_t n = strlen(prefix) + 2 * strlen(name) + 2;
	char *s = arena_alloc(a, n), *q = s;
	q += snprintf(s, n, "%s", prefix);
	if (!*prefix && isdigit((unsigned char)name[0]))
		*q++ = '_';
	for (const char *c = name; *c; c++) {
		if (isalnum((unsigned char)*c) || *c == '_')
			*q++ = *c;
		else if (*c == '.' || *c == '[')
			q += sprintf(q, "__");
		else if (*c != ']')
			*q++ = '_';
	}
	*q = '\0';
	return s;
}

static void indent(struct toc *t)
{
	for (int i = 0; i < t->depth; i++)
		fputc('\t', t->o);
}

static const char *binop_text(enum ir_binop op)
{
	static const char *const s[] = {
		"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
		"==", "!=", "<", "<=", ">", ">=", "&&", "||",
	};
	return s[op];
}

static void put_expr(struct toc *t, const struct ir_expr *e)
{
	switch (e->kind) {
	case IR_E_CONST:
		fprintf(t->o, "%ld", e->num);
		return;
	case IR_E_LOC:
		fprintf(t->o, "(intptr_t)&%s", t->loc[e->loc]);
		return;
	case IR_E_REG:
		fputs(t->reg[e->reg], t->o);
		return;
	case IR_E_CHOICE: /* only in --repair's own parses, never printed */
		fprintf(t->o, "__lkmmc_choice(%ld)", e->num);
		return;
	case IR_E_UNARY:
		fputs(e->op == IR_NEG ? "-(" : e->op == IR_LNOT ? "!(" : "~(", t->o);
		put_expr(t, e->a);
		fputc(')', t->o);
		return;
	case IR_E_BINARY:
		fputc('(', t->o);
		put_expr(t, e->a);
		fprintf(t->o, " %s ", binop_text((enum ir_binop)e->op));
		put_expr(t, e->b);
		fputc(')', t->o);
		return;
	case IR_E_COND:
		fputc('(', t->o);
		put_expr(t, e->a);
		fputs(" ? ", t->o);
		put_expr(t, e->b);
		fputs(" : ", t->o);
		put_expr(t, e->c);
		fputc(')', t->o);
		return;
	}
}

/* The locations an address expression may evaluate to: itself, the
 * branches of a ?:, the operands of a + or - (an array element).  Counts
 * in *na those declared atomic_t, in *np the others; with mark, declares
 * them all atomic_t first. */
static void addr_leaves(struct toc *t, const struct ir_expr *e, int mark,
			int *na, int *np)
{
	if (e->kind == IR_E_LOC) {
		if (mark)
			t->atomic[e->loc] = 1;
		if (t->atomic[e->loc])
			(*na)++;
		else
			(*np)++;
	} else if (e->kind == IR_E_COND) {
		addr_leaves(t, e->b, mark, na, np);
		addr_leaves(t, e->c, mark, na, np);
	} else if (e->kind == IR_E_BINARY && (e->op == IR_ADD || e->op == IR_SUB)) {
		addr_leaves(t, e->a, mark, na, np);
		addr_leaves(t, e->b, mark, na, np);
	}
}

/* Is the address operand an atomic_t (all it may name are)?  A register
 * holding a pointer names none: intptr_t. */
static int addr_atomic(struct toc *t, const struct ir_expr *a)
{
	int na = 0, np = 0;
	addr_leaves(t, a, 0, &na, &np);
	return na > 0 && np == 0;
}

/* The locations an atomic add or sub names must be atomic_t: the kernel
 * has no such operation on a scalar. */
static void scan_atomic(struct toc *t, const struct ir_block *b)
{
	for (int i = 0; i < b->count; i++) {
		const struct ir_instr *in = &b->items[i];
		int na = 0, np = 0;
		if (in->op == IR_RMW && in->rmw != IR_RMW_XCHG &&
		    in->rmw != IR_RMW_CMPXCHG)
			addr_leaves(t, in->a, 1, &na, &np);
		scan_atomic(t, &in->then_b);
		scan_atomic(t, &in->else_b);
	}
}

/* The address operand as an lvalue: "x", or "*(intptr_t *)(e)"; an
 * atomic_t's counter as "*(int *)&x" (a plain access to it). */
static void put_lvalue(struct toc *t, const struct ir_expr *a)
{
	int at = addr_atomic(t, a);
	if (a->kind == IR_E_LOC) {
		fprintf(t->o, at ? "*(int *)&%s" : "%s", t->loc[a->loc]);
		return;
	}
	fputs(at ? "*(int *)(" : "*(intptr_t *)(", t->o);
	put_expr(t, a);
	fputc(')', t->o);
}

/* The address operand as a pointer: "&x", or "(T *)(e)" with T the
 * location type (ctype), or "(void *)(e)" when ctype is NULL (a lock's
 * or an srcu_struct's, which only calls take). */
static void put_pointer(struct toc *t, const struct ir_expr *a, const char *ctype)
{
	if (a->kind == IR_E_LOC) {
		fprintf(t->o, "&%s", t->loc[a->loc]);
		return;
	}
	fprintf(t->o, "(%s *)(", ctype ? ctype : "void");
	put_expr(t, a);
	fputc(')', t->o);
}

/* The pointer of an access: atomic_t * or intptr_t *. */
static void put_access_ptr(struct toc *t, const struct ir_expr *a)
{
	put_pointer(t, a, addr_atomic(t, a) ? "atomic_t" : "intptr_t");
}

/* A value of type ctype: cmpxchg()'s old value, which GenMC's lkmm.h
 * compares through a pointer of its type (an int constant against an
 * intptr_t location does not compile there). */
static void put_typed(struct toc *t, const struct ir_expr *e, const char *ctype)
{
	if (e->kind == IR_E_CONST && !strcmp(ctype, "int")) {
		put_expr(t, e);
		return;
	}
	fprintf(t->o, "(%s)(", ctype);
	put_expr(t, e);
	fputc(')', t->o);
}

static void put_dst(struct toc *t, const struct ir_instr *in)
{
	indent(t);
	if (in->dst >= 0)
		fprintf(t->o, "%s = ", t->reg[in->dst]);
}

static const char *order_suffix(enum ir_order o)
{
	switch (o) {
	case IR_ORD_ONCE: return "_relaxed";
	case IR_ORD_ACQUIRE: return "_acquire";
	case IR_ORD_RELEASE: return "_release";
	default: return "";
	}
}

static int put_block(struct toc *t, const struct ir_block *b);

/* One read-modify-write as the atomic_*() or xchg/cmpxchg call for it. */
static int put_rmw(struct toc *t, const struct ir_instr *in)
{
	const char *op = in->arith == IR_SUB ? "sub" : "add";
	const char *sfx = order_suffix(in->order);
	put_dst(t, in);
	switch (in->rmw) {
	case IR_RMW_XCHG:
	case IR_RMW_CMPXCHG: {
		int at = addr_atomic(t, in->a);
		fprintf(t->o, "%s%s%s(", at ? "atomic_" : "",
			in->rmw == IR_RMW_XCHG ? "xchg" : "cmpxchg", sfx);
		put_access_ptr(t, in->a);
		fputs(", ", t->o);
		if (in->rmw == IR_RMW_XCHG)
			put_expr(t, in->b);
		else
			put_typed(t, in->b, at ? "int" : "intptr_t");
		if (in->rmw == IR_RMW_CMPXCHG) {
			fputs(", ", t->o);
			put_expr(t, in->c);
		}
		break;
	}
	case IR_RMW_OP_RETURN:
	case IR_RMW_FETCH_OP:
	case IR_RMW_OP:
		if (in->rmw == IR_RMW_OP && in->order != IR_ORD_ONCE)
			return diag_error(t->d, t->p->file, in->pos.line, in->pos.col,
					  "--to-c: an atomic_%s() with %s ordering has "
					  "no kernel primitive", op,
					  ir_order_name(in->order));
		if (in->rmw == IR_RMW_OP)
			fprintf(t->o, "atomic_%s(", op);
		else if (in->rmw == IR_RMW_OP_RETURN)
			fprintf(t->o, "atomic_%s_return%s(", op, sfx);
		else
			fprintf(t->o, "atomic_fetch_%s%s(", op, sfx);
		put_expr(t, in->b);
		fputs(", ", t->o);
		put_pointer(t, in->a, "atomic_t");
		break;
	case IR_RMW_ADD_UNLESS:
		fputs("atomic_add_unless(", t->o);
		put_pointer(t, in->a, "atomic_t");
		fputs(", ", t->o);
		put_expr(t, in->b);
		fputs(", ", t->o);
		put_expr(t, in->c);
		break;
	}
	fputs(");\n", t->o);
	return 1;
}

/* A call of name on the address operand (and b): "name(&x[, b]);". */
static void put_call(struct toc *t, const struct ir_instr *in, const char *name,
		     const struct ir_expr *b)
{
	put_dst(t, in);
	fprintf(t->o, "%s(", name);
	put_pointer(t, in->a, NULL);
	if (b) {
		fputs(", ", t->o);
		put_expr(t, b);
	}
	fputs(");\n", t->o);
}

/* The primitive of a lock or SRCU instruction. */
static const char *call_name(enum ir_op op)
{
	switch (op) {
	case IR_LOCK: return "spin_lock";
	case IR_UNLOCK: return "spin_unlock";
	case IR_TRYLOCK: return "spin_trylock";
	case IR_ISLOCKED: return "spin_is_locked";
	case IR_SRCU_LOCK: return "srcu_read_lock";
	case IR_SRCU_UNLOCK: return "srcu_read_unlock";
	default: return "synchronize_srcu";
	}
}

static int put_instr(struct toc *t, const struct ir_instr *in)
{
	switch (in->op) {
	case IR_ASSIGN:
		put_dst(t, in);
		put_expr(t, in->a);
		fputs(";\n", t->o);
		return 1;
	case IR_LOAD: {
		int at = addr_atomic(t, in->a);
		put_dst(t, in);
		if (in->order == IR_ORD_PLAIN) {
			put_lvalue(t, in->a);
		} else if (at || in->order == IR_ORD_ACQUIRE) {
			fputs(!at ? "smp_load_acquire(" : in->order == IR_ORD_ACQUIRE
			      ? "atomic_read_acquire(" : "atomic_read(", t->o);
			put_access_ptr(t, in->a);
			fputc(')', t->o);
		} else {
			fputs("READ_ONCE(", t->o);
			put_lvalue(t, in->a);
			fputc(')', t->o);
		}
		fputs(";\n", t->o);
		return 1;
	}
	case IR_STORE: {
		int at = addr_atomic(t, in->a);
		indent(t);
		if (in->order == IR_ORD_PLAIN) {
			put_lvalue(t, in->a);
			fputs(" = ", t->o);
		} else if (at || in->order == IR_ORD_RELEASE) {
			fputs(!at ? "smp_store_release(" : in->order == IR_ORD_RELEASE
			      ? "atomic_set_release(" : "atomic_set(", t->o);
			put_access_ptr(t, in->a);
			fputs(", ", t->o);
		} else {
			fputs("WRITE_ONCE(", t->o);
			put_lvalue(t, in->a);
			fputs(", ", t->o);
		}
		put_expr(t, in->b);
		fputs(in->order == IR_ORD_PLAIN ? ";\n" : ");\n", t->o);
		return 1;
	}
	case IR_RMW:
		return put_rmw(t, in);
	case IR_FENCE:
		indent(t);
		/* a model's own fence (IR_F_OTHER): the full one */
		fprintf(t->o, "%s();\n", ir_fence_call(in->fence) ? ir_fence_call(in->fence)
			: ir_fence_call(IR_F_MB));
		return 1;
	case IR_LOCK:
	case IR_UNLOCK:
	case IR_TRYLOCK:
	case IR_ISLOCKED:
	case IR_SRCU_LOCK:
	case IR_SRCU_UNLOCK:
	case IR_SRCU_SYNC:
		put_call(t, in, call_name(in->op),
			 in->op == IR_SRCU_UNLOCK ? in->b : NULL);
		return 1;
	case IR_IF:
		indent(t);
		fputs("if (", t->o);
		put_expr(t, in->a);
		fputs(") {\n", t->o);
		if (!put_block(t, &in->then_b))
			return 0;
		indent(t);
		if (in->else_b.count) {
			fputs("} else {\n", t->o);
			if (!put_block(t, &in->else_b))
				return 0;
			indent(t);
		}
		fputs("}\n", t->o);
		return 1;
	case IR_LOOP:
		indent(t);
		fputs("for (;;) {\n", t->o);
		if (!put_block(t, &in->then_b))
			return 0;
		indent(t);
		fputs("}\n", t->o);
		return 1;
	case IR_BREAK:
		indent(t);
		fputs("break;\n", t->o);
		return 1;
	case IR_CONTINUE:
		indent(t);
		fputs("continue;\n", t->o);
		return 1;
	case IR_ASSERT:
		indent(t);
		fputs("assert(", t->o);
		put_expr(t, in->a);
		fputs(");\n", t->o);
		return 1;
	}
	return diag_error_kind(t->d, DIAG_INTERNAL, t->p->file, in->pos.line, in->pos.col,
			       "--to-c: internal error: unknown instruction");
}

static int put_block(struct toc *t, const struct ir_block *b)
{
	t->depth++;
	for (int i = 0; i < b->count; i++)
		if (!put_instr(t, &b->items[i]))
			return 0;
	t->depth--;
	return 1;
}

/* --- the condition ------------------------------------------------------ */

/* Is the register observed by the condition, the filter or "locations"? */
static int cond_names(const struct ir_cond *c, int tid, int r)
{
	if (!c)
		return 0;
	if (c->kind == IR_C_ATOM)
		return (c->lhs.thread == tid && c->lhs.index == r) ||
		       (c->rhs_is_obs && c->rhs_obs.thread == tid &&
			c->rhs_obs.index == r);
	return cond_names(c->a, tid, r) || cond_names(c->b, tid, r);
}

static int observed(const struct ir_program *p, int tid, int r)
{
	return cond_names(p->cond, tid, r) || cond_names(p->filter, tid, r);
}

/* The global a register is copied to at its thread's end. */
static const char *export_name(struct toc *t, int tid, int r)
{
	char pre[32];
	snprintf(pre, sizeof pre, "P%d_", tid);
	return c_name(t->a, pre, t->p->threads[tid].regs[r].name);
}

static void put_obs(struct toc *t, struct ir_observable o)
{
	if (o.thread < 0)
		fprintf(t->o, t->atomic[o.index] ? "atomic_read(&%s)" : "%s",
			t->loc[o.index]);
	else
		fputs(export_name(t, o.thread, o.index), t->o);
}

static void put_cond(struct toc *t, const struct ir_cond *c)
{
	switch (c->kind) {
	case IR_C_TRUE:
		fputs("1", t->o);
		return;
	case IR_C_FALSE:
		fputs("0", t->o);
		return;
	case IR_C_ATOM:
		put_obs(t, c->lhs);
		fputs(" == ", t->o);
		if (c->rhs_is_obs)
			put_obs(t, c->rhs_obs);
		else if (c->rhs.kind == IR_VAL_LOC)
			fprintf(t->o, "(intptr_t)&%s", t->loc[c->rhs.loc]);
		else
			fprintf(t->o, "%ld", c->rhs.num);
		return;
	case IR_C_EXPR: /* a litmus test has none (cprog.c makes it) */
		fprintf(t->o, "(%s)", c->text);
		return;
	case IR_C_NOT:
		fputs("!(", t->o);
		put_cond(t, c->a);
		fputc(')', t->o);
		return;
	case IR_C_AND:
	case IR_C_OR:
		fputc('(', t->o);
		put_cond(t, c->a);
		fputs(c->kind == IR_C_AND ? " && " : " || ", t->o);
		put_cond(t, c->b);
		fputc(')', t->o);
		return;
	}
}

/* --- the program ----------------------------------------------------------- */

static const char *loc_type(const struct toc *t, int i)
{
	const struct ir_location *l = &t->p->locs[i];
	if (t->atomic[i])
		return "atomic_t";
	switch (l->kind) {
	case IR_LOC_PTR: return "intptr_t";
	case IR_LOC_ATOMIC: return "atomic_t";
	case IR_LOC_SPINLOCK: return "spinlock_t";
	case IR_LOC_SRCU: return "struct srcu_struct";
	default: return "intptr_t";
	}
}

static int put_thread(struct toc *t, int tid)
{
	const struct ir_thread *th = &t->p->threads[tid];
	t->reg = arena_alloc(t->a, (size_t)(th->nregs + 1) * sizeof *t->reg);
	fprintf(t->o, "void *P%d(void *arg)\n{\n", tid);
	for (int r = 0; r < th->nregs; r++) {
		const struct ir_reg *rg = &th->regs[r];
		t->reg[r] = c_name(t->a, "r_", rg->name);
		fprintf(t->o, "\tintptr_t %s = ", t->reg[r]);
		if (rg->has_init && rg->init.kind == IR_VAL_LOC)
			fprintf(t->o, "(intptr_t)&%s;\n", t->loc[rg->init.loc]);
		else
			fprintf(t->o, "%ld;\n", rg->has_init ? rg->init.num : 0L);
	}
	fputc('\n', t->o);
	t->depth = 0;
	if (!put_block(t, &th->body))
		return 0;
	for (int r = 0; r < th->nregs; r++)
		if (observed(t->p, tid, r))
			fprintf(t->o, "\tWRITE_ONCE(%s, %s);\n", export_name(t, tid, r),
				t->reg[r]);
	fputs("\treturn NULL;\n}\n\n", t->o);
	return 1;
}

int ir_to_c(const struct ir_program *p, FILE *out, struct diag *d)
{
	struct toc t = { .p = p, .o = out, .d = d, .a = arena_new() };
	t.loc = arena_alloc(t.a, (size_t)(p->nlocs + 1) * sizeof *t.loc);
	t.atomic = arena_alloc(t.a, (size_t)p->nlocs + 1);
	for (int i = 0; i < p->nlocs; i++) {
		t.loc[i] = c_name(t.a, "", p->locs[i].name);
		t.atomic[i] = p->locs[i].kind == IR_LOC_ATOMIC;
	}
	for (int k = 0; k < p->nthreads; k++)
		scan_atomic(&t, &p->threads[k].body);
	char *c = clause_cond_string(p, p->cond);
	fprintf(out, "/* lkmmc --to-c of %s\n * (test %s; its condition: %s %s%s)\n */\n",
		p->file, p->name, p->quant == IR_Q_EXISTS ? "exists"
		: p->quant == IR_Q_FORALL ? "forall" : "~exists", c,
		p->filter ? ", with a filter" : "");
	free(c);
	fputs("#include <pthread.h>\n#include <assert.h>\n#include <stdint.h>\n"
	      "#include <lkmm.h>\n\n", out);
	/* Every location declared before any initial value names one. */
	for (int i = 0; i < p->nlocs; i++)
		fprintf(out, "%s %s;\n", loc_type(&t, i), t.loc[i]);
	for (int i = 0; i < p->nlocs; i++) {
		const struct ir_location *l = &p->locs[i];
		const char *ty = loc_type(&t, i);
		/* an atomic_t is a struct in the kernel (and GenMC) */
		int wrap = !strcmp(ty, "atomic_t");
		if (l->init.kind == IR_VAL_LOC)
			fprintf(out, "%s %s = %s(intptr_t)&%s%s;\n", ty, t.loc[i],
				wrap ? "ATOMIC_INIT(" : "", t.loc[l->init.loc],
				wrap ? ")" : "");
		else if (l->init.num)
			fprintf(out, "%s %s = %s%ld%s;\n", ty, t.loc[i],
				wrap ? "ATOMIC_INIT(" : "", l->init.num, wrap ? ")" : "");
	}
	for (int k = 0; k < p->nthreads; k++)
		for (int r = 0; r < p->threads[k].nregs; r++)
			if (observed(p, k, r))
				fprintf(out, "intptr_t %s;\n", export_name(&t, k, r));
	fputc('\n', out);
	int ok = 1;
	for (int k = 0; ok && k < p->nthreads; k++)
		ok = put_thread(&t, k);
	if (ok) {
		fputs("int main(void)\n{\n", out);
		fprintf(out, "\tpthread_t t[%d];\n\n", p->nthreads);
		for (int k = 0; k < p->nthreads; k++)
			fprintf(out, "\tpthread_create(&t[%d], NULL, P%d, NULL);\n", k, k);
		for (int k = 0; k < p->nthreads; k++)
			fprintf(out, "\tpthread_join(t[%d], NULL);\n", k);
		fputs("\tassert(", out);
		if (p->quant == IR_Q_FORALL) {
			if (p->filter) {
				fputs("!(", out);
				put_cond(&t, p->filter);
				fputs(") || ", out);
			}
			put_cond(&t, p->cond);
		} else {
			fputs("!(", out);
			if (p->filter) {
				put_cond(&t, p->filter);
				fputs(" && ", out);
			}
			put_cond(&t, p->cond);
			fputc(')', out);
		}
		fputs(");\n\treturn 0;\n}\n", out);
	}
	arena_free(t.a);
	return ok;
}
