/*
 * herd7out.c - herd7's output block for one test (herd7out.h), rendered
 * from the check's result.
 *
 * The format, line by line, is herd7's (see ../shared/LKMM-NOTES.md,
 * "Output"); Positive/Negative count final states where herd7 counts
 * executions, as the README says.
 */
#include "solver/herd7out.h"

/* How herd7 names each quantifier: the word on the Test line and the
 * condition's keyword. */
struct quant_names {
	const char *word;	/* "Test NAME <word>" */
	const char *text;	/* "Condition <text> ..." */
};

static struct quant_names quant_names(enum ir_quant q)
{
	switch (q) {
	case IR_Q_NOT_EXISTS: return (struct quant_names){ "Forbidden", "~exists" };
	case IR_Q_FORALL: return (struct quant_names){ "Required", "forall" };
	case IR_Q_EXISTS: break;
	}
	return (struct quant_names){ "Allowed", "exists" };
}

const char *herd7_quant_text(enum ir_quant q)
{
	return quant_names(q).text;
}

void herd7_print(FILE *out, const struct check_result *r, int with_time)
{
	long pos = r->pos, neg = r->neg;
	fprintf(out, "Test %s %s\n", r->name, quant_names(r->quant).word);
	if (r->nstates >= 0) {
		fprintf(out, "States %ld\n", r->nstates);
		for (long i = 0; i < r->states.n; i++)
			check_state_print(&r->states, i, out);
	}
	fprintf(out, "%s%s\n", r->loop ? "Loop " : "", r->validated ? "Ok" : "No");
	fprintf(out, "Witnesses\n");
	if (r->quant == IR_Q_NOT_EXISTS)
		fprintf(out, "Positive: %ld Negative: %ld\n", neg, pos);
	else
		fprintf(out, "Positive: %ld Negative: %ld\n", pos, neg);
	for (int f = 0; f < r->nflags; f++)
		fprintf(out, "Flag %s\n", r->flags[f]);
	fprintf(out, "Condition %s %s\n", quant_names(r->quant).text,
		r->cond_text ? r->cond_text : "");
	fprintf(out, "Observation %s %s %ld %ld\n", r->name, check_verdict_word(r->verdict),
		pos, neg);
	if (with_time)
		fprintf(out, "Time %s %.2f\n", r->name, r->seconds);
	fprintf(out, "\n");
}
