/*
 * exitcode.h - lkmmc's exit statuses, and how the statuses of several
 * tests make the run's.
 *
 * The numbers are an interface (scripts, the kernel's checkers, CI test
 * them; docs/lkmmc.1 and the README list them), so they never change.  A
 * worker's crash (128 + signal) is not one of them: the batch reports it
 * as LKMMC_EXIT_ERROR.  It decides no status; callers say which applies.
 */
#ifndef LKMMC_EXITCODE_H
#define LKMMC_EXITCODE_H

enum lkmmc_exit {
	LKMMC_EXIT_OK = 0,          /* every test was checked */
	LKMMC_EXIT_ERROR = 1,       /* some test could not be parsed or
				     * checked (time-out, memory, crash) */
	LKMMC_EXIT_USAGE = 2,       /* a usage error, or the batch could not
				     * run at all */
	LKMMC_EXIT_CODE_FAILS = 3,  /* an assertion can fail, a thread can
				     * spin forever, or --repair found no
				     * change of its menu that forbids the
				     * outcome */
	LKMMC_EXIT_UNROLL_LIMIT = 4, /* --unroll auto reached its limit */
};

/* The status of two results together: the lowest non-zero one, so that a
 * test that could not be checked outranks code that can fail, which
 * outranks a bound reached (an error hides a failing assertion). */
static inline int exit_combine(int a, int b)
{
	if (a == LKMMC_EXIT_OK || (b != LKMMC_EXIT_OK && b < a))
		return b;
	return a;
}

#endif
