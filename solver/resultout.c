/*
 * resultout.c - a check's whole answer as text, rendered from its result
 * (check_result_print, result.h): the parts in the order checker_run
 * always printed them.  herd7's block is herd7out.c's, an execution's
 * listing execdata.c's, the explanation explanation.c's; the parts that
 * are still text (a program's report, the notes) are copied as they are.
 */
#include "solver/result.h"

#include "solver/explanation.h"
#include "solver/herd7out.h"

static void put(const char *text, FILE *out)
{
	if (text)
		fputs(text, out);
}

void check_race_print(const struct check_race *race, FILE *out)
{
	fputs("Data race: ", out);
	check_event_print(&race->a, out);
	fputs("\n      and: ", out);
	check_event_print(&race->b, out);
	fputs("\n  in this execution:\n", out);
	check_execution_print(&race->x, out);
}

void check_result_print(const struct check_result *r, FILE *out, int with_time)
{
	put(r->program_text, out);
	if (r->verdict != CHECK_VERDICT_NONE)
		herd7_print(out, r, with_time);
	if (r->witness) {
		fputs("Witness: an execution reaching the condition\n", out);
		check_execution_print(r->witness, out);
		fprintf(out, "  re-checked against the model: %s\n\n",
			r->witness_rechecked ? "consistent, reaches the condition"
					     : "FAILED (internal error)");
	}
	if (r->explained) {
		explanation_print(r->explained, out);
		fputc('\n', out);
	}
	if (r->race) {
		check_race_print(r->race, out);
		fputc('\n', out);
	}
	put(r->notes, out);
}
