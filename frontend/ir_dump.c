/*
 * ir_dump.c - the stable text form of an ir_program (--dump-ir): the test
 * name, the locations with their kind, type and initial value, each thread
 * with its parameters, registers and instruction tree (with line:col and
 * source text), then the final clauses.  Values that are addresses print
 * as the location's name (as herd7 prints them); in expressions the
 * address of x is "&x", to tell it from x's contents.  Deterministic: the output depends
 * only on the program.
 *
 * It does not build or check IR.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fe.h"
#include "frontend.h"

static const char *kind_name(enum ir_loc_kind k)
{
	switch (k) {
	case IR_LOC_INT: return "int";
	case IR_LOC_PTR: return "ptr";
	case IR_LOC_ATOMIC: return "atomic";
	case IR_LOC_SPINLOCK: return "spinlock";
	case IR_LOC_SRCU: return "srcu";
	}
	return "?";
}

static void dump_value(const struct ir_program *prog, struct ir_value v,
		       FILE *out)
{
	if (v.kind == IR_VAL_LOC) /* as herd7 prints pointer values */
		fputs(prog->locs[v.loc].name, out);
	else
		fprintf(out, "%ld", v.num);
}

static void dump_expr(const struct ir_program *prog, const struct ir_thread *th,
		      const struct ir_expr *e, FILE *out, int top)
{
	static const char unops[] = { '-', '!', '~' };
	if (!e) {
		fputs("?", out);
		return;
	}
	switch (e->kind) {
	case IR_E_CONST:
		fprintf(out, "%ld", e->num);
		break;
	case IR_E_LOC:
		fprintf(out, "&%s", prog->locs[e->loc].name);
		break;
	case IR_E_REG:
		fputs(th->regs[e->reg].name, out);
		break;
	case IR_E_CHOICE:
		fprintf(out, "choice#%ld", e->num);
		break;
	case IR_E_UNARY:
		fputc(unops[e->op], out);
		dump_expr(prog, th, e->a, out, 0);
		break;
	case IR_E_BINARY:
		if (!top)
			fputc('(', out);
		dump_expr(prog, th, e->a, out, 0);
		fprintf(out, " %s ", ir_binop_name((enum ir_binop)e->op));
		dump_expr(prog, th, e->b, out, 0);
		if (!top)
			fputc(')', out);
		break;
	case IR_E_COND:
		if (!top)
			fputc('(', out);
		dump_expr(prog, th, e->a, out, 0);
		fputs(" ? ", out);
		dump_expr(prog, th, e->b, out, 0);
		fputs(" : ", out);
		dump_expr(prog, th, e->c, out, 0);
		if (!top)
			fputc(')', out);
		break;
	}
}

static void dump_block(const struct ir_program *prog, const struct ir_thread *th,
		       const struct ir_block *b, int depth, FILE *out);

/* "dst = " when there is a destination. */
static void dump_dst(const struct ir_thread *th, const struct ir_instr *in,
		     FILE *out)
{
	if (in->dst >= 0)
		fprintf(out, "%s = ", th->regs[in->dst].name);
}

/* "name(a[, b[, c]])" */
static void dump_call(const struct ir_program *prog, const struct ir_thread *th,
		      const struct ir_instr *in, const char *name, FILE *out)
{
	fprintf(out, "%s(", name);
	const struct ir_expr *ops[3] = { in->a, in->b, in->c };
	for (int i = 0; i < 3 && ops[i]; i++) {
		if (i)
			fputs(", ", out);
		dump_expr(prog, th, ops[i], out, 1);
	}
	fputc(')', out);
}

/* The model tags of a program lowered with a model's .def: " {R tags |
 * W tags | failed read | fences}" as far as any is set. */
static void dump_tags(const struct ir_program *prog, const struct ir_instr *in,
		      FILE *out)
{
	int last = -1;
	for (int k = 0; k < IR_TAG_SLOTS; k++)
		if (in->tags[k])
			last = k;
	if (!prog->tag_names || last < 0)
		return;
	fputs(" {", out);
	for (int k = 0; k <= last; k++) {
		const char *sep = k ? " | " : "";
		fputs(sep, out);
		sep = "";
		for (int b = 0; b < prog->ntags; b++)
			if (in->tags[k] >> b & 1) {
				fprintf(out, "%s%s", sep, prog->tag_names[b]);
				sep = ",";
			}
	}
	fputc('}', out);
}

