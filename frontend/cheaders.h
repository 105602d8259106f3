/*
 * cheaders.h - the headers lkmmc builds in for whole C programs (the
 * files of include/: lkmm.h, pthread.h, assert.h, ...), as text.  The
 * Makefile generates their table (build/gen/cheaders.c) from include/;
 * cprog.c gives them to libclang.  Nothing here parses.
 */
#ifndef LKMMC_CHEADERS_H
#define LKMMC_CHEADERS_H

/* One built-in header. */
struct cheader {
	const char *name; /* its name in #include <name> */
	const char *text; /* its contents */
};

/* The headers, ended by a row of NULLs. */
extern const struct cheader cheaders[];

#endif
