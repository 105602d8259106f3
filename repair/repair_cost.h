/*
 * repair_cost.h - the kinds of program change --repair may make and what
 * each costs: the default table and --repair-cost FILE overrides.
 *
 * It only names and prices changes; where a change can go is
 * repair_menu.h's business and the search is repair.c's.
 */
#ifndef LKMMC_REPAIR_COST_H
#define LKMMC_REPAIR_COST_H

#include "common/diag.h"

/* A kind of change.  The first group inserts a fence statement, the
 * second strengthens the annotation of one access. */
enum repair_kind {
	RK_MB,                /* insert smp_mb() */
	RK_RMB,               /* insert smp_rmb() */
	RK_WMB,               /* insert smp_wmb() */
	RK_BEFORE_ATOMIC,     /* insert smp_mb__before_atomic() before a
			       * non-returning atomic */
	RK_AFTER_ATOMIC,      /* insert smp_mb__after_atomic() after one */
	RK_AFTER_SPINLOCK,    /* insert smp_mb__after_spinlock() after a lock */
	RK_AFTER_UNLOCK_LOCK, /* insert smp_mb__after_unlock_lock() after a
			       * lock that follows an unlock */
	RK_LOAD_ACQUIRE,      /* READ_ONCE -> smp_load_acquire, atomic_read
			       * -> atomic_read_acquire */
	RK_STORE_RELEASE,     /* WRITE_ONCE -> smp_store_release, atomic_set
			       * -> atomic_set_release */
	RK_RMW_ACQUIRE,       /* a _relaxed RMW -> _acquire */
	RK_RMW_RELEASE,       /* a _relaxed RMW -> _release */
	RK_RMW_MB,            /* a _relaxed RMW -> fully ordered */
	RK_COUNT
};

/* What each kind costs (whole numbers, 1 to 1000). */
struct repair_costs {
	int cost[RK_COUNT]; /* indexed by enum repair_kind */
};

/* The name of a kind, as a cost file writes it ("smp_mb",
 * "load-acquire", ...). */
const char *repair_kind_name(enum repair_kind k);

/* The default table (docs/repair.md, "Costs", says why each number). */
void repair_costs_default(struct repair_costs *c);

/* Read a cost file over c: lines "NAME COST", '#' starts a comment,
 * blank lines are skipped, names not given keep their cost.  Returns 1,
 * or 0 with d filled (file:line:col of the bad word). */
int repair_costs_read(struct repair_costs *c, const char *path, struct diag *d);

#endif
