/*
 * result.c - the words of a verdict and the life of a check_result
 * (result.h).  It fills nothing: check.c does, as it prints.
 */
#include "solver/result.h"
#include "solver/explanation.h"

#include <stdlib.h>

const char *check_verdict_word(enum check_verdict v)
{
	switch (v) {
	case CHECK_NEVER: return "Never";
	case CHECK_SOMETIMES: return "Sometimes";
	case CHECK_ALWAYS: return "Always";
	case CHECK_VERDICT_NONE: break;
	}
	return "";
}

enum check_verdict check_verdict_of(long pos, long neg)
{
	return pos == 0 ? CHECK_NEVER : neg == 0 ? CHECK_ALWAYS : CHECK_SOMETIMES;
}

int check_validated(enum ir_quant q, long pos, long neg)
{
	switch (q) {
	case IR_Q_EXISTS: return pos > 0;
	case IR_Q_NOT_EXISTS: return pos == 0;
	case IR_Q_FORALL: break;
	}
	return neg == 0;
}

void check_result_free(struct check_result *r)
{
	for (int i = 0; i < r->nflags; i++)
		free(r->flags[i]);
	free(r->flags);
	r->flags = NULL;
	explanation_free(r->explanation);
	r->explanation = NULL;
	r->nflags = 0;
}

void check_result_reset(struct check_result *r)
{
	check_result_free(r);
	*r = (struct check_result){.nstates = -1};
}
