/*
 * json_text.h - the explanation's text read back into --json (json.c):
 * the one remaining reader of lkmmc's printed text, until
 * solver/explain.c gives its answer as data.
 */
#ifndef LKMMC_JSON_TEXT_H
#define LKMMC_JSON_TEXT_H

#include <stddef.h>

#include "report/jsonw.h"

/* A line of text kept as a note (not NUL-terminated). */
struct json_note {
	const char *s;
	size_t n;
};

/* Each section of text ("Explanation: ..." up to a blank line) as a
 * member of w's open object ("explanation"; a "Witness:" or "Data
 * race:" section as "witness" or "race"); every other non-empty line
 * appended to *notes (*n of them, room for *cap). */
void json_text_read(struct jsonw *w, const char *text, struct json_note **notes,
		    size_t *n, size_t *cap);

#endif
