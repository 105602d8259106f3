/*
 * clower_call.c - calls: kernel primitives (kapi.h) and helper functions
 * of the preamble, inlined (see clower_int.h).  Operands are lowered by
 * clower_expr.c, helper bodies by clower.c.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/xalloc.h"
#include "clower_int.h"
#include "ctu.h"
#include "cscan.h"
#include "fe.h"
#include "kapi.h"

/* --- kernel primitives ------------------------------------------------- */

static int primitive_call(struct lw *w, CXCursor c, const struct kapi *k,
			  struct bb *b, int dst, struct src s,
			  struct ir_expr **val);

/* The address operand of primitive k from argument arg. */
static struct ir_expr *address(struct lw *w, CXCursor arg,
			       const struct kapi *k, struct bb *b)
{
	if (!k->addr_lvalue)
		return cl_rv(w, arg, b);
	CXCursor ptr;
	if (cl_is_deref(w, arg, &ptr))
		return cl_lv_addr(w, arg, b);
	cl_err_at(w, arg, "%s takes a dereference such as %s(*x), not '%s'",
		  k->name, k->name, cl_src_of(w, arg).text);
	return NULL;
}

int cl_names_local(struct lw *w, CXCursor arg)
{
	CXCursor e = cl_strip(w, arg);
	if (!w->t->program || clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
	    cl_global_loc(w, e) >= 0)
		return 0;
	enum CXCursorKind dk = clang_getCursorKind(clang_getCursorReferenced(e));
	return dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl;
}

int cl_local_access(struct lw *w, CXCursor c, int store, struct bb *b, int dst,
		    struct src s, struct ir_expr **val)
{
	CXCursor arg = clang_Cursor_getArgument(c, 0);
	*val = NULL;
	if (store) {
		int r = cl_target_reg(w, arg, "store to");
		struct ir_expr *v = r >= 0
			? cl_rv(w, clang_Cursor_getArgument(c, 1), b) : NULL;
		if (!v)
			return 0;
		cl_emit(w, b, IR_ASSIGN, s, r)->a = v;
		return 1;
	}
	struct ir_expr *v = cl_rv(w, arg, b);
	if (!v)
		return 0;
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	if (dst >= 0) {
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = v;
		*val = cl_mk_reg(w, dst, s.pos);
	}
	return 1;
}

/* Does the cursor tree contain a statement of kind k? */
struct find_kind {
	enum CXCursorKind kind; /* what is looked for */
	int n;                  /* how many were found */
};

static enum CXChildVisitResult count_kind(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	(void)parent;
	struct find_kind *fk = data;
	if (clang_getCursorKind(c) == fk->kind)
		fk->n++;
	return CXChildVisit_Recurse;
}

static int count_of(CXCursor c, enum CXCursorKind kind)
{
	struct find_kind fk = { kind, 0 };
	clang_visitChildren(c, count_kind, &fk);
	return fk.n;
}

/* Does a call of this name end a program's thread path (abort(), exit(),
 * pthread_exit())? */
static int ends_path(const char *name)
{
	return strcmp(name, "abort") == 0 || strcmp(name, "exit") == 0 ||
	       strcmp(name, "pthread_exit") == 0;
}

static enum CXChildVisitResult count_exit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXString sp = clang_getCursorSpelling(c);
		*(int *)data += ends_path(clang_getCString(sp));
		clang_disposeString(sp);
	}
	return CXChildVisit_Recurse;
}

/* How many calls in c end the thread's path. */
static int count_exits(CXCursor c)
{
	int n = 0;
	clang_visitChildren(c, count_exit, &n);
	return n;
}

/* abort() or exit() in a program's thread function: the path ends there,
 * as at a return, and the register w->exits names is set to 1 so that
 * main's asserts, which such a path never reaches, hold on it (cprog.c).
 * In a helper it would have to leave every frame: a located error. */
static int exit_call(struct lw *w, CXCursor c, const char *name, struct bb *b)
{
	struct frame *f = w->fr;
	struct src s = cl_src_of(w, c);
	if (!f || f->outer)
		return cl_err_at(w, c, "%s() in a helper function is not "
				 "supported: call it in the thread function, "
				 "where it ends the thread's path", name);
	if (!w->exits)
		w->exits = 1 + cl_temp(w, s.pos);
	cl_emit(w, b, IR_ASSIGN, s, w->exits - 1)->a = cl_mk_const(w, 1, s.pos);
	return cl_leave_frame(w, b, s);
}

