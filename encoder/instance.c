/*
 * instance.c - an encoding's copy in which the choices of one candidate
 * execution are constants (enc_instance, encoder.h).
 *
 * A memory model built over an encoding makes, for every pair of events
 * its relations may hold, a formula over the execution's choices (the
 * guards, rf, co, the addresses); for the lock programs of bench/ that is
 * hundreds of thousands of definitions, seconds of work (4.3 s for the
 * per-index MCS lock of 8 threads), before anything is asked.  Given one
 * execution (a Z3 model of the program alone), the same model built over
 * the encoding's base relations with each entry replaced by its value in
 * that execution (the true literal or NULL) folds as it is built: rel.c
 * folds the true literal and NULL through every operator, and a closure
 * of sure edges is fixed without a variable, so what is left is the
 * model's answer on that execution, exact, for the cost of the relation
 * operators on constant matrices (milliseconds).  --first-error uses it
 * to judge sequentially consistent executions before building the model
 * over the whole program (solver/firsterr.c).
 *
 * What is replaced: the guards (the false literal for an event not
 * executed), the static relations (po, int, ext, loc, rmw, addr, data,
 * ctrl), rf, co, fr, critical and the event classes.  Everything else is
 * the original's, shared, not copied: the events (their value and address
 * terms, which the model compares for its flags: those stay formulas over
 * the program's variables, which the same Z3 model evaluates), the final
 * values, the assertions, herd7's cut, the rf variables and timestamps
 * (execution.c reads an execution off them).  The instance has its own
 * relation context (its own definitions, closures and acyclicity checks)
 * and no keyed orders: co and fr are constant matrices here.  Its facts
 * are empty: the program's constraints are the original's.
 *
 * The original must outlive the instance and is not changed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoder/encoder.h"
#include "common/arena.h"
#include "common/xalloc.h"

/* The value of each formula asked, by Z3 AST id (many entries share a
 * formula: a pair's guards, a location's address equality). */
struct memo {
	Z3_context z;
	Z3_model m;
	unsigned *key;      /* id + 1; 0: empty slot */
	unsigned char *val; /* its value */
	size_t cap, used;   /* cap: a power of two */
};

static void memo_grow(struct memo *mm)
{
	size_t ocap = mm->cap;
	unsigned *okey = mm->key;
	unsigned char *oval = mm->val;
	mm->cap = ocap ? 2 * ocap : 4096;
	mm->key = xcalloc(mm->cap, sizeof *mm->key);
	mm->val = xcalloc(mm->cap, 1);
	mm->used = 0;
	for (size_t i = 0; i < ocap; i++)
		if (okey[i]) {
			size_t h = (okey[i] * 2654435761u) & (mm->cap - 1);
			while (mm->key[h])
				h = (h + 1) & (mm->cap - 1);
			mm->key[h] = okey[i];
			mm->val[h] = oval[i];
			mm->used++;
		}
	free(okey);
	free(oval);
}

/* f's slot in the memo (empty when f was not asked yet). */
static size_t memo_slot(struct memo *mm, Z3_ast f)
{
	if (2 * (mm->used + 1) > mm->cap)
		memo_grow(mm);
	unsigned key = Z3_get_ast_id(mm->z, f) + 1;
	size_t h = (key * 2654435761u) & (mm->cap - 1);
	while (mm->key[h] && mm->key[h] != key)
		h = (h + 1) & (mm->cap - 1);
	return h;
}

static int holds(struct memo *mm, Z3_ast f);

/* The value of a formula not asked before: its connectives taken apart
 * here, its atoms (rf and co choices, guards, comparisons of values and
 * addresses) evaluated by Z3 with model completion (a variable the model
 * leaves open takes its default); Z3's evaluator on every entry took
 * 0.18 s for the 23,560 formulas of the per-index MCS lock of 8 threads,
 * this 0.03 s, and a circuit of them (circuit.h, which also compiles the
 * encoder's named definitions the formulas reach instead of reading the
 * model's values) about 3 s. */
