/*
 * cprog.c - a whole C program (the pthread + <lkmm.h> form GenMC and
 * Dartagnan read) into the IR a litmus test gives (see cparse.h).
 *
 * The program is one translation unit for libclang, preprocessed by clang
 * itself (-I and -D passed through), against the headers lkmmc builds in
 * (include/: lkmm.h, pthread.h, assert.h, stdlib.h, ...; given to libclang
 * as unsaved files of a virtual folder, so lkmmc finds them by itself).
 * Its meaning:
 *   - file-scope variables are the shared locations, of the same names,
 *     with their C initialisers (zero when none);
 *   - main runs first; its statements before the first pthread_create
 *     may only store constants to globals: they make the initial state;
 *   - pthread_create(&t, NULL, fn, arg) starts thread Pn (in creation
 *     order) running fn's body with its parameter bound to arg (a
 *     constant, a loop index, a global's address), lowered by clower*.c as
 *     an inlined helper call; constant-bound for loops in main are run;
 *   - pthread_join(t, NULL) ends the thread before what follows it; an
 *     assert() or BUG_ON() after every thread is joined is checked on the
 *     final state: the condition is "forall" of their conjunction; each
 *     is ==/!= of globals and constants (IR_C_ATOM) or, otherwise, a C
 *     condition over the globals' final values (IR_C_EXPR: + - *,
 *     comparisons, !, &&, ||);
 *   - abort()/exit() in a thread function end its path (clower_call.c sets
 *     a register of the thread): main's asserts hold on such a path.
 * Anything else in main is a located error, as are the constructs the
 * model does not have (mutexes, malloc, address-taken locals).
 *
 * This file reads main and the translation unit; the globals are read by
 * cprog_global.c, main's final asserts by cprog_cond.c (cprog_int.h).
 * It does not lower thread code (clower*.c does), lay out structs
 * (layout.c), nor check or print the answer (solver/check.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cheaders.h"
#include "clower.h"
#include "clower_int.h"
#include "common/arena.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "cparse.h"
#include "cprog_int.h"
#include "ctu.h"
#include "fe.h"
#include "kapi.h"

/* Where the built-in headers are, for libclang only (never on disk). */
#define VINCLUDE "/lkmmc-virtual/include"

/* --- small tools ------------------------------------------------------ */

/* Does c read a local of main that holds a final value (its binding
 * being the constant it held before)? */
struct reads_final {
	struct cprog *pc; /* the program */
	int found;        /* 1 once one is read */
};

