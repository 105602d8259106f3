/*
 * lkmmc.c - the command line: parse options, then for each litmus file run
 * the front end and either dump the IR or check the test.  --shard keeps
 * one share of the files (cli/shard.h); --json turns each test's answer
 * into one JSON object (report/json.h); -j, --times and --timeout run the
 * files in worker processes (cli/batch.h); --repair, --prune and --strip
 * hand each file to repair/repair.h instead of checking it.
 *
 * Exit codes: 0 every test was parsed and checked; 1 some test failed to
 * parse or check (its error is on stderr); 2 usage error; 3 the code of
 * some test can fail: an assertion (BUG_ON, WARN_ON, assert) can fail or a
 * thread can spin forever, or --repair found no repair (repair/repair.h);
 * 4 --unroll auto hit its limit on some test.  When several apply, the lowest non-zero one wins.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/batch.h"
#include "cli/herd7opts.h"
#include "report/json.h"
#include "cli/modeldiff.h"
#include "cli/shard.h"
#include "frontend/frontend.h"
#include "kernel/kmod.h"
#include "models/cat/cat.h"
#include "solver/check.h"
#include "common/exitcode.h"
#include "common/memlimit.h"
#include "repair/repair.h"
#include "common/xalloc.h"

#define LKMMC_VERSION "0.1.0"

/* What an option does. */
enum opt_act {
	OPT_DUMP_IR, OPT_TO_C, OPT_EXISTS_ONLY, OPT_FIRST_ERROR, OPT_MODEL, OPT_MODEL_DIFF, OPT_NO_CUBES, OPT_LAZY,
	OPT_UNROLL,
	OPT_TIMEOUT, OPT_MAX_MEMORY, OPT_WITNESS, OPT_EXPLAIN, OPT_DOT, OPT_SVG, OPT_STATS,
	OPT_KMOD, OPT_KMOD_ITERS, OPT_JOBS, OPT_FILES_FROM, OPT_PROGRESS,
	OPT_TIMES, OPT_JSON, OPT_SHARD, OPT_HELP, OPT_VERSION,
	OPT_REPAIR, OPT_PRUNE, OPT_STRIP, OPT_REPAIR_MAX, OPT_REPAIR_COST, OPT_REPAIR_PLAIN,
	OPT_REPAIR_SCRATCH,
};

/* What follows an option on the command line. */
enum opt_arg {
	OPT_ARG_NONE,   /* nothing */
	OPT_ARG_WORD,   /* a word (a file or folder name) */
	OPT_ARG_NUMBER, /* a whole number from min to max */
};

/* One of lkmmc's own options. */
struct lkmmc_opt {
	const char *name;  /* "--unroll" */
	const char *alias; /* "-j" for --jobs, else NULL */
	enum opt_act act;  /* what it does */
	enum opt_arg arg;  /* what follows it */
	long min, max;     /* OPT_ARG_NUMBER: the range */
	const char *what;  /* what follows, for "--x needs WHAT" */
	const char *help;  /* its lines of --help, NULL: none of its own */
};

