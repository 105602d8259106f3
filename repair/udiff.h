/*
 * udiff.h - a unified diff (diff -u) of two texts, line by line, for
 * showing a repaired litmus file.  Meant for small files (it takes time
 * and memory in the product of their line counts); it does not read or
 * write files.
 */
#ifndef LKMMC_UDIFF_H
#define LKMMC_UDIFF_H

#include <stdio.h>

/* Print the diff of a (named name_a) to b (name_b) to out, 3 lines of
 * context around each change; nothing when they are equal. */
void udiff_print(const char *a, const char *b, const char *name_a,
		 const char *name_b, FILE *out);

#endif
