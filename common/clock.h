/*
 * clock.h - the monotonic clock deadlines and batch times are measured on.
 *
 * Deadlines are CLOCK_MONOTONIC times in seconds, 0 meaning none; every
 * enumeration checks one before it starts a query.
 */
#ifndef LKMMC_CLOCK_H
#define LKMMC_CLOCK_H

#include <time.h>

static inline double clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Has deadline (0: none) passed? */
static inline int clock_past(double deadline)
{
	return deadline > 0 && clock_now() > deadline;
}

#endif
