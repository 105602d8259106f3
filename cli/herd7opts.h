/*
 * herd7opts.h - herd7's one-dash command-line options, so that lkmmc can
 * stand in for herd7 in the kernel's tools/memory-model/scripts, which run
 * "herd7 $LKMM_HERD_OPTIONS file.litmus" (by default
 * "-conf linux-kernel.cfg").
 *
 * Each herd7 option is either mapped to lkmmc's own (-unroll N is
 * --unroll N, -speedcheck true|fast is --exists-only, -timeout F is
 * --timeout), accepted and ignored because it only shapes herd7's drawings
 * of executions (-show, -graph, -showevents, ...), checked (-conf, -model,
 * -bell, -macros, -through: lkmmc has the LKMM of Linux 6.1 built in), or
 * rejected with a message saying why.  lkmmc's own options start with "--",
 * so the two styles coexist.  The table is in herd7opts.c.
 */
#ifndef LKMMC_HERD7OPTS_H
#define LKMMC_HERD7OPTS_H

#include <stdio.h>

#include "solver/check.h"

enum herd7_status {
	HERD7_DONE,     /* applied; *i now indexes the option's last word */
	HERD7_HELP,     /* -help: the caller prints its usage */
	HERD7_VERSION,  /* -version: the caller prints its version */
	HERD7_ERROR,    /* unknown, unsupported or malformed: said on err */
};

#define HERD7_MAX_DIRS 16

/* The -I directories met so far, where later -conf files (and the model
 * files they name) are looked up.  Starts zeroed; herd7_dirs_free. */
struct herd7_dirs {
	char *dir[HERD7_MAX_DIRS]; /* copies of the -I values, in order */
	int n;                     /* how many */
};

/*
 * Apply the herd7 option argv[*i] (it starts with one '-') and its value,
 * if it takes one, to opt.  -I directories are added to dirs for later
 * -conf options, as herd7 reads a configuration file when it meets -conf.
 * Messages ("lkmmc: ...") go to err.
 */
enum herd7_status herd7_option(int argc, char **argv, int *i,
			       struct check_options *opt,
			       struct herd7_dirs *dirs, FILE *err);
void herd7_dirs_free(struct herd7_dirs *dirs);

#endif
