/*
 * cparse.c - runs libclang on a test's process bodies (see cparse.h).
 *
 * The virtual C file is: a prelude (typedefs for the kernel types, the
 * kernel API as unprototyped functions returning long, NULL/true/false,
 * macros for the smp_cond_load family), the test's C preamble if any
 * (under a #line directive, with each '#include "x.h"' replaced by the
 * header's text, which maps to the #include line), then per process
 *     void
 *     #line L "file"
 *     <padding>PN(params as written)
 *     { <declarations of the identifiers the body uses without declaring>
 *     #line L' "file"
 *     <padding>{ body as written }
 *     }
 * so that every libclang position inside the copied text maps back to the
 * litmus file's line and column.  Undeclared identifiers are herd7's
 * implicit registers; they are declared as intptr_t, or intptr_t * when the
 * body dereferences them, so that clang accepts both uses.  Only clang
 * errors count (warnings such as int/pointer conversions are off), and not
 * the type errors that herd7's untyped registers cause (dereferencing an
 * int register, adding a pointer register to a parameter): clang keeps
 * those expressions as RecoveryExprs (-frecovery-ast), which clower.c
 * lowers like the operators they are.  Names the preamble defines
 * (macros, typedefs, enum constants) are not implicit registers; a
 * preamble may not define variables (shared memory is the init block's).
 *
 * It does not turn the AST into IR (clower.c does) nor lay out struct
 * objects (layout.c does).
 */
#include "cparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "clower.h"
#include "ctu.h"
#include "cscan.h"
#include "fe.h"
#include "kapi.h"
#include "common/strbuf.h"
#include "common/xalloc.h"

/* The virtual file's name for libclang (never on disk). */
#define VFILE "/lkmmc-virtual/litmus.c"

struct cparse {
	CXIndex index;  /* reused across tests */
	char *prelude;  /* the declarations every test starts with */
	size_t prelude_len; /* its length */
};

/* Typedef names the prelude defines (also known to fe_type_kind). */
static const char prelude_types[] =
	"typedef long intptr_t;\n"
	"typedef unsigned long uintptr_t;\n"
	"typedef unsigned long size_t;\n"
	"typedef _Bool bool;\n"
	"typedef unsigned char u8; typedef unsigned short u16;\n"
	"typedef unsigned int u32; typedef unsigned long long u64;\n"
	"typedef signed char s8; typedef short s16;\n"
	"typedef int s32; typedef long long s64;\n"
	"typedef signed char int8_t; typedef short int16_t;\n"
	"typedef int int32_t; typedef long long int64_t;\n"
	"typedef unsigned char uint8_t; typedef unsigned short uint16_t;\n"
	"typedef unsigned int uint32_t; typedef unsigned long long uint64_t;\n"
	"typedef int atomic_t;\n"
	"typedef long atomic_long_t;\n"
	"typedef int spinlock_t;\n"
	"struct srcu_struct { int lkmmc_srcu; };\n"
	"enum { NULL = 0, true = 1, false = 0 };\n";

/* Kernel idioms whose condition names VAL: the condition becomes the last
 * expression of a statement expression that declares VAL, which clower.c
 * reads as "spin until it holds" (kapi.h, K_COND_LOAD). */
static const char prelude_idioms[] =
	"long __lkmmc_choice();\n"
	"#define smp_cond_load_relaxed(p, c) "
	"__lkmmc_cond_load_relaxed((p), ({ long VAL; (c); }))\n"
	"#define smp_cond_load_acquire(p, c) "
	"__lkmmc_cond_load_acquire((p), ({ long VAL; (c); }))\n"
	"#define atomic_cond_read_relaxed(v, c) "
	"__lkmmc_cond_load_relaxed((v), ({ long VAL; (c); }))\n"
	"#define atomic_cond_read_acquire(v, c) "
	"__lkmmc_cond_load_acquire((v), ({ long VAL; (c); }))\n"
	"#define atomic_long_cond_read_relaxed(v, c) "
	"__lkmmc_cond_load_relaxed((v), ({ long VAL; (c); }))\n"
	"#define atomic_long_cond_read_acquire(v, c) "
	"__lkmmc_cond_load_acquire((v), ({ long VAL; (c); }))\n";

