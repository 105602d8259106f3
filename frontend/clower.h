/*
 * clower.h - private to the front end's libclang part: the layout of
 * struct objects (layout.c) and the entry point that lowers one process
 * body to IR (clower.c).  cparse.c calls them; they know the parsed test
 * only through ctu.h.
 */
#ifndef LKMMC_CLOWER_H
#define LKMMC_CLOWER_H

#include <clang-c/Index.h>

struct ctu;
struct fe_proc;

/* layout.c: give every struct object its field locations, then check that
 * every location named like a field or element is one.  Returns 1 on
 * success, 0 with the error recorded. */
int layout_objects(struct ctu *t);

/* Lower the body of process p (thread tid), whose litmus "{...}" is the
 * compound statement body, into fe->prog->threads[tid].body.  Returns 1 on
 * success, 0 with the error recorded. */
int clower_thread(struct ctu *t, const struct fe_proc *p, CXCursor body);

#endif
