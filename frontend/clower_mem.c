/*
 * clower_mem.c - memset() and memcpy() of <string.h> in a whole C program
 * (see clower_int.h).  The model has no bytes, only locations; before the
 * first pthread_create, main's code makes the initial state (cprog_init.c
 * runs it), and there a memset of a whole global to 0 or a memcpy of a
 * whole global into another of the same type is one store per location
 * of the object (each field and element).  Anywhere else, or on part of
 * an object, or with another byte than 0, they are a located error
 * saying what to write instead.  It does not run the stores (cprog_init.c
 * does) nor lay out objects (layout.c).
 */
#include <string.h>

#include "common/arena.h"
#include "clower_int.h"
#include "fe.h"

/* What memset and memcpy may be, for the errors. */
#define MEM_ACCEPTS "before the first pthread_create, main may set a whole " \
	"global to 0 (memset(&g, 0, sizeof g)) or copy a whole global into " \
	"another of its type (memcpy(&g, &h, sizeof g))"

/* The object an argument such as &g, g (an array), &s.f names: the
 * lvalue into *obj; 0 with the error recorded when it is none. */
static int object_arg(struct lw *w, CXCursor c, CXCursor arg, CXCursor *obj)
{
	CXCursor x = cl_strip(w, arg);
	struct opform f;
	cl_opform(w, x, &f);
	if (f.nkids == 1 && !f.postfix && strcmp(f.op, "&") == 0) {
		*obj = cl_strip(w, f.kid[0]);
		return 1;
	}
	if (clang_getCanonicalType(clang_getCursorType(x)).kind ==
	    CXType_ConstantArray) {
		*obj = x;
		return 1;
	}
	return cl_err_at(w, c, "%s: '%s' is not the address of a global; "
			 MEM_ACCEPTS, cl_spell(w, c), cl_src_of(w, arg).text);
}

/* The location lvalue obj of size n bytes is, when n is its whole size;
 * -1 with the error recorded otherwise. */
static int whole_object(struct lw *w, CXCursor c, CXCursor obj, CXCursor size,
			struct bb *b)
{
	struct ir_expr *a = cl_lv_addr(w, obj, b);
	if (!a)
		return -1;
	if (a->kind != IR_E_LOC) {
		cl_err_at(w, c, "%s: '%s' is not a global; " MEM_ACCEPTS,
			  cl_spell(w, c), cl_src_of(w, obj).text);
		return -1;
	}
	long long whole = clang_Type_getSizeOf(clang_getCursorType(obj));
	CXEvalResult ev = clang_Cursor_Evaluate(size);
	long long n = ev && clang_EvalResult_getKind(ev) == CXEval_Int
		? clang_EvalResult_getAsLongLong(ev) : -1;
	if (ev)
		clang_EvalResult_dispose(ev);
	if (n != whole) {
		cl_err_at(w, c, "%s of %s bytes of '%s', which has %lld: lkmmc "
			  "has no bytes, only locations; set or copy the whole "
			  "object (sizeof %s), or assign its fields one by one",
			  cl_spell(w, c), n < 0 ? "a computed number of"
			  : arena_printf(w->fe->arena, "%lld", n),
			  cl_src_of(w, obj).text, whole, cl_src_of(w, obj).text);
		return -1;
	}
	return a->loc;
}

/* Is location l a part of object (or the location) o: o itself, o.f...,
 * o[i]...?  Only locations that hold values count (not objects). */
static int part_of(const struct fe *fe, int l, int o)
{
	const char *n = fe->prog->locs[l].name, *on = fe->prog->locs[o].name;
	size_t k = strlen(on);
	return !fe->locx[l].is_object && strncmp(n, on, k) == 0 &&
	       (n[k] == '\0' || n[k] == '.' || n[k] == '[');
}