static int evaluate(struct memo *mm, Z3_ast f)
{
	Z3_context z = mm->z;
	if (Z3_get_ast_kind(z, f) == Z3_APP_AST) {
		Z3_app app = Z3_to_app(z, f);
		unsigned na = Z3_get_app_num_args(z, app);
		int boolean_args = na > 0 && Z3_get_sort_kind(z, Z3_get_sort(z, Z3_get_app_arg(z, app, 0))) == Z3_BOOL_SORT;
		switch (Z3_get_decl_kind(z, Z3_get_app_decl(z, app))) {
		case Z3_OP_TRUE: return 1;
		case Z3_OP_FALSE: return 0;
		case Z3_OP_NOT: return !holds(mm, Z3_get_app_arg(z, app, 0));
		case Z3_OP_AND:
			for (unsigned i = 0; i < na; i++)
				if (!holds(mm, Z3_get_app_arg(z, app, i)))
					return 0;
			return 1;
		case Z3_OP_OR:
			for (unsigned i = 0; i < na; i++)
				if (holds(mm, Z3_get_app_arg(z, app, i)))
					return 1;
			return 0;
		case Z3_OP_IMPLIES:
			return !holds(mm, Z3_get_app_arg(z, app, 0)) ||
			       holds(mm, Z3_get_app_arg(z, app, 1));
		case Z3_OP_ITE:
			if (Z3_get_sort_kind(z, Z3_get_sort(z, f)) != Z3_BOOL_SORT)
				break;
			return holds(mm, Z3_get_app_arg(z, app, 0)) ? holds(mm, Z3_get_app_arg(z, app, 1))
								    : holds(mm, Z3_get_app_arg(z, app, 2));
		case Z3_OP_EQ:
		case Z3_OP_IFF:
			if (na != 2 || !boolean_args)
				break;
			return holds(mm, Z3_get_app_arg(z, app, 0)) ==
			       holds(mm, Z3_get_app_arg(z, app, 1));
		default:
			break;
		}
	}
	Z3_ast v = NULL;
	return Z3_model_eval(z, mm->m, f, 1, &v) && Z3_get_bool_value(z, v) == Z3_L_TRUE;
}

/* Whether f holds in the execution. */
static int holds(struct memo *mm, Z3_ast f)
{
	size_t h = memo_slot(mm, f);
	if (mm->key[h])
		return mm->val[h];
	int yes = evaluate(mm, f);
	h = memo_slot(mm, f); /* the memo may have grown meanwhile */
	mm->key[h] = Z3_get_ast_id(mm->z, f) + 1;
	mm->val[h] = (unsigned char)yes;
	mm->used++;
	return yes;
}

/* a's constant copy in inst's arena (NULL stays NULL). */
static rel_t const_rel(struct encoding *inst, struct memo *mm, rel_t a)
{
	if (!a)
		return NULL;
	size_t nn = (size_t)inst->n * (size_t)inst->n;
	rel_t r = arena_alloc(inst->arena, sizeof(Z3_ast) * (nn ? nn : 1));
	for (size_t i = 0; i < nn; i++)
		r[i] = a[i] && holds(mm, a[i]) ? inst->rc.t : NULL;
	return r;
}

static set_t const_set(struct encoding *inst, struct memo *mm, set_t a)
{
	if (!a)
		return NULL;
	set_t s = arena_alloc(inst->arena, sizeof(Z3_ast) * (size_t)(inst->n ? inst->n : 1));
	for (int e = 0; e < inst->n; e++)
		s[e] = a[e] && holds(mm, a[e]) ? inst->rc.t : NULL;
	return s;
}

struct encoding *enc_instance(const struct encoding *enc, Z3_model m)
{
	Z3_context z = enc->z;
	struct encoding *inst = xmalloc(sizeof *inst);
	*inst = *enc; /* the shared parts; the rest replaced below */
	inst->arena = arena_new();
	rel_ctx_init(&inst->rc, z, enc->n, NULL, inst->arena);
	inst->rc.deadline = enc->rc.deadline;
	inst->rc.limit = enc->rc.limit;
	inst->facts = Z3_mk_ast_vector(z);
	Z3_ast_vector_inc_ref(z, inst->facts);
	Z3_ast_vector_inc_ref(z, inst->drop); /* shared, released by enc_instance_free */
	inst->keyed = (struct rel_keyed){0};
	inst->rc.keyed = NULL;
	inst->ndefs_program = 0;

	struct memo mm = {.z = z, .m = m};
	Z3_ast no = Z3_mk_false(z);
	inst->guard = arena_alloc(inst->arena, sizeof(Z3_ast) * (size_t)(enc->n ? enc->n : 1));
	for (int e = 0; e < enc->n; e++)
		inst->guard[e] = holds(&mm, enc->guard[e]) ? inst->rc.t : no;
	inst->rc.guard = inst->guard;
	rel_t *rels[] = {&inst->po, &inst->int_, &inst->ext, &inst->loc, &inst->rmw,
			 &inst->addr, &inst->data, &inst->ctrl, &inst->rf, &inst->co,
			 &inst->fr, &inst->critical};
	for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++)
		*rels[i] = const_rel(inst, &mm, *rels[i]);
	for (int k = 0; k < EVC_COUNT; k++)
		inst->cls[k] = const_set(inst, &mm, enc->cls[k]);
	free(mm.key);
	free(mm.val);
	return inst;
}

void enc_instance_free(struct encoding *inst)
{
	if (!inst)
		return;
	Z3_ast_vector_dec_ref(inst->z, inst->facts);
	Z3_ast_vector_dec_ref(inst->z, inst->drop);
	rel_ctx_fini(&inst->rc);
	arena_free(inst->arena);
	free(inst);
}