static const struct lkmmc_opt options[] = {
	{"--dump-ir", NULL, OPT_DUMP_IR, OPT_ARG_NONE, 0, 0, NULL,
	 "  --dump-ir         print the parsed program instead of checking it\n"},
	{"--to-c", NULL, OPT_TO_C, OPT_ARG_NONE, 0, 0, NULL,
	 "  --to-c            print each litmus test as a whole C program (pthreads,\n"
	 "                    <lkmm.h>, the condition as an assert) instead of checking it\n"},
	{"--exists-only", NULL, OPT_EXISTS_ONLY, OPT_ARG_NONE, 0, 0, NULL,
	 "  --exists-only     only decide whether the condition is reachable\n"
	 "                    (no list of final states; fast on big tests)\n"},
	{"--first-error", NULL, OPT_FIRST_ERROR, OPT_ARG_NONE, 0, 0, NULL,
	 "  --first-error     a C program: stop at the first error found (failed\n"
	 "                    assertion, data race, hang) and show it, as GenMC\n"
	 "                    does; a program without errors gets its usual answer\n"},
	{"--model", NULL, OPT_MODEL, OPT_ARG_WORD, 0, 0, "a tools/memory-model folder",
	 "  --model DIR       check with the model read from DIR (a\n"
	 "                    tools/memory-model folder: linux-kernel.cfg, .bell,\n"
	 "                    .cat, lock.cat) instead of the built-in Linux 6.1 one\n"},
	{"--model-diff", NULL, OPT_MODEL_DIFF, OPT_ARG_WORD, 0, 0,
	 "two tools/memory-model folders",
	 "  --model-diff A B  check each test under the models read from folders\n"
	 "                    A and B; print only the tests whose answers differ\n"
	 "                    (with a witness and the forbidding axioms)\n"},
	{"--lazy", NULL, OPT_LAZY, OPT_ARG_NONE, 0, 0, NULL,
	 "  --lazy            check the memory model outside Z3: Z3 searches the\n"
	 "                    program's executions, each one found is checked\n"
	 "                    against the axioms and a broken one ruled out by\n"
	 "                    a clause (experimental; the default encoding is\n"
	 "                    its cross-check)\n"},
	{"--no-cubes", NULL, OPT_NO_CUBES, OPT_ARG_NONE, 0, 0, NULL,
	 "  --no-cubes        list final states one solver query at a time\n"
	 "                    instead of by whole cubes (slower; for\n"
	 "                    cross-checking the cube enumeration)\n"},
	{"--unroll", NULL, OPT_UNROLL, OPT_ARG_NUMBER, 0, 100000, "a number",
	 "  --unroll N        run loops at most N times (default 2, as herd7);\n"
	 "                    warns when a consistent execution needs more\n"
	 "  --unroll auto[:L] raise the bound from 2 until no execution needs\n"
	 "                    more iterations, up to L (default 16)\n"},
	{"--timeout", NULL, OPT_TIMEOUT, OPT_ARG_NUMBER, 0, 100000, "a number",
	 "  --timeout SECS    give up on a test after about SECS seconds\n"},
	{"--max-memory", NULL, OPT_MAX_MEMORY, OPT_ARG_NUMBER, 0, 1L << 30, "a number of MB",
	 "  --max-memory MB   give up on a test whose check needs more than MB\n"
	 "                    megabytes (default: half the machine's memory,\n"
	 "                    shared among the -j workers; 0: no limit)\n"},
	{"--witness", NULL, OPT_WITNESS, OPT_ARG_NONE, 0, 0, NULL,
	 "  --witness         print an execution that reaches the condition\n"},
	{"--explain", NULL, OPT_EXPLAIN, OPT_ARG_NONE, 0, 0, NULL,
	 "  --explain         when the condition is never reached, say which\n"
	 "                    axioms forbid it and show the cycle\n"},
	{"--dot", NULL, OPT_DOT, OPT_ARG_WORD, 0, 0, "a file name",
	 "  --dot FILE        draw the witness (or explained) execution for Graphviz\n"},
	{"--svg", NULL, OPT_SVG, OPT_ARG_WORD, 0, 0, "a file name",
	 "  --svg FILE        the same, rendered to SVG by graphviz's dot\n"},
	{"--stats", NULL, OPT_STATS, OPT_ARG_NONE, 0, 0, NULL,
	 "  --stats           print encoding sizes and times to stderr\n"},
	{"--kmod", NULL, OPT_KMOD, OPT_ARG_WORD, 0, 0, "a folder",
	 "  --kmod OUTDIR     write each test as a Linux kernel module under\n"
	 "                    OUTDIR (run it in QEMU with kernel/run-qemu.sh)\n"},
	{"--kmod-iters", NULL, OPT_KMOD_ITERS, OPT_ARG_NUMBER, 1, LONG_MAX,
	 "a positive number",
	 "  --kmod-iters N    the modules' default iteration count (1000000)\n"},
	{"--jobs", "-j", OPT_JOBS, OPT_ARG_NUMBER, 1, 256,
	 "a number of processes, 1 to 256",
	 "  -j N, --jobs N    check N tests at a time, each in its own process;\n"
	 "                    outputs still come in the order of the files\n"},
	{"--files-from", NULL, OPT_FILES_FROM, OPT_ARG_WORD, 0, 0, "a file name",
	 "  --files-from FILE check the files listed in FILE too, one path a line\n"
	 "                    (- for stdin); for batches too long for a\n"
	 "                    command line\n"},
	{"--progress", NULL, OPT_PROGRESS, OPT_ARG_NONE, 0, 0, NULL,
	 "  --progress        a progress line on stderr (default on a terminal\n"
	 "                    for batches of 20 tests or more)\n"},
	{"--times", NULL, OPT_TIMES, OPT_ARG_WORD, 0, 0, "a file name",
	 "  --times FILE      write one TSV row per test: path, status, wall\n"
	 "                    seconds, peak RSS in kB, verdict, number of states\n"},
	{"--json", NULL, OPT_JSON, OPT_ARG_NONE, 0, 0, NULL,
	 "  --json            print one JSON object per test, one a line (JSON\n"
	 "                    Lines; docs/json.md), errors and time-outs too\n"},
	{"--shard", NULL, OPT_SHARD, OPT_ARG_WORD, 0, 0, "K/N, shard K of N (1 <= K <= N)",
	 "  --shard K/N       check only shard K of N of the files (by a hash of\n"
	 "                    each file's name: the N shards of N machines\n"
	 "                    cover the list once, whatever its order)\n"},
	{"--repair", NULL, OPT_REPAIR, OPT_ARG_NONE, 0, 0, NULL,
	 "  --repair          for a test whose outcome is reached (or whose assertion\n"
	 "                    can fail), print the cheapest fences and annotations\n"
	 "                    that forbid it, as diffs, each re-checked\n"},
	{"--prune", NULL, OPT_PRUNE, OPT_ARG_NONE, 0, 0, NULL,
	 "  --prune           for a test whose outcome is never reached, the fences\n"
	 "                    and annotations that can go, each re-checked\n"},
	{"--repair-max", NULL, OPT_REPAIR_MAX, OPT_ARG_NUMBER, 1, 1000, "a number from 1 to 1000",
	 "  --repair-max K    print at most K repairs of least cost (default 3)\n"},
	{"--repair-cost", NULL, OPT_REPAIR_COST, OPT_ARG_WORD, 0, 0, "a file name",
	 "  --repair-cost FILE  the cost of each change, lines \"NAME COST\"\n"
	 "                    (docs/repair.md, \"Costs\")\n"},
	{"--repair-plain", NULL, OPT_REPAIR_PLAIN, OPT_ARG_NONE, 0, 0, NULL,
	 "  --repair-plain    search repairs by plain enumeration of change sets\n"
	 "                    (no cut from failed sets; slower, for measuring)\n"},
	{"--repair-scratch", NULL, OPT_REPAIR_SCRATCH, OPT_ARG_NONE, 0, 0, NULL,
	 "  --repair-scratch  check every candidate from its patched text, not as a\n"
	 "                    query of one encoding (slower; for measuring and\n"
	 "                    cross-checking)\n"},
	{"--strip", NULL, OPT_STRIP, OPT_ARG_NONE, 0, 0, NULL,
	 "  --strip           print the test without its fences and acquire/release\n"
	 "                    annotations (what --repair should find again)\n"},
	{"--help", NULL, OPT_HELP, OPT_ARG_NONE, 0, 0, NULL,
	 "  --help            this text\n"},
	{"--version", NULL, OPT_VERSION, OPT_ARG_NONE, 0, 0, NULL,
	 "  --version         print the version\n"},
};

