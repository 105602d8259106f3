/*
 * options.h - how a test is to be checked: the options every layer of the
 * solver reads (check.c, bounds.c, problem.c, report.c), apart from the
 * checker that acts on them (check.h), so that they include no checker.
 */
#ifndef LKMMC_OPTIONS_H
#define LKMMC_OPTIONS_H

struct cat_model;

struct check_options {
	int unroll;         /* loop bound (herd7's default: 2) */
	int unroll_auto;    /* --unroll auto: raise the bound from unroll up
			     * to this limit until no execution needs more
			     * (0: off) */
	int exists_only;    /* answer reachability only, no state list */
	int first_error;    /* a program: stop at the first error found
			     * (solver/firsterr.h) */
	int lazy;           /* the model checked outside Z3 (solver/lazy.h) */
	int no_cubes;       /* list states one query at a time, never by
			     * cubes (solver/cubes.h): for cross-checking */
	unsigned timeout_ms;/* time limit per test (and per query), 0: none */
	long max_memory_mb; /* --max-memory: limit on the resident set while a
			     * test is checked (common/memlimit.h), 0: none */
	int memory_exit;    /* the process's exit status when the limit could
			     * not be kept by stopping the check: 1, or
			     * MEMLIMIT_EXIT in a batch worker */
	int herd7_only;     /* herd7's options were used: print only what
			     * herd7 prints (no witness with -speedcheck) */
	int stats;          /* print encoding sizes and phase times to stderr */
	int witness;        /* print an execution reaching the condition */
	int explain;        /* say which axioms forbid an unreachable condition */
	const char *picture;/* draw the witness/explained execution here */
	int picture_svg;    /* as SVG (else Graphviz text) */
	struct cat_model *model; /* --model, -conf: the model read from cat
			     * files (models/cat/cat.h); NULL: the built-in 6.1
			     * model.  Not owned. */
	const char *model_conf; /* -conf: a configuration file naming model
			     * files other than Linux 6.1's, to be read
			     * (cli/herd7opts.c); NULL: none */
};

#endif