static enum CXChildVisitResult find_final_local(CXCursor c, CXCursor parent,
						CXClientData data)
{
	(void)parent;
	struct reads_final *rf = data;
	struct cprog *pc = rf->pc;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		for (int i = 0; i < pc->nfl && !rf->found; i++)
			rf->found = clang_equalCursors(pc->fl[i].decl,
						       clang_getCursorReferenced(c));
	return rf->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int reads_final_local(struct cprog *pc, CXCursor c)
{
	struct reads_final rf = { pc, 0 };
	if (!pc->nfl)
		return 0;
	find_final_local(c, c, &rf);
	if (!rf.found)
		clang_visitChildren(c, find_final_local, &rf);
	return rf.found;
}

int cprog_main_value(struct cprog *pc, CXCursor c, struct ir_value *out)
{
	struct bb b = {0};
	if (reads_final_local(pc, c))
		return 0;
	struct ir_expr *e = cl_rv(&pc->w, c, &b);
	int n = b.n;
	if (!e)
		return -1;
	if (n)
		return 0;
	long v;
	if (e->kind == IR_E_LOC) {
		out->kind = IR_VAL_LOC;
		out->loc = e->loc;
		out->num = 0;
		return 1;
	}
	if (!cl_fold(e, &v))
		return 0;
	out->kind = IR_VAL_INT;
	out->num = v;
	out->loc = 0;
	return 1;
}

/* The binding of a local of main (a loop index), or NULL. */
static struct binding *main_local(struct cprog *pc, CXCursor decl)
{
	for (int i = 0; i < pc->fr.nbinds; i++)
		if (clang_equalCursors(pc->fr.binds[i].decl, decl))
			return &pc->fr.binds[i];
	return NULL;
}

/* Give local decl of main the value v (binding it on first use). */
static void set_local(struct cprog *pc, CXCursor decl, long v, CXCursor at)
{
	struct ir_expr *x = cl_mk_const(&pc->w, v, cl_src_of(&pc->w, at).pos);
	struct binding *bd = main_local(pc, decl);
	if (bd)
		bd->val = x;
	else
		cl_bind(&pc->w, decl, -1, x);
}

/* The called function's name of call c. */
char *cprog_callee(struct cprog *pc, CXCursor c)
{
	return cl_spell(&pc->w, c);
}

/* Is the type spelled ty a pthread handle (or an array of them)? */
int cprog_is_handle_type(const char *ty)
{
	return (strstr(ty, "pthread_t") && !strstr(ty, "pthread_t *")) ||
	       strstr(ty, "pthread_attr_t");
}

/* The spelling of c's type. */
char *cprog_type_of(struct cprog *pc, CXCursor c)
{
	CXString s = clang_getTypeSpelling(clang_getCursorType(c));
	char *r = arena_strdup(pc->fe->arena, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* --- globals ----------------------------------------------------------- */

/* Is cursor c in one of lkmmc's built-in headers? */
static int in_builtin(CXCursor c)
{
	CXFile f = NULL;
	clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (!f)
		return 1;
	CXString n = clang_getFileName(f);
	int r = strncmp(clang_getCString(n), VINCLUDE "/",
			sizeof VINCLUDE) == 0;
	clang_disposeString(n);
	return r;
}

/* --- main --------------------------------------------------------------- */

int cprog_all_joined(const struct cprog *pc)
{
	int all = pc->nth > 0 && pc->phase == PH_JOIN;
	for (int i = 0; i < pc->nh; i++)
		all &= pc->h[i].joined;
	return all;
}

/* The final-state expression local decl of main was last given, or NULL. */
static struct final_local *final_local(struct cprog *pc, CXCursor decl)
{
	for (int i = 0; i < pc->nfl; i++)
		if (clang_equalCursors(pc->fl[i].decl, decl))
			return &pc->fl[i];
	return NULL;
}

CXCursor cprog_final_alias(struct cprog *pc, CXCursor e)
{
	CXCursor x = cl_strip(&pc->w, e);
	for (int depth = 0; depth <= pc->nfl; depth++) {
		struct final_local *f =
			clang_getCursorKind(x) == CXCursor_DeclRefExpr
			? final_local(pc, clang_getCursorReferenced(x)) : NULL;
		if (!f)
			break;
		x = cl_strip(&pc->w, f->expr);
	}
	return x;
}

/* Local decl of main is given expression e over the final state (after
 * every join; main's asserts read e through it). */
static int give_final(struct cprog *pc, CXCursor decl, CXCursor e)
{
	if (!cprog_all_joined(pc))
		return cl_err_at(&pc->w, e, "main reads the globals into its "
			      "locals after every thread is joined only (their "
			      "final values); before that, read them in a thread");
	if (final_local(pc, decl))
		return cl_err_at(&pc->w, e, "'%s' was already given a final "
			      "value: give each local of main one (or assert "
			      "on the globals directly)", cl_spell(&pc->w, decl));
	pc->fl = fe_reserve(pc->fe->arena, pc->fl, sizeof *pc->fl, pc->nfl,
			    &pc->flcap);
	pc->fl[pc->nfl++] = (struct final_local){ decl, e };
	return 1;
}

static int main_stmt(struct cprog *pc, CXCursor c);

/* The first call inside an expression that may change memory (not a
 * load such as READ_ONCE(x)), into *(CXCursor *)data. */
static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent,
					 CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	CXString sp = clang_getCursorSpelling(c);
	const struct kapi *k = kapi_find(NULL, clang_getCString(sp));
	clang_disposeString(sp);
	if (k && k->kind == K_LOAD)
		return CXChildVisit_Continue;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

/* The handle named by e ("t", "t[i]"), as a key; NULL with the error
 * recorded. */
static const char *handle_key(struct cprog *pc, CXCursor e, const char *what)
{
	CXCursor x = cl_strip(&pc->w, e), kid[2];
	enum CXCursorKind k = clang_getCursorKind(x);
	if (k == CXCursor_DeclRefExpr)
		return cl_spell(&pc->w, x);
	if (k == CXCursor_ArraySubscriptExpr &&
	    cl_expr_kids(&pc->w, x, kid, 2) == 2 &&
	    clang_getCursorKind(cl_strip(&pc->w, kid[0])) == CXCursor_DeclRefExpr) {
		struct ir_value v;
		int r = cprog_main_value(pc, kid[1], &v);
		if (r < 0)
			return NULL;
		if (r > 0 && v.kind == IR_VAL_INT)
			return arena_printf(pc->fe->arena, "%s[%ld]",
					    cl_spell(&pc->w, cl_strip(&pc->w, kid[0])),
					    v.num);
	}
	cl_err_at(&pc->w, e, "%s names a pthread_t variable or array element "
	       "(t, t[i] with a constant or loop index)", what);
	return NULL;
}

/* Is the expression the null pointer (or 0)? */
static int is_null(struct cprog *pc, CXCursor e)
{
	struct ir_value v;
	return cprog_main_value(pc, e, &v) > 0 && v.kind == IR_VAL_INT && v.num == 0;
}

static int do_create(struct cprog *pc, CXCursor c)
{
	CXCursor a[4];
	for (unsigned i = 0; i < 4; i++)
		a[i] = clang_Cursor_getArgument(c, i);
	if (pc->phase == PH_JOIN)
		return cl_err_at(&pc->w, c, "pthread_create after a pthread_join: lkmmc "
			      "starts every thread together; create all threads "
			      "before the first join");
	pc->phase = PH_SPAWN;
	CXCursor addr = cl_strip(&pc->w, a[0]);
	struct opform f;
	cl_opform(&pc->w, addr, &f);
	if (f.nkids != 1 || strcmp(f.op, "&") != 0)
		return cl_err_at(&pc->w, a[0], "pthread_create's first argument must be "
			      "&t or &t[i] for a pthread_t t");
	const char *key = handle_key(pc, f.kid[0], "pthread_create's first argument");
	if (!key)
		return 0;
	struct opform fa;
	cl_opform(&pc->w, cl_strip(&pc->w, a[1]), &fa);
	if (fa.nkids || !is_null(pc, a[1]))
		return cl_err_at(&pc->w, a[1], "thread attributes are not supported: "
			      "pass NULL");
	CXCursor fe = cl_strip(&pc->w, a[2]);
	CXCursor fd = clang_getCursorReferenced(fe);
	CXCursor def = clang_getCursorDefinition(fd);
	if (clang_getCursorKind(fe) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(fd) != CXCursor_FunctionDecl)
		return cl_err_at(&pc->w, a[2], "pthread_create's third argument must "
			      "name a function of the program (function "
			      "pointers in variables are not supported)");
	char *fname = cl_spell(&pc->w, fd);
	if (clang_getCursorKind(def) != CXCursor_FunctionDecl)
		return cl_err_at(&pc->w, a[2], "thread function '%s' is declared but "
			      "not defined in the program", fname);
	CXType rt = clang_getCanonicalType(clang_getCursorResultType(def));
	int np = clang_Cursor_getNumArguments(def);
	CXType pt = np == 1 ? clang_getCanonicalType(clang_getArgType(
		clang_getCursorType(def), 0)) : rt;
	if (rt.kind != CXType_Pointer || np > 1 || pt.kind != CXType_Pointer)
		return cl_err_at(&pc->w, a[2], "thread function '%s' must have the "
			      "signature void *%s(void *arg)", fname, fname);
	struct ir_value v;
	int r = cprog_main_value(pc, a[3], &v);
	if (r < 0)
		return 0;
	if (r == 0)
		return cl_err_at(&pc->w, a[3], "the argument of a thread must be a "
			      "constant, a loop index (cast to void *) or the "
			      "address of a global");
	if (pc->nth == MAX_THREADS)
		return cl_err_at(&pc->w, c, "more than %d threads", MAX_THREADS);
	struct spawn *s = &pc->th[pc->nth];
	s->fn = def;
	s->arg = cl_mk(&pc->w, v.kind == IR_VAL_LOC ? IR_E_LOC : IR_E_CONST,
		       cl_src_of(&pc->w, a[3]).pos);
	s->arg->num = v.num;
	s->arg->loc = v.loc;
	s->label = v.kind == IR_VAL_LOC
		? arena_printf(pc->fe->arena, "%s(&%s)", fname,
			       pc->fe->prog->locs[v.loc].name)
		: arena_printf(pc->fe->arena, "%s(%ld)", fname, v.num);
	int i;
	for (i = 0; i < pc->nh; i++)
		if (strcmp(pc->h[i].key, key) == 0)
			break;
	if (i < pc->nh && !pc->h[i].joined)
		return cl_err_at(&pc->w, a[0], "handle %s already holds a running "
			      "thread: use one pthread_t per thread", key);
	if (i == pc->nh)
		pc->nh++;
	pc->h[i].key = key;
	pc->h[i].tid = pc->nth++;
	pc->h[i].joined = 0;
	return 1;
}

static int do_join(struct cprog *pc, CXCursor c)
{
	CXCursor a0 = clang_Cursor_getArgument(c, 0);
	CXCursor a1 = clang_Cursor_getArgument(c, 1);
	const char *key = handle_key(pc, a0, "pthread_join's first argument");
	if (!key)
		return 0;
	if (!is_null(pc, a1))
		return cl_err_at(&pc->w, a1, "a thread's return value is not "
			      "supported: pass NULL");
	for (int i = 0; i < pc->nh; i++) {
		if (strcmp(pc->h[i].key, key) != 0)
			continue;
		if (pc->h[i].joined)
			return cl_err_at(&pc->w, a0, "thread %s is joined twice", key);
		pc->h[i].joined = 1;
		pc->phase = PH_JOIN;
		return 1;
	}
	return cl_err_at(&pc->w, a0, "pthread_join(%s): no pthread_create started "
		      "a thread in %s", key, key);
}

/* --- main's statements --------------------------------------------------- */

/* A local of main: a pthread_t (array) or an integer loop index. */
static int main_decl(struct cprog *pc, CXCursor d)
{
	CXCursor *k, init;
	int n = ctu_kids(pc->t, d, &k);
	for (int i = 0; i < n; i++) {
		if (clang_getCursorKind(k[i]) != CXCursor_VarDecl)
			continue;
		char *ty = cprog_type_of(pc, k[i]);
		if (cprog_is_handle_type(ty))
			continue;
		CXType ct = clang_getCanonicalType(clang_getCursorType(k[i]));
		int integer = ct.kind >= CXType_Bool && ct.kind <= CXType_Int128;
		if (!integer)
			return cl_err_at(&pc->w, k[i], "main may declare pthread_t "
				      "handles and integer loop indices only; "
				      "make '%s' a global", cl_spell(&pc->w, k[i]));
		long v = 0;
		if (cprog_var_init(pc, k[i], &init)) {
			struct ir_value iv;
			int r = cprog_main_value(pc, init, &iv);
			if (r == 0 && pc->phase == PH_INIT) /* int a = y + 1; */
				r = cprog_init_value(pc, init, &iv);
			if (r == 0 && pc->phase == PH_JOIN) { /* int a = x; */
				if (!give_final(pc, k[i], init))
					return 0;
				continue;
			}
			if (r < 0)
				return 0;
			if (r == 0 || iv.kind != IR_VAL_INT)
				return cl_err_at(&pc->w, init, "a local of main must be "
					      "given a constant");
			v = iv.num;
		}
		set_local(pc, k[i], v, k[i]);
	}
	return 1;
}

/* i = v, i++, i += k... on a local of main. */
static int main_update(struct cprog *pc, CXCursor e)
{
	CXCursor x = cl_strip(&pc->w, e);
	struct opform f;
	cl_opform(&pc->w, x, &f);
	CXCursor target = f.kid[0];
	CXCursor d = clang_getCursorReferenced(cl_strip(&pc->w, target));
	struct binding *bd = f.nkids ? main_local(pc, d) : NULL;
	if (!bd || bd->reg >= 0)
		return cl_err_at(&pc->w, e, "a loop of main must count with one of its "
			      "integer locals (i = 0; i < N; i++)");
	long old = bd->val->num, v = 0;
	if (f.nkids == 1 && (strcmp(f.op, "++") == 0 || strcmp(f.op, "--") == 0)) {
		set_local(pc, d, old + (f.op[0] == '+' ? 1 : -1), e);
		return 1;
	}
	struct ir_value iv;
	int r = f.nkids == 2 ? cprog_main_value(pc, f.kid[1], &iv) : 0;
	if (r < 0)
		return 0;
	if (r == 0 || iv.kind != IR_VAL_INT)
		return cl_err_at(&pc->w, e, "a loop of main must count by constants");
	if (strcmp(f.op, "=") == 0)
		v = iv.num;
	else if (strcmp(f.op, "+=") == 0)
		v = old + iv.num;
	else if (strcmp(f.op, "-=") == 0)
		v = old - iv.num;
	else
		return cl_err_at(&pc->w, e, "a loop of main must count with =, ++, --, "
			      "+= or -=");
	set_local(pc, d, v, e);
	return 1;
}

/* for (init; cond; inc) body with a constant bound: run in main. */
static int main_for(struct cprog *pc, CXCursor c)
{
	CXCursor *k;
	int n = ctu_kids(pc->t, c, &k);
	if (n != 4)
		return cl_err_at(&pc->w, c, "a loop in main needs its three parts "
			      "(for (i = 0; i < N; i++))");
	if (clang_getCursorKind(k[0]) == CXCursor_DeclStmt) {
		if (!main_decl(pc, k[0]))
			return 0;
	} else if (!main_update(pc, k[0])) {
		return 0;
	}
	for (int iter = 0;; iter++) {
		struct ir_value v;
		int r = cprog_main_value(pc, k[1], &v);
		if (r < 0)
			return 0;
		if (r == 0 || v.kind != IR_VAL_INT)
			return cl_err_at(&pc->w, k[1], "a loop in main needs a constant "
				      "bound: its condition must depend only on "
				      "constants and the loop index");
		if (!v.num)
			return 1;
		if (iter == MAX_THREADS)
			return cl_err_at(&pc->w, c, "a loop in main runs more than %d "
				      "times", MAX_THREADS);
		if (!main_stmt(pc, k[3]) || !main_update(pc, k[2]))
			return 0;
	}
}

/* Is e a call of pthread_create (4 arguments) or pthread_join (2), whose
 * result is tested: *fails is 1 when e is true when the call fails (call,
 * call != 0), 0 when e is true when it succeeds (!call, call == 0).  The
 * call into *call; 0 when e is no such test. */
static int thread_call_test(struct cprog *pc, CXCursor e, CXCursor *call,
			    int *fails)
{
	CXCursor x = cl_strip(&pc->w, e), zero;
	struct opform f;
	cl_opform(&pc->w, x, &f);
	struct ir_value v;
	if (f.nkids == 1 && strcmp(f.op, "!") == 0) {
		if (!thread_call_test(pc, f.kid[0], call, fails))
			return 0;
		*fails = !*fails;
		return 1;
	}
	if (f.nkids == 2 && (strcmp(f.op, "!=") == 0 || strcmp(f.op, "==") == 0)) {
		int side = thread_call_test(pc, f.kid[0], call, fails) ? 1
			 : thread_call_test(pc, f.kid[1], call, fails) ? 2 : 0;
		zero = f.kid[side == 1 ? 1 : 0];
		if (!side || cprog_main_value(pc, zero, &v) <= 0 ||
		    v.kind != IR_VAL_INT || v.num != 0)
			return 0;
		if (f.op[0] == '=')
			*fails = !*fails;
		return 1;
	}
	if (f.nkids || clang_getCursorKind(x) != CXCursor_CallExpr)
		return 0;
	char *name = cprog_callee(pc, x);
	int nargs = clang_Cursor_getNumArguments(x);
	if (!((strcmp(name, "pthread_create") == 0 && nargs == 4) ||
	      (strcmp(name, "pthread_join") == 0 && nargs == 2)))
		return 0;
	*call = x;
	*fails = 1;
	return 1;
}

/* Is statement c what a program does when a pthread call fails: abort(),
 * exit(), return, an assertion, printing, or a block of these? */
static int on_failure(struct cprog *pc, CXCursor c)
{
	static const char *const ok[] = {
		"abort", "exit", "_exit", "pthread_exit", "assert", "printf",
		"fprintf", "puts", "fputs", "perror", NULL,
	};
	CXCursor *k, x = cl_strip(&pc->w, c);
	int n;
	switch (clang_getCursorKind(x)) {
	case CXCursor_CompoundStmt:
		n = ctu_kids(pc->t, x, &k);
		for (int i = 0; i < n; i++)
			if (!on_failure(pc, k[i]))
				return 0;
		return 1;
	case CXCursor_ReturnStmt:
	case CXCursor_NullStmt:
		return 1;
	case CXCursor_CallExpr: {
		char *name = cprog_callee(pc, x);
		for (int i = 0; ok[i]; i++)
			if (strcmp(name, ok[i]) == 0)
				return 1;
		return 0;
	}
	default:
		return 0;
	}
}

/* if (pthread_create(...)) abort(); and the like: the call, which never
 * fails in the model, and its failure branch, never taken.  0 with no
 * error recorded when c is no such if. */
static int checked_thread_call(struct cprog *pc, CXCursor c, int *done)
{
	CXCursor *k, call;
	int n = ctu_kids(pc->t, c, &k), fails;
	*done = 0;
	if (n < 2 || n > 3 || !thread_call_test(pc, k[0], &call, &fails))
		return 1;
	*done = 1;
	CXCursor taken = fails ? k[1] : k[2], other = fails ? k[2] : k[1];
	if ((n == 3 || !fails) && (n < 3 || !on_failure(pc, taken)))
		return cl_err_at(&pc->w, c, "lkmmc's threads are always created "
			      "and joined: write the call on its own "
			      "(pthread_create(&t, NULL, f, NULL);) or test it "
			      "with if (pthread_create(...)) abort();");
	if (n == 2 && !on_failure(pc, taken))
		return cl_err_at(&pc->w, taken, "the branch taken when %s fails "
			      "never runs (lkmmc's threads are always created "
			      "and joined); it may only abort(), exit(), return "
			      "or print", cprog_callee(pc, call));
	if (!main_stmt(pc, call))
		return 0;
	return n == 2 || main_stmt(pc, other);
}

static int main_stmt(struct cprog *pc, CXCursor c)
{
	int done, ok, fails;
	CXCursor *k;
	int n;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CompoundStmt:
		n = ctu_kids(pc->t, c, &k);
		for (int i = 0; i < n; i++)
			if (!main_stmt(pc, k[i]))
				return 0;
		return 1;
	case CXCursor_DeclStmt:
		return main_decl(pc, c);
	case CXCursor_ForStmt:
		return main_for(pc, c);
	case CXCursor_NullStmt:
		return 1;
	case CXCursor_ReturnStmt:
		return 1;
	case CXCursor_IfStmt:
		ok = checked_thread_call(pc, c, &done);
		if (done)
			return ok;
		break;
	default:
		break;
	}
	CXCursor x = cl_strip(&pc->w, c);
	if (clang_getCursorKind(x) == CXCursor_CallExpr) {
		char *name = cprog_callee(pc, x);
		const struct kapi *kp = kapi_find(NULL, name);
		int nargs = clang_Cursor_getNumArguments(x);
		if (strcmp(name, "pthread_create") == 0 && nargs == 4)
			return do_create(pc, x);
		if (strcmp(name, "pthread_join") == 0 && nargs == 2)
			return do_join(pc, x);
		CXCursor call;
		if (cl_is_print(name)) {
			CXCursor kcall = clang_getNullCursor();
			clang_visitChildren(x, find_call, &kcall);
			if (clang_Cursor_isNull(kcall))
				return 1; /* printing: nothing the model sees */
			return cl_err_at(&pc->w, kcall, "main may print values "
				      "(x, READ_ONCE(x)), not calls that change "
				      "memory: '%s' in %s() would run in main; call "
				      "it in a thread", cl_src_of(&pc->w, kcall).text,
				      name);
		}
		if (kp && kp->kind == K_ASSERT && nargs == 1 &&
		    thread_call_test(pc, clang_Cursor_getArgument(x, 0), &call,
				     &fails) && fails == (kp->test == IR_NE))
			return main_stmt(pc, call); /* assert(!pthread_join(...)) */
		if (kp && kp->kind == K_ASSERT && nargs == 1)
			return cprog_assert(pc, x, kp);
		if (strcmp(name, "__VERIFIER_assume") == 0)
			return cprog_assume(pc, x);
		if (strcmp(name, "pthread_mutex_destroy") == 0 && nargs == 1 &&
		    cprog_all_joined(pc))
			return 1; /* nothing the model sees */
		if (pc->phase != PH_INIT && (strcmp(name, "memset") == 0 ||
					     strcmp(name, "memcpy") == 0))
			return cl_err_at(&pc->w, x, "%s in main after the first "
				      "pthread_create: memset and memcpy set "
				      "initial values, before the threads start; "
				      "move it before the first pthread_create, "
				      "or store the fields one by one in a thread",
				      name);
	}
	if (pc->phase == PH_INIT && clang_isExpression(clang_getCursorKind(c)))
		return cprog_init_store(pc, c);
	struct opform f;
	cl_opform(&pc->w, x, &f);
	CXCursor lhs = f.nkids == 2 ? cl_strip(&pc->w, f.kid[0]) : x;
	if (pc->phase == PH_JOIN && strcmp(f.op, "=") == 0 &&
	    clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
	    main_local(pc, clang_getCursorReferenced(lhs)))
		return give_final(pc, clang_getCursorReferenced(lhs), f.kid[1]);
	if (pc->phase == PH_SPAWN && cl_is_assign_op(f.op))
		return cl_err_at(&pc->w, c, "main stores to globals before the "
			      "first pthread_create only (the initial state): "
			      "'%s' would run beside the threads; store before "
			      "the threads start (fill an array of thread "
			      "arguments in a loop of its own), or in a thread",
			      cl_src_of(&pc->w, c).text);
	return cl_err_at(&pc->w, c, "main may only initialise globals, create threads "
		      "(also in loops with a constant bound), join them and "
		      "assert on the final state; '%s' is none of these: move "
		      "it into a thread", cl_src_of(&pc->w, c).text);
}

/* --- the translation unit ----------------------------------------------- */

/* Report the first clang error; returns 1 if there was none. */
static int prog_diags(struct cprog *pc, CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic dg = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(dg) < CXDiagnostic_Error) {
			clang_disposeDiagnostic(dg);
			continue;
		}
		CXString msg = clang_getDiagnosticSpelling(dg);
		const char *m = clang_getCString(msg);
		unsigned line = 0, col = 0;
		CXFile f = NULL;
		clang_getFileLocation(clang_getDiagnosticLocation(dg), &f, &line,
				      &col, NULL);
		CXString fn = clang_getFileName(f);
		const char *file = f && !clang_File_isEqual(f, pc->t->main_file)
			? clang_getCString(fn) : pc->fe->file;
		const char *hint = "";
		if (strncmp(m, "implicit declaration of function", 32) == 0)
			hint = ": lkmmc knows the kernel primitives of "
			       "<lkmm.h> (linux-kernel.def); include <lkmm.h> "
			       "or define the function in the program";
		else if (strstr(m, "file not found"))
			hint = ": lkmmc builds in lkmm.h, pthread.h, assert.h, "
			       "stdlib.h, stddef.h, stdint.h, stdbool.h, "
			       "stdio.h, string.h and genmc.h; give other "
			       "folders with -I";
		diag_error(pc->fe->d, file, (int)line, (int)col, "%s%s", m, hint);
		clang_disposeString(fn);
		clang_disposeString(msg);
		clang_disposeDiagnostic(dg);
		return 0;
	}
	return 1;
}