#define NOPTIONS (sizeof options / sizeof options[0])

static void usage(FILE *out)
{
	fputs("usage: lkmmc [options] FILE.litmus...\n"
	      "\n"
	      "Check Linux-kernel memory model (LKMM) litmus tests with Z3 and print\n"
	      "herd7's output format.\n"
	      "\n"
	      "options:\n", out);
	for (size_t k = 0; k < NOPTIONS; k++)
		if (options[k].help)
			fputs(options[k].help, out);
	fputs("\n"
	      "herd7's options are accepted too, so that the kernel's\n"
	      "tools/memory-model/scripts can run lkmmc: -conf FILE, -I DIR,\n"
	      "-unroll N, -speedcheck true|fast|false (--exists-only), -timeout SECS,\n"
	      "-v (--stats), -through none; drawing options (-show, -graph, ...) are\n"
	      "ignored; the others are rejected with the reason.\n"
	      "\n"
	      "exit status: 0 all tests checked, 1 a test failed to parse or check,\n"
	      "2 usage error, 3 an assertion (BUG_ON, WARN_ON, assert) can fail or\n"
	      "a thread can spin forever (--repair: no repair in the menu), 4\n"
	      "--unroll auto reached its limit (the lowest non-zero one wins).\n", out);
}

struct options {
	int dump_ir;                  /* --dump-ir */
	int json;                     /* --json: JSON Lines (report/json.h) */
	int to_c;                     /* --to-c */
	struct batch_options batch;   /* -j, --progress, --times */
	const char *files_from;       /* --files-from FILE, or NULL */
	struct shard shard;           /* --shard K/N (n 0: all files) */
	const char *kmod_dir;         /* --kmod OUTDIR */
	unsigned long kmod_iters;     /* --kmod-iters N */
	struct check_options check;   /* how to check each test */
	struct herd7_dirs herd7_dirs; /* herd7's -I directories */
	const char *model_dir;        /* --model DIR, or NULL */
	const char *cargs[64];        /* -I DIR, -D NAME[=V] for C programs'
				       * preprocessor (words of argv) */
	int ncargs;                   /* how many */
	const char *diff_dirs[2];     /* --model-diff A B, or NULLs */
	struct repair_options repair; /* --repair, --prune, --strip */
	const char *repair_cost;      /* --repair-cost FILE, or NULL */
};

/* -D NAME[=V] (or -DNAME[=V]) and -I DIR: kept for C programs' clang (as
 * the words of argv); -I also goes on to herd7's table (where -conf files
 * are looked up).  Returns 1 when argv[*i] was -D (consumed), 0
 * otherwise, -1 on error. */
