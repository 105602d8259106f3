/*
 * layout.c - the locations of struct and array objects (see clower.h):
 * once libclang has parsed the test, every struct object of the init
 * block or of a parameter ("struct foo s;", "struct foo *s") gets one
 * location per field, recursively ("s.x", "s.in.n", "s.y[1]"), with the
 * kind its type gives (int, pointer, atomic_t, spinlock_t); init-block
 * arrays of typedef'd elements get clang's spelling of their type, so
 * that a[i] through a pointer finds the arrays of that type.  Objects
 * themselves hold nothing: their address is what &s and a pointer to s
 * hold.
 *
 * It does not lower accesses to fields (clower.c does) nor read the init
 * block (litmus.c creates the objects).
 */
#include <stdio.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "clower.h"
#include "ctu.h"
#include "fe.h"

/* Finding the definition of "struct NAME". */
struct find_struct {
	const char *name;  /* NAME */
	CXCursor found;    /* its definition, or a null cursor */
	int ok;            /* 1 once found */
	int want_typedef;  /* 1: find "typedef ... NAME;" instead */
};

static enum CXChildVisitResult find_struct_v(CXCursor c, CXCursor parent,
					     CXClientData data)
{
	(void)parent;
	struct find_struct *fs = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	int wanted = fs->want_typedef ? k == CXCursor_TypedefDecl
		: (k == CXCursor_StructDecl || k == CXCursor_UnionDecl) &&
		  clang_isCursorDefinition(c);
	if (wanted) {
		CXString sp = clang_getCursorSpelling(c);
		int same = strcmp(clang_getCString(sp), fs->name) == 0;
		clang_disposeString(sp);
		if (same) {
			fs->found = c;
			fs->ok = 1;
			return CXChildVisit_Break;
		}
	}
	return k == CXCursor_TypedefDecl || k == CXCursor_StructDecl ||
	       k == CXCursor_UnionDecl
		? CXChildVisit_Recurse : CXChildVisit_Continue;
}

/* The type of the elements of an init-block array "T[N]" as clang spells
 * its canonical type (atomic_t[2] is int[2]), so that a[i] through a
 * pointer finds the arrays of its type. */
static void canon_array(struct ctu *t, struct ir_location *loc)
{
	struct fe *fe = t->fe;
	const char *lb = strrchr(loc->ctype, '[');
	char *elem = arena_strndup(fe->arena, loc->ctype,
				   (size_t)(lb - loc->ctype));
	if (strchr(elem, ' ') || strchr(elem, '*'))
		return; /* builtin words, struct X, pointers: as clang spells */
	struct find_struct fs = { elem, clang_getNullCursor(), 0, 1 };
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu),
			    find_struct_v, &fs);
	if (!fs.ok || clang_getCursorKind(fs.found) != CXCursor_TypedefDecl)
		return;
	CXType u = clang_getCanonicalType(
		clang_getTypedefDeclUnderlyingType(fs.found));
	CXString us = clang_getTypeSpelling(u);
	loc->ctype = arena_printf(fe->arena, "%s%s", clang_getCString(us), lb);
	clang_disposeString(us);
}

/* The layout of one object. */
struct layout {
	struct ctu *t;     /* the test */
	int obj;           /* the object's location (for positions, errors) */
	const char *prefix;/* the name of the part being laid out */
	int ok;            /* 0 once an error is recorded */
	struct rec_types *rt; /* the types of nested struct objects */
};

/* The struct type of each nested struct object (by location), recorded
 * when the field is created and laid out when the loop reaches it. */
struct rec_types {
	CXType *ty;        /* per location; kind CXType_Invalid when unknown */
	int cap;           /* room */
};

static void rec_set(struct ctu *t, struct rec_types *rt, int l, CXType ty)
{
	if (l >= rt->cap) {
		int ncap = (int)xgrow_cap((size_t)rt->cap, (size_t)l + 1, 16);
		rt->ty = arena_grow(t->scratch, rt->ty, sizeof *rt->ty,
				    (size_t)rt->cap, (size_t)ncap);
		for (int i = rt->cap; i < ncap; i++)
			rt->ty[i].kind = CXType_Invalid;
		rt->cap = ncap;
	}
	rt->ty[l] = ty;
}

static int lay_part(struct layout *ly, const char *name, CXType ty);

/* Where object obj is declared, as a text offset (for errors). */
static size_t obj_off(const struct fe *fe, int obj)
{
	const struct ir_location *o = &fe->prog->locs[obj];
	return fe->lines[o->pos.line - 1] + (size_t)o->pos.col - 1;
}

