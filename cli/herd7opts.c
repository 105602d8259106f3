/*
 * herd7opts.c - herd7's one-dash options, as one table (see herd7opts.h).
 *
 * A configuration file (-conf linux-kernel.cfg) holds one "name value"
 * line per option, the same options as on the command line without the
 * dash; it is read when -conf is met, like herd7 does, from the current
 * directory or an -I directory.  When it cannot be found and it is
 * linux-kernel.cfg, lkmmc goes on with its built-in model, as herd7 would
 * with the copy in its library.  The model files such a file names
 * (model linux-kernel.cat, bell linux-kernel.bell, macros linux-kernel.def)
 * must be the LKMM's.  When a configuration file names a .cat, .bell or
 * .def (or a lock.cat beside the .cat) that differs from Linux 6.1's, or
 * sets a variant, lkmmc reads that model, its .def too (models/cat/cat.h:
 * check_options.model_conf), instead of using its built-in 6.1 one; such a
 * file named on the command line (-model, -cat, -bell, -macros) only gets
 * a warning.
 */
#include "cli/herd7opts.h"
#include "common/xalloc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What follows an option. */
enum arg {
	ARG_NONE,  /* nothing (in a configuration file: "false" turns it off) */
	ARG_WORD,  /* a word */
	ARG_COUNT, /* a whole number from 0 to 100000 */
	ARG_SECS,  /* a positive number of seconds */
	ARG_BOOL,  /* true or false */
};

/* What an option does. */
enum act {
	ACT_IGNORE,     /* shapes herd7's drawings only: accepted, no effect */
	ACT_REJECT,     /* not supported: an error saying why */
	ACT_UNROLL,     /* --unroll N */
	ACT_SPEEDCHECK, /* true|fast: --exists-only; false: the full state list */
	ACT_TIMEOUT,    /* --timeout */
	ACT_VERBOSE,    /* --stats */
	ACT_CONF,       /* read a configuration file */
	ACT_VARIANT,    /* in a configuration file: read its model */
	ACT_INCLUDE,    /* -I: where to look for configuration and model files */
	ACT_MODEL,      /* must name the LKMM file given as note */
	ACT_THROUGH,    /* only "none", herd7's default: the model filters */
	ACT_HELP,       /* print lkmmc's usage */
	ACT_VERSION,    /* print lkmmc's version */
};

/* One of herd7's options. */
struct herd7_opt {
	const char *name;   /* "-unroll" */
	enum arg arg;       /* what follows it */
	enum act act;       /* what it does */
	const char *note;   /* ACT_REJECT: why; ACT_MODEL: the LKMM file expected */
};

#define NO_DOT "lkmmc writes no herd7 drawings (it draws one execution with --dot FILE or --svg FILE)"
#define ONE_MODEL "lkmmc has the LKMM of Linux 6.1 built in and nothing else"
#define ALL_AXIOMS "lkmmc always checks every axiom of the model"
#define NAME_FILES "name the litmus files to check instead"
#define TEST_COND "lkmmc reads the condition from the test only"