/* Static locals would be shared memory the IR has no name for. */
static enum CXChildVisitResult find_static(CXCursor c, CXCursor parent,
					   CXClientData data)
{
	(void)parent;
	CXCursor *found = data;
	if (clang_getCursorKind(c) == CXCursor_VarDecl &&
	    clang_Cursor_getStorageClass(c) == CX_SC_Static) {
		*found = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* Lower thread k: its function's body with the parameter bound. */
static int lower_thread(struct cprog *pc, int k, struct fe_proc *p)
{
	struct spawn *s = &pc->th[k];
	CXCursor *kids;
	int nk = ctu_kids(pc->t, s->fn, &kids);
	p->id = k;
	p->name_off = cl_lit(&pc->w, cl_vfile_off(pc->t,
				clang_getCursorLocation(s->fn)));
	p->body_off = cl_lit(&pc->w, cl_b_start(pc->t, kids[nk - 1]));
	p->body_end = p->body_off;
	p->rparen_off = p->name_off;
	struct ir_thread *th = &pc->fe->prog->threads[k];
	th->id = k;
	th->pos = fe_pos(pc->fe, p->name_off);
	th->params = arena_alloc(pc->fe->arena, sizeof(int));
	struct lw w = { .t = pc->t, .fe = pc->fe, .p = p, .tid = k };
	struct bb b = {0};
	struct ir_expr *argv[1] = { s->arg }, *val;
	struct src src = { th->pos, s->label };
	int ok = cl_inline(&w, s->fn, s->fn, argv, &b, DST_NONE, src, &val);
	th->body = cl_fin(&b);
	pc->exits[k] = w.exits;
	pc->assumes[k] = w.assumes;
	return ok;
}

/* The whole program, once libclang has parsed it. */
static int read_program(struct cprog *pc)
{
	struct fe *fe = pc->fe;
	struct ir_program *prog = fe->prog;
	CXCursor *top, mainfn = clang_getNullCursor();
	int ntop = ctu_kids(pc->t, clang_getTranslationUnitCursor(pc->t->tu), &top);
	for (int i = 0; i < ntop; i++) {
		if (in_builtin(top[i]))
			continue;
		enum CXCursorKind k = clang_getCursorKind(top[i]);
		if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(top[i])) {
			CXCursor st = clang_getNullCursor();
			clang_visitChildren(top[i], find_static, &st);
			if (!clang_Cursor_isNull(st))
				return cl_err_at(&pc->w, st, "static local variable '%s': "
					      "make it a global",
					      cl_spell(&pc->w, st));
			char *nm = cl_spell(&pc->w, top[i]);
			if (strcmp(nm, "main") == 0)
				mainfn = top[i];
		}
		if (k == CXCursor_VarDecl && !cprog_declare_global(pc, top[i]))
			return 0;
	}
	if (clang_Cursor_isNull(mainfn))
		return diag_error(fe->d, fe->file, 1, 1, "no main function: a C "
				  "program creates its threads in main (a litmus "
				  "test is read from a file not ending in .c)");
	if (!layout_objects(pc->t))
		return 0;
	CXCursor *mk;
	int nm = ctu_kids(pc->t, mainfn, &mk);
	pc->mainp.body_off = cl_lit(&pc->w, cl_b_start(pc->t, mk[nm - 1]));
	pc->fr.fn = mainfn;
	if (!main_stmt(pc, mk[nm - 1]))
		return 0;
	if (pc->nth == 0)
		return cl_err_at(&pc->w, mainfn, "main creates no thread: start the "
			      "threads with pthread_create");
	prog->nthreads = pc->nth;
	fe->nprocs = pc->nth;
	fe->procs = arena_alloc(fe->arena, (size_t)pc->nth * sizeof *fe->procs);
	memset(fe->procs, 0, (size_t)pc->nth * sizeof *fe->procs);
	prog->thread_fn = arena_alloc(fe->arena, (size_t)pc->nth * sizeof(char *));
	for (int k = 0; k < pc->nth; k++) {
		prog->thread_fn[k] = pc->th[k].label;
		if (!lower_thread(pc, k, &fe->procs[k]))
			return 0;
	}
	cprog_exempt_exits(pc);
	prog->filter = cprog_filter(pc);
	/* The final condition: forall of the asserts' conjunction. */
	struct ir_cond *c = NULL;
	for (int i = 0; i < pc->nas; i++) {
		if (!c) {
			c = pc->as[i].cond;
			continue;
		}
		struct ir_cond *n = arena_alloc(fe->arena, sizeof *n);
		memset(n, 0, sizeof *n);
		n->kind = IR_C_AND;
		n->a = c;
		n->b = pc->as[i].cond;
		n->pos = pc->as[i].pos;
		c = n;
	}
	if (!c) {
		c = arena_alloc(fe->arena, sizeof *c);
		memset(c, 0, sizeof *c);
		c->kind = IR_C_TRUE;
	}
	prog->quant = IR_Q_FORALL;
	prog->cond = c;
	char *s = clause_cond_string(prog, c);
	prog->cond_text = arena_strdup(fe->arena, s);
	free(s);
	prog->asserts = pc->as;
	prog->nasserts = pc->nas;
	prog->is_program = 1;
	return 1;
}

/* The test name: the file's base name without ".c". */
static const char *prog_name(struct fe *fe)
{
	const char *b = strrchr(fe->file, '/');
	b = b ? b + 1 : fe->file;
	size_t n = strlen(b);
	if (n > 2 && strcmp(b + n - 2, ".c") == 0)
		n -= 2;
	return arena_strndup(fe->arena, b, n);
}

int cparse_program(struct cparse *cp, struct fe *fe, const char *const *cargs,
		   int ncargs)
{
	struct ctu t = { .fe = fe, .buf = fe->text, .len = fe->len, .program = 1 };
	t.scratch = arena_new();
	struct ctu_chunk chunk = { 0, 0, fe->len, 0 };
	t.chunks = &chunk;
	t.nchunks = 1;
	fe->prog->name = prog_name(fe);
	fe->typedefs = 1; /* the program's own typedef'd structs */
	/* The threads' array has room for main's scratch registers past
	 * the last thread (index MAX_THREADS). */
	int nt = MAX_THREADS + 1;
	fe->prog->threads = arena_alloc(fe->arena, (size_t)nt * sizeof *fe->prog->threads);
	memset(fe->prog->threads, 0, (size_t)nt * sizeof *fe->prog->threads);
	fe->regs_cap = arena_alloc(fe->arena, (size_t)nt * sizeof *fe->regs_cap);
	memset(fe->regs_cap, 0, (size_t)nt * sizeof *fe->regs_cap);
	fe->ntemps = arena_alloc(fe->arena, (size_t)nt * sizeof *fe->ntemps);
	memset(fe->ntemps, 0, (size_t)nt * sizeof *fe->ntemps);

	int nh = 0;
	while (cheaders[nh].name)
		nh++;
	struct CXUnsavedFile *uf = xcalloc((size_t)nh + 1, sizeof *uf);
	char **paths = xcalloc((size_t)nh + 1, sizeof *paths);
	uf[0].Filename = fe->file;
	uf[0].Contents = fe->text;
	uf[0].Length = (unsigned long)fe->len;
	for (int i = 0; i < nh; i++) {
		size_t len = strlen(VINCLUDE) + strlen(cheaders[i].name) + 2;
		paths[i] = xmalloc(len);
		snprintf(paths[i], len, "%s/%s", VINCLUDE, cheaders[i].name);
		uf[i + 1].Filename = paths[i];
		uf[i + 1].Contents = cheaders[i].text;
		uf[i + 1].Length = (unsigned long)strlen(cheaders[i].text);
	}
	static const char *const base[] = {
		"-x", "c", "-std=gnu11", "-w", "-nostdinc", "-ferror-limit=5",
		/* clang 16 and later make these errors; -w kept them quiet
		 * before, and lkmmc reports each case itself (an unknown
		 * primitive, a thread function of the wrong type). */
		"-Wno-implicit-function-declaration", "-Wno-int-conversion",
		"-Wno-incompatible-function-pointer-types", "-D__LKMMC__=1",
		"-I" VINCLUDE,
	};
	int nbase = (int)(sizeof base / sizeof base[0]);
	const char **args = xcalloc((size_t)(nbase + ncargs + 1), sizeof *args);
	for (int i = 0; i < ncargs; i++)
		args[i] = cargs[i]; /* the user's -I and -D first */
	for (int i = 0; i < nbase; i++)
		args[ncargs + i] = base[i];
	struct cprog pc = { .t = &t, .fe = fe };
	pc.mainp.id = MAX_THREADS;
	pc.w = (struct lw){ .t = &t, .fe = fe, .p = &pc.mainp, .tid = MAX_THREADS,
			    .in_main = 1 };
	pc.fr = (struct frame){ .name = "main", .instance = 1, .ret = -1,
				.flag = -1 };
	pc.w.fr = &pc.fr;
	enum CXErrorCode ec = clang_parseTranslationUnit2(
		(CXIndex)cparse_index(cp), fe->file, args, nbase + ncargs, uf,
		(unsigned)nh + 1, CXTranslationUnit_None, &t.tu);
	int ok;
	if (ec != CXError_Success || !t.tu) {
		ok = diag_error(fe->d, fe->file, 0, 0, "libclang could not "
				"parse the program (error %d)", (int)ec);
	} else {
		t.main_file = clang_getFile(t.tu, fe->file);
		ok = prog_diags(&pc, t.tu) && read_program(&pc);
	}
	if (t.tu)
		clang_disposeTranslationUnit(t.tu);
	for (int i = 0; i < nh; i++)
		free(paths[i]);
	free(paths);
	free(uf);
	free(args);
	arena_free(t.scratch);
	return ok;
}