static int c_preprocessor_option(int argc, char **argv, int *i,
				 struct options *opt)
{
	const char *a = argv[*i];
	int is_d = strncmp(a, "-D", 2) == 0, is_i = strcmp(a, "-I") == 0;
	if (!is_d && !is_i)
		return 0;
	int words = a[2] ? 1 : 2;
	if (words == 2 && *i + 1 >= argc) {
		fprintf(stderr, "lkmmc: %s needs a value\n", a);
		return -1;
	}
	if (opt->ncargs + words > (int)(sizeof opt->cargs / sizeof opt->cargs[0])) {
		fprintf(stderr, "lkmmc: too many -D and -I options\n");
		return -1;
	}
	for (int k = 0; k < words; k++)
		opt->cargs[opt->ncargs++] = argv[*i + k];
	if (is_d)
		*i += words - 1;
	return is_d;
}

/* Parse a non-negative integer option value; -1 when malformed. */
static long parse_count(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 0)
		return -1;
	return v;
}

static const struct lkmmc_opt *lookup(const char *name)
{
	for (size_t k = 0; k < NOPTIONS; k++)
		if (strcmp(options[k].name, name) == 0 ||
		    (options[k].alias && strcmp(options[k].alias, name) == 0))
			return &options[k];
	return NULL;
}

/* What parse_option tells main. */
enum parsed {
	PARSED_OK,      /* go on */
	PARSED_ERROR,   /* usage error, said on stderr: exit status 2 */
	PARSED_HELP,    /* print the usage and stop */
	PARSED_VERSION, /* print the version and stop */
};

/* --unroll auto[:L] (val starts with "auto"). */
static enum parsed unroll_auto(const char *val, struct options *opt)
{
	const char *lim = val + 4;
	long v = *lim == '\0' ? 16 : *lim == ':' ? parse_count(lim + 1) : -1;
	if (v < 2 || v > 1000) {
		fprintf(stderr, "lkmmc: --unroll auto:L needs a limit L from 2 to 1000 (try --help)\n");
		return PARSED_ERROR;
	}
	opt->check.unroll_auto = (int)v;
	return PARSED_OK;
}

/* Apply lkmmc's own option argv[*i] (and its value: *i moves onto it). */
static enum parsed parse_option(int argc, char **argv, int *i,
				struct options *opt)
{
	const char *a = argv[*i];
	const struct lkmmc_opt *o = lookup(a);
	if (!o) {
		fprintf(stderr, "lkmmc: unknown option '%s' (try --help)\n", a);
		return PARSED_ERROR;
	}
	const char *val = NULL;
	long num = 0;
	if (o->arg != OPT_ARG_NONE) {
		val = *i + 1 < argc ? argv[*i + 1] : NULL;
		if (val && o->act == OPT_UNROLL && strncmp(val, "auto", 4) == 0) {
			++*i;
			return unroll_auto(val, opt);
		}
		num = val && o->arg == OPT_ARG_NUMBER ? parse_count(val) : 0;
		if (!val || (o->arg == OPT_ARG_NUMBER && (num < o->min || num > o->max))) {
			fprintf(stderr, "lkmmc: %s needs %s (try --help)\n", a, o->what);
			return PARSED_ERROR;
		}
		++*i;
	}
	switch (o->act) {
	case OPT_DUMP_IR: opt->dump_ir = 1; break;
	case OPT_TO_C: opt->to_c = 1; break;
	case OPT_EXISTS_ONLY: opt->check.exists_only = 1; break;
	case OPT_FIRST_ERROR: opt->check.first_error = 1; break;
	case OPT_MODEL: opt->model_dir = val; break;
	case OPT_MODEL_DIFF:
		if (*i + 1 >= argc) {
			fprintf(stderr, "lkmmc: %s needs %s (try --help)\n", a, o->what);
			return PARSED_ERROR;
		}
		opt->diff_dirs[0] = val;
		opt->diff_dirs[1] = argv[++*i];
		break;
	case OPT_NO_CUBES: opt->check.no_cubes = 1; break;
	case OPT_LAZY: opt->check.lazy = 1; break;
	case OPT_UNROLL:
		opt->check.unroll = (int)num;
		opt->check.unroll_auto = 0;
		break;
	case OPT_TIMEOUT: opt->check.timeout_ms = (unsigned)num * 1000u; break;
	case OPT_MAX_MEMORY: opt->check.max_memory_mb = num; break;
	case OPT_WITNESS: opt->check.witness = 1; break;
	case OPT_EXPLAIN: opt->check.explain = 1; break;
	case OPT_DOT:
	case OPT_SVG:
		opt->check.picture = val;
		opt->check.picture_svg = o->act == OPT_SVG;
		break;
	case OPT_STATS: opt->check.stats = 1; break;
	case OPT_KMOD: opt->kmod_dir = val; break;
	case OPT_KMOD_ITERS: opt->kmod_iters = (unsigned long)num; break;
	case OPT_JOBS: opt->batch.jobs = (int)num; break;
	case OPT_FILES_FROM: opt->files_from = val; break;
	case OPT_PROGRESS: opt->batch.progress = 1; break;
	case OPT_TIMES: opt->batch.times_path = val; break;
	case OPT_JSON: opt->json = 1; break;
	case OPT_SHARD:
		if (!shard_parse(val, &opt->shard)) {
			fprintf(stderr, "lkmmc: --shard needs %s, not '%s' (try --help)\n", o->what, val);
			return PARSED_ERROR;
		}
		break;
	case OPT_REPAIR: opt->repair.repair = 1; break;
	case OPT_PRUNE: opt->repair.prune = 1; break;
	case OPT_STRIP: opt->repair.strip = 1; break;
	case OPT_REPAIR_MAX: opt->repair.max = (int)num; break;
	case OPT_REPAIR_COST: opt->repair_cost = val; break;
	case OPT_REPAIR_PLAIN: opt->repair.plain = 1; break;
	case OPT_REPAIR_SCRATCH: opt->repair.scratch = 1; break;
	case OPT_HELP: return PARSED_HELP;
	case OPT_VERSION: return PARSED_VERSION;
	}
	return PARSED_OK;
}