/* Names an implicit-register scan must not declare. */
static const char *const reserved[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while", "_Bool", "_Atomic",
	"asm", "__asm__", "__volatile__",
	"intptr_t", "uintptr_t", "size_t", "bool", "u8", "u16", "u32", "u64",
	"s8", "s16", "s32", "s64", "int8_t", "int16_t", "int32_t", "int64_t",
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "atomic_t",
	"atomic_long_t", "spinlock_t", "srcu_struct", "NULL", "true", "false",
	NULL,
};

struct cparse *cparse_new(const struct kapi_table *t)
{
	struct cparse *cp = xcalloc(1, sizeof *cp);
	cp->index = clang_createIndex(0, 0);
	size_t cap = sizeof prelude_types + sizeof prelude_idioms + 64;
	for (int i = 0; kapi_at(t, i); i++)
		cap += 2 * strlen(kapi_at(t, i)->name) + 40;
	cp->prelude = xmalloc(cap);
	size_t n = (size_t)snprintf(cp->prelude, cap, "%s", prelude_types);
	for (int i = 0; kapi_at(t, i); i++) {
		const char *nm = kapi_at(t, i)->name;
		n += (size_t)snprintf(cp->prelude + n, cap - n, "long %s();\n",
				      nm);
		if (strncmp(nm, "atomic_", 7) == 0)
			n += (size_t)snprintf(cp->prelude + n, cap - n,
					      "long atomic_long_%s();\n", nm + 7);
	}
	n += (size_t)snprintf(cp->prelude + n, cap - n, "%s", prelude_idioms);
	cp->prelude_len = n;
	return cp;
}

void *cparse_index(struct cparse *cp)
{
	return cp->index;
}

void cparse_free(struct cparse *cp)
{
	if (!cp)
		return;
	clang_disposeIndex(cp->index);
	free(cp->prelude);
	free(cp);
}

/* --- the virtual file -------------------------------------------------- */

/* "#line L "file"" with the file name escaped for a C string. */
static void vb_line(struct strbuf *b, int line, const char *file)
{
	char num[32];
	snprintf(num, sizeof num, "#line %d \"", line);
	strbuf_str(b, num);
	for (const char *s = file; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_put(b, "\\", 1);
		if (*s == '\n')
			continue;
		strbuf_put(b, s, 1);
	}
	strbuf_str(b, "\"\n");
}

/* Copy text[a, b) at the column it has in the litmus file. */
static void vb_copy(struct strbuf *b, struct fe *fe, size_t a, size_t e,
		    struct ctu_chunk *chunk)
{
	struct ir_pos pos = fe_pos(fe, a);
	vb_line(b, pos.line, fe->file);
	for (int i = 1; i < pos.col; i++)
		strbuf_put(b, " ", 1);
	chunk->buf_off = b->len;
	chunk->lit_off = a;
	chunk->len = e - a;
	chunk->fixed = 0;
	strbuf_put(b, fe->text + a, e - a);
	strbuf_put(b, "\n", 1);
}

/* A name the preamble defines at file scope (a macro, a typedef, an enum
 * constant): bodies use it without it being a register. */
struct pname {
	size_t off; /* where it is defined in the litmus text */
	size_t len; /* its length */
};

/* The preamble's file-scope names (macros, typedefs, enum constants). */
struct pnames {
	struct pname *v; /* the names */
	int n, cap;      /* count, room */
};

static void pname_add(struct fe *fe, struct pnames *pn, struct ctok tok)
{
	pn->v = fe_reserve(fe->arena, pn->v, sizeof *pn->v, pn->n, &pn->cap);
	pn->v[pn->n].off = tok.off;
	pn->v[pn->n].len = tok.len;
	pn->n++;
}

/* Collect the names a token scan of the preamble finds: "#define NAME",
 * the last identifier of a file-scope "typedef ...;", and the constants of
 * an "enum { A, B = 2 }" (identifiers after its '{' or a ','). */