static enum CXVisitorResult lay_field(CXCursor c, CXClientData data)
{
	struct layout *ly = data;
	struct fe *fe = ly->t->fe;
	CXString sp = clang_getCursorSpelling(c);
	const char *n = arena_printf(fe->arena, "%s.%s", ly->prefix,
				     clang_getCString(sp));
	/* an anonymous member's cursor is spelled as its type is */
	int unnamed = !*clang_getCString(sp) || strchr(clang_getCString(sp), '(');
	clang_disposeString(sp);
	if (unnamed) {
		ly->ok = fe_error(fe, obj_off(fe, ly->obj), "'%s' has a member with no "
				  "name (an anonymous struct or union): give "
				  "it a name and access its fields through it",
				  ly->prefix);
		return CXVisit_Break;
	}
	if (!lay_part(ly, n, clang_getCursorType(c)))
		return CXVisit_Break;
	return CXVisit_Continue;
}

/* A union's members share memory; lkmmc gives each one a location of its
 * own, which holds while a program reaches the union through one member
 * only (clower_expr.c refuses a second).  That member is then all there
 * is, as long as it is one location: a scalar, a pointer, atomic_t or
 * spinlock_t, not a struct or an array, whose parts would share memory
 * with another member's. */
struct union_check {
	struct fe *fe;     /* the parse */
	int obj;           /* the object the union is (part of) */
	const char *name;  /* the union's part name ("s.u") */
	int ok;            /* 0 once an error is recorded */
};

static enum CXVisitorResult scalar_member(CXCursor c, CXClientData data)
{
	struct union_check *uc = data;
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind != CXType_Record && t.kind != CXType_ConstantArray)
		return CXVisit_Continue;
	CXString sp = clang_getCursorSpelling(c);
	uc->ok = fe_error(uc->fe, obj_off(uc->fe, uc->obj), "union '%s': its "
			  "member '%s' is a struct or an array; lkmmc takes "
			  "unions whose members are scalars, pointers or "
			  "atomic_t (use a struct instead)",
			  uc->name, clang_getCString(sp));
	clang_disposeString(sp);
	return CXVisit_Break;
}

/* When ty (canonical) is a union, are its members what lkmmc takes?  0
 * with the error recorded (at object obj) when not. */
static int union_members(struct fe *fe, int obj, const char *name, CXType ty)
{
	if (clang_getCursorKind(clang_getTypeDeclaration(ty)) != CXCursor_UnionDecl)
		return 1;
	struct union_check uc = { fe, obj, name, 1 };
	clang_Type_visitFields(ty, scalar_member, &uc);
	return uc.ok;
}

/* Create location name for a part of type ty (recursively). */
static int lay_part(struct layout *ly, const char *name, CXType ty)
{
	struct fe *fe = ly->t->fe;
	size_t off = obj_off(fe, ly->obj);
	CXType canon = clang_getCanonicalType(ty);
	CXString ts = clang_getTypeSpelling(ty), cs = clang_getTypeSpelling(canon);
	char *spelled = arena_strdup(fe->arena, clang_getCString(ts));
	char *ctype = arena_strdup(fe->arena, clang_getCString(cs));
	clang_disposeString(ts);
	clang_disposeString(cs);
	int kind;
	if (canon.kind == CXType_Record || canon.kind == CXType_ConstantArray)
		kind = IR_LOC_INT;
	else if (canon.kind == CXType_Pointer)
		kind = IR_LOC_PTR;
	else if ((kind = fe_type_kind(spelled)) < 0)
		kind = fe_type_kind(ctype);
	if (kind < 0 || kind == IR_LOC_SRCU)
		return ly->ok = fe_error(fe, off, "'%s' has type '%s', which "
					 "lkmmc does not model in a struct "
					 "(int, long, pointers, atomic_t, "
					 "spinlock_t, structs and arrays of "
					 "those)", name, spelled);
	int l = fe_loc_use(fe, name, off);
	struct ir_location *loc = &fe->prog->locs[l];
	struct fe_locx *x = &fe->locx[l];
	loc->kind = (enum ir_loc_kind)kind;
	loc->ctype = canon.kind == CXType_Pointer || kind != IR_LOC_INT
		? spelled : ctype;
	loc->pos = fe->prog->locs[ly->obj].pos;
	x->kind_known = 1;
	x->in_layout = 1;
	if ((canon.kind == CXType_Record || canon.kind == CXType_ConstantArray) &&
	    x->has_init)
		return ly->ok = fe_error(fe, off, "'%s' is a struct or array "
					 "and cannot be given an initial "
					 "value; initialise its fields", name);
	if (kind == IR_LOC_SPINLOCK && x->has_init)
		return ly->ok = fe_error(fe, off, "'%s' is a spinlock_t and "
					 "cannot be given an initial value",
					 name);
	if (canon.kind == CXType_Record &&
	    !union_members(fe, ly->obj, name, canon))
		return ly->ok = 0;
	if (canon.kind == CXType_Record) {
		x->is_object = 1;
		loc->ctype = ctype;
		rec_set(ly->t, ly->rt, l, canon);
		return 1; /* laid out when the loop over objects reaches it */
	}
	if (canon.kind == CXType_ConstantArray) {
		x->is_object = 1;
		CXType elem = clang_getArrayElementType(canon);
		long long n = clang_getNumElements(canon);
		if (n > 64)
			return ly->ok = fe_error(fe, off, "array '%s' has %lld "
						 "elements; lkmmc takes at most "
						 "64", name, n);
		for (long long i = 0; i < n; i++)
			if (!lay_part(ly, arena_printf(fe->arena, "%s[%lld]",
						       name, i), elem))
				return 0;
	}
	return 1;
}

