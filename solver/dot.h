/*
 * dot.h - draw one execution with Graphviz (text for dot, or SVG through
 * Debian's `dot`).  It lays out nothing itself.
 */
#ifndef LKMMC_DOT_H
#define LKMMC_DOT_H

#include <stdio.h>

struct execution;
struct lkmm;

void dot_print(const struct execution *x, const struct lkmm *m, FILE *out);
/* Write the picture to path (Graphviz text, or SVG when svg); 0 on error. */
int dot_write(const struct execution *x, const struct lkmm *m, const char *path,
	      int svg);

#endif