/* herd7's one-dash option argv[*i] (cli/herd7opts.h). */
static enum parsed parse_herd7_option(int argc, char **argv, int *i,
				      struct options *opt)
{
	switch (herd7_option(argc, argv, i, &opt->check, &opt->herd7_dirs, stderr)) {
	case HERD7_DONE: return PARSED_OK;
	case HERD7_HELP: return PARSED_HELP;
	case HERD7_VERSION: return PARSED_VERSION;
	case HERD7_ERROR: break;
	}
	return PARSED_ERROR;
}

/* Parse the options of argv; *first_file is set to the first file's index. */
static enum parsed parse_options(int argc, char **argv, struct options *opt,
				 int *first_file)
{
	*first_file = argc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			*first_file = i + 1;
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			*first_file = i;
			break;
		}
		int cpp = c_preprocessor_option(argc, argv, &i, opt);
		if (cpp < 0)
			return PARSED_ERROR;
		if (cpp)
			continue;
		/* herd7's options have one dash; -j is ours */
		enum parsed p = a[1] != '-' && strcmp(a, "-j") != 0
			? parse_herd7_option(argc, argv, &i, opt)
			: parse_option(argc, argv, &i, opt);
		if (p != PARSED_OK)
			return p;
	}
	if (opt->kmod_dir && opt->batch.jobs > 1) {
		fprintf(stderr, "lkmmc: -j cannot be combined with --kmod (generating modules is fast; drop -j)\n");
		return PARSED_ERROR;
	}
	if (repair_wanted(&opt->repair) && (opt->json || opt->dump_ir || opt->to_c || opt->kmod_dir || opt->diff_dirs[0])) {
		fprintf(stderr, "lkmmc: --repair, --prune and --strip cannot be combined with --json, --dump-ir, --to-c, --kmod or --model-diff\n");
		return PARSED_ERROR;
	}
	if (opt->repair_cost) {
		struct diag d = {0};
		if (!repair_costs_read(&opt->repair.costs, opt->repair_cost, &d)) {
			diag_print(&d, stderr);
			return PARSED_ERROR;
		}
	}
	if (opt->json && (opt->dump_ir || opt->to_c || opt->kmod_dir || opt->diff_dirs[0])) {
		fprintf(stderr, "lkmmc: --json is for checking tests: it cannot be combined with --dump-ir, --to-c, --kmod or --model-diff\n");
		return PARSED_ERROR;
	}
	return PARSED_OK;
}

/* What every file of a run shares. */
struct run {
	const struct options *opt;  /* the command line */
	struct frontend *fe;        /* the front end (libclang index) */
	struct checker *checker;    /* the checker, unless dumping or --kmod */
	struct kmod_batch *kmod;    /* module generation (--kmod) or NULL */
	int batched;                /* files run in worker processes (cli/batch.h) */
};

/* Parse one file and do what the options say; its exit status
 * (common/exitcode.h): OK, ERROR (res->error says why, also on err_line,
 * after every warning on err), CODE_FAILS or UNROLL_LIMIT.  res (zeroed):
 * the check's result, or only the error when there was no check.  out
 * NULL: the answer is only in res (--json). */
