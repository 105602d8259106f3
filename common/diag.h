/*
 * diag.h - located error messages for bad input.
 *
 * Every error lkmmc reports about a test names the file, line and column and
 * says what is wrong and, where it can, what to do:
 *   file.litmus:12:9: error: unknown kernel primitive 'foo'
 * A diag holds the first error found; callers stop at the first error.
 */
#ifndef LKMMC_DIAG_H
#define LKMMC_DIAG_H

#include <stdio.h>

struct diag {
	int set;           /* 1 once an error is recorded */
	char file[512];    /* file the error is in */
	int line, col;     /* 1-based position, 0 when unknown */
	char msg[1024];    /* the message, without "error: " */
};

/* Record an error unless one is already recorded (the first one wins).
 * Returns 0 so that callers can write "return diag_error(...);" in parsers. */
int diag_error(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Print "file:line:col: error: msg" (one line) to out. */
void diag_print(const struct diag *d, FILE *out);

#endif