static void preamble_names(struct fe *fe, struct pnames *pn)
{
	const char *t = fe->text;
	size_t off = fe->preamble_off, end = fe->preamble_end;
	int depth = 0, in_typedef = 0, enum_depth = -1, want_enum = 0;
	struct ctok last_ident = { CT_EOF, 0, 0 }, prev = last_ident;
	for (;;) {
		struct ctok tok = cscan_token(t, off, end);
		if (tok.kind == CT_EOF || tok.kind == CT_BAD)
			return;
		off = tok.off + tok.len;
		if (tok.kind == CT_HASH) {
			struct ctok d = cscan_token(t, off, end);
			struct ctok nm = cscan_token(t, d.off + d.len, end);
			if (d.kind == CT_IDENT && fe_word_is(t + d.off, d.len, "define") &&
			    nm.kind == CT_IDENT)
				pname_add(fe, pn, nm);
			while (off < end && t[off] != '\n') {
				if (t[off] == '\\' && off + 1 < end && t[off + 1] == '\n')
					off++;
				off++;
			}
			prev.kind = CT_EOF;
			continue;
		}
		int punct = tok.kind == CT_PUNCT && tok.len == 1;
		if (tok.kind == CT_IDENT) {
			if (fe_word_is(t + tok.off, tok.len, "typedef") && depth == 0)
				in_typedef = 1;
			else if (fe_word_is(t + tok.off, tok.len, "enum"))
				want_enum = 1;
			else if (enum_depth == depth && prev.kind == CT_PUNCT &&
				 prev.len == 1 && (t[prev.off] == '{' || t[prev.off] == ','))
				pname_add(fe, pn, tok);
			last_ident = tok;
		} else if (punct && t[tok.off] == '{') {
			depth++;
			if (want_enum)
				enum_depth = depth;
			want_enum = 0;
		} else if (punct && t[tok.off] == '}') {
			if (enum_depth == depth)
				enum_depth = -1;
			depth--;
		} else if (punct && t[tok.off] == ';') {
			if (in_typedef && depth == 0 && last_ident.kind == CT_IDENT)
				pname_add(fe, pn, last_ident);
			if (depth == 0)
				in_typedef = 0;
			want_enum = 0;
		}
		prev = tok;
	}
}

static int is_reserved(const struct fe *fe, const struct pnames *pn,
		       const char *s, size_t n)
{
	for (int i = 0; reserved[i]; i++)
		if (fe_word_is(s, n, reserved[i]))
			return 1;
	for (int i = 0; i < pn->n; i++)
		if (pn->v[i].len == n && memcmp(fe->text + pn->v[i].off, s, n) == 0)
			return 1;
	char name[64];
	if (n >= sizeof name)
		return 0;
	memcpy(name, s, n);
	name[n] = '\0';
	return kapi_find(fe->macros, name) != NULL;
}

/* One identifier the body uses (declared or not). */
struct implicit {
	size_t off;  /* its first occurrence */
	size_t len;  /* its length */
	int deref;   /* 1 if the body dereferences it (*name) */
};

/* What a body scan found. */
struct scan {
	struct implicit *imp; /* identifiers used */
	int n, cap;           /* count, room */
};

/* Scan the body of p for the identifiers it uses that are neither
 * keywords, types, API names, called functions nor parameters. */
