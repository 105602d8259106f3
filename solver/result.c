/*
 * result.c - the words of a verdict, the values of the final states and
 * the life of a check_result (result.h).  It fills nothing (check.c
 * does) and prints nothing but a state's line (resultout.c prints the
 * rest).
 */
#include "solver/result.h"
#include "solver/explanation.h"

#include <stdint.h>
#include <stdlib.h>

#include "common/check.h"

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

long check_state_value(const struct check_states *st, long i, int j)
{
	CHECK_DEEP(i >= 0 && i < st->n && j >= 0 && j < st->ncols,
		   "state %ld column %d of %ld x %d", i, j, st->n, st->ncols);
	size_t at = (size_t)i * (size_t)st->ncols + (size_t)j;
	return st->wide ? ((const long *)st->val)[at] : ((const int32_t *)st->val)[at];
}

const char *check_value_text(const struct check_states *st, long v, char *buf)
{
	if (v >= st->loc_base && v - st->loc_base < st->nlocs)
		return st->locs[v - st->loc_base];
	if (v == st->symbolic)
		return "S"; /* herd7 numbers its symbols: S16 */
	/* "%ld" at a tenth of snprintf's cost (lists of 10^7 values) */
	char *p = buf + 23;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
	*p = 0;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	return p;
}

void check_state_print(const struct check_states *st, long i, FILE *out)
{
	char buf[24];
	for (int c = 0; c < st->ncols; c++) {
		fputs(st->cols[c], out);
		fputc('=', out);
		fputs(check_value_text(st, check_state_value(st, i, c), buf), out);
		fputs(c + 1 < st->ncols ? "; " : ";", out);
	}
	fputc('\n', out);
}

void check_states_free(struct check_states *st)
{
	for (int c = 0; c < st->ncols; c++)
		free(st->cols[c]);
	free(st->cols);
	for (int l = 0; l < st->nlocs; l++)
		free(st->locs[l]);
	free(st->locs);
	free(st->val);
	*st = (struct check_states){0};
}

void check_race_free(struct check_race *race)
{
	if (!race)
		return;
	check_event_free(&race->a);
	check_event_free(&race->b);
	check_execution_free(&race->x);
	free(race);
}

void check_result_free(struct check_result *r)
{
	for (int i = 0; i < r->nflags; i++)
		free(r->flags[i]);
	free(r->flags);
	r->flags = NULL;
	explanation_free(r->explained);
	r->explained = NULL;
	r->nflags = 0;
	free((char *)r->name);
	free((char *)r->cond_text);
	r->name = r->cond_text = NULL;
	check_states_free(&r->states);
	free(r->program_text);
	r->program_text = NULL;
	if (r->witness)
		check_execution_free(r->witness);
	free(r->witness);
	r->witness = NULL;
	check_race_free(r->race);
	r->race = NULL;
	free(r->notes);
	r->notes = NULL;
}

void check_result_reset(struct check_result *r)
{
	check_result_free(r);
	*r = (struct check_result){.nstates = -1};
}
