/*
 * string.h - lkmmc's <string.h> for whole C programs: declared so that
 * a program including it parses.  The model has no bytes, only
 * locations: before the first pthread_create, main may set a whole
 * global to 0 with memset() or copy a whole global into another of its
 * type with memcpy() (initial values); any other call of these functions
 * is lkmmc's located error naming it.
 */
#ifndef LKMMC_STRING_H
#define LKMMC_STRING_H
#include <stddef.h>
void *memset(void *s, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strcpy(char *d, const char *s);
char *strncpy(char *d, const char *s, size_t n);
#endif