static void dump_instr(const struct ir_program *prog, const struct ir_thread *th,
		       const struct ir_instr *in, int depth, FILE *out)
{
	fprintf(out, "  %4d:%-3d %*s", in->pos.line, in->pos.col, 2 * depth, "");
	char name[64];
	switch (in->op) {
	case IR_ASSIGN:
		dump_dst(th, in, out);
		dump_expr(prog, th, in->a, out, 1);
		break;
	case IR_LOAD:
		dump_dst(th, in, out);
		snprintf(name, sizeof name, "load[%s]", ir_order_name(in->order));
		dump_call(prog, th, in, name, out);
		break;
	case IR_STORE:
		snprintf(name, sizeof name, "store[%s]", ir_order_name(in->order));
		dump_call(prog, th, in, name, out);
		break;
	case IR_RMW:
		dump_dst(th, in, out);
		if (in->rmw == IR_RMW_XCHG || in->rmw == IR_RMW_CMPXCHG)
			snprintf(name, sizeof name, "rmw[%s,%s]",
				 ir_rmw_name(in->rmw), ir_order_name(in->order));
		else
			snprintf(name, sizeof name, "rmw[%s,%s,%s]",
				 ir_rmw_name(in->rmw), ir_order_name(in->order),
				 ir_binop_name(in->arith));
		dump_call(prog, th, in, name, out);
		break;
	case IR_FENCE:
		fprintf(out, "fence[%s]", ir_fence_name(in->fence));
		break;
	case IR_LOCK:
		dump_call(prog, th, in, "lock", out);
		break;
	case IR_UNLOCK:
		dump_call(prog, th, in, "unlock", out);
		break;
	case IR_TRYLOCK:
		dump_dst(th, in, out);
		dump_call(prog, th, in, "trylock", out);
		break;
	case IR_ISLOCKED:
		dump_dst(th, in, out);
		dump_call(prog, th, in, "islocked", out);
		break;
	case IR_SRCU_LOCK:
		dump_dst(th, in, out);
		dump_call(prog, th, in, "srcu_lock", out);
		break;
	case IR_SRCU_UNLOCK:
		dump_call(prog, th, in, "srcu_unlock", out);
		break;
	case IR_SRCU_SYNC:
		dump_call(prog, th, in, "srcu_sync", out);
		break;
	case IR_IF:
		fputs("if ", out);
		dump_expr(prog, th, in->a, out, 0);
		fprintf(out, "    ; %s\n", in->text ? in->text : "");
		dump_block(prog, th, &in->then_b, depth + 1, out);
		if (in->else_b.count) {
			fprintf(out, "  %4s %-3s %*selse\n", "", "", 2 * depth, "");
			dump_block(prog, th, &in->else_b, depth + 1, out);
		}
		return;
	case IR_LOOP:
		fprintf(out, "loop    ; %s\n", in->text ? in->text : "");
		dump_block(prog, th, &in->then_b, depth + 1, out);
		return;
	case IR_BREAK:
		fputs("break", out);
		break;
	case IR_CONTINUE:
		fputs("continue", out);
		break;
	case IR_ASSERT:
		fputs("assert ", out);
		dump_expr(prog, th, in->a, out, 0);
		break;
	}
	dump_tags(prog, in, out);
	if (in->text)
		fprintf(out, "    ; %s", in->text);
	fputc('\n', out);
}

static void dump_block(const struct ir_program *prog, const struct ir_thread *th,
		       const struct ir_block *b, int depth, FILE *out)
{
	for (int i = 0; i < b->count; i++)
		dump_instr(prog, th, &b->items[i], depth, out);
}

static void dump_obs(const struct ir_program *prog, struct ir_observable o,
		     FILE *out)
{
	if (o.thread >= 0)
		fprintf(out, "%d:%s", o.thread,
			prog->threads[o.thread].regs[o.index].name);
	else
		fputs(prog->locs[o.index].name, out);
}

void ir_dump(const struct ir_program *prog, FILE *out)
{
	fprintf(out, "test %s\n", prog->name);
	fprintf(out, "locations %d\n", prog->nlocs);
	for (int i = 0; i < prog->nlocs; i++) {
		const struct ir_location *l = &prog->locs[i];
		fprintf(out, "  %s: %s (%s) = ", l->name, kind_name(l->kind),
			l->ctype);
		dump_value(prog, l->init, out);
		fprintf(out, "    ; line %d:%d\n", l->pos.line, l->pos.col);
	}
	for (int t = 0; t < prog->nthreads; t++) {
		const struct ir_thread *th = &prog->threads[t];
		fprintf(out, "thread P%d    ; line %d:%d\n", th->id, th->pos.line,
			th->pos.col);
		fputs("  params:", out);
		for (int i = 0; i < th->nparams; i++)
			fprintf(out, " %s", prog->locs[th->params[i]].name);
		fputs("\n  regs:", out);
		for (int i = 0; i < th->nregs; i++) {
			const struct ir_reg *r = &th->regs[i];
			fprintf(out, " %s(%s%s", r->name, r->ctype,
				r->is_temp ? ",temp" : "");
			if (r->has_init) {
				fputs(",init=", out);
				dump_value(prog, r->init, out);
			}
			fputc(')', out);
		}
		fputc('\n', out);
		dump_block(prog, th, &th->body, 0, out);
	}
	if (prog->nobserved) {
		fputs("locations [", out);
		for (int i = 0; i < prog->nobserved; i++) {
			if (i)
				fputs("; ", out);
			dump_obs(prog, prog->observed[i], out);
		}
		fputs("]\n", out);
	}
	if (prog->filter) {
		char *s = clause_cond_string(prog, prog->filter);
		fprintf(out, "filter %s\n", s);
		free(s);
	}
	static const char *const quant[] = { "exists", "~exists", "forall" };
	fprintf(out, "%s %s\n", quant[prog->quant], prog->cond_text);
}
