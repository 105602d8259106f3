/*
 * batch.h - run lkmmc over many litmus files in parallel worker processes
 * (lkmmc -j N), printing each file's output in the order the files were
 * given, as a serial run would.
 *
 * The workers are forked from the warmed-up parent (libclang index and
 * prelude already set up) and each handles one file at a time, so the cost
 * per file is that of the check itself; a worker that crashes takes only
 * its current file down (reported as an internal error) and is replaced.
 * Each test's wall time and peak resident memory are measured on their
 * own.  With a limit per file, a worker still on a file past it is killed
 * and the file reported as timed out: the limit holds even where the
 * check itself cannot be interrupted.  Optionally a progress line on stderr and one TSV row per test
 * (--times FILE).
 *
 * It does not know what is done with a file: the caller's batch_fn does
 * that (parse and check, or dump the IR).
 */
#ifndef LKMMC_BATCH_H
#define LKMMC_BATCH_H

#include <stdio.h>

#include "common/diag.h"

/* What a file's --times row says of its answer besides how it ran:
 * batch_fn fills it from the check's result (solver/result.h), never from
 * the text it printed. */
struct batch_row {
	char verdict[16]; /* the Observation word of the herd7 block printed
			   * last, "-" when none was */
	long nstates;     /* the count of the States line printed last, -1
			   * when none was */
};

struct batch_options {
	int jobs;               /* worker processes at once (>= 1) */
	int progress;           /* 1: a progress line on stderr */
	const char *times_path; /* write one TSV row per test here, or NULL */
	double kill_after;      /* seconds a worker may spend on one file: past
				 * them it is killed and the file reported as
				 * timed out (0: no limit) */
	long max_memory_mb;     /* the checker's memory limit, for the message
				 * of a worker that ended with MEMLIMIT_EXIT
				 * (common/memlimit.h) */
	/* What a file whose worker was lost prints on stdout, given why
	 * (kind: DIAG_TIMEOUT, killed at the limit; DIAG_MEMORY, ended by
	 * the memory limit; DIAG_CRASH) and the message said on stderr
	 * (without "path: error: "); NULL: nothing. */
	void (*lost)(void *ctx, const char *path, enum diag_kind kind,
		     const char *message, FILE *out);
	/* Called in the parent for each file, in file order, once its output
	 * is printed: the status batch_fn returned (LKMMC_EXIT_ERROR for a lost worker) and
	 * how many bytes it printed on stdout; NULL: nothing.  It lets a
	 * caller tally what its workers did (--model-diff's summary). */
	void (*printed)(void *ctx, int status, size_t out_len);
};

/* Handle one file, writing its answer to out and its errors to err, and
 * what its --times row says into row (given as "-" and -1).  Returns the
 * process exit status for that file (common/exitcode.h). */
typedef int (*batch_fn)(void *ctx, const char *path, FILE *out, FILE *err,
			struct batch_row *row);

/* A row that says nothing: "-" and -1. */
void batch_row_none(struct batch_row *row);

/* Run fn on every file.  Returns the files' statuses combined
 * (exit_combine; a crashed file counts as LKMMC_EXIT_ERROR), or
 * LKMMC_EXIT_USAGE when the batch itself could not run (said on stderr). */
int batch_run(const struct batch_options *opt, int nfiles, char *const *files,
	      batch_fn fn, void *ctx);

#endif
