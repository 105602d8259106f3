/*
 * cprog_global.c - the file-scope variables of a whole C program (see
 * cprog.c) as the shared locations of the test: their types (ints,
 * pointers, arrays, named structs, spinlocks, srcu_structs) and their
 * initial values.  pthread_t handles are main's business (cprog.c); it
 * does not read main's initial stores either.
 */
#include <string.h>

#include "common/arena.h"
#include "cprog_int.h"
#include "ctu.h"
#include "fe.h"

/* The initialiser of VarDecl v, if any (not the size of an array: an
 * expression among v's children too). */
int cprog_var_init(struct cprog *pc, CXCursor v, CXCursor *init)
{
	(void)pc;
	*init = clang_Cursor_getVarDeclInitializer(v);
	return !clang_Cursor_isNull(*init) &&
	       clang_isExpression(clang_getCursorKind(*init));
}

/* Set the initial value of location l from expression e. */
static int init_loc(struct cprog *pc, int l, CXCursor e, const char *name)
{
	struct ir_value v;
	int r = cprog_main_value(pc, e, &v);
	if (r < 0)
		return 0;
	if (r == 0)
		return cl_err_at(&pc->w, e, "the initial value of '%s' must be a "
			      "constant or the address of a global", name);
	struct ir_location *loc = &pc->fe->prog->locs[l];
	if (v.kind == IR_VAL_INT && v.num == 0)
		return 1;
	if (loc->kind == IR_LOC_SPINLOCK || loc->kind == IR_LOC_SRCU ||
	    pc->fe->locx[l].is_object)
		return cl_err_at(&pc->w, e, "'%s' is %s and cannot be given an "
			      "initial value", name, fe_kind_name(loc->kind));
	loc->init = v;
	pc->fe->locx[l].has_init = 1;
	if (loc->kind == IR_LOC_INT && v.kind == IR_VAL_LOC)
		loc->kind = IR_LOC_PTR;
	return 1;
}

/* Is initialiser e all zeros ({ 0 }, { 0, { NULL } }, {}), as a struct's
 * initial state is anyway?  *(int *)data is set to 0 at anything else. */
static enum CXChildVisitResult zero_init(CXCursor e, CXCursor parent,
					 CXClientData data)
{
	(void)parent;
	int *zero = data;
	switch (clang_getCursorKind(e)) {
	case CXCursor_InitListExpr:
	case CXCursor_UnexposedExpr: /* an implicit conversion */
	case CXCursor_CStyleCastExpr: /* NULL */
	case CXCursor_ParenExpr:
		return CXChildVisit_Recurse;
	case CXCursor_IntegerLiteral: {
		CXEvalResult ev = clang_Cursor_Evaluate(e);
		*zero = ev && clang_EvalResult_getAsLongLong(ev) == 0;
		if (ev)
			clang_EvalResult_dispose(ev);
		break;
	}
	default:
		*zero = 0;
		break;
	}
	return *zero ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Declare the file-scope variable v as a shared location. */
int cprog_declare_global(struct cprog *pc, CXCursor v)
{
	struct fe *fe = pc->fe;
	char *name = cl_spell(&pc->w, v);
	char *ty = cprog_type_of(pc, v);
	size_t off = cl_lit(&pc->w, cl_vfile_off(pc->t, clang_getCursorLocation(v)));
	if (cprog_is_handle_type(ty))
		return 1; /* a pthread_t: main's business */
	if (strstr(ty, "pthread_cond_t"))
		return cl_err_at(&pc->w, v, "'%s' is a %s: pthread condition "
			      "variables are not supported; wait for a flag "
			      "with a READ_ONCE() loop (or "
			      "smp_cond_load_acquire()) instead", name, ty);
	CXType ct = clang_getCanonicalType(clang_getCursorType(v));
	CXCursor init;
	int has_init = cprog_var_init(pc, v, &init);
	if (ct.kind == CXType_Pointer &&
	    clang_getCanonicalType(clang_getPointeeType(ct)).kind ==
	    CXType_FunctionProto)
		return cl_err_at(&pc->w, v, "'%s' is a function pointer: function "
			      "pointers are not supported; name the function "
			      "where it is called", name);
	if (ct.kind == CXType_ConstantArray) {
		CXType et = clang_getArrayElementType(clang_getCursorType(v));
		CXString es = clang_getTypeSpelling(et);
		char *ety = arena_strdup(fe->arena, clang_getCString(es));
		clang_disposeString(es);
		long n = clang_getNumElements(ct);
		if (clang_getCanonicalType(et).kind == CXType_ConstantArray)
			return cl_err_at(&pc->w, v, "'%s': arrays of arrays are not "
				      "supported; nest arrays in structs", name);
		if (n < 1 || n > 64)
			return cl_err_at(&pc->w, v, "array '%s' must have 1 to 64 "
				      "elements", name);
		if (fe_type_kind(ety) < 0 && !fe_is_struct_type(ety)) {
			CXString cs = clang_getTypeSpelling(clang_getCanonicalType(et));
			ety = arena_strdup(fe->arena, clang_getCString(cs));
			clang_disposeString(cs);
		}
		if (fe_array_declare(fe, name, ety, n, off) < 0)
			return 0;
		if (!has_init)
			return 1;
		CXCursor *k;
		int nk = clang_getCursorKind(init) == CXCursor_InitListExpr
			? ctu_kids(pc->t, init, &k) : -1;
		if (nk < 0)
			return cl_err_at(&pc->w, init, "initialise array '%s' with "
				      "{ v0, v1, ... }", name);
		for (int i = 0; i < nk && i < n; i++) {
			char *en = arena_printf(fe->arena, "%s[%d]", name, i);
			if (!init_loc(pc, ir_find_loc(fe->prog, en), k[i], en))
				return 0;
		}
		return 1;
	}
	if (ct.kind == CXType_Record) {
		CXString cs = clang_getTypeSpelling(ct);
		char *cty = arena_strdup(fe->arena, clang_getCString(cs));
		clang_disposeString(cs);
		if (fe_type_kind(cty) == IR_LOC_SRCU)
			return fe_loc_declare(fe, name, cty, off) >= 0;
		/* struct NAME, union NAME, a typedef of an anonymous one
		 * (clang spells its canonical type with the typedef's name):
		 * layout.c lays it out */
		if (strchr(cty, '('))
			return cl_err_at(&pc->w, v, "'%s' has an anonymous struct "
				      "or union type: name it (struct NAME { ... "
				      "} %s;) or typedef it", name, name);
		int zero = 1;
		if (has_init)
			clang_visitChildren(init, zero_init, &zero);
		if (has_init && !zero)
			return cl_err_at(&pc->w, init, "struct '%s' cannot have an "
				      "initialiser other than { 0 }: set its "
				      "fields in main before the first "
				      "pthread_create", name);
		return fe_loc_declare(fe, name, cty, off) >= 0;
	}
	if (fe_type_kind(ty) < 0) {
		CXString cs = clang_getTypeSpelling(ct);
		ty = arena_strdup(fe->arena, clang_getCString(cs));
		clang_disposeString(cs);
	}
	int l = fe_loc_declare(fe, name, ty, off);
	if (l < 0)
		return 0;
	return !has_init || init_loc(pc, l, init, name);
}
