/*
 * frontend.h - litmus file -> ir_program.
 *
 * The front end reads herd7's C litmus dialect: the header, the init block,
 * the processes (whose bodies libclang parses as C against a prelude that
 * declares the kernel API) and the final clauses.  It reports the first
 * problem as a located diag and never guesses.  It knows nothing about
 * events or the memory model.
 */
#ifndef LKMMC_FRONTEND_H
#define LKMMC_FRONTEND_H

#include <stdio.h>

#include "common/diag.h"
#include "ir.h"

struct frontend;

/* One front end per batch: it keeps the libclang index across tests. */
struct frontend *frontend_new(void);
void frontend_free(struct frontend *fe);
/* How many times a helper function may be inlined into itself (recursion
 * depth; --unroll, default 2). */
void frontend_set_unroll(struct frontend *fe, int n);

/* With on, __lkmmc_choice(K) (K a constant) in a thread is a value 0 or 1
 * left open, IR_E_CHOICE K: the texts --repair builds to search inside
 * one encoding (repair/repair_enc.c).  Off (the default), the name is an
 * unknown primitive like any other. */
void frontend_set_choices(struct frontend *fe, int on);

/* Arguments for clang when a file is a whole C program (the user's -I
 * DIR and -D NAME[=V]); not copied: they must outlive the front end. */
void frontend_set_cargs(struct frontend *fe, const char *const *args, int n);

/* The kernel primitives from now on: t, a model's .def read by
 * kdef_parse() (frontend/kapi.h), or NULL for the built-in ones.  t must
 * outlive the programs parsed with it (they point to its tag names). */
struct kapi_table;
void frontend_set_macros(struct frontend *fe, const struct kapi_table *t);

/* Parse one litmus file, or a whole C program (a ".c" file, or one
 * starting with a preprocessor directive).  Returns NULL and fills d on error. */
struct ir_program *frontend_parse_file(struct frontend *fe, const char *path,
				       struct diag *d);
/* Same, from text in memory (path is used for messages only). */
struct ir_program *frontend_parse_text(struct frontend *fe, const char *path,
				       const char *text, struct diag *d);

/* Print the program in lkmmc's stable IR text form (--dump-ir). */
void ir_dump(const struct ir_program *prog, FILE *out);
/* Print a litmus test as a whole C program that lkmmc reads back into the
 * same events (--to-c; ir_to_c.c).  Returns 1, or 0 with d filled. */
int ir_to_c(const struct ir_program *prog, FILE *out, struct diag *d);

#endif
