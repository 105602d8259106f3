/*
 * stdlib.h - lkmmc's <stdlib.h>: abort() and exit() end the path that
 * calls them; malloc and friends are declared so that a use gets lkmmc's
 * "unsupported" error.
 */
#ifndef LKMMC_STDLIB_H
#define LKMMC_STDLIB_H
#include <stddef.h>
void abort(void);
void exit(int status);
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#endif
