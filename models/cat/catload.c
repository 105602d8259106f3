/*
 * catload.c - load a cat model from disk: the .cfg, the .bell and .cat
 * with their includes (herd7's library files are not read: catlib.c
 * implements them), and the .def of the model's macros.  The loaded model
 * is checked by one eager compilation (cc_check_model); compiling it over
 * a test is catcomp.c's.
 */
#include "models/cat/catcomp_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "frontend/kapi.h"

/* herd7's library files, implemented in C below. */
static const char *const library_files[] = {"stdlib.cat", "cross.cat", "cos-opt.cat"};

static int is_library(const char *name)
{
	for (size_t i = 0; i < sizeof library_files / sizeof library_files[0]; i++)
		if (strcmp(name, library_files[i]) == 0)
			return 1;
	return 0;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t k;
	while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += k;
		if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

static int parse_file(struct cat_model *m, const char *path, struct cat_file *f,
		      struct diag *d);

/* Parse the includes of f (not the library's), depth-first. */
static int load_includes(struct cat_model *m, const struct cat_file *f, int depth,
			 struct diag *d)
{
	for (int i = 0; i < f->nstmts; i++) {
		const struct cat_stmt *s = &f->stmts[i];
		if (s->kind != CS_INCLUDE || is_library(s->name))
			continue;
		int seen = 0;
		for (int k = 0; k < m->nincs; k++)
			seen |= strcmp(m->incs[k].name, s->name) == 0;
		if (seen)
			continue;
		if (depth > 16)
			return diag_error(d, f->path, s->line, s->col, "includes nest too deep");
		const char *path = arena_printf(m->arena, "%s/%s", m->dir, s->name);
		struct cat_file inc;
		struct diag d2 = {0};
		if (!parse_file(m, path, &inc, &d2)) {
			if (d2.line == 0)
				return diag_error(d, f->path, s->line, s->col,
						  "cannot read the included file %s", path);
			*d = d2;
			return 0;
		}
		if (m->nincs == m->incs_cap) {
			m->incs = arena_grow(m->arena, m->incs, sizeof *m->incs,
					     (size_t)m->incs_cap, (size_t)(m->incs_cap * 2 + 4));
			m->incs_cap = m->incs_cap * 2 + 4;
		}
		m->incs[m->nincs].name = s->name;
		m->incs[m->nincs].file = inc;
		m->nincs++;
		if (!load_includes(m, &inc, depth + 1, d))
			return 0;
	}
	return 1;
}

static int parse_file(struct cat_model *m, const char *path, struct cat_file *f,
		      struct diag *d)
{
	char *text = read_text(path);
	if (!text)
		return diag_error(d, path, 0, 0, "cannot read the model file: %s",
				  strerror(errno));
	int ok = cat_parse(m->arena, arena_strdup(m->arena, path), text, f,
			   &m->nsites, d);
	free(text);
	return ok;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* The model's .def (path): its macros make the events (kdef_parse), as
 * herd7 reads them under the configuration's variants.  A folder without
 * one keeps the built-in primitives; a missing file a macros line names
 * is an error. */
static int load_def(struct cat_model *m, const char *path, int named, struct diag *d)
{
	char *text = read_text(path);
	if (!text) {
		if (!named && errno == ENOENT)
			return 1;
		return diag_error(d, path, 0, 0, "cannot read the macros file: %s",
				  strerror(errno));
	}
	int syntactic = 0;
	for (int i = 0; i < m->nvariants; i++)
		syntactic |= strcmp(m->variants[i], "lkmmv2") == 0;
	m->macros = kdef_parse(arena_strdup(m->arena, path), text, syntactic, d);
	free(text);
	return m->macros != NULL;
}

struct cat_model *cat_model_load(const char *dir, const char *cfg_path,
				 struct diag *d)
{
	struct cat_model *m = calloc(1, sizeof *m);
	if (!m)
		abort();
	m->arena = arena_new();
	const char *bell = "linux-kernel.bell", *cat = "linux-kernel.cat";
	const char *def = "linux-kernel.def";
	int def_named = 0; /* by a macros line: it must exist */
	char *cfg = NULL;
	if (dir) {
		m->dir = arena_strdup(m->arena, dir);
		cfg = arena_printf(m->arena, "%s/linux-kernel.cfg", dir);
		FILE *f = fopen(cfg, "r");
		if (f)
			fclose(f);
		else
			cfg = NULL;
	} else {
		cfg = arena_strdup(m->arena, cfg_path);
		char *slash = strrchr(cfg, '/');
		m->dir = slash ? arena_strndup(m->arena, cfg, (size_t)(slash - cfg)) : ".";
	}
	if (cfg) {
		FILE *f = fopen(cfg, "r");
		if (!f) {
			diag_error(d, cfg, 0, 0, "cannot read the configuration file: %s",
				   strerror(errno));
			cat_model_free(m);
			return NULL;
		}
		char line[1024];
		int ln = 0;
		m->variants = arena_alloc(m->arena, sizeof *m->variants * 16);
		while (fgets(line, sizeof line, f)) {
			ln++;
			char *s = trim(line);
			if (!*s || *s == '#')
				continue;
			char *sp = s + strcspn(s, " \t");
			char *val = trim(sp);
			if (*sp)
				*sp = 0, val = trim(sp + 1);
			if (strcmp(s, "bell") == 0)
				bell = arena_strdup(m->arena, val);
			else if (strcmp(s, "model") == 0)
				cat = arena_strdup(m->arena, val);
			else if (strcmp(s, "variant") == 0) {
				/* comma-separated names */
				for (char *t = strtok(val, ","); t && m->nvariants < 16;
				     t = strtok(NULL, ","))
					m->variants[m->nvariants++] = arena_strdup(m->arena, trim(t));
			}
			else if (strcmp(s, "macros") == 0) {
				def = arena_strdup(m->arena, val);
				def_named = 1;
			}
			/* the other lines shape drawings */
		}
		fclose(f);
	}
	const char *bell_path = arena_printf(m->arena, "%s/%s", m->dir, bell);
	const char *cat_path = arena_printf(m->arena, "%s/%s", m->dir, cat);
	if (!parse_file(m, bell_path, &m->bell, d) || !parse_file(m, cat_path, &m->cat, d) ||
	    !load_includes(m, &m->bell, 0, d) || !load_includes(m, &m->cat, 0, d) ||
	    !load_def(m, arena_printf(m->arena, "%s/%s", m->dir, def), def_named, d) ||
	    !cc_check_model(m, d)) {
		cat_model_free(m);
		return NULL;
	}
	return m;
}

void cat_model_free(struct cat_model *m)
{
	if (!m)
		return;
	kapi_table_free(m->macros);
	arena_free(m->arena);
	free(m);
}

const char *cat_model_name(const struct cat_model *m) { return m->dir; }

int cat_model_coherent(const struct cat_model *m) { return m->coherent; }

int cat_model_atomic(const struct cat_model *m) { return m->atomic; }

const struct kapi_table *cat_model_macros(const struct cat_model *m)
{
	return m->macros;
}
