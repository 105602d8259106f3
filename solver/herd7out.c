/*
 * herd7out.c - herd7's output block for one test (herd7out.h).
 *
 * The format, line by line, is herd7's (see ../shared/LKMM-NOTES.md,
 * "Output"); Positive/Negative count final states where herd7 counts
 * executions, as the README says.
 */
#include "solver/herd7out.h"

#include "solver/result.h"
#include "solver/states.h"

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

void herd7_print(FILE *out, const struct ir_program *prog, const struct herd7_answer *a)
{
	long pos = a->pos, neg = a->neg;
	int validated = check_validated(prog->quant, pos, neg);
	const char *obs = check_verdict_word(check_verdict_of(pos, neg));
	fprintf(out, "Test %s %s\n", prog->name, quant_names(prog->quant).word);
	if (a->states) {
		fprintf(out, "States %ld\n", state_set_size(a->states));
		state_set_print(a->states, out);
	}
	fprintf(out, "%s%s\n", a->loop ? "Loop " : "", validated ? "Ok" : "No");
	fprintf(out, "Witnesses\n");
	if (prog->quant == IR_Q_NOT_EXISTS)
		fprintf(out, "Positive: %ld Negative: %ld\n", neg, pos);
	else
		fprintf(out, "Positive: %ld Negative: %ld\n", pos, neg);
	for (int f = 0; f < a->nflags; f++)
		fprintf(out, "Flag %s\n", a->flags[f]);
	fprintf(out, "Condition %s %s\n", quant_names(prog->quant).text,
		prog->cond_text ? prog->cond_text : "");
	fprintf(out, "Observation %s %s %ld %ld\n", prog->name, obs, pos, neg);
	fprintf(out, "Time %s %.2f\n", prog->name, a->seconds);
	fprintf(out, "\n");
}
