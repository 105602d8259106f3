/*
 * explanation.h - why a condition is never reached, as data: the axioms
 * of the minimal core, for each what became of it (shown, its self-check
 * failed, no execution violates only it, no relation to show) and the
 * steps of its cycle or pair, and the printer of --explain's text.
 *
 * explain_never (explain.h) fills it; every event and execution is
 * kept as data (execdata.h) and every fence as its instruction's text and
 * line, so the structure outlives the encoding and the Z3 context it was
 * read from (a check_result keeps it, result.h; check_result_print prints
 * it, --json renders it, --repair prints its header and first axiom).  It
 * does not search, ask Z3, or read text back.
 */
#ifndef LKMMC_EXPLANATION_H
#define LKMMC_EXPLANATION_H

#include <stdio.h>

#include "solver/execdata.h"

/* What became of one axiom of the core. */
enum explained {
	EXPLAINED_SHOWN,        /* its cycle or pair, self-checked */
	EXPLAINED_SELF_CHECK,   /* the steps found failed their self-check
				 * (an internal error, printed as one) */
	EXPLAINED_NO_EXECUTION, /* no execution violates only it (nor only
				 * it of the core) */
	EXPLAINED_NO_RELATION,  /* a check the model gives no relation of */
};

/* One step of a cycle or pair: from the previous event (or the axiom's
 * first) to event `to`, in relation rel. */
struct explanation_step {
	char *rel;        /* the named relation's name (owned) */
	char *fence;      /* the fence's or RMW's instruction text ("?" when
			   * it has none), NULL: no fence does the work
			   * (owned) */
	int fence_line;   /* its source line (0: unknown) */
	int to;           /* the event reached (the encoding's index) */
	struct check_event to_event; /* it as data, without its source
			   * ("P1:29 R x=0  r1 = READ_ONCE(*x)"; owned) */
};

struct explanation_axiom {
	char *name;                    /* the axiom's name (owned) */
	enum explained status;
	char *what;                    /* SHOWN: "cycle", "forbidden pair" or
				        * the model's word (owned) */
	int from;                      /* SHOWN: the first event (index) */
	struct check_event from_event; /* it as data, without its source
				        * (owned) */
	int nsteps;                    /* SHOWN: the steps, at least one */
	struct explanation_step *step; /* (owned) */
	struct check_execution *execution; /* all but NO_EXECUTION: the
				        * execution that violates it (owned),
				        * else NULL */
};

struct explanation {
	int found;                      /* a core was found; 0: the condition
					 * is reachable without the axioms or
					 * the solver gave up */
	int naxioms;                    /* the core's axioms, in the model's
					 * order (0 when the condition is
					 * never reached even without any) */
	struct explanation_axiom *axiom; /* (owned) */
};

/* Add an axiom named name with status st (no steps, from -1) and
 * return it, to be filled. */
struct explanation_axiom *explanation_add(struct explanation *e, const char *name,
					  enum explained st);

/* Add a step to a (SHOWN); copies rel and fence, takes to_event (its
 * strings are a's now). */
void explanation_step_add(struct explanation_axiom *a, const char *rel,
			  const char *fence, int fence_line, int to,
			  struct check_event to_event);

/* The words of the "Explanation:" line when no core was found. */
extern const char explanation_none[];

/* What the text says of an axiom with status st but its name ("no
 * execution found violating only it"), NULL for SHOWN (its cycle or
 * pair is shown instead). */
const char *explanation_status_note(enum explained st);

/* --explain's text, in parts: the "Explanation:" line; one axiom's why
 * (its cycle or pair, or what became of it) without the execution; one
 * axiom's whole block (why, then the execution when it has one). */
void explanation_print_header(const struct explanation *e, FILE *out);
void explanation_print_why(const struct explanation_axiom *a, FILE *out);
void explanation_print_axiom(const struct explanation_axiom *a, FILE *out);

/* Whether every axiom of a core found is shown (or has no relation to
 * show): --explain's answer is complete, no error to report. */
int explanation_complete(const struct explanation *e);

/* The whole text: the header, then every axiom's block. */
void explanation_print(const struct explanation *e, FILE *out);

void explanation_free(struct explanation *e);

#endif
