/*
 * repair_enc.h - --repair's candidates checked inside one encoding.
 *
 * The test is written once with every change of the menu under a choice
 * of its own (`if (__lkmmc_choice(K)) smp_mb();`, `(__lkmmc_choice(K) ?
 * smp_load_acquire(x) : READ_ONCE(*x))`), parsed, encoded and modelled
 * once; a set of changes is then one solver query under assumptions (the
 * chosen choices true, the others false) instead of a parse, an encoding
 * and a model of its own.  Asking is all it does: which sets to ask about
 * is repair.c's, and every repair printed is still re-checked from
 * scratch on its patched text.
 *
 * Not every test can be asked so: a loop (whose spin and bound checks the
 * one query does not make), two changes in one call (nested accesses), a
 * choice text that does not parse.  repair_enc_open then says no and
 * repair.c checks each candidate from scratch, as it always can.
 */
#ifndef LKMMC_REPAIR_ENC_H
#define LKMMC_REPAIR_ENC_H

#include "solver/options.h"
#include "repair/repair_menu.h"

struct frontend;
struct repair_enc;

/* Why repair_enc_open said no. */
enum repair_enc_refusal {
	REPAIR_ENC_SHAPE,    /* two changes in one call, or an edit of no
			      * known shape */
	REPAIR_ENC_UNPARSED, /* the choice text does not parse */
	REPAIR_ENC_LOOP,     /* a loop */
	REPAIR_ENC_SLOW,     /* building it passed build_by */
	REPAIR_ENC_FAILED,   /* it could not be built */
};

/* The refusal in words, for --stats (static text). */
const char *repair_enc_refusal_text(enum repair_enc_refusal why);

/* The one encoding of text with every change of m under a choice, checked
 * as co says (exists-only), or NULL when the test cannot be asked so (see
 * above) or building it passes build_by, and why in *why.  deadline: no
 * query past it (0: none). */
struct repair_enc *repair_enc_open(const struct check_options *co, struct frontend *fe,
				   const char *path, const char *text,
				   const struct repair_menu *m, double build_by,
				   double deadline, enum repair_enc_refusal *why);

/* Whether the test with the changes of pick (pick[i] != 0: change i of m)
 * reaches its outcome or can fail an assertion: 1; never and never: 0;
 * -1 when the solver did not answer by the time by (nor by the deadline
 * of repair_enc_open): then ask from scratch. */
int repair_enc_bad(struct repair_enc *re, const int *pick, double by);

void repair_enc_close(struct repair_enc *re);

/* The choice text itself (malloc'ed), or NULL when a change cannot be put
 * under a choice (two changes in one call, an edit of no known shape). */
char *repair_choice_text(const struct repair_menu *m, const char *text);

#endif