/* Does a call of this name print (no effect on the memory the model
 * sees)? */
int cl_is_print(const char *name)
{
	static const char *const print[] = {
		"printf", "fprintf", "puts", "fputs", "putchar", "perror",
		"fflush", NULL,
	};
	for (int i = 0; print[i]; i++)
		if (strcmp(name, print[i]) == 0)
			return 1;
	return 0;
}

/* printf(...) and the like in a program's thread: only its arguments'
 * accesses count (a string, a FILE * are not memory of the model); its
 * value, when used, is 0. */
static int print_call(struct lw *w, CXCursor c, struct bb *b, int dst,
		      struct src s, struct ir_expr **val)
{
	int nargs = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < nargs; i++) {
		CXCursor a = cl_strip(w, clang_Cursor_getArgument(c, (unsigned)i));
		CXType t = clang_getCanonicalType(clang_getCursorType(a));
		CXType pt = clang_getCanonicalType(clang_getPointeeType(t));
		if (clang_getCursorKind(a) == CXCursor_StringLiteral ||
		    (t.kind == CXType_Pointer && (pt.kind == CXType_Record ||
		     pt.kind == CXType_Char_S || pt.kind == CXType_Char_U)))
			continue; /* a string, a FILE * */
		if (!cl_rv(w, a, b))
			return 0;
	}
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	if (dst >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = cl_mk_const(w, 0, s.pos);
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

/* __VERIFIER_assume(c) of GenMC's <genmc.h> in a program's thread: an
 * execution where c is false here is discarded (cprog.c makes "the
 * thread's assume register is 0" the program's filter, which every check
 * is asked under, as herd7's filter is).  The register only goes from 0
 * to 1, so a later assume that holds does not bring the execution back.
 * The path goes on: what follows a false assume is discarded with it. */
static int assume_call(struct lw *w, CXCursor c, struct bb *b, int dst,
		       struct src s)
{
	if (clang_Cursor_getNumArguments(c) != 1)
		return cl_err_at(w, c, "__VERIFIER_assume takes one condition");
	if (dst != DST_NONE)
		return cl_err_at(w, c, "__VERIFIER_assume has no value; call it "
				 "as a statement of its own");
	struct ir_expr *v = cl_rv(w, clang_Cursor_getArgument(c, 0), b);
	if (!v)
		return 0;
	if (!w->assumes)
		w->assumes = 1 + cl_temp(w, s.pos);
	int r = w->assumes - 1;
	cl_emit(w, b, IR_ASSIGN, s, r)->a =
		cl_mk_bin(w, IR_LOR, cl_mk_reg(w, r, s.pos), cl_mk_un(w, IR_LNOT, v));
	return 1;
}

/* pthread_mutex_lock(&m), _unlock, _trylock in a program: the model has
 * one kind of lock, the kernel's spinlock, and a pthread_mutex_t is one
 * (fe.c): these are spin_lock(), spin_unlock() and spin_trylock() of the
 * primitives in use (a model's .def too).  Their value is pthread's: 0
 * when the call took (or released) the lock, so trylock's is the
 * negation of spin_trylock's.  pthread_mutex_destroy() changes nothing
 * the model sees; pthread_mutex_init() belongs in main (cprog.c). */
static int mutex_call(struct lw *w, CXCursor c, const char *name, struct bb *b,
		      int dst, struct src s, struct ir_expr **val)
{
	static const char *const as[][2] = {
		{ "pthread_mutex_lock", "spin_lock" },
		{ "pthread_mutex_unlock", "spin_unlock" },
		{ "pthread_mutex_trylock", "spin_trylock" },
		{ "pthread_mutex_destroy", NULL },
	};
	int i = 0, n = (int)(sizeof as / sizeof as[0]);
	while (i < n && strcmp(name, as[i][0]) != 0)
		i++;
	if (strcmp(name, "pthread_mutex_init") == 0 && w->in_main) {
		/* before the threads: the mutex is unlocked, as it starts */
		struct ir_expr *m = cl_rv(w, clang_Cursor_getArgument(c, 0), b);
		struct ir_expr *a = m ? cl_rv(w, clang_Cursor_getArgument(c, 1), b)
				      : NULL;
		if (!a)
			return 0;
		if (a->kind != IR_E_CONST || a->num != 0)
			return cl_err_at(w, c, "mutex attributes are not "
					 "supported: pass NULL");
		if (dst == DST_VALUE)
			dst = cl_temp(w, s.pos);
		if (dst >= 0)
			cl_emit(w, b, IR_ASSIGN, s, dst)->a = cl_mk_const(w, 0, s.pos);
		*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
		return 1;
	}
	if (strcmp(name, "pthread_mutex_init") == 0)
		return cl_err_at(w, c, "pthread_mutex_init in a thread: a mutex "
				 "starts unlocked; initialise it in main before "
				 "the threads start, or with "
				 "PTHREAD_MUTEX_INITIALIZER");
	if (i == n)
		return cl_err_at(w, c, "'%s' is not supported: of the mutex "
				 "calls, lkmmc knows pthread_mutex_lock, _unlock "
				 "and _trylock (a pthread_mutex_t is a spinlock "
				 "to the model)", name);
	const struct kapi *k = as[i][1] ? kapi_find(w->fe->macros, as[i][1]) : NULL;
	if (as[i][1] && !k)
		return cl_err_at(w, c, "'%s' is %s(), which the model's "
				 "linux-kernel.def lacks", name, as[i][1]);
	int trylock = k && k->kind != K_DEF ? k->kind == K_TRYLOCK
		    : as[i][1] && strcmp(as[i][1], "spin_trylock") == 0;
	struct ir_expr *got = NULL;
	int t = trylock && dst != DST_NONE ? cl_temp(w, s.pos) : DST_NONE;
	if (k && !primitive_call(w, c, k, b, t, s, &got))
		return 0;
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	if (dst >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = trylock
			? cl_mk_bin(w, IR_EQ, cl_mk_reg(w, t, s.pos),
				    cl_mk_const(w, 0, s.pos))
			: cl_mk_const(w, 0, s.pos);
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

/* A builtin of GenMC's <genmc.h> other than __VERIFIER_assume. */
static int is_verifier(const char *name)
{
	return strncmp(name, "__VERIFIER_", 11) == 0;
}

/* Inline a call of helper def: parameters become registers (or stand for
 * the address or constant passed), the body is lowered in place, and a
 * return that is not the body's last statement leaves a one-pass IR_LOOP
 * around the body. */
static int inline_call(struct lw *w, CXCursor c, CXCursor def, struct bb *b,
		       int dst, struct src s, struct ir_expr **val)
{
	char *name = cl_spell(w, def);
	struct frame *first = NULL;
	int depth = 0;
	for (struct frame *f = w->fr; f; f = f->outer)
		if (clang_equalCursors(f->fn, def)) {
			depth++;
			first = f;
		}
	if (depth > w->fe->unroll) {
		/* Past the bound.  A call reached only under a condition (an
		 * if, a loop, an earlier return) fails an assertion when some
		 * execution reaches it (the call is not run: its value is 0);
		 * one reached unconditionally always recurses. */
		int cond = first && w->cond > first->cond_at_entry;
		for (struct frame *f = w->fr; f && !cond; f = f->outer) {
			cond = f->nreturns > 0;
			if (f == first)
				break;
		}
		if (!cond)
			return cl_err_at(w, c, "recursion deeper than --unroll %d: "
					 "'%s' calls itself unconditionally",
					 w->fe->unroll, name);
		struct src as = s;
		as.text = arena_printf(w->fe->arena, "recursion deeper than "
				       "--unroll %d: %s (not run; raise "
				       "--unroll)", w->fe->unroll, s.text);
		cl_emit(w, b, IR_ASSERT, as, -1)->a = cl_mk_const(w, 0, s.pos);
		if (dst == DST_VALUE)
			dst = cl_temp(w, s.pos);
		if (dst >= 0)
			cl_emit(w, b, IR_ASSIGN, as, dst)->a = cl_mk_const(w, 0, s.pos);
		*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
		return 1;
	}
	int nargs = clang_Cursor_getNumArguments(c);
	if (nargs != clang_Cursor_getNumArguments(def))
		return cl_err_at(w, c, "'%s' takes %d arguments but %d are given",
				 name, clang_Cursor_getNumArguments(def), nargs);
	struct ir_expr **argv = arena_alloc(w->t->scratch,
					    (size_t)(nargs + 1) * sizeof *argv);
	for (int i = 0; i < nargs; i++) {
		argv[i] = cl_rv(w, clang_Cursor_getArgument(c, (unsigned)i), b);
		if (!argv[i])
			return 0;
	}
	return cl_inline(w, c, def, argv, b, dst, s, val);
}

int cl_inline(struct lw *w, CXCursor c, CXCursor def, struct ir_expr **argv,
	      struct bb *b, int dst, struct src s, struct ir_expr **val)
{
	char *name = cl_spell(w, def);
	int nargs = clang_Cursor_getNumArguments(def);
	CXCursor *k;
	int nk = ctu_kids(w->t, def, &k);
	if (nk == 0 || clang_getCursorKind(k[nk - 1]) != CXCursor_CompoundStmt)
		return cl_err_at(w, c, "internal error: no body for '%s'", name);
	CXCursor body = k[nk - 1];
	struct frame fr = {
		.fn = def, .name = name, .instance = ++w->ninlines, .ret = -1,
		.flag = -1, .loop_base = w->nloops, .cond_at_entry = w->cond,
		.outer = w->fr,
	};
	size_t here = ctu_lit_off(w->t, b_start(c));
	fr.call_off = here != (size_t)-1 ? here
		    : w->fr ? w->fr->call_off : w->p->body_off;
	CXType rt = clang_getCursorResultType(def);
	if (rt.kind != CXType_Void)
		fr.ret = cl_temp(w, s.pos);
	/* Only a return as the body's last statement needs no jump. */
	CXCursor *bk;
	int nb = ctu_kids(w->t, body, &bk);
	int nret = count_of(body, CXCursor_ReturnStmt) +
		   (w->t->program && !w->fr ? count_exits(body) : 0);
	int tail = nb > 0 && clang_getCursorKind(bk[nb - 1]) == CXCursor_ReturnStmt;
	fr.wrapped = nret > (tail ? 1 : 0);
	w->fr = &fr;
	for (int i = 0; i < nargs; i++) {
		CXCursor pd = clang_Cursor_getArgument(def, (unsigned)i);
		if (argv[i]->kind == IR_E_LOC || argv[i]->kind == IR_E_CONST) {
			cl_bind(w, pd, -1, argv[i]);
			continue;
		}
		int r = cl_frame_reg(w, pd);
		cl_emit(w, b, IR_ASSIGN, s, r)->a = argv[i];
	}
	int ok;
	if (fr.wrapped) {
		if (count_of(body, CXCursor_WhileStmt) +
		    count_of(body, CXCursor_DoStmt) +
		    count_of(body, CXCursor_ForStmt) +
		    count_of(body, CXCursor_SwitchStmt) +
		    count_of(body, CXCursor_LabelStmt) > 0) {
			fr.flag = cl_temp(w, s.pos);
			cl_emit(w, b, IR_ASSIGN, s, fr.flag)->a = cl_mk_const(w, 0, s.pos);
		}
		struct bb lb = {0};
		ok = cl_push_loop(w, c, LOOP_NO_CONTINUE) && cl_stmt(w, body, &lb);
		if (ok) {
			w->nloops--;
			cl_emit(w, &lb, IR_BREAK, s, -1);
			cl_emit(w, b, IR_LOOP, s, -1)->then_b = cl_fin(&lb);
		}
	} else {
		ok = cl_stmt(w, body, b);
	}
	w->fr = fr.outer;
	if (!ok)
		return 0;
	if (dst >= 0 && fr.ret >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = cl_mk_reg(w, fr.ret, s.pos);
	else if (dst >= 0 || (dst == DST_VALUE && fr.ret < 0))
		return cl_err_at(w, c, "'%s' returns nothing; it cannot be used "
				 "in an expression or assigned", name);
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos)
	     : dst == DST_VALUE ? cl_mk_reg(w, fr.ret, s.pos) : NULL;
	return 1;
}

/* smp_cond_load_acquire(p, cond) and friends, as the prelude macros pass
 * them: (p, ({ long VAL; (cond); })).  Lowered as the kernel defines them:
 *     loop { VAL = READ_ONCE(*p); if (cond) break; }  [smp_rmb();]
 * with the value VAL. */
static int cond_load(struct lw *w, CXCursor c, const struct kapi *k,
		     struct bb *b, int dst, struct src s, struct ir_expr **val)
{
	CXCursor se = cl_strip(w, clang_Cursor_getArgument(c, 1)), *sk, *body, *dk;
	int n = clang_getCursorKind(se) == CXCursor_StmtExpr
		? ctu_kids(w->t, se, &sk) : 0;
	int m = n == 1 ? ctu_kids(w->t, sk[0], &body) : 0;
	if (m != 2 || clang_getCursorKind(body[0]) != CXCursor_DeclStmt ||
	    ctu_kids(w->t, body[0], &dk) != 1)
		return cl_err_at(w, c, "internal error: malformed %s", k->name);
	struct ir_expr *addr = cl_rv(w, clang_Cursor_getArgument(c, 0), b);
	if (!addr)
		return 0;
	int r = cl_reg_of(w, dk[0], dk[0]);
	struct bb lb = {0}, tb = {0};
	struct ir_instr *in = cl_emit(w, &lb, IR_LOAD, s, r);
	in->a = addr;
	in->order = IR_ORD_ONCE;
	if (w->fe->macros) /* the model's READ_ONCE and smp_rmb */
		in->tags[IR_TAG_EV] = w->fe->macros->once_tags;
	w->cond++;
	struct ir_expr *cond = cl_rv(w, body[1], &lb);
	w->cond--;
	if (!cond)
		return 0;
	cl_emit(w, &tb, IR_BREAK, s, -1);
	in = cl_emit(w, &lb, IR_IF, s, -1);
	in->a = cond;
	in->then_b = cl_fin(&tb);
	cl_emit(w, b, IR_LOOP, s, -1)->then_b = cl_fin(&lb);
	if (k->order == IR_ORD_ACQUIRE) {
		in = cl_emit(w, b, IR_FENCE, s, -1);
		in->fence = k->fence;
		if (w->fe->macros)
			in->tags[IR_TAG_EV] = w->fe->macros->rmb_tags;
	}
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	if (dst >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = cl_mk_reg(w, r, s.pos);
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

/* Call c of name, which is no kernel primitive: a helper to inline, the
 * end of a path (abort(), exit()) or an error saying why not. */
static int other_call(struct lw *w, CXCursor c, const char *name, struct bb *b,
		      int dst, struct src s, struct ir_expr **val)
{
	CXCursor callee = clang_getCursorReferenced(c);
	enum CXCursorKind ck = clang_getCursorKind(callee);
	if (ck == CXCursor_FunctionDecl) {
		CXCursor def = clang_getCursorDefinition(callee);
		if (clang_getCursorKind(def) == CXCursor_FunctionDecl)
			return inline_call(w, c, def, b, dst, s, val);
	}
	if (!*name || ck == CXCursor_VarDecl || ck == CXCursor_ParmDecl ||
	    ck == CXCursor_FieldDecl)
		return cl_err_at(w, c, "unsupported call: calls through "
				 "function pointers are not supported; "
				 "call a kernel primitive or a helper "
				 "defined in the preamble");
	if (w->t->program && (strcmp(name, "pthread_create") == 0 ||
			      strcmp(name, "pthread_join") == 0))
		return cl_err_at(w, c, "%s in a thread: lkmmc creates "
				 "and joins threads in main only", name);
	if (w->t->program && ends_path(name))
		return exit_call(w, c, name, b);
	if (w->t->program && cl_is_print(name))
		return print_call(w, c, b, dst, s, val);
	if (w->t->program && (strcmp(name, "memset") == 0 ||
			      strcmp(name, "memcpy") == 0))
		return cl_mem_call(w, c, name, b, dst, s, val);
	if (w->t->program && strncmp(name, "pthread_mutex_", 14) == 0)
		return mutex_call(w, c, name, b, dst, s, val);
	if (w->t->program && strcmp(name, "__VERIFIER_assume") == 0) {
		*val = NULL;
		return assume_call(w, c, b, dst, s);
	}
	if (w->t->program && is_verifier(name))
		return cl_err_at(w, c, "GenMC's '%s' is not supported: of "
				 "<genmc.h>, lkmmc knows __VERIFIER_assume(cond) "
				 "(an execution where cond is false is "
				 "discarded); write the program without '%s'",
				 name, name);
	static const char *const alloc[] = {
		"kmalloc", "kzalloc", "kcalloc", "kmalloc_array",
		"vmalloc", "vzalloc", "kvmalloc", "kmem_cache_alloc",
		"malloc", "calloc", "realloc", "kfree", "vfree",
		"kvfree", "free", "kfree_rcu", NULL,
	};
	for (int i = 0; alloc[i]; i++)
		if (strcmp(name, alloc[i]) == 0)
			return cl_err_at(w, c, "dynamic allocation ('%s') "
					 "is not supported: declare the "
					 "objects as %s", name,
					 w->t->program ? "global variables"
					 : "shared locations in the init "
					 "block");
	CXFile decl_file = NULL;
	clang_getFileLocation(clang_getCursorLocation(callee), &decl_file,
			      NULL, NULL, NULL);
	if (w->t->program && ck == CXCursor_FunctionDecl && decl_file &&
	    !clang_File_isEqual(decl_file, w->t->main_file)) /* a header's */
		return cl_err_at(w, c, "'%s' is not modelled: a program may call "
				 "the kernel primitives of <lkmm.h>, its own "
				 "functions, abort(), exit() and printing "
				 "(printf, fprintf, puts: no effect on memory)",
				 name);
	return cl_err_at(w, c, "unknown kernel primitive '%s' (lkmmc "
			 "knows the macros of linux-kernel.def and "
			 "atomic_add_unless)", name);
}

/* The instructions of primitive k (not K_COND_LOAD nor K_DEF) on address
 * addr and values v, its value (if any) into register dst. */
static void emit_primitive(struct lw *w, struct bb *b, const struct kapi *k,
			   struct src s, int dst, struct ir_expr *addr,
			   struct ir_expr *const v[3])
{
	struct ir_instr *in;
	switch (k->kind) {
	case K_LOAD:
		in = cl_emit(w, b, IR_LOAD, s, dst);
		in->a = addr;
		in->order = k->order;
		break;
	case K_STORE:
	case K_STORE_MB:
		in = cl_emit(w, b, IR_STORE, s, -1);
		in->a = addr;
		in->b = v[0];
		in->order = k->order;
		if (k->kind == K_STORE_MB)
			cl_emit(w, b, IR_FENCE, s, -1)->fence = k->fence;
		break;
	case K_FENCE:
		cl_emit(w, b, IR_FENCE, s, -1)->fence = k->fence;
		break;
	case K_RMW:
	case K_RMW_TEST: {
		int t = k->kind == K_RMW_TEST ? cl_temp(w, s.pos) : dst;
		in = cl_emit(w, b, IR_RMW, s, t);
		in->a = addr;
		in->b = v[0];
		in->c = v[1];
		in->order = k->order;
		in->rmw = k->rmw;
		in->arith = k->arith;
		if (k->kind == K_RMW_TEST && dst >= 0)
			cl_emit(w, b, IR_ASSIGN, s, dst)->a =
				cl_mk_bin(w, k->test, cl_mk_reg(w, t, s.pos),
					  cl_mk_const(w, 0, s.pos));
		break;
	}
	case K_LOCK:
		cl_emit(w, b, IR_LOCK, s, -1)->a = addr;
		break;
	case K_UNLOCK:
		cl_emit(w, b, IR_UNLOCK, s, -1)->a = addr;
		break;
	case K_TRYLOCK:
		cl_emit(w, b, IR_TRYLOCK, s, dst)->a = addr;
		break;
	case K_ISLOCKED:
		cl_emit(w, b, IR_ISLOCKED, s, dst)->a = addr;
		break;
	case K_SRCU_LOCK:
		cl_emit(w, b, IR_SRCU_LOCK, s, dst)->a = addr;
		break;
	case K_SRCU_UNLOCK:
		in = cl_emit(w, b, IR_SRCU_UNLOCK, s, -1);
		in->a = addr;
		in->b = v[0];
		break;
	case K_SRCU_SYNC:
		cl_emit(w, b, IR_SRCU_SYNC, s, -1)->a = addr;
		break;
	case K_ASSERT:
		cl_emit(w, b, IR_ASSERT, s, -1)->a =
			k->test == IR_NE ? cl_mk_un(w, IR_LNOT, v[0]) : v[0];
		if (dst >= 0)
			cl_emit(w, b, IR_ASSIGN, s, dst)->a =
				cl_mk_bin(w, IR_NE, v[0], cl_mk_const(w, 0, s.pos));
		break;
	case K_NOP:
	case K_COND_LOAD:
	case K_DEF: /* lowered above */
		break;
	}
}

/* __lkmmc_choice(K): --repair's open choice K (frontend_set_choices). */
static int choice(struct lw *w, CXCursor c, struct bb *b, int dst, struct src s,
		  struct ir_expr **val)
{
	struct ir_expr *k = clang_Cursor_getNumArguments(c) == 1
		? cl_rv(w, clang_Cursor_getArgument(c, 0), b) : NULL;
	if (!k || k->kind != IR_E_CONST)
		return cl_err_at(w, c, "__lkmmc_choice takes one constant");
	struct ir_expr *x = cl_mk(w, IR_E_CHOICE, s.pos);
	x->num = k->num;
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	if (dst >= 0)
		cl_emit(w, b, IR_ASSIGN, s, dst)->a = x;
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}

int cl_call(struct lw *w, CXCursor c, struct bb *b, int dst, struct src s,
	    struct ir_expr **val)
{
	char *name = cl_spell(w, c);
	if (w->fe->choices && strcmp(name, "__lkmmc_choice") == 0)
		return choice(w, c, b, dst, s, val);
	const struct kapi *k = kapi_find(w->fe->macros, name);
	if (!k)
		return other_call(w, c, name, b, dst, s, val);
	return primitive_call(w, c, k, b, dst, s, val);
}

/* Call c of kernel primitive k (its name or the one it stands for). */
static int primitive_call(struct lw *w, CXCursor c, const struct kapi *k,
			  struct bb *b, int dst, struct src s,
			  struct ir_expr **val)
{
	const char *name = k->name;
	int nargs = clang_Cursor_getNumArguments(c);
	if (k->kind == K_COND_LOAD && nargs == 2)
		return cond_load(w, c, k, b, dst, s, val);
	if (nargs != k->nargs)
		return cl_err_at(w, c, "'%s' takes %d argument%s but %d %s given",
				 name, k->nargs, k->nargs == 1 ? "" : "s", nargs,
				 nargs == 1 ? "is" : "are");
	if (dst != DST_NONE && !k->returns)
		return cl_err_at(w, c, "'%s' has no value; it cannot be used in "
				 "an expression or assigned", name);
	if (k->kind == K_DEF)
		return cl_def_call(w, c, k, b, dst, s, val);
	if ((k->kind == K_LOAD || k->kind == K_STORE) && k->addr_lvalue &&
	    cl_names_local(w, clang_Cursor_getArgument(c, 0)))
		return cl_local_access(w, c, k->kind == K_STORE, b, dst, s, val);
	struct ir_expr *addr = NULL, *v[3] = { NULL, NULL, NULL };
	int nv = 0;
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		struct ir_expr *x = i == k->addr_arg ? address(w, arg, k, b)
						     : cl_rv(w, arg, b);
		if (!x)
			return 0;
		if (i == k->addr_arg)
			addr = x;
		else
			v[nv++] = x;
	}
	if (k->implicit_one)
		v[nv++] = cl_mk_const(w, 1, s.pos);
	if (dst == DST_VALUE)
		dst = cl_temp(w, s.pos);
	emit_primitive(w, b, k, s, dst, addr, v);
	*val = dst >= 0 ? cl_mk_reg(w, dst, s.pos) : NULL;
	return 1;
}
