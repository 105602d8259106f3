/*
 * memlimit.h - the memory limit of a check (--max-memory), kept by
 * counting what the check allocates, never by sampling the process.
 *
 * A check's memory is what Z3 allocates (Z3 counts it itself:
 * Z3_get_estimated_alloc_size) plus the encoder's arenas (they count
 * theirs: arena_bytes).  Both counts are a function of the test and the
 * options alone, so the same test under the same limit stops at the
 * same point on any machine, loaded or not, in a worker or alone.  The
 * budget of that count is what the limit leaves above the resident set
 * the process had when the check began and MEMLIMIT_RESERVE_MB, divided by
 * MEMLIMIT_OVERHEAD (the allocator's headers, memory freed but kept,
 * temporaries outside the arenas: measured on bench/'s families, see
 * memlimit.c).
 *
 * Three guards keep it:
 *   - the encoder's long loops ask memlimit_over() every few rows (as
 *     they ask the clock for --timeout) and stop building when the count
 *     passes the budget; the caller reports the test as too large;
 *   - Z3's memory_high_watermark is kept at what is left of the budget,
 *     so a query that would pass it answers "unknown" (reason "memout"),
 *     which memlimit_note_unknown() records;
 *   - Z3's memory_max_size, a little above, is the hard stop for the
 *     work Z3 does outside its search; it ends the process through
 *     memlimit_out_of_memory() (also called by xalloc.c when malloc
 *     fails, e.g. at a batch worker's RLIMIT_DATA, memlimit_backstop).
 * The process then ends with the located error on standard error and
 * exit status 1 (memlimit.exit_status), or, in a batch worker,
 * MEMLIMIT_EXIT, which the batch reports as that test's error
 * (cli/batch.c).  The operating system's OOM killer is never the one to
 * stop lkmmc.
 *
 * It does not estimate sizes before anything is built (the encoder does:
 * encoder_options.max_memory_kb).  One check is limited at a time in a
 * process (Z3's two parameters are process-wide).
 */
#ifndef LKMMC_MEMLIMIT_H
#define LKMMC_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

/* The exit status of a batch worker ended by the limit. */
#define MEMLIMIT_EXIT 86

/* The resident set a counted byte is taken to cost, and the megabytes
 * set aside for what no count sees (code pages of libz3 first run, the
 * stack, small allocations outside the arenas): see memlimit.c. */
#define MEMLIMIT_OVERHEAD 1.3
#define MEMLIMIT_RESERVE_MB 24

/* One limit over one check. */
struct memlimit {
	const char *file;     /* the test, for the error message */
	long limit_kb;        /* the limit on the resident set, kB; 0: none */
	int exit_status;      /* the process's status if it must end: 1, or
			       * MEMLIMIT_EXIT in a batch worker */
	int err_fd;           /* where that error goes: the process's real
			       * standard error (which solver/check.c may
			       * point elsewhere a while) */
	long start_rss_kb;    /* the resident set when the check began */
	uint64_t z3_start;    /* Z3's allocation count then, bytes */
	uint64_t budget;      /* bytes the check may count (Z3's growth plus
			       * the arenas) */
	size_t arena_set;     /* the arena bytes Z3's watermark was last set
			       * for */
	int over;             /* 1 once the count passed the budget or Z3
			       * answered memout: what was built or asked
			       * since is incomplete */
};

/* Limit the check of file to limit_kb (0: nothing is limited, over stays
 * 0).  Sets Z3's process-wide memory parameters. */
void memlimit_begin(struct memlimit *m, const char *file, long limit_kb,
		    int exit_status, int err_fd);
/* Whether the count, with arena_bytes held by the encoder, passed the
 * budget (then m->over is set); keeps Z3's watermark at what is left.
 * Cheap: a read of Z3's counter. */
int memlimit_over(struct memlimit *m, size_t arena_bytes);
/* A query answered "unknown" for reason: if Z3 gave up at the watermark,
 * the limit's check is over.  (No-op outside a limited check.) */
void memlimit_note_unknown(const char *reason);
/* Whether the check limited now is over its limit: then none of its
 * queries may be asked (a solver may hold part of its formula). */
int memlimit_stopped(void);
/* End the limit: Z3's parameters back to none; m->over keeps its value. */
void memlimit_end(struct memlimit *m);
/* Out of memory (Z3's memory_max_size, or malloc failed): the limited
 * check's error and its exit status; without one, "lkmmc: out of memory"
 * and abort().  Never returns. */
void memlimit_out_of_memory(void) __attribute__((noreturn));
/* In a batch worker: malloc fails (RLIMIT_DATA) once the process's data
 * segment grows limit_kb past its size now, a backstop for memory that
 * neither count sees (0: no backstop). */
void memlimit_backstop(long limit_kb);
/* In a batch worker, forked from a parent whose resident set was
 * parent_kb: the pages the parent had in memory come back into the
 * worker's resident set as it runs the same code, so no check of the
 * worker starts below it. */
void memlimit_rss_floor(long parent_kb);
/* The process's resident set now, in kB (0 if it cannot be read). */
long memlimit_rss_kb(void);
/* The default limit, in MB, for one of `jobs` checks running at once:
 * half of the memory the machine (or the process's cgroup) has, shared
 * among them. */
long memlimit_default_mb(int jobs);

#endif
