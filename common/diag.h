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

/* What kind of failure an error is: what a caller does about it differs
 * (--json's "kind", a batch's status) while the message is for people.
 * Set where the error is made (diag_error_kind), never worked out from
 * the message afterwards. */
enum diag_kind {
	DIAG_ERROR = 0, /* the test cannot be parsed or checked as written
			 * (unsupported, bad input, a step that failed) */
	DIAG_TIMEOUT,   /* the time limit was reached, or the solver gave up */
	DIAG_MEMORY,    /* the memory limit was reached */
	DIAG_INTERNAL,  /* lkmmc broke one of its own promises (a bug): a
			 * witness the model rejects, a parse failed with no
			 * message, a case no code handles */
	DIAG_CRASH,     /* the process checking it died (a batch's worker) */
};

struct diag {
	int set;           /* 1 once an error is recorded */
	enum diag_kind kind; /* what kind of failure (DIAG_ERROR unless said) */
	char file[512];    /* file the error is in */
	int line, col;     /* 1-based position, 0 when unknown */
	char msg[1024];    /* the message, without "error: " */
};

/* Record an error unless one is already recorded (the first one wins).
 * Returns 0 so that callers can write "return diag_error(...);" in parsers. */
int diag_error(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* diag_error of a kind other than DIAG_ERROR (the kind too is the first
 * error's). */
int diag_error_kind(struct diag *d, enum diag_kind kind, const char *file, int line,
		    int col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Print "file:line:col: error: msg" (one line) to out. */
void diag_print(const struct diag *d, FILE *out);

#endif