static int scan_body(struct fe *fe, const struct fe_proc *p,
		     const struct pnames *pn, struct scan *sc)
{
	const char *t = fe->text;
	size_t end = p->body_end + 1;
	struct implicit *imp = NULL;
	int n = 0, cap = 0;
	struct ctok prev1 = { CT_EOF, 0, 0 }, prev2 = prev1;
	size_t off = p->body_off;
	for (;;) {
		struct ctok tok = cscan_token(t, off, end);
		if (tok.kind == CT_EOF)
			break;
		if (tok.kind == CT_BAD) {
			sc->imp = imp;
			return fe_error(fe, tok.off,
					"unterminated comment or literal");
		}
		if (tok.kind == CT_HASH) {
			sc->imp = imp;
			return fe_error(fe, tok.off,
					"preprocessor directives are not allowed "
					"in a process body");
		}
		off = tok.off + tok.len;
		int skip = tok.kind != CT_IDENT || is_reserved(fe, pn, t + tok.off, tok.len);
		if (!skip && prev1.kind == CT_IDENT &&
		    (fe_word_is(t + prev1.off, prev1.len, "struct") ||
		     fe_word_is(t + prev1.off, prev1.len, "union") ||
		     fe_word_is(t + prev1.off, prev1.len, "enum") ||
		     fe_word_is(t + prev1.off, prev1.len, "goto")))
			skip = 1;
		if (!skip && prev1.kind == CT_PUNCT &&
		    (fe_word_is(t + prev1.off, prev1.len, ".") ||
		     fe_word_is(t + prev1.off, prev1.len, "->")))
			skip = 1;
		if (!skip) {
			struct ctok next = cscan_token(t, off, end);
			if (next.kind == CT_PUNCT && t[next.off] == '(' &&
			    next.len == 1)
				skip = 1; /* a call */
		}
		for (int i = 0; !skip && i < p->nparams; i++)
			if (fe_word_is(t + tok.off, tok.len, p->params[i].name))
				skip = 1;
		if (!skip) {
			int deref = prev1.kind == CT_PUNCT && prev1.len == 1 &&
				    t[prev1.off] == '*' &&
				    (prev2.kind == CT_EOF ||
				     (prev2.kind == CT_PUNCT &&
				      t[prev2.off] != ')' && t[prev2.off] != ']') ||
				     (prev2.kind == CT_IDENT &&
				      fe_word_is(t + prev2.off, prev2.len,
						 "return")));
			int i;
			for (i = 0; i < n; i++)
				if (imp[i].len == tok.len &&
				    memcmp(t + imp[i].off, t + tok.off, tok.len) == 0)
					break;
			if (i == n) {
				XGROW(imp, cap, n + 1, 16);
				imp[n].off = tok.off;
				imp[n].len = tok.len;
				imp[n].deref = 0;
				n++;
			}
			imp[i].deref |= deref;
		}
		prev2 = prev1;
		prev1 = tok;
	}
	sc->imp = imp;
	sc->n = n;
	sc->cap = cap;
	return 1;
}

/* Declare the implicit registers in the function's outer block: intptr_t,
 * or intptr_t * when the body dereferences them. */
static void declare_scan(struct fe *fe, const struct scan *sc, struct strbuf *b)
{
	for (int i = 0; i < sc->n; i++) {
		strbuf_str(b, sc->imp[i].deref ? " intptr_t *" : " intptr_t ");
		strbuf_put(b, fe->text + sc->imp[i].off, sc->imp[i].len);
		strbuf_put(b, ";", 1);
	}
}

/* --- libclang ---------------------------------------------------------- */

/* herd7's registers are untyped: a body may dereference a register it
 * declared int, or add a pointer register to a parameter.  clang reports
 * these as type errors but, with -frecovery-ast, keeps the expression as a
 * RecoveryExpr that clower.c reads; so these errors do not count. */
static int is_type_error(const char *msg)
{
	static const char *const ok[] = {
		"indirection requires pointer operand",
		"invalid operands to binary expression",
		"invalid argument type",
		"incompatible",
		NULL,
	};
	for (int i = 0; ok[i]; i++)
		if (strncmp(msg, ok[i], strlen(ok[i])) == 0)
			return 1;
	return 0;
}