static int handle_file(struct run *run, const char *path, FILE *out, FILE *err,
		       FILE *err_line, struct check_result *res)
{
	struct diag d = {0};
	int status = LKMMC_EXIT_OK;
	struct ir_program *prog = frontend_parse_file(run->fe, path, &d);
	if (!prog) {
		diag_print(&d, err_line);
		res->error = d;
		return LKMMC_EXIT_ERROR;
	}
	if (repair_wanted(&run->opt->repair)) {
		status = repair_file(&run->opt->repair, &run->opt->check, run->fe,
				     path, out, err, &d);
		if (status == LKMMC_EXIT_ERROR)
			diag_print(&d, err_line);
	} else if (run->opt->dump_ir) {
		ir_dump(prog, out);
	} else if (run->opt->to_c) {
		if (!ir_to_c(prog, out, &d)) {
			diag_print(&d, err_line);
			status = LKMMC_EXIT_ERROR;
		}
	} else if (run->kmod) {
		if (!kmod_generate(run->kmod, prog, &d)) {
			diag_print(&d, err_line);
			status = LKMMC_EXIT_ERROR;
		}
	} else {
		checker_set_err(run->checker, err);
		int r = checker_run(run->checker, prog, out, res);
		d = res->error;
		if (!r) {
			diag_print(&d, err_line);
			status = LKMMC_EXIT_ERROR;
		} else if (r & CHECK_CODE_FAILS) {
			status = LKMMC_EXIT_CODE_FAILS;
		} else if (r & CHECK_BOUND_LIMIT) {
			status = LKMMC_EXIT_UNROLL_LIMIT;
		}
	}
	if (out)
		fflush(out);
	ir_program_free(prog);
	res->error = d;
	return status;
}

/* The model named in --json objects. */
static const char *model_name(const struct options *opt)
{
	return opt->model_dir ? opt->model_dir
		: opt->check.model_conf ? opt->check.model_conf : "built-in";
}

/* What a --times row says of a check's result: the verdict and States
 * count of the herd7 block it printed. */
static void result_row(const struct check_result *res, struct batch_row *row)
{
	batch_row_none(row);
	if (res->verdict == CHECK_VERDICT_NONE)
		return;
	snprintf(row->verdict, sizeof row->verdict, "%s", check_verdict_word(res->verdict));
	row->nstates = res->nstates;
}

/* One file: its answer as text, or with --json as one JSON object
 * rendered from its result (its messages still go to err as well); its
 * --times row from its result (a batch_fn, cli/batch.h). */
static int run_file(void *ctx, const char *path, FILE *out, FILE *err,
		    struct batch_row *row)
{
	struct run *run = ctx;
	struct check_result res = {0};
	int status;
	if (!run->opt->json) {
		status = handle_file(run, path, out, err, err, &res);
		result_row(&res, row);
		check_result_free(&res);
		return status;
	}
	/* the messages, and apart the error's own line (the JSON's "error"
	 * object), which comes last on err */
	char *msgs = NULL, *eline = NULL;
	size_t msgs_len = 0, eline_len = 0;
	FILE *mf = open_memstream(&msgs, &msgs_len);
	FILE *ef = open_memstream(&eline, &eline_len);
	if (!mf || !ef)
		abort();
	status = handle_file(run, path, NULL, mf, ef, &res);
	fclose(mf);
	fclose(ef);
	result_row(&res, row);
	struct json_test jt = {
		.file = path, .model = model_name(run->opt), .status = status,
		.error = res.error.set ? &res.error : NULL,
		.result = &res,
		.messages = msgs, .messages_len = msgs_len,
	};
	json_test_write(out, &jt);
	fflush(out);
	fwrite(msgs, 1, msgs_len, err);
	fwrite(eline, 1, eline_len, err);
	free(msgs);
	free(eline);
	check_result_free(&res);
	return status;
}

/* A file whose worker was lost (killed at the time limit, or crashed), as
 * a JSON error object (batch_options.lost). */
static void lost_file(void *ctx, const char *path, enum diag_kind kind,
		      const char *message, FILE *out)
{
	struct run *run = ctx;
	struct diag d = {0};
	diag_error_kind(&d, kind, path, 0, 0, "%s", message);
	struct json_test jt = {
		.file = path, .model = model_name(run->opt), .status = LKMMC_EXIT_ERROR,
		.error = &d,
	};
	json_test_write(out, &jt);
}

/* The files of the command line followed by those listed in list_path
 * (one a line, blank lines skipped; "-" is stdin).  NULL, said on stderr,
 * when the list cannot be read.  Every path is a copy: free_file_list. */
