/*
 * memwatch.h - the memory limit of a check (--max-memory).
 *
 * While a test is checked, a watcher thread reads the process's resident
 * set every 20 ms. Once it passes 80 % of the limit, the watcher raises a
 * flag that the encoder's long loops read: encoder/rel.c stops building,
 * as at a time-out, and the caller reports the test as too large and
 * frees it. A Z3 query cannot be stopped that way (Z3_interrupt would
 * leave the context refusing every later call, which lkmmc's error
 * handler treats as a bug), so when the check has not ended half a second
 * later, or the resident set reaches the limit itself, the watcher ends
 * the process: with the error on standard error and exit status 1
 * (memwatch.exit_status), or, in a batch worker, MEMWATCH_EXIT, which the
 * batch reports as that test's error (cli/batch.c). Either way the
 * operating system's OOM killer is never the one to stop lkmmc.
 *
 * It does not estimate sizes before anything is built (the encoder does:
 * encoder_options.max_memory_kb).
 */
#ifndef LKMMC_MEMWATCH_H
#define LKMMC_MEMWATCH_H

#include <pthread.h>
#include <stdatomic.h>

/* The exit status of a batch worker ended by the limit. */
#define MEMWATCH_EXIT 86

/* One watch over one check. */
struct memwatch {
	const char *file;    /* the test, for the error message */
	long limit_kb;       /* the limit on the resident set, in kB */
	int exit_status;     /* the process's status if the watcher must end
			      * it: 1, or MEMWATCH_EXIT in a batch worker */
	int err_fd;          /* where the error goes when exit_status is 1:
			      * the process's real standard error (which
			      * solver/check.c may point elsewhere a while) */
	atomic_int over;     /* 1 once the resident set passed limit_kb:
			      * what is built or asked since is incomplete */
	atomic_long peak_kb; /* the largest resident set seen */
	atomic_int stop;     /* 1: the watcher must end */
	pthread_t thread;    /* the watcher */
	int running;         /* 1 while the watcher runs */
};

/* Watch the process while file is checked (limit_kb 0: nothing is
 * watched, w->over stays 0). Returns 0 if no thread could be started
 * (then the limit is not enforced; the check goes on). */
int memwatch_start(struct memwatch *w, const char *file, long limit_kb,
		   int exit_status, int err_fd);
/* End the watch; w->over and w->peak_kb keep their values. */
void memwatch_stop(struct memwatch *w);
/* The process's resident set now, in kB (0 if it cannot be read). */
long memwatch_rss_kb(void);
/* The default limit, in MB, for one of `jobs` checks running at once:
 * half of the memory the machine (or the process's cgroup) has, shared
 * among them. */
long memwatch_default_mb(int jobs);

#endif
