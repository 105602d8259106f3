/*
 * execdata.h - one execution as data: the events each thread executed
 * (with the write each read reads from), the coherence order of each
 * location written twice or more, the from-read pairs between threads
 * and the final state, in the terms of the litmus file and in the order
 * lkmmc prints them; and its text (the per-thread listing of witnesses,
 * races and explanations).
 *
 * readback.h fills one from a Z3 model (execution_record); the text and
 * --json (report/json.c) are rendered from it.  Values are kept as
 * printed ("1", "x", "S").  It asks no question and knows no encoding.
 */
#ifndef LKMMC_EXECDATA_H
#define LKMMC_EXECDATA_H

#include <stdio.h>

/* A write named by where it is: a thread's source line, or the initial
 * value; with the value it writes (what a read reads, a co entry). */
struct check_write {
	int thread;  /* -1: the initial write */
	int line;    /* its source line (0: none) */
	char *value; /* as printed */
};

/* One event as printed: "P1:27 R y=1  r0 = READ_ONCE(*y)", "init x=0". */
struct check_event {
	int thread;       /* -1: an initial write ("init x=0") */
	int line;         /* its source line (0: none) */
	const char *kind; /* "R", "W", "F", "LKW", ... (static); "W" for
			   * an initial write */
	char *loc;        /* its location, NULL when none is shown */
	char *value;      /* its value, NULL when none is shown */
	char *text;       /* its source text, NULL when none */
	int reads;        /* a read shown with its source: from */
	struct check_write from; /* what it reads (value) from where */
};

/* The writes to one location in coherence order. */
struct check_coherence {
	char *loc;
	int nwrites;
	struct check_write *writes;
};

/* A from-read pair between threads: read, then the write it misses. */
struct check_fr {
	struct check_event read, write;
};

/* One value of the final state: "[x]" or "0:r0", and its value. */
struct check_final {
	char *label, *value;
};

struct check_execution {
	int nthreads;                 /* threads P0 ... (each has a header,
				       * events or not) */
	int nevents;                  /* executed events of the threads, by
				       * thread then program order */
	struct check_event *events;
	int nco;                      /* locations with two writes or more */
	struct check_coherence *co;
	int nfr;
	struct check_fr *fr;
	int nfinal;                   /* locations, then registers */
	struct check_final *final;
};

/* "P1:27 R y=1  r0 = READ_ONCE(*y)" (no reads, no newline). */
void check_event_print(const struct check_event *e, FILE *out);
/* The per-thread listing, each line indented by two spaces. */
void check_execution_print(const struct check_execution *x, FILE *out);

void check_event_free(struct check_event *e);
/* Free what x owns (x itself is the caller's), and zero it. */
void check_execution_free(struct check_execution *x);

#endif