static const struct herd7_opt table[] = {
	/* mapped to lkmmc's own options */
	{"-unroll", ARG_COUNT, ACT_UNROLL, NULL},
	{"-speedcheck", ARG_WORD, ACT_SPEEDCHECK, NULL},
	{"-timeout", ARG_SECS, ACT_TIMEOUT, NULL},
	{"-v", ARG_NONE, ACT_VERBOSE, NULL},
	{"-q", ARG_NONE, ACT_IGNORE, NULL},
	{"-help", ARG_NONE, ACT_HELP, NULL},
	{"-h", ARG_NONE, ACT_HELP, NULL},
	{"-version", ARG_NONE, ACT_VERSION, NULL},
	/* configuration and model */
	{"-conf", ARG_WORD, ACT_CONF, NULL},
	{"-I", ARG_WORD, ACT_INCLUDE, NULL},
	{"-model", ARG_WORD, ACT_MODEL, "linux-kernel.cat"},
	{"-cat", ARG_WORD, ACT_MODEL, "linux-kernel.cat"},
	{"-bell", ARG_WORD, ACT_MODEL, "linux-kernel.bell"},
	{"-macros", ARG_WORD, ACT_MODEL, "linux-kernel.def"},
	{"-through", ARG_WORD, ACT_THROUGH, NULL},
	/* how herd7 draws executions (with -o, -gv, -evince): no effect */
	{"-show", ARG_WORD, ACT_IGNORE, NULL},
	{"-nshow", ARG_COUNT, ACT_IGNORE, NULL},
	{"-graph", ARG_WORD, ACT_IGNORE, NULL},
	{"-showevents", ARG_WORD, ACT_IGNORE, NULL},
	{"-squished", ARG_BOOL, ACT_IGNORE, NULL},
	{"-movelabel", ARG_BOOL, ACT_IGNORE, NULL},
	{"-fontsize", ARG_COUNT, ACT_IGNORE, NULL},
	{"-xscale", ARG_WORD, ACT_IGNORE, NULL},
	{"-yscale", ARG_WORD, ACT_IGNORE, NULL},
	{"-arrowsize", ARG_WORD, ACT_IGNORE, NULL},
	{"-penwidth", ARG_WORD, ACT_IGNORE, NULL},
	{"-scale", ARG_WORD, ACT_IGNORE, NULL},
	{"-splines", ARG_WORD, ACT_IGNORE, NULL},
	{"-pad", ARG_WORD, ACT_IGNORE, NULL},
	{"-edgeattr", ARG_WORD, ACT_IGNORE, NULL},
	{"-dotmode", ARG_WORD, ACT_IGNORE, NULL},
	{"-dotcom", ARG_WORD, ACT_IGNORE, NULL},
	{"-doshow", ARG_WORD, ACT_IGNORE, NULL},
	{"-unshow", ARG_WORD, ACT_IGNORE, NULL},
	{"-showraw", ARG_WORD, ACT_IGNORE, NULL},
	{"-symetric", ARG_WORD, ACT_IGNORE, NULL},
	{"-showinitrf", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showfinalrf", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showinitwrites", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showthread", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showlegend", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showpo", ARG_BOOL, ACT_IGNORE, NULL},
	{"-showkind", ARG_BOOL, ACT_IGNORE, NULL},
	{"-oneinit", ARG_BOOL, ACT_IGNORE, NULL},
	{"-suffix", ARG_WORD, ACT_IGNORE, NULL},
	/* not supported */
	{"-o", ARG_WORD, ACT_REJECT, NO_DOT},
	{"-gv", ARG_NONE, ACT_REJECT, NO_DOT},
	{"-evince", ARG_NONE, ACT_REJECT, NO_DOT},
	{"-dumpes", ARG_BOOL, ACT_REJECT, "lkmmc has no event-structure dump (see --dump-ir)"},
	{"-variant", ARG_WORD, ACT_VARIANT, ONE_MODEL},
	{"-mode", ARG_WORD, ACT_REJECT, ONE_MODEL},
	{"-machine", ARG_WORD, ACT_REJECT, ONE_MODEL},
	{"-libdir", ARG_NONE, ACT_REJECT, ONE_MODEL},
	{"-skipchecks", ARG_WORD, ACT_REJECT, ALL_AXIOMS},
	{"-strictskip", ARG_BOOL, ACT_REJECT, ALL_AXIOMS},
	{"-badexecs", ARG_BOOL, ACT_REJECT, ALL_AXIOMS},
	{"-badflag", ARG_WORD, ACT_REJECT, ALL_AXIOMS},
	{"-optace", ARG_BOOL, ACT_REJECT, ALL_AXIOMS},
	{"-initwrites", ARG_BOOL, ACT_REJECT, "lkmmc always has initial writes, as the LKMM"},
	{"-hexa", ARG_NONE, ACT_REJECT, "lkmmc prints values in decimal"},
	{"-names", ARG_WORD, ACT_REJECT, NAME_FILES},
	{"-excl", ARG_WORD, ACT_REJECT, NAME_FILES},
	{"-rename", ARG_WORD, ACT_REJECT, NAME_FILES},
	{"-kinds", ARG_WORD, ACT_REJECT, TEST_COND},
	{"-conds", ARG_WORD, ACT_REJECT, TEST_COND},
	{"-debug", ARG_WORD, ACT_REJECT, "see --stats and --dump-ir"},
};

/* FNV-1a 64 of the LKMM files of Linux 6.1 (tools/memory-model). */
static const struct {
	const char *name; /* the file's base name */
	uint64_t fnv;     /* the hash of Linux 6.1's copy */
} lkmm61[] = {
	{"linux-kernel.cat", 0xb97b4283cdc628d1ull},
	{"linux-kernel.bell", 0x675e6c96841b272aull},
	{"linux-kernel.def", 0x09649ab865a712f9ull},
	{"lock.cat", 0xc95618d739dc5ac4ull},
};


static const struct herd7_opt *lookup(const char *name)
{
	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
		if (strcmp(table[k].name, name) == 0)
			return &table[k];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Find name as given, in an -I directory, or in dir (may be NULL). */
static int find_file(const char *name, const struct herd7_dirs *dirs,
		     const char *dir, char *buf, size_t n)
{
	FILE *f;
	snprintf(buf, n, "%s", name);
	if ((f = fopen(buf, "r")) || name[0] == '/')
		goto out;
	for (int k = 0; k <= dirs->n; k++) {
		const char *d = k < dirs->n ? dirs->dir[k] : dir;
		if (!d)
			continue;
		snprintf(buf, n, "%s/%s", d, name);
		if ((f = fopen(buf, "r")))
			goto out;
	}
out:
	if (f)
		fclose(f);
	return f != NULL;
}

static uint64_t fnv_file(const char *path)
{
	uint64_t h = 14695981039346656037ull;
	FILE *f = fopen(path, "rb");
	int c;
	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		h = (h ^ (unsigned char)c) * 1099511628211ull;
	fclose(f);
	return h;
}

/* When path exists and is not Linux 6.1's copy of its LKMM file: in a
 * configuration file (in_conf), a .cat, .bell or .def makes the
 * configuration's model be read (opt->model_conf set to "" until read_conf knows its
 * path); otherwise a warning. */
static void check_lkmm_file(const char *path, int in_conf,
			    struct check_options *opt, FILE *err)
{
	const char *b = base_name(path);
	for (size_t k = 0; k < sizeof lkmm61 / sizeof lkmm61[0]; k++) {
		if (strcmp(b, lkmm61[k].name) != 0)
			continue;
		uint64_t h = fnv_file(path);
		if (!h || h == lkmm61[k].fnv)
			continue;
		if (in_conf) {
			/* the model is read, its .def too (models/cat/cat.h) */
			if (!opt->model_conf)
				opt->model_conf = "";
		} else if (strcmp(b, "linux-kernel.def") == 0) {
			fprintf(err, "lkmmc: warning: %s differs from Linux 6.1's; "
				"lkmmc makes events as Linux 6.1's does, "
				"not as this file\n", path);
		} else {
			fprintf(err, "lkmmc: warning: %s differs from Linux 6.1's; "
				"lkmmc checks its built-in LKMM of Linux 6.1, "
				"not this file (see --model)\n", path);
		}
	}
}

/* How an option is being applied. */
struct ctx {
	struct check_options *opt; /* the options it sets */
	struct herd7_dirs *dirs;   /* the -I directories so far */
	FILE *err;                 /* where messages go */
};

static enum herd7_status apply(const struct herd7_opt *o, const char *val,
			       const struct ctx *c, const char *where,
			       const char *dir, int depth);

/* Read a configuration file: "name value" lines, '#' comments. */
static enum herd7_status read_conf(const char *name, const struct ctx *c,
				   const char *where, int depth)
{
	struct check_options *opt = c->opt;
	FILE *err = c->err;
	char path[4096], line[1024], at[4200], dir[4096];
	if (depth > 4) {
		fprintf(err, "lkmmc: %s-conf %s: configuration files nest too deep\n",
			where, name);
		return HERD7_ERROR;
	}
	if (!find_file(name, c->dirs, NULL, path, sizeof path)) {
		if (strcmp(base_name(name), "linux-kernel.cfg") == 0)
			return HERD7_DONE; /* herd7's library copy: our model */
		fprintf(err, "lkmmc: %s-conf: cannot find '%s' (looked in the "
			"current directory and the -I directories)\n", where, name);
		return HERD7_ERROR;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(err, "lkmmc: %s-conf: cannot read '%s'\n", where, path);
		return HERD7_ERROR;
	}
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	enum herd7_status st = HERD7_DONE;
	for (int lineno = 1; st == HERD7_DONE && fgets(line, sizeof line, f); lineno++) {
		char *s = line, *hash = strchr(line, '#'), key[64];
		if (hash)
			*hash = '\0';
		s += strspn(s, " \t\r\n");
		size_t klen = strcspn(s, " \t\r\n");
		if (klen == 0)
			continue;
		char *val = s + klen + strspn(s + klen, " \t");
		for (char *e = val + strlen(val); e > val && strchr(" \t\r\n", e[-1]); )
			*--e = '\0';
		snprintf(key, sizeof key, "-%.*s", (int)klen, s);
		snprintf(at, sizeof at, "%s:%d: ", path, lineno);
		const struct herd7_opt *o = lookup(key);
		if (!o) {
			fprintf(err, "lkmmc: %sunknown herd7 option '%s'\n", at, key + 1);
			st = HERD7_ERROR;
		} else if (o->arg == ARG_NONE && strcmp(val, "false") == 0) {
			continue;
		} else {
			st = apply(o, o->arg == ARG_NONE ? NULL : val, c, at, dir,
				   depth + 1);
			if (st == HERD7_HELP || st == HERD7_VERSION) {
				fprintf(err, "lkmmc: %s'%s' has no place in a "
					"configuration file\n", at, key + 1);
				st = HERD7_ERROR;
			}
		}
	}
	fclose(f);
	if (st == HERD7_DONE && opt->model_conf && !*opt->model_conf)
		opt->model_conf = xstrdup(path); /* lives as long as the run */
	return st;
}

/* Check val against o's argument kind; val is NULL for ARG_NONE. */
static int valid_value(const struct herd7_opt *o, const char *val, FILE *err,
		       const char *where)
{
	const char *want = NULL;
	char *end;
	switch (o->arg) {
	case ARG_NONE:
		return 1;
	case ARG_WORD:
		if (val && *val)
			return 1;
		want = "a value";
		break;
	case ARG_COUNT:
		if (val && *val && strtol(val, &end, 10) >= 0 && !*end &&
		    strtol(val, NULL, 10) <= 100000)
			return 1;
		want = "a number from 0 to 100000";
		break;
	case ARG_SECS:
		if (val && *val && strtod(val, &end) > 0 && !*end &&
		    strtod(val, NULL) <= 1e6)
			return 1;
		want = "a number of seconds";
		break;
	case ARG_BOOL:
		if (val && (strcmp(val, "true") == 0 || strcmp(val, "false") == 0))
			return 1;
		want = "true or false";
		break;
	}
	fprintf(err, "lkmmc: %sherd7 option '%s' needs %s\n", where, o->name, want);
	return 0;
}

static enum herd7_status apply(const struct herd7_opt *o, const char *val,
			       const struct ctx *c, const char *where,
			       const char *dir, int depth)
{
	struct check_options *opt = c->opt;
	FILE *err = c->err;
	char path[4096];
	if (!valid_value(o, val, err, where))
		return HERD7_ERROR;
	switch (o->act) {
	case ACT_IGNORE:
		return HERD7_DONE;
	case ACT_REJECT:
		fprintf(err, "lkmmc: %sherd7 option '%s' is not supported: %s\n",
			where, o->name, o->note);
		return HERD7_ERROR;
	case ACT_UNROLL:
		opt->unroll = (int)strtol(val, NULL, 10);
		return HERD7_DONE;
	case ACT_SPEEDCHECK:
		if (strcmp(val, "true") == 0 || strcmp(val, "fast") == 0) {
			opt->exists_only = 1;
			return HERD7_DONE;
		}
		if (strcmp(val, "false") == 0) {
			opt->exists_only = 0;
			return HERD7_DONE;
		}
		fprintf(err, "lkmmc: %s-speedcheck needs true, fast or false, "
			"not '%s'\n", where, val);
		return HERD7_ERROR;
	case ACT_TIMEOUT:
		opt->timeout_ms = (unsigned)ceil(strtod(val, NULL) * 1000.0);
		return HERD7_DONE;
	case ACT_VERBOSE:
		opt->stats = 1;
		return HERD7_DONE;
	case ACT_CONF:
		return read_conf(val, c, where, depth);
	case ACT_INCLUDE:
		if (c->dirs->n == HERD7_MAX_DIRS) {
			fprintf(err, "lkmmc: %stoo many -I directories\n", where);
			return HERD7_ERROR;
		}
		c->dirs->dir[c->dirs->n++] = xstrdup(val);
		return HERD7_DONE;
	case ACT_MODEL:
		if (strcmp(base_name(val), o->note) != 0) {
			fprintf(err, "lkmmc: %sherd7 option '%s %s' is not supported: "
				"%s (%s)\n", where, o->name, val, ONE_MODEL, o->note);
			return HERD7_ERROR;
		}
		if (find_file(val, c->dirs, dir, path, sizeof path)) {
			check_lkmm_file(path, depth > 0, opt, err);
			if (strcmp(o->note, "linux-kernel.cat") == 0) {
				char lock[4200];
				char *slash = strrchr(path, '/');
				snprintf(lock, sizeof lock, "%.*slock.cat",
					 slash ? (int)(slash - path + 1) : 0, path);
				check_lkmm_file(lock, depth > 0, opt, err);
			}
		}
		return HERD7_DONE;
	case ACT_VARIANT:
		if (depth == 0) {
			fprintf(err, "lkmmc: %sherd7 option '%s' is not supported on "
				"the command line: %s (a variant line in a "
				"configuration file is)\n", where, o->name, o->note);
			return HERD7_ERROR;
		}
		if (!opt->model_conf)
			opt->model_conf = "";
		return HERD7_DONE;
	case ACT_THROUGH:
		if (strcmp(val, "none") == 0)
			return HERD7_DONE;
		fprintf(err, "lkmmc: %sherd7 option '-through %s' is not supported: "
			"lkmmc only reports executions the model allows "
			"(-through none)\n", where, val);
		return HERD7_ERROR;
	case ACT_HELP:
		return HERD7_HELP;
	case ACT_VERSION:
		return HERD7_VERSION;
	}
	return HERD7_ERROR;
}

enum herd7_status herd7_option(int argc, char **argv, int *i,
			       struct check_options *opt,
			       struct herd7_dirs *dirs, FILE *err)
{
	const struct ctx c = {opt, dirs, err};
	const struct herd7_opt *o = lookup(argv[*i]);
	const char *val = NULL;
	if (!o) {
		fprintf(err, "lkmmc: unknown option '%s' (try --help)\n", argv[*i]);
		return HERD7_ERROR;
	}
	if (o->arg != ARG_NONE) {
		if (*i + 1 >= argc) {
			fprintf(err, "lkmmc: herd7 option '%s' needs a value\n", o->name);
			return HERD7_ERROR;
		}
		val = argv[++*i];
	}
	opt->herd7_only = 1;
	return apply(o, val, &c, "", NULL, 0);
}

void herd7_dirs_free(struct herd7_dirs *dirs)
{
	for (int k = 0; k < dirs->n; k++)
		free(dirs->dir[k]);
	dirs->n = 0;
}
