/*
 * deadline.h - --timeout for each Z3 query.
 *
 * Before a query, deadline_arm() sets the solver's "timeout" to the time
 * left until the test's deadline, so that no query runs past it: Z3 then
 * answers "unknown" (reason "timeout"), which the callers report as a
 * time-out.  Z3's timer cancels only that query (an interrupt of the whole
 * context would make it refuse every later push).  Code between queries
 * checks the clock itself (common/clock.h).
 */
#ifndef LKMMC_DEADLINE_H
#define LKMMC_DEADLINE_H

#include <z3.h>

#include "common/clock.h"

/* Limit s's next queries to the time left until deadline (CLOCK_MONOTONIC
 * seconds; 0: no limit, nothing changes), at least 1 ms. */
static inline void deadline_arm(Z3_context z, Z3_solver s, double deadline)
{
	if (deadline <= 0)
		return;
	double left = (deadline - clock_now()) * 1000.0;
	unsigned ms = left < 1 ? 1 : left > 4e9 ? 4000000000u : (unsigned)left;
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), ms);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
}

/* Take back what deadline_arm set: s asked without a deadline after it
 * was asked with one would keep that one's last time-out. */
static inline void deadline_disarm(Z3_context z, Z3_solver s)
{
	Z3_params p = Z3_mk_params(z);
	Z3_params_inc_ref(z, p);
	Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), 4294967295u);
	Z3_solver_set_params(z, s, p);
	Z3_params_dec_ref(z, p);
}

#endif