/* The struct type of object i, or a type of kind CXType_Invalid (0 with
 * an error recorded when the preamble lacks it).  A typedef'd object whose
 * type is not a struct becomes a plain location of that type. */
static int object_type(struct ctu *t, struct rec_types *rt, int i, CXType *ty)
{
	struct fe *fe = t->fe;
	struct ir_location *loc = &fe->prog->locs[i];
	size_t off = fe->lines[loc->pos.line - 1] + (size_t)loc->pos.col - 1;
	ty->kind = CXType_Invalid;
	if (i < rt->cap && rt->ty[i].kind != CXType_Invalid) {
		*ty = rt->ty[i];
		return 1;
	}
	int named = fe_is_struct_type(loc->ctype);
	if (!named && !fe->locx[i].typedef_obj)
		return 1; /* an array */
	const char *tag = strchr(loc->ctype, ' '); /* struct NAME, union NAME */
	struct find_struct fs = { named ? tag + 1 : loc->ctype,
				  clang_getNullCursor(), 0, !named };
	clang_visitChildren(clang_getTranslationUnitCursor(t->tu),
			    find_struct_v, &fs);
	if (!fs.ok)
		return fe_error(fe, off, "'%s' is a %s, which the C preamble "
				"does not define", loc->name, loc->ctype);
	if (named) {
		*ty = clang_getCursorType(fs.found);
		return 1;
	}
	CXType u = clang_getCanonicalType(
		clang_getTypedefDeclUnderlyingType(fs.found));
	if (u.kind == CXType_Record) {
		CXString us = clang_getTypeSpelling(u);
		loc->ctype = arena_strdup(fe->arena, clang_getCString(us));
		clang_disposeString(us);
		*ty = u;
		return 1;
	}
	/* typedef of a scalar: the location holds a value after all. */
	fe->locx[i].is_object = 0;
	fe->locx[i].typedef_obj = 0;
	if (u.kind == CXType_Pointer)
		loc->kind = IR_LOC_PTR;
	else if (u.kind >= CXType_Bool && u.kind <= CXType_Int128)
		loc->kind = IR_LOC_INT;
	else
		return fe_error(fe, off, "'%s' has type '%s', which lkmmc does "
				"not model", loc->name, loc->ctype);
	return 1;
}

int layout_objects(struct ctu *t)
{
	struct fe *fe = t->fe;
	struct rec_types rt = {0};
	for (int i = 0; i < fe->prog->nlocs; i++) {
		struct ir_location *loc = &fe->prog->locs[i];
		if (fe->locx[i].is_object && !fe->locx[i].in_layout &&
		    strchr(loc->ctype, '['))
			canon_array(t, loc);
		if (!fe->locx[i].is_object)
			continue;
		CXType ty;
		if (!object_type(t, &rt, i, &ty))
			return 0;
		if (ty.kind != CXType_Invalid && !fe->locx[i].in_layout &&
		    !union_members(fe, i, loc->name, ty))
			return 0;
		if (ty.kind == CXType_Invalid)
			continue;
		struct layout ly = { t, i, loc->name, 1, &rt };
		clang_Type_visitFields(ty, lay_field, &ly);
		if (!ly.ok)
			return 0;
	}
	for (int i = 0; i < fe->prog->nlocs; i++) {
		const char *n = fe->prog->locs[i].name;
		if (!fe->locx[i].in_layout && strpbrk(n, ".["))
			return fe_error(fe, fe->lines[fe->prog->locs[i].pos.line - 1] +
					(size_t)fe->prog->locs[i].pos.col - 1,
					"no location '%s': not a field or "
					"element of a struct declared in the "
					"init block or as a parameter", n);
	}
	return 1;
}
