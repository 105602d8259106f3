/*
 * check.c - the end of a failed invariant check (see check.h).
 */
#include "common/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
{
	fflush(stdout);
	fprintf(stderr, "lkmmc: check failed: %s:%d: %s: ", file, line, cond);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (a bug of lkmmc: please report it with the test)\n", stderr);
	abort();
}
