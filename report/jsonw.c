/*
 * jsonw.c - a JSON writer (see jsonw.h).
 */
#include "report/jsonw.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"

void jsonw_init(struct jsonw *w, FILE *out)
{
	*w = (struct jsonw){.out = out};
}

/* A comma before a value or key, unless it is the first of its level or
 * the value of a key just written. */
static void sep(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0 && w->used[w->depth - 1])
		fputc(',', w->out);
	if (w->depth > 0)
		w->used[w->depth - 1] = 1;
}

static void open_level(struct jsonw *w, int c)
{
	sep(w);
	CHECK(w->depth < JSONW_DEPTH, "JSON nested deeper than %d", JSONW_DEPTH);
	fputc(c, w->out);
	w->used[w->depth++] = 0;
}

static void close_level(struct jsonw *w, int c)
{
	CHECK(w->depth > 0, "a JSON object or array closed that was never opened");
	w->depth--;
	fputc(c, w->out);
}

void jsonw_obj_begin(struct jsonw *w) { open_level(w, '{'); }
void jsonw_obj_end(struct jsonw *w) { close_level(w, '}'); }
void jsonw_arr_begin(struct jsonw *w) { open_level(w, '['); }
void jsonw_arr_end(struct jsonw *w) { close_level(w, ']'); }

/* How many bytes of valid UTF-8 start at s (at most n left), 0: invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (s[0] >= 0xf5 || k == 0 || k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

static void put_string(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned c = p[i];
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc((int)c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc((int)c, out);
		} else {
			size_t k = utf8_len(p + i, n - i);
			if (k == 0) {
				fputs("\\ufffd", out);
			} else {
				fwrite(p + i, 1, k, out);
				i += k - 1;
			}
		}
	}
	fputc('"', out);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	sep(w);
	put_string(w->out, key, strlen(key));
	fputc(':', w->out);
	w->after_key = 1;
}

void jsonw_strn(struct jsonw *w, const char *s, size_t n)
{
	sep(w);
	put_string(w->out, s, n);
}

void jsonw_str(struct jsonw *w, const char *s)
{
	if (!s) {
		jsonw_null(w);
		return;
	}
	jsonw_strn(w, s, strlen(s));
}

void jsonw_long(struct jsonw *w, long v)
{
	sep(w);
	fprintf(w->out, "%ld", v);
}

void jsonw_double(struct jsonw *w, double v)
{
	sep(w);
	fprintf(w->out, "%.3f", v);
}

void jsonw_bool(struct jsonw *w, int v)
{
	sep(w);
	fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w)
{
	sep(w);
	fputs("null", w->out);
}

void jsonw_value(struct jsonw *w, const char *s, size_t n)
{
	char buf[32];
	if (n > 0 && n < sizeof buf) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		char *end;
		errno = 0;
		long v = strtol(buf, &end, 10);
		/* "07" or "+1" are not how lkmmc prints a number: kept as text */
		int canonical = (buf[0] == '-' ? buf[1] != '0' || n == 2 : buf[0] != '0' || n == 1) &&
				buf[0] != '+' && buf[0] != ' ';
		if (!*end && errno == 0 && canonical) {
			jsonw_long(w, v);
			return;
		}
	}
	jsonw_strn(w, s, n);
}
