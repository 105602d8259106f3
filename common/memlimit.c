/*
 * memlimit.c - the memory limit of a check (see memlimit.h).
 *
 * MEMLIMIT_OVERHEAD: on bench/gen-families.sh's long-shared family (the
 * one tests/e2e-memory.sh uses; N = 20..80, 60 to 230 events), the
 * resident set's growth over a check was 1.0 to 1.2 times the count (Z3's
 * allocation growth plus the arenas), its peak up to 1.17 times; 1.25
 * leaves room for the allocator's fragmentation on other shapes.
 *
 * The limited check is also the process's: Z3's memory parameters are
 * process-wide, and Z3's error handler and malloc's failure (xalloc.c)
 * have no way to name the test but `active`, the one check limited now.
 * It is the only state here, set by memlimit_begin, cleared by
 * memlimit_end.
 */
#include "common/memlimit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <z3.h>

/* The check limited now (NULL: none); see the file's comment. */
static struct memlimit *active;
/* The least resident set a check starts from (memlimit_rss_floor), a
 * property of the process set once after fork. */
static long rss_floor_kb;

long memlimit_rss_kb(void)
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

static void set_z3_param(const char *name, uint64_t value)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)value);
	Z3_global_param_set(name, buf);
}

/* Z3's watermark at what the budget leaves beside arena bytes, and its
 * hard stop a quarter of the budget above (the work between two of the
 * encoder's questions, a model's construction).  The watermark is an
 * unsigned int of bytes: past 4 GB only the hard stop (in MB) holds. */
static void set_z3_limits(struct memlimit *m, size_t arena)
{
	uint64_t left = m->budget > arena ? m->budget - arena : 0;
	uint64_t mark = m->z3_start + left;
	uint64_t hard = mark + m->budget / 4;
	set_z3_param("memory_high_watermark", mark <= UINT_MAX ? mark : 0);
	set_z3_param("memory_max_size", (hard >> 20) + 1);
	m->arena_set = arena;
}

void memlimit_begin(struct memlimit *m, const char *file, long limit_kb,
		    int exit_status, int err_fd)
{
	*m = (struct memlimit){.file = file, .limit_kb = limit_kb,
			       .exit_status = exit_status, .err_fd = err_fd};
	if (limit_kb <= 0)
		return;
	long rss = memlimit_rss_kb();
	m->start_rss_kb = rss > rss_floor_kb ? rss : rss_floor_kb;
	m->z3_start = Z3_get_estimated_alloc_size();
	long room_kb = limit_kb - m->start_rss_kb - MEMLIMIT_RESERVE_MB * 1024L;
	m->budget = room_kb > 0 ? (uint64_t)((double)room_kb * 1024 / MEMLIMIT_OVERHEAD) : 0;
	active = m;
	set_z3_limits(m, 0);
	memlimit_over(m, 0); /* no room at all: over before anything */
}

int memlimit_over(struct memlimit *m, size_t arena_bytes)
{
	if (!m || m->limit_kb <= 0)
		return 0;
	if (m->over)
		return 1;
	uint64_t now = Z3_get_estimated_alloc_size();
	uint64_t used = (now > m->z3_start ? now - m->z3_start : 0) + arena_bytes;
	if (used > m->budget || m->budget == 0) {
		m->over = 1;
		return 1;
	}
	/* The arenas grew: Z3's share shrinks (a megabyte at a time, not
	 * every row). */
	if (arena_bytes > m->arena_set + (1u << 20))
		set_z3_limits(m, arena_bytes);
	return 0;
}

void memlimit_note_unknown(const char *reason)
{
	/* Z3 4.8's reason for its high watermark is "memout" */
	if (active && reason && (strstr(reason, "memout") || strstr(reason, "memory")))
		active->over = 1;
}

int memlimit_stopped(void)
{
	return active && active->over;
}

void memlimit_end(struct memlimit *m)
{
	if (m->limit_kb <= 0)
		return;
	Z3_global_param_set("memory_high_watermark", "0");
	Z3_global_param_set("memory_max_size", "0");
	if (active == m)
		active = NULL;
}

void memlimit_out_of_memory(void)
{
	struct memlimit *m = active;
	if (!m) {
		fputs("lkmmc: out of memory\n", stderr);
		abort();
	}
	if (m->exit_status != MEMLIMIT_EXIT) {
		fflush(stdout);
		dprintf(m->err_fd, "%s: error: too large for the memory limit: "
			"%ld MB allowed, of which %ld MB were in use when the check "
			"began; try --exists-only, a smaller --unroll, or "
			"--max-memory MB\n", m->file, m->limit_kb / 1024,
			m->start_rss_kb / 1024);
	}
	/* not exit(): Z3's statics would be destroyed under its feet */
	_exit(m->exit_status);
}

/* The process's data segment now (VmData), in kB; 0 if unknown. */
static long data_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return 0;
	char line[256];
	long kb = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmData: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void memlimit_rss_floor(long parent_kb)
{
	rss_floor_kb = parent_kb;
}

void memlimit_backstop(long limit_kb)
{
	struct rlimit r;
	long now = data_kb();
	if (limit_kb <= 0 || now <= 0 || getrlimit(RLIMIT_DATA, &r) != 0)
		return;
	rlim_t want = ((rlim_t)now + (rlim_t)limit_kb) * 1024;
	if (r.rlim_max != RLIM_INFINITY && want > r.rlim_max)
		want = r.rlim_max;
	r.rlim_cur = want;
	setrlimit(RLIMIT_DATA, &r);
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

long memlimit_default_mb(int jobs)
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
