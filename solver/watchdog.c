/*
 * watchdog.c - interrupts a Z3 context at a deadline (watchdog.h).
 *
 * One thread per watched test; it only sleeps and calls Z3_interrupt,
 * which Z3 documents as safe to call from another thread.  It does not
 * touch anything else of the test.
 */
#include "solver/watchdog.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

struct watchdog {
	pthread_t thread;     /* the waiting thread */
	pthread_mutex_t mu;   /* guards done */
	pthread_cond_t cv;    /* signalled when the test ends */
	int done;             /* the test ended: stop */
	double deadline;      /* when to interrupt (CLOCK_MONOTONIC s) */
	Z3_context z;         /* what to interrupt */
};

static struct timespec at(double t)
{
	struct timespec ts;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

static void *watch(void *arg)
{
	struct watchdog *w = arg;
	double when = w->deadline;
	pthread_mutex_lock(&w->mu);
	while (!w->done) {
		struct timespec ts = at(when);
		if (pthread_cond_timedwait(&w->cv, &w->mu, &ts) != 0 && !w->done) {
			Z3_interrupt(w->z);
			when += 0.05; /* a query started after this one, too */
		}
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

struct watchdog *watchdog_start(Z3_context z, double deadline)
{
	if (deadline <= 0)
		return NULL;
	struct watchdog *w = calloc(1, sizeof *w);
	if (!w)
		abort();
	w->deadline = deadline;
	w->z = z;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->mu, NULL);
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		/* no thread: Z3's own per-query timeout still applies */
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

void watchdog_stop(struct watchdog *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->done = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
