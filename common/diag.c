/*
 * diag.c - located error messages; see diag.h.
 */
#include "diag.h"

#include <stdarg.h>
#include <string.h>

int diag_error(struct diag *d, const char *file, int line, int col,
	       const char *fmt, ...)
{
	if (d->set)
		return 0;
	d->set = 1;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "<input>");
	d->line = line;
	d->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
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
