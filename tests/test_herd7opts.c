/*
 * test_herd7opts.c - unit tests of herd7's options (cli/herd7opts.c): the
 * mapping to lkmmc's options, ignored drawing options, rejected options
 * with their reason, malformed values and configuration files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/herd7opts.h"

/* Run herd7_option over words[0..] (NULL-terminated) as a command line;
 * returns the first status that is not HERD7_DONE (or HERD7_DONE) and
 * leaves what was printed to err in msg. */
static enum herd7_status run(const char **words, struct check_options *opt,
			     char *msg, size_t n)
{
	char *argv[16];
	int argc = 1;
	argv[0] = "lkmmc";
	for (; words[argc - 1]; argc++)
		argv[argc] = (char *)words[argc - 1];
	char *buf = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&buf, &len);
	enum herd7_status st = HERD7_DONE;
	struct herd7_dirs dirs = {0};
	for (int i = 1; i < argc && st == HERD7_DONE; i++)
		st = herd7_option(argc, argv, &i, opt, &dirs, err);
	herd7_dirs_free(&dirs);
	fclose(err);
	snprintf(msg, n, "%s", buf ? buf : "");
	free(buf);
	return st;
}

static void test_mapped(void **state)
{
	(void)state;
	struct check_options opt = {.unroll = 2};
	char msg[512];
	const char *w[] = {"-unroll", "5", "-speedcheck", "fast", "-timeout", "1.5",
			   "-v", "-q", NULL};
	assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_DONE);
	assert_string_equal(msg, "");
	assert_int_equal(opt.unroll, 5);
	assert_int_equal(opt.exists_only, 1);
	assert_int_equal(opt.timeout_ms, 1500);
	assert_int_equal(opt.stats, 1);
	assert_int_equal(opt.herd7_only, 1); /* herd7's output only */
	const char *w2[] = {"-speedcheck", "false", "-through", "none", NULL};
	assert_int_equal(run(w2, &opt, msg, sizeof msg), HERD7_DONE);
	assert_int_equal(opt.exists_only, 0);
}

static void test_ignored_drawing(void **state)
{
	(void)state;
	struct check_options opt = {.unroll = 2}, before = opt;
	char msg[512];
	const char *w[] = {"-show", "prop", "-graph", "columns", "-showevents", "noregs",
			   "-squished", "true", "-nshow", "3", NULL};
	assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_DONE);
	/* Nothing changes but the note that herd7's options are in use. */
	assert_int_equal(opt.herd7_only, 1);
	before.herd7_only = 1;
	assert_memory_equal(&opt, &before, sizeof opt);
}

/* A command line herd7_option must refuse, and what the message says
 * (NULL: anything). */
struct refusal {
	const char *words[4]; /* the command line (NULL-terminated) */
	const char *says;     /* a part of the message, or NULL */
};

/* Each line of lines[0..n) is an error saying what it must; opt (shared
 * by them) keeps unroll 2. */
static void refused(const struct refusal *lines, int n)
{
	struct check_options opt = {.unroll = 2};
	char msg[512];
	for (int i = 0; i < n; i++) {
		const char **w = (const char **)lines[i].words;
		assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_ERROR);
		if (lines[i].says && !strstr(msg, lines[i].says))
			fail_msg("%s: '%s' not in '%s'", w[0], lines[i].says, msg);
	}
	assert_int_equal(opt.unroll, 2);
}

static void test_rejected(void **state)
{
	(void)state;
	static const struct refusal lines[] = {
		{{"-o", "dir"}, "'-o' is not supported: lkmmc writes no herd7 drawings"},
		{{"-through", "all"}, "-through all"},
		{{"-model", "x86tso.cat"}, "built in"},
		{{"-nosuch"}, "unknown option '-nosuch'"},
	};
	refused(lines, sizeof lines / sizeof *lines);
}

static void test_malformed(void **state)
{
	(void)state;
	static const struct refusal lines[] = {
		{{"-unroll", "x"}, "needs a number"},
		{{"-unroll"}, "needs a value"},
		{{"-speedcheck", "maybe"}, NULL},
		{{"-squished", "yes"}, "true or false"},
	};
	refused(lines, sizeof lines / sizeof *lines);
}

static void test_help_version(void **state)
{
	(void)state;
	struct check_options opt = {.unroll = 2};
	char msg[512];
	const char *w[] = {"-help", NULL};
	assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_HELP);
	const char *w2[] = {"-version", NULL};
	assert_int_equal(run(w2, &opt, msg, sizeof msg), HERD7_VERSION);
}

static void test_conf(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_herd7opts.XXXXXX", path[128], msg[512];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/my.cfg", dir);
	FILE *f = fopen(path, "w");
	fputs("# a comment\nmacros linux-kernel.def\nmodel linux-kernel.cat\n"
	      "graph columns\nedgeattr hb,color,indigo\nunroll 4\nspeedcheck true\n", f);
	fclose(f);
	struct check_options opt = {.unroll = 2};
	const char *w[] = {"-I", dir, "-conf", "my.cfg", NULL};
	assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_DONE);
	assert_string_equal(msg, "");
	assert_int_equal(opt.unroll, 4);
	assert_int_equal(opt.exists_only, 1);

	f = fopen(path, "w");
	fputs("model linux-kernel.cat\n\nvariant mixed\n", f);
	fclose(f);
	/* a variant: the configuration's model is read (models/cat/cat.h) */
	assert_null(opt.model_conf);
	assert_int_equal(run(w, &opt, msg, sizeof msg), HERD7_DONE);
	assert_non_null(opt.model_conf);
	assert_non_null(strstr(opt.model_conf, "my.cfg"));
	free((char *)opt.model_conf);
	opt.model_conf = NULL;
	const char *wv[] = {"-variant", "lkmmv2", NULL};
	assert_int_equal(run(wv, &opt, msg, sizeof msg), HERD7_ERROR);
	assert_non_null(strstr(msg, "not supported on the command line"));

	/* linux-kernel.cfg nowhere to be found: herd7's library copy, ours */
	const char *w2[] = {"-conf", "linux-kernel.cfg", NULL};
	assert_int_equal(run(w2, &opt, msg, sizeof msg), HERD7_DONE);
	const char *w3[] = {"-conf", "other.cfg", NULL};
	assert_int_equal(run(w3, &opt, msg, sizeof msg), HERD7_ERROR);
	assert_non_null(strstr(msg, "cannot find 'other.cfg'"));

	/* a model file that is not Linux 6.1's: checked, with a warning */
	snprintf(path, sizeof path, "%s/linux-kernel.cat", dir);
	f = fopen(path, "w");
	fputs("(* not the LKMM *)\n", f);
	fclose(f);
	const char *w4[] = {"-model", path, NULL};
	assert_int_equal(run(w4, &opt, msg, sizeof msg), HERD7_DONE);
	assert_non_null(strstr(msg, "warning: "));
	assert_non_null(strstr(msg, "differs from Linux 6.1's"));
	unlink(path);
	snprintf(path, sizeof path, "%s/my.cfg", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapped),
		cmocka_unit_test(test_ignored_drawing),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_conf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