/* Report the first clang error; returns 1 if there was none. */
static int check_diags(struct ctu *t)
{
	unsigned n = clang_getNumDiagnostics(t->tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic dg = clang_getDiagnostic(t->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
		CXString msg = clang_getDiagnosticSpelling(dg);
		int typing = is_type_error(clang_getCString(msg));
		if (sev < CXDiagnostic_Error || typing) {
			clang_disposeString(msg);
			clang_disposeDiagnostic(dg);
			continue;
		}
		CXSourceLocation loc = clang_getDiagnosticLocation(dg);
		unsigned off = 0, line = 0, col = 0;
		CXFile f = NULL;
		clang_getFileLocation(loc, &f, &line, &col, &off);
		if (f && !clang_File_isEqual(f, t->main_file)) {
			/* In a header the preamble includes. */
			CXString fn = clang_getFileName(f);
			fe_error(t->fe, t->fe->preamble_off, "in %s:%u:%u: %s",
				 clang_getCString(fn), line, col,
				 clang_getCString(msg));
			clang_disposeString(fn);
			clang_disposeString(msg);
			clang_disposeDiagnostic(dg);
			return 0;
		}
		size_t lit = ctu_lit_off(t, off);
		if (lit == (size_t)-1)
			lit = t->fe->procs[0].name_off;
		fe_error(t->fe, lit, "%s", clang_getCString(msg));
		clang_disposeString(msg);
		clang_disposeDiagnostic(dg);
		return 0;
	}
	return 1;
}

/* Walk the TU: the process functions are the definitions named PN, in the
 * order they were emitted. */
static int lower_all(struct ctu *t)
{
	struct fe *fe = t->fe;
	CXCursor *top, *fk, *outer;
	int ntop = ctu_kids(t, clang_getTranslationUnitCursor(t->tu), &top);
	int k = 0;
	for (int i = 0; i < ntop && k < fe->nprocs; i++) {
		CXCursor f = top[i];
		if (clang_getCursorKind(f) != CXCursor_FunctionDecl ||
		    !clang_isCursorDefinition(f))
			continue;
		/* Helpers of the preamble are definitions too. */
		CXString fn = clang_getCursorSpelling(f);
		char want[32];
		snprintf(want, sizeof want, "P%d", fe->procs[k].id);
		int is_proc = strcmp(clang_getCString(fn), want) == 0;
		clang_disposeString(fn);
		if (!is_proc)
			continue;
		int nf = ctu_kids(t, f, &fk);
		int no = nf ? ctu_kids(t, fk[nf - 1], &outer) : 0;
		if (no == 0 ||
		    clang_getCursorKind(fk[nf - 1]) != CXCursor_CompoundStmt ||
		    clang_getCursorKind(outer[no - 1]) != CXCursor_CompoundStmt)
			return fe_error(fe, fe->procs[k].name_off,
					"internal error: no body for P%d",
					fe->procs[k].id);
		if (!clower_thread(t, &fe->procs[k], outer[no - 1]))
			return 0;
		k++;
	}
	if (k != fe->nprocs)
		return fe_error(fe, fe->procs[k].name_off,
				"internal error: libclang lost P%d",
				fe->procs[k].id);
	return 1;
}

/* The folder of the litmus file, for #include "x.h" ("." when none). */
static char *litmus_dir(struct fe *fe)
{
	const char *slash = strrchr(fe->file, '/');
	if (!slash)
		return arena_strdup(fe->arena, ".");
	if (slash == fe->file)
		return arena_strdup(fe->arena, "/");
	return arena_strndup(fe->arena, fe->file, (size_t)(slash - fe->file));
}

/* If the line at off is '#include "name"', sets *name and *nlen. */
static int include_at(const char *t, size_t off, size_t end, size_t *name,
		      size_t *nlen)
{
	size_t i = off;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i >= end || t[i] != '#')
		return 0;
	i++;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (end - i < 7 || memcmp(t + i, "include", 7) != 0)
		return 0;
	i += 7;
	while (i < end && (t[i] == ' ' || t[i] == '\t'))
		i++;
	if (i >= end || t[i] != '"')
		return 0;
	size_t a = ++i;
	while (i < end && t[i] != '"' && t[i] != '\n')
		i++;
	if (i >= end || t[i] != '"')
		return 0;
	*name = a;
	*nlen = i - a;
	return 1;
}

/* Copy the preamble into b, with each '#include "x.h"' replaced by the
 * file x.h next to the litmus file (so that lowering can read its text). */
static int emit_preamble(struct ctu *t, struct strbuf *b, const char *dir)
{
	struct fe *fe = t->fe;
	const char *txt = fe->text;
	size_t from = fe->preamble_off, end = fe->preamble_end;
	for (size_t line = from; line < end;) {
		size_t eol = line;
		while (eol < end && txt[eol] != '\n')
			eol++;
		size_t name, nlen;
		if (!include_at(txt, line, eol, &name, &nlen)) {
			line = eol + 1;
			continue;
		}
		if (line > from)
			vb_copy(b, fe, from, line, &t->chunks[t->nchunks++]);
		char *fname = arena_strndup(fe->arena, txt + name, nlen);
		char *path = fname[0] == '/' ? fname
			: arena_printf(fe->arena, "%s/%s", dir, fname);
		FILE *in = fopen(path, "rb");
		if (!in)
			return fe_error(fe, line, "cannot open the header \"%s\" "
					"(%s): put it next to the litmus file",
					fname, path);
		struct ctu_chunk *c = &t->chunks[t->nchunks++];
		c->buf_off = b->len;
		c->lit_off = line;
		c->fixed = 1;
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
			strbuf_put(b, chunk, n);
		fclose(in);
		strbuf_put(b, "\n", 1);
		c->len = b->len - c->buf_off;
		from = line = eol < end ? eol + 1 : end;
	}
	if (from < end)
		vb_copy(b, fe, from, end, &t->chunks[t->nchunks++]);
	return 1;
}

