/*
 * cparse.h - process bodies through libclang: one virtual C file per test
 * (a prelude declaring the kernel API, then each process as a function whose
 * body is the litmus text byte for byte), parsed by libclang and walked into
 * IR instructions; and (cprog.c) a whole C program, one translation unit,
 * into the same IR.  The libclang index lives as long as the front end.
 */
#ifndef LKMMC_CPARSE_H
#define LKMMC_CPARSE_H

struct fe;
struct cparse;
struct kapi_table;

/* The prelude declares the primitives of t (NULL: the built-in ones). */
struct cparse *cparse_new(const struct kapi_table *t);
void cparse_free(struct cparse *cp);

/* Parse and lower every process body of fe into fe->prog->threads.
 * Returns 1 on success, 0 with fe->d set. */
int cparse_bodies(struct cparse *cp, struct fe *fe);

/* cprog.c: parse fe->text as a whole C program (clang arguments cargs,
 * the user's -I and -D) into fe->prog.  Returns 1 on success, 0 with
 * fe->d set. */
int cparse_program(struct cparse *cp, struct fe *fe, const char *const *cargs,
		   int ncargs);
/* The libclang index (a CXIndex) kept across tests. */
void *cparse_index(struct cparse *cp);

#endif
