/*
 * diag.c - located error messages; see diag.h.
 */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

static int vdiag(struct diag *d, enum diag_kind kind, const char *file, int line,
		 int col, const char *fmt, va_list ap)
{
	if (d->set)
		return 0;
	d->set = 1;
	d->kind = kind;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "<input>");
	d->line = line;
	d->col = col;
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	return 0;
}

int diag_error(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, DIAG_ERROR, file, line, col, fmt, ap);
	va_end(ap);
	return 0;
}

int diag_error_kind(struct diag *d, enum diag_kind kind, const char *file, int line,
		    int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, kind, file, line, col, fmt, ap);
	va_end(ap);
	return 0;
}

void diag_print(const struct diag *d, FILE *out)
{
	if (d->line > 0 && d->col > 0)
		fprintf(out, "%s:%d:%d: error: %s\n", d->file, d->line, d->col, d->msg);
	else if (d->line > 0)
		fprintf(out, "%s:%d: error: %s\n", d->file, d->line, d->msg);
	else
		fprintf(out, "%s: error: %s\n", d->file, d->msg);
}