/* The preamble may define types, macros and functions, not variables:
 * shared memory is declared in the init block. */
static int check_preamble(struct ctu *t)
{
	CXCursor *top;
	int n = ctu_kids(t, clang_getTranslationUnitCursor(t->tu), &top);
	for (int i = 0; i < n; i++) {
		if (clang_getCursorKind(top[i]) != CXCursor_VarDecl)
			continue;
		unsigned off = 0;
		CXFile f;
		clang_getFileLocation(clang_getCursorLocation(top[i]), &f, NULL,
				      NULL, &off);
		if (!clang_File_isEqual(f, t->main_file))
			continue;
		size_t lit = ctu_lit_off(t, off);
		if (lit == (size_t)-1)
			continue;
		CXString nm = clang_getCursorSpelling(top[i]);
		fe_error(t->fe, lit, "global variable '%s' in the C preamble: "
			 "declare shared locations in the init block and pass "
			 "them to the processes", clang_getCString(nm));
		clang_disposeString(nm);
		return 0;
	}
	return 1;
}

int cparse_bodies(struct cparse *cp, struct fe *fe)
{
	struct strbuf b = {0};
	strbuf_put(&b, cp->prelude, cp->prelude_len);
	struct ctu t = { .fe = fe };
	t.scratch = arena_new();
	int nlines = 0;
	for (size_t i = fe->preamble_off; i < fe->preamble_end; i++)
		nlines += fe->text[i] == '\n';
	t.chunks = arena_alloc(t.scratch, (size_t)(2 * fe->nprocs + 2 +
						  2 * nlines) * sizeof *t.chunks);
	struct pnames pn = {0};
	char *dir = litmus_dir(fe);
	int ok = 1;
	if (fe->preamble_end > fe->preamble_off) {
		ok = emit_preamble(&t, &b, dir);
		preamble_names(fe, &pn);
	}
	for (int k = 0; ok && k < fe->nprocs; k++) {
		const struct fe_proc *p = &fe->procs[k];
		strbuf_str(&b, "void\n");
		vb_copy(&b, fe, p->name_off, p->rparen_off + 1,
			&t.chunks[t.nchunks++]);
		struct scan sc = {0};
		strbuf_str(&b, "{");
		ok = scan_body(fe, p, &pn, &sc);
		if (ok)
			declare_scan(fe, &sc, &b);
		strbuf_str(&b, "\n");
		vb_copy(&b, fe, p->body_off, p->body_end + 1,
			&t.chunks[t.nchunks++]);
		strbuf_str(&b, "}\n");
		free(sc.imp);
	}
	if (ok) {
		const char *args[] = {
			"-x", "c", "-std=gnu11", "-w", "-nostdinc",
			"-ferror-limit=5", "-Wno-int-conversion",
			"-Wno-implicit-function-declaration",
			"-Wno-incompatible-function-pointer-types",
			"-Xclang", "-frecovery-ast",
			"-Xclang", "-frecovery-ast-type",
			"-iquote", dir,
		};
		struct CXUnsavedFile uf = { VFILE, b.p, (unsigned long)b.len };
		t.buf = b.p;
		t.len = b.len;
		enum CXErrorCode ec = clang_parseTranslationUnit2(
			cp->index, VFILE, args,
			(int)(sizeof args / sizeof args[0]), &uf, 1,
			CXTranslationUnit_None, &t.tu);
		if (ec != CXError_Success || !t.tu) {
			ok = fe_error(fe, fe->procs[0].name_off,
				      "libclang could not parse the process "
				      "bodies (error %d)", (int)ec);
		} else {
			t.main_file = clang_getFile(t.tu, VFILE);
			ok = check_diags(&t) && check_preamble(&t) &&
			     layout_objects(&t) && lower_all(&t);
		}
	}
	if (t.tu)
		clang_disposeTranslationUnit(t.tu);
	arena_free(t.scratch);
	free(b.p);
	return ok;
}
