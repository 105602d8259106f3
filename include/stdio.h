/*
 * stdio.h - lkmmc's <stdio.h> for whole C programs: printing has no
 * effect on the memory the model sees (its arguments are still
 * evaluated: printf("%d", READ_ONCE(x)) reads x).  printf, fprintf,
 * puts, fputs, putchar and perror are understood; the other functions
 * are declared so that a use gets lkmmc's located error naming them.
 */
#ifndef LKMMC_STDIO_H
#define LKMMC_STDIO_H
#include <stddef.h>
typedef struct lkmmc_file FILE;
extern FILE *stdin, *stdout, *stderr;
#define EOF (-1)
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int puts(const char *s);
int fputs(const char *s, FILE *stream);
int putchar(int c);
void perror(const char *s);
int fflush(FILE *stream);
int sprintf(char *s, const char *format, ...);
int snprintf(char *s, size_t n, const char *format, ...);
int scanf(const char *format, ...);
int getchar(void);
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *stream);
#endif
