/*
 * frontend.c - the front end's entry points (see frontend.h): reads the
 * file, sets up one parse (program arena, line table) and runs the passes
 * of litmus.c, or cprog.c's for a whole C program.  The libclang state is kept across tests in struct frontend.
 *
 * It does not parse anything itself.
 */
#include "frontend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/check.h"
#include "cparse.h"
#include "kapi.h"
#include "fe.h"
#include "common/xalloc.h"

struct frontend {
	struct cparse *cp; /* libclang index and prelude, reused */
	int unroll;        /* how deep helpers may recurse (--unroll) */
	const char *const *cargs; /* -I/-D for C programs (not owned) */
	int ncargs;        /* how many */
	const struct kapi_table *macros; /* the primitives, NULL: built-in */
	int choices;       /* __lkmmc_choice(K) is read (frontend_set_choices) */
};

struct frontend *frontend_new(void)
{
	struct frontend *f = xcalloc(1, sizeof *f);
	f->cp = cparse_new(NULL);
	f->unroll = 2;
	return f;
}

void frontend_set_macros(struct frontend *f, const struct kapi_table *t)
{
	cparse_free(f->cp);
	f->cp = cparse_new(t);
	f->macros = t;
}

void frontend_set_unroll(struct frontend *f, int n)
{
	f->unroll = n;
}

void frontend_set_choices(struct frontend *f, int on)
{
	f->choices = on;
}

void frontend_set_cargs(struct frontend *f, const char *const *args, int n)
{
	f->cargs = args;
	f->ncargs = n;
}

/* A whole C program: a ".c" file, or one whose first line that is not
 * blank is a preprocessor directive (no litmus test starts so). */
static int is_program(const char *path, const char *text)
{
	size_t n = strlen(path);
	if (n > 2 && strcmp(path + n - 2, ".c") == 0)
		return 1;
	while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
		text++;
	return *text == '#';
}

void frontend_free(struct frontend *f)
{
	if (!f)
		return;
	cparse_free(f->cp);
	free(f);
}

struct ir_program *frontend_parse_text(struct frontend *f, const char *path,
				       const char *text, struct diag *d)
{
	if (!path)
		path = "<input>";
	struct arena *arena = arena_new();
	struct ir_program *prog = arena_alloc(arena, sizeof *prog);
	prog->arena = arena;
	prog->file = arena_strdup(arena, path);
	struct fe fe = {
		.prog = prog, .arena = arena, .d = d, .file = prog->file,
		.text = text, .len = strlen(text), .unroll = f->unroll,
		.macros = f->macros, .choices = f->choices,
	};
	if (f->macros) {
		prog->tag_names = f->macros->tags;
		prog->ntags = f->macros->ntags;
	}
	int nl = 1;
	for (size_t i = 0; i < fe.len; i++)
		nl += text[i] == '\n';
	fe.lines = arena_alloc(arena, (size_t)nl * sizeof *fe.lines);
	fe.lines[fe.nlines++] = 0;
	for (size_t i = 0; i < fe.len; i++)
		if (text[i] == '\n')
			fe.lines[fe.nlines++] = i + 1;
	int ok = is_program(path, text)
		? cparse_program(f->cp, &fe, f->cargs, f->ncargs)
		: litmus_parse(&fe, f->cp);
	if (!ok) {
		if (!d->set)
			diag_error_kind(d, DIAG_INTERNAL, path, 0, 0, "internal error: "
					"parse failed without a message");
		arena_free(arena);
		return NULL;
	}
	if (check_deep) /* the IR's boundary: what the encoder relies on */
		ir_program_check(prog);
	return prog;
}

/* A NUL byte ends the text early: report where it is. */
static void nul_error(struct diag *d, const char *path, const char *buf)
{
	int line = 1, col = 1;
	for (const char *p = buf; *p; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	diag_error(d, path, line, col, "NUL byte in the file; a litmus test is "
		   "text");
}

struct ir_program *frontend_parse_file(struct frontend *f, const char *path,
				       struct diag *d)
{
	FILE *in = fopen(path, "rb");
	if (!in) {
		diag_error(d, path, 0, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	size_t cap = 8192, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		size_t n = fread(buf + len, 1, cap - len - 1, in);
		len += n;
		if (len + 1 < cap)
			break;
		cap *= 2;
		buf = xrealloc(buf, cap);
	}
	int err = ferror(in);
	fclose(in);
	buf[len] = '\0';
	struct ir_program *prog = NULL;
	if (err)
		diag_error(d, path, 0, 0, "cannot read the file");
	else if (strlen(buf) != len)
		nul_error(d, path, buf);
	else
		prog = frontend_parse_text(f, path, buf, d);
	free(buf);
	return prog;
}
