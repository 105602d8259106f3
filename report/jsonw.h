/*
 * jsonw.h - write one JSON value to a stream, piece by piece: objects,
 * arrays, keys, strings, numbers, with the commas put in for the caller.
 *
 * It writes compact JSON on one line (for JSON Lines) and escapes strings
 * (quotes, backslashes, control characters; bytes that are not UTF-8 become
 * U+FFFD).  It does not check that keys and values alternate, nor read
 * JSON.  Nesting deeper than JSONW_DEPTH, or closing more than was
 * opened, is a caller bug (a failed check, common/check.h).
 */
#ifndef LKMMC_JSONW_H
#define LKMMC_JSONW_H

#include <stddef.h>
#include <stdio.h>

#define JSONW_DEPTH 32

struct jsonw {
	FILE *out;                        /* where the JSON goes */
	int depth;                        /* open objects and arrays */
	unsigned char used[JSONW_DEPTH];  /* per level: something written in
					   * it already (a comma is due) */
	int after_key;                    /* a key was just written: its
					   * value needs no comma */
};

void jsonw_init(struct jsonw *w, FILE *out);
void jsonw_obj_begin(struct jsonw *w);
void jsonw_obj_end(struct jsonw *w);
void jsonw_arr_begin(struct jsonw *w);
void jsonw_arr_end(struct jsonw *w);
/* An object's key; its value follows. */
void jsonw_key(struct jsonw *w, const char *key);
/* A string value (NULL: null); jsonw_strn takes n bytes of s. */
void jsonw_str(struct jsonw *w, const char *s);
void jsonw_strn(struct jsonw *w, const char *s, size_t n);
void jsonw_long(struct jsonw *w, long v);
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, int v);
void jsonw_null(struct jsonw *w);
/* A value as lkmmc prints one ("1", "-3", "x", "S"): a JSON integer when
 * it is one, else a string. */
void jsonw_value(struct jsonw *w, const char *s, size_t n);

#endif
