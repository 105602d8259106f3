/*
 * repair_cost.c - the price of each kind of change; see repair_cost.h.
 */
#include "repair/repair_cost.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[RK_COUNT] = {
	[RK_MB] = "smp_mb",
	[RK_RMB] = "smp_rmb",
	[RK_WMB] = "smp_wmb",
	[RK_BEFORE_ATOMIC] = "smp_mb__before_atomic",
	[RK_AFTER_ATOMIC] = "smp_mb__after_atomic",
	[RK_AFTER_SPINLOCK] = "smp_mb__after_spinlock",
	[RK_AFTER_UNLOCK_LOCK] = "smp_mb__after_unlock_lock",
	[RK_LOAD_ACQUIRE] = "load-acquire",
	[RK_STORE_RELEASE] = "store-release",
	[RK_RMW_ACQUIRE] = "rmw-acquire",
	[RK_RMW_RELEASE] = "rmw-release",
	[RK_RMW_MB] = "rmw-mb",
};

/* The defaults: a one-sided annotation 1, a fence of one class 2, a full
 * fence (or what is one on some architecture) 4. */
static const int default_cost[RK_COUNT] = {
	[RK_MB] = 4, [RK_RMB] = 2, [RK_WMB] = 2,
	[RK_BEFORE_ATOMIC] = 4, [RK_AFTER_ATOMIC] = 4,
	[RK_AFTER_SPINLOCK] = 4, [RK_AFTER_UNLOCK_LOCK] = 4,
	[RK_LOAD_ACQUIRE] = 1, [RK_STORE_RELEASE] = 1,
	[RK_RMW_ACQUIRE] = 1, [RK_RMW_RELEASE] = 1, [RK_RMW_MB] = 4,
};

const char *repair_kind_name(enum repair_kind k)
{
	return k >= 0 && k < RK_COUNT ? kind_names[k] : "?";
}

void repair_costs_default(struct repair_costs *c)
{
	memcpy(c->cost, default_cost, sizeof c->cost);
}

/* One line "NAME COST" (line is NUL-terminated, no newline). */
static int read_line(struct repair_costs *c, int seen[RK_COUNT], char *line,
		     const char *path, int lineno, struct diag *d)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char *p = line;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 1;
	char *name = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	size_t nlen = (size_t)(p - name);
	int k = 0;
	while (k < RK_COUNT && !(strlen(kind_names[k]) == nlen &&
				 strncmp(kind_names[k], name, nlen) == 0))
		k++;
	if (k == RK_COUNT)
		return diag_error(d, path, lineno, (int)(name - line) + 1,
				  "unknown change '%.*s' (one of smp_mb, smp_rmb, smp_wmb, "
				  "smp_mb__before_atomic, smp_mb__after_atomic, "
				  "smp_mb__after_spinlock, smp_mb__after_unlock_lock, "
				  "load-acquire, store-release, rmw-acquire, rmw-release, rmw-mb)",
				  (int)nlen, name);
	if (seen[k])
		return diag_error(d, path, lineno, (int)(name - line) + 1,
				  "'%s' is priced twice (first on line %d)",
				  kind_names[k], seen[k]);
	while (isspace((unsigned char)*p))
		p++;
	char *num = p;
	if (!*num)
		return diag_error(d, path, lineno, (int)(num - line) + 1,
				  "'%s' needs a cost, a whole number from 1 to 1000",
				  kind_names[k]);
	char *end;
	errno = 0;
	long v = strtol(num, &end, 10);
	char *rest = end;
	while (isspace((unsigned char)*rest))
		rest++;
	if (end == num || !isdigit((unsigned char)*num) || errno || v < 1 || v > 1000)
		return diag_error(d, path, lineno, (int)(num - line) + 1,
				  "the cost of '%s' must be a whole number from 1 to 1000",
				  kind_names[k]);
	if (*rest)
		return diag_error(d, path, lineno, (int)(rest - line) + 1,
				  "unexpected '%s' after the cost (one \"NAME COST\" a line)",
				  rest);
	seen[k] = lineno;
	c->cost[k] = (int)v;
	return 1;
}

int repair_costs_read(struct repair_costs *c, const char *path, struct diag *d)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return diag_error(d, path, 0, 0, "cannot read the cost file: %s",
				  strerror(errno));
	int seen[RK_COUNT] = {0};
	char *line = NULL;
	size_t room = 0;
	ssize_t len;
	int lineno = 0, ok = 1;
	while (ok && (len = getline(&line, &room, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		ok = read_line(c, seen, line, path, lineno, d);
	}
	free(line);
	fclose(f);
	return ok;
}
