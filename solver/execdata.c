/*
 * execdata.c - an execution as data, printed and freed (execdata.h).
 * The text is lkmmc's per-thread listing, which herd7's users and the
 * corpus conformance know line by line.
 */
#include "solver/execdata.h"

#include <stdlib.h>

/* "P0:18" or "init" */
static void write_print(const struct check_write *w, FILE *out)
{
	if (w->thread < 0)
		fputs("init", out);
	else
		fprintf(out, "P%d:%d", w->thread, w->line);
}

void check_event_print(const struct check_event *e, FILE *out)
{
	if (e->thread < 0) {
		fprintf(out, "init %s=%s", e->loc ? e->loc : "?", e->value ? e->value : "");
		return;
	}
	fprintf(out, "P%d:%d %s", e->thread, e->line, e->kind);
	if (e->loc) {
		fprintf(out, " %s", e->loc);
		if (e->value)
			fprintf(out, "=%s", e->value);
	}
	if (e->text)
		fprintf(out, "  %s", e->text);
}

void check_execution_print(const struct check_execution *x, FILE *out)
{
	int k = 0;
	for (int t = 0; t < x->nthreads; t++) {
		fprintf(out, "  P%d:\n", t);
		for (; k < x->nevents && x->events[k].thread == t; k++) {
			const struct check_event *e = &x->events[k];
			fputs("    ", out);
			check_event_print(e, out);
			if (e->reads) {
				fprintf(out, "  reads %s from ", e->from.value);
				write_print(&e->from, out);
			}
			fputc('\n', out);
		}
	}
	for (int i = 0; i < x->nco; i++) {
		const struct check_coherence *c = &x->co[i];
		fprintf(out, "  co %s:", c->loc);
		for (int j = 0; j < c->nwrites; j++) {
			fprintf(out, "%s%s (", j ? " -> " : " ", c->writes[j].value);
			write_print(&c->writes[j], out);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	for (int i = 0; i < x->nfr; i++) {
		fputs("  fr: ", out);
		check_event_print(&x->fr[i].read, out);
		fputs("  -->  ", out);
		check_event_print(&x->fr[i].write, out);
		fputc('\n', out);
	}
	fputs("  final:", out);
	for (int i = 0; i < x->nfinal; i++)
		fprintf(out, " %s=%s;", x->final[i].label, x->final[i].value);
	fputc('\n', out);
}

void check_event_free(struct check_event *e)
{
	free(e->loc);
	free(e->value);
	free(e->text);
	free(e->from.value);
	*e = (struct check_event){0};
}

void check_execution_free(struct check_execution *x)
{
	for (int i = 0; i < x->nevents; i++)
		check_event_free(&x->events[i]);
	free(x->events);
	for (int i = 0; i < x->nco; i++) {
		for (int j = 0; j < x->co[i].nwrites; j++)
			free(x->co[i].writes[j].value);
		free(x->co[i].writes);
		free(x->co[i].loc);
	}
	free(x->co);
	for (int i = 0; i < x->nfr; i++) {
		check_event_free(&x->fr[i].read);
		check_event_free(&x->fr[i].write);
	}
	free(x->fr);
	for (int i = 0; i < x->nfinal; i++) {
		free(x->final[i].label);
		free(x->final[i].value);
	}
	free(x->final);
	*x = (struct check_execution){0};
}
