/*
 * memwatch.c - the memory limit of a check (see memwatch.h).
 *
 * The resident set is read from /proc/self/statm every POLL_MS; that read
 * costs a few microseconds, so the watcher is free, and the encoder's
 * loops only read an atomic flag.  Ending the process from the watcher:
 * standard output is flushed first (the answers of earlier tests of the
 * run; a test's own answer is not written before it is complete), then
 * _exit, since exit() would run atexit handlers and destructors of Z3's
 * statics under the feet of the main thread.
 */
#include "common/memwatch.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "common/clock.h"

#define POLL_MS 20

long memwatch_rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	long size = 0, resident = 0;
	int got = fscanf(f, "%ld %ld", &size, &resident);
	fclose(f);
	if (got != 2)
		return 0;
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

#define GRACE_MS 500

/* The limit was passed and the check did not stop: end the process. */
static void give_up(struct memwatch *w, long kb)
{
	if (w->exit_status != MEMWATCH_EXIT) {
		fflush(stdout);
		dprintf(w->err_fd, "%s: error: too large for the memory limit: the resident "
			"set reached %ld MB while the solver was working, the limit "
			"being %ld MB (checks stop at 80 %% of it); try --exists-only, "
			"a smaller --unroll, or --max-memory MB\n", w->file,
			kb / 1024, w->limit_kb / 1024);
	}
	_exit(w->exit_status);
}

/* The share of the limit at which the check is told to stop: the last
 * steps of a stopping encoder, or a solver query that cannot be stopped,
 * may still grow the process for up to GRACE_MS. */
#define SOFT_SHARE 0.8

static void *watch(void *arg)
{
	struct memwatch *w = arg;
	struct timespec nap = {0, POLL_MS * 1000000L};
	double over_since = 0;
	long soft_kb = (long)(w->limit_kb * SOFT_SHARE);
	while (!atomic_load(&w->stop)) {
		long kb = memwatch_rss_kb();
		if (kb > atomic_load(&w->peak_kb))
			atomic_store(&w->peak_kb, kb);
		if (kb > soft_kb && !atomic_load(&w->over)) {
			atomic_store(&w->over, 1);
			over_since = clock_now();
		}
		if (kb > w->limit_kb ||
		    (over_since > 0 && clock_now() - over_since > GRACE_MS / 1000.0))
			give_up(w, atomic_load(&w->peak_kb));
		nanosleep(&nap, NULL);
	}
	return NULL;
}

int memwatch_start(struct memwatch *w, const char *file, long limit_kb,
		   int exit_status, int err_fd)
{
	w->err_fd = err_fd;
	w->file = file;
	w->limit_kb = limit_kb;
	w->exit_status = exit_status;
	atomic_init(&w->over, 0);
	atomic_init(&w->peak_kb, 0);
	atomic_init(&w->stop, 0);
	w->running = 0;
	if (limit_kb <= 0)
		return 1;
	if (pthread_create(&w->thread, NULL, watch, w) != 0)
		return 0;
	w->running = 1;
	return 1;
}

void memwatch_stop(struct memwatch *w)
{
	if (!w->running)
		return;
	atomic_store(&w->stop, 1);
	pthread_join(w->thread, NULL);
	w->running = 0;
}

/* The cgroup (v2) limit of this process, in bytes, or 0 when it has none
 * or it cannot be read. */
static long long cgroup_limit(void)
{
	FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
	if (!f)
		return 0;
	long long v = 0;
	if (fscanf(f, "%lld", &v) != 1)
		v = 0; /* "max": no limit */
	fclose(f);
	return v;
}

long memwatch_default_mb(int jobs)
{
	long long ram = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
	long long cg = cgroup_limit();
	if (cg > 0 && (ram <= 0 || cg < ram))
		ram = cg;
	if (ram <= 0)
		return 4096; /* unknown: a size any machine of today has */
	long mb = (long)(ram / 2 / (jobs > 0 ? jobs : 1) / (1024 * 1024));
	return mb < 256 ? 256 : mb;
}
