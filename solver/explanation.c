/*
 * explanation.c - the life of an explanation and --explain's text of it;
 * see explanation.h.  It finds nothing: explain.c does.
 */
#include "solver/explanation.h"

#include <stdlib.h>

#include "common/check.h"
#include "common/xalloc.h"

struct explanation_axiom *explanation_add(struct explanation *e, const char *name,
					  enum explained st)
{
	e->axiom = xrealloc(e->axiom, sizeof *e->axiom * (size_t)(e->naxioms + 1));
	struct explanation_axiom *a = &e->axiom[e->naxioms++];
	*a = (struct explanation_axiom){.name = xstrdup(name), .status = st, .from = -1};
	return a;
}

void explanation_step_add(struct explanation_axiom *a, const char *rel,
			  const char *fence, int fence_line, int to,
			  struct check_event to_event)
{
	CHECK(a->status == EXPLAINED_SHOWN, "steps of axiom %s, not shown", a->name);
	a->step = xrealloc(a->step, sizeof *a->step * (size_t)(a->nsteps + 1));
	a->step[a->nsteps++] = (struct explanation_step){
		.rel = xstrdup(rel), .fence = fence ? xstrdup(fence) : NULL,
		.fence_line = fence_line, .to = to, .to_event = to_event};
}

const char explanation_none[] = "none (the condition is reachable or the solver gave up)";

const char *explanation_status_note(enum explained st)
{
	switch (st) {
	case EXPLAINED_NO_RELATION: return "violated (a check lkmmc shows no relation of)";
	case EXPLAINED_NO_EXECUTION: return "no execution found violating only it";
	case EXPLAINED_SELF_CHECK: return "internal error: the explanation failed its self-check";
	case EXPLAINED_SHOWN: break;
	}
	return NULL;
}

void explanation_print_header(const struct explanation *e, FILE *out)
{
	if (!e->found) {
		fprintf(out, "Explanation: %s\n", explanation_none);
		return;
	}
	fputs("Explanation: the condition is never reached because of", out);
	for (int i = 0; i < e->naxioms; i++)
		fprintf(out, " %s", e->axiom[i].name);
	fputc('\n', out);
}

void explanation_print_why(const struct explanation_axiom *a, FILE *out)
{
	const char *note = explanation_status_note(a->status);
	if (note) {
		fprintf(out, "  %s: %s\n", a->name, note);
		return;
	}
	CHECK(a->nsteps > 0 && a->what, "axiom %s shown without steps", a->name);
	fprintf(out, "  %s %s:\n    ", a->name, a->what);
	check_event_print(&a->from_event, out);
	fputc('\n', out);
	for (int i = 0; i < a->nsteps; i++) {
		const struct explanation_step *s = &a->step[i];
		fprintf(out, "      --[%s", s->rel);
		if (s->fence)
			fprintf(out, ": %s line %d", s->fence, s->fence_line);
		fputs("]--> ", out);
		check_event_print(&s->to_event, out);
		fputc('\n', out);
	}
}

void explanation_print_axiom(const struct explanation_axiom *a, FILE *out)
{
	explanation_print_why(a, out);
	if (a->status == EXPLAINED_NO_EXECUTION)
		return;
	CHECK(a->execution, "axiom %s without its execution", a->name);
	fputs("  in this execution (which reaches the condition):\n", out);
	check_execution_print(a->execution, out);
}

int explanation_complete(const struct explanation *e)
{
	if (!e->found)
		return 0;
	for (int i = 0; i < e->naxioms; i++)
		if (e->axiom[i].status != EXPLAINED_SHOWN &&
		    e->axiom[i].status != EXPLAINED_NO_RELATION)
			return 0;
	return 1;
}

void explanation_print(const struct explanation *e, FILE *out)
{
	explanation_print_header(e, out);
	for (int i = 0; i < e->naxioms; i++)
		explanation_print_axiom(&e->axiom[i], out);
}

void explanation_free(struct explanation *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->naxioms; i++) {
		struct explanation_axiom *a = &e->axiom[i];
		for (int k = 0; k < a->nsteps; k++) {
			free(a->step[k].rel);
			free(a->step[k].fence);
			check_event_free(&a->step[k].to_event);
		}
		free(a->step);
		free(a->name);
		free(a->what);
		check_event_free(&a->from_event);
		if (a->execution)
			check_execution_free(a->execution);
		free(a->execution);
	}
	free(e->axiom);
	free(e);
}
