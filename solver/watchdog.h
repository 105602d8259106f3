/*
 * watchdog.h - --timeout for everything Z3 does on one test (watchdog.c).
 *
 * A thread waits for the test's deadline and then interrupts its Z3
 * context (Z3_interrupt), again every 50 ms until the test ends, so that
 * a query started late is stopped too: every query then answers "unknown"
 * (reason "canceled"), which the callers report as a time-out.  It does
 * not stop C code (the encoder): callers check the clock between phases.
 */
#ifndef LKMMC_WATCHDOG_H
#define LKMMC_WATCHDOG_H

#include <z3.h>

struct watchdog;

/* Start watching z until deadline (CLOCK_MONOTONIC seconds, clock.h);
 * NULL when deadline is 0 (none). */
struct watchdog *watchdog_start(Z3_context z, double deadline);
/* Stop watching (before z is deleted) and free w; NULL is fine. */
void watchdog_stop(struct watchdog *w);

#endif
