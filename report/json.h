/*
 * json.h - lkmmc --json: one test's answer as one line of JSON (JSON
 * Lines), the format docs/json.md describes field by field.
 *
 * The object is rendered from the check's result (solver/result.h: herd7's
 * block, the witness, the explanation, a data race, the assertion/
 * unwinding notes, a C program's report), from its messages on stderr,
 * and from its error when it failed (the error's kind as the error
 * carries it).  herd7's text is rendered from the same result, so both
 * say the same.  It does not check tests, print the text, nor read it
 * back.
 */
#ifndef LKMMC_JSON_H
#define LKMMC_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "common/diag.h"
#include "solver/result.h"

/* The version of the format, "json_version" in every object: raised when
 * a field changes meaning or goes; new fields may come without it. */
#define LKMMC_JSON_VERSION 1

/* What is known about one test. */
struct json_test {
	const char *file;         /* its path, as given */
	const char *model;        /* the model it was checked with (a folder,
				   * a -conf file or "built-in") */
	int status;               /* its exit status: 0, 1, 3 or 4 */
	const struct diag *error; /* why it failed (its kind: "kind" of the
				   * error object), or NULL */
	const struct check_result *result; /* its check's answer, NULL when
				   * it was not checked */
	const char *messages;     /* its standard error (warnings; the
				   * error's own line is left out) */
	size_t messages_len;      /* bytes of messages */
};

/* Write t as one JSON object and a newline. */
void json_test_write(FILE *out, const struct json_test *t);

/* The error object's "kind" for k: "error" (also for DIAG_INTERNAL),
 * "timeout", "memory" or "crash". */
const char *json_error_kind(enum diag_kind k);

#endif