/* A store of v to location l, as main's initial code does it. */
static void store(struct lw *w, struct bb *b, struct src s, int l,
		  struct ir_expr *v)
{
	struct ir_expr *a = cl_mk(w, IR_E_LOC, s.pos);
	a->loc = l;
	struct ir_instr *in = cl_emit(w, b, IR_STORE, s, -1);
	in->a = a;
	in->b = v;
	in->order = IR_ORD_PLAIN;
}

/* Locks and SRCU domains start in their one state and take no values:
 * a whole-object memset or memcpy leaves them as they are. */
static int holds_values(const struct fe *fe, int l)
{
	enum ir_loc_kind k = fe->prog->locs[l].kind;
	return k != IR_LOC_SPINLOCK && k != IR_LOC_SRCU;
}

int cl_mem_call(struct lw *w, CXCursor c, const char *name, struct bb *b,
		int dst, struct src s, struct ir_expr **val)
{
	struct fe *fe = w->fe;
	*val = NULL;
	if (!w->in_main)
		return cl_err_at(w, c, "'%s' in a thread is not modelled (the "
				 "model has no bytes, only locations): store "
				 "the fields one by one (WRITE_ONCE(s.f, 0)); "
				 MEM_ACCEPTS, name);
	if (clang_Cursor_getNumArguments(c) != 3)
		return cl_err_at(w, c, "'%s' takes 3 arguments", name);
	if (dst != DST_NONE)
		return cl_err_at(w, c, "the value of %s is not supported: call "
				 "it as a statement of its own", name);
	CXCursor to, from;
	if (!object_arg(w, c, clang_Cursor_getArgument(c, 0), &to))
		return 0;
	int o = whole_object(w, c, to, clang_Cursor_getArgument(c, 2), b);
	if (o < 0)
		return 0;
	if (strcmp(name, "memset") == 0) {
		struct ir_expr *v = cl_rv(w, clang_Cursor_getArgument(c, 1), b);
		long n;
		if (!v)
			return 0;
		if (!cl_fold(v, &n) || n != 0)
			return cl_err_at(w, c, "memset with a byte other than 0: "
					 "lkmmc has no bytes, only locations; "
					 "assign the values (g.f = v;) instead");
		for (int l = 0; l < fe->prog->nlocs; l++)
			if (part_of(fe, l, o) && holds_values(fe, l))
				store(w, b, s, l, cl_mk_const(w, 0, s.pos));
		return 1;
	}
	if (!object_arg(w, c, clang_Cursor_getArgument(c, 1), &from))
		return 0;
	if (!clang_equalTypes(clang_getCanonicalType(clang_getCursorType(to)),
			      clang_getCanonicalType(clang_getCursorType(from))))
		return cl_err_at(w, c, "memcpy between '%s' and '%s' of different "
				 "types: lkmmc copies a whole object into one of "
				 "its type; assign the fields one by one",
				 cl_src_of(w, to).text, cl_src_of(w, from).text);
	int f = whole_object(w, c, from, clang_Cursor_getArgument(c, 2), b);
	if (f < 0)
		return 0;
	size_t ok = strlen(fe->prog->locs[o].name);
	for (int l = 0; l < fe->prog->nlocs; l++) {
		if (!part_of(fe, l, o) || !holds_values(fe, l))
			continue;
		/* the same part of the source: its name with o's prefix
		 * replaced by f's */
		const char *n = arena_printf(fe->arena, "%s%s",
					     fe->prog->locs[f].name,
					     fe->prog->locs[l].name + ok);
		int from_l = ir_find_loc(fe->prog, n);
		if (from_l < 0)
			return cl_err_at(w, c, "internal error: no %s to copy", n);
		struct ir_expr *a = cl_mk(w, IR_E_LOC, s.pos);
		a->loc = from_l;
		int t = cl_temp(w, s.pos);
		struct ir_instr *in = cl_emit(w, b, IR_LOAD, s, t);
		in->a = a;
		in->order = IR_ORD_PLAIN;
		store(w, b, s, l, cl_mk_reg(w, t, s.pos));
	}
	return 1;
}