static char **file_list(char **args, int nargs, const char *list_path, int *n)
{
	int cap = nargs + 16;
	char **files = xmalloc_array((size_t)cap, sizeof *files);
	for (int i = 0; i < nargs; i++)
		files[i] = xstrdup(args[i]);
	*n = nargs;
	if (!list_path)
		return files;
	FILE *f = strcmp(list_path, "-") == 0 ? stdin : fopen(list_path, "r");
	if (!f) {
		fprintf(stderr, "lkmmc: cannot read the list %s: %s\n", list_path, strerror(errno));
		for (int i = 0; i < nargs; i++)
			free(files[i]);
		free(files);
		return NULL;
	}
	char *line = NULL;
	size_t room = 0;
	ssize_t len;
	while ((len = getline(&line, &room, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;
		XGROW(files, cap, *n + 1, 16);
		files[(*n)++] = xstrdup(line);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return files;
}

static void free_file_list(char **files, int nfiles)
{
	for (int i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
}

/* Set before the options are read. */
static void options_defaults(struct options *opt)
{
	opt->check.unroll = 2;
	opt->check.max_memory_mb = -1; /* the default, once -j is known */
	opt->repair.max = 3;
	opt->repair.max_checks = 2000;
	repair_costs_default(&opt->repair.costs);
}

/* The files to handle: those of the command line (from argv[first_file])
 * and of --files-from, this shard's only.  NULL, said on stderr, when
 * there are none or the list cannot be read (exit status 2). */
static char **input_files(const struct options *opt, int argc, char **argv,
			  int first_file, int *n)
{
	char **files = file_list(argv + first_file, argc - first_file, opt->files_from, n);
	if (!files)
		return NULL;
	if (*n == 0) {
		fprintf(stderr, "lkmmc: no litmus file given (try --help)\n");
		free_file_list(files, *n);
		return NULL;
	}
	/* --shard: this shard's files only (possibly none: nothing to do) */
	*n = shard_filter(&opt->shard, files, *n);
	return files;
}

/* --model-diff A B: its exit status.  Like any batch: serial, or in -j
 * workers (also with --timeout or --times), the summary tallied from what
 * each file printed. */
static int main_model_diff(struct options *opt, int argc, char **argv, int first_file)
{
	if (opt->model_dir || opt->check.model_conf || opt->dump_ir || opt->to_c || opt->kmod_dir ||
	    opt->check.picture) {
		fprintf(stderr, "lkmmc: --model-diff takes its two models alone (no --model, -conf, --dump-ir, --to-c, --kmod, --dot/--svg)\n");
		return LKMMC_EXIT_USAGE;
	}
	int n = 0;
	char **files = input_files(opt, argc, argv, first_file, &n);
	if (!files)
		return LKMMC_EXIT_USAGE;
	if (opt->check.max_memory_mb < 0)
		opt->check.max_memory_mb = memlimit_default_mb(opt->batch.jobs);
	struct batch_options *bo = &opt->batch;
	/* the worker is killed a little past the file's limit, which covers
	 * all its checks (cli/modeldiff.h) */
	bo->kill_after = opt->check.timeout_ms / 1000.0 * 1.05;
	int batched = bo->jobs > 1 || bo->times_path || bo->kill_after > 0;
	opt->check.memory_exit = batched ? MEMLIMIT_EXIT : 1;
	bo->max_memory_mb = opt->check.max_memory_mb;
	struct model_diff *md = model_diff_open(&opt->check, opt->diff_dirs[0], opt->diff_dirs[1],
		opt->check.unroll_auto ? opt->check.unroll_auto : opt->check.unroll, stderr);
	if (!md) {
		free_file_list(files, n);
		return LKMMC_EXIT_ERROR;
	}
	int st = LKMMC_EXIT_OK;
	if (batched) {
		if (bo->jobs < 1)
			bo->jobs = 1;
		if (!bo->progress && n >= 20 && isatty(2))
			bo->progress = 1;
		bo->printed = model_diff_count;
		st = batch_run(bo, n, files, model_diff_file, md);
	} else {
		for (int i = 0; i < n; i++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&buf, &len);
			if (!m)
				abort();
			struct batch_row row; /* no --times table */
			int r = model_diff_file(md, files[i], m, stderr, &row);
			fclose(m);
			fwrite(buf, 1, len, stdout);
			fflush(stdout);
			free(buf);
			model_diff_count(md, r, len);
			st = exit_combine(st, r);
		}
	}
	st = exit_combine(st, model_diff_summary(md, n, stdout));
	model_diff_free(md);
	free_file_list(files, n);
	return st;
}

/* The model: --model DIR, or the files a -conf names when they are not
 * Linux 6.1's (cli/herd7opts.c); NULL for the built-in one, or, said on
 * stderr, when it cannot be read (*ok 0). */
static struct cat_model *load_model(struct options *opt, int *ok)
{
	*ok = 1;
	if (!opt->model_dir && !opt->check.model_conf)
		return NULL;
	struct diag d = {0};
	struct cat_model *model = cat_model_load(opt->model_dir,
		opt->model_dir ? NULL : opt->check.model_conf, &d);
	if (!model) {
		diag_print(&d, stderr);
		*ok = 0;
	}
	opt->check.model = model;
	return model;
}

/* The front end, the module generator (--kmod) and the checker of a run,
 * and the batch options that follow from them; 0, said on stderr, when
 * the module folder cannot be made (run->fe is still to be freed). */
static int run_open(struct run *run, struct options *opt,
		    const struct cat_model *model, int nfiles)
{
	run->opt = opt;
	run->fe = frontend_new();
	frontend_set_cargs(run->fe, opt->cargs, opt->ncargs);
	if (model && cat_model_macros(model)) /* the model's .def */
		frontend_set_macros(run->fe, cat_model_macros(model));
	/* Helpers recurse as deep as loops may run: under --unroll auto:L,
	 * up to L (recursion is inlined once, before any bound is tried). */
	frontend_set_unroll(run->fe, opt->check.unroll_auto ? opt->check.unroll_auto
				      : opt->check.unroll);
	if (opt->kmod_dir) {
		struct kmod_options ko = {opt->kmod_iters ? opt->kmod_iters : 1000000,
					  opt->check.unroll};
		struct diag d = {0};
		run->kmod = kmod_batch_new(opt->kmod_dir, &ko, &d);
		if (!run->kmod) {
			diag_print(&d, stderr);
			return 0;
		}
	}
	int checking = !(opt->dump_ir || opt->to_c || run->kmod);
	/* --timeout is kept even where Z3 cannot be interrupted (it takes in
	 * a big encoding in one go): each test runs in a worker process that
	 * is killed a little past the limit, after the checker's own
	 * deadline has had its chance to end the test with the answer so far. */
	if (opt->check.timeout_ms && checking)
		opt->batch.kill_after = opt->check.timeout_ms / 1000.0 * 1.05;
	run->batched = opt->batch.jobs > 1 || opt->batch.times_path || opt->batch.kill_after > 0;
	if (opt->check.max_memory_mb < 0)
		opt->check.max_memory_mb = memlimit_default_mb(opt->batch.jobs);
	/* a worker ended by the memory limit loses only its test */
	opt->check.memory_exit = run->batched ? MEMLIMIT_EXIT : 1;
	opt->batch.max_memory_mb = opt->check.max_memory_mb;
	run->checker = checking ? checker_new(&opt->check) : NULL;
	if (run->batched) {
		if (opt->batch.jobs < 1)
			opt->batch.jobs = 1;
		if (!opt->batch.progress && nfiles >= 20 && isatty(2))
			opt->batch.progress = 1;
		if (opt->json)
			opt->batch.lost = lost_file;
	}
	return 1;
}

/* Handle the files, in worker processes when batched; the exit status. */
static int run_files(struct run *run, struct options *opt, char **files,
		     int nfiles)
{
	if (run->batched)
		return batch_run(&opt->batch, nfiles, files, run_file, run);
	int status = LKMMC_EXIT_OK;
	struct batch_row row; /* no --times table without a batch */
	for (int i = 0; i < nfiles; i++)
		status = exit_combine(status, run_file(run, files[i], stdout, stderr, &row));
	return status;
}

int main(int argc, char **argv)
{
	struct options opt = {0};
	options_defaults(&opt);
	int first_file;
	enum parsed parsed = parse_options(argc, argv, &opt, &first_file);
	herd7_dirs_free(&opt.herd7_dirs); /* only -conf needed them */
	switch (parsed) {
	case PARSED_OK:
		break;
	case PARSED_ERROR:
		return LKMMC_EXIT_USAGE;
	case PARSED_HELP:
		usage(stdout);
		return LKMMC_EXIT_OK;
	case PARSED_VERSION:
		printf("lkmmc %s\n", LKMMC_VERSION);
		return LKMMC_EXIT_OK;
	}
	if (opt.diff_dirs[0])
		return main_model_diff(&opt, argc, argv, first_file);
	int ok, nfiles = 0, status = LKMMC_EXIT_ERROR;
	struct cat_model *model = load_model(&opt, &ok);
	if (!ok)
		return LKMMC_EXIT_ERROR;
	char **files = input_files(&opt, argc, argv, first_file, &nfiles);
	if (!files) {
		cat_model_free(model);
		return LKMMC_EXIT_USAGE;
	}
	struct run run = {0};
	if (run_open(&run, &opt, model, nfiles))
		status = run_files(&run, &opt, files, nfiles);
	free_file_list(files, nfiles);
	checker_free(run.checker);
	kmod_batch_free(run.kmod);
	frontend_free(run.fe);
	cat_model_free(model);
	return status;
}
