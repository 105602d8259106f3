/*
 * clower.h - private to cparse.c, layout.c and clower.c: a parsed test (the
 * virtual C file, how its bytes map back to the litmus file, the libclang
 * translation unit), the layout of struct objects and the entry point that
 * lowers one process body to IR.
 */
#ifndef LKMMC_CLOWER_H
#define LKMMC_CLOWER_H

#include <stddef.h>

#include <clang-c/Index.h>

struct fe;
struct fe_proc;
struct arena;

/* A run of the virtual file copied byte for byte from the litmus file. */
struct ctu_chunk {
	size_t buf_off; /* where it starts in the virtual file */
	size_t lit_off; /* where it starts in the litmus text */
	size_t len;     /* its length */
	int fixed;      /* 1: a header the preamble includes, copied in;
			 * every byte maps to lit_off (the #include) */
};

/* One test as libclang sees it. */
struct ctu {
	struct fe *fe;             /* the parse (program, errors, text) */
	const char *buf;           /* the virtual C file */
	size_t len;                /* its length */
	struct ctu_chunk *chunks;  /* copied runs, in buffer order */
	int nchunks;               /* how many */
	CXTranslationUnit tu;      /* libclang's parse of buf */
	CXFile main_file;          /* buf as libclang knows it (vs headers) */
	struct arena *scratch;     /* per-test scratch (cursor lists) */
};

/* Litmus offset of a virtual-file offset; (size_t)-1 outside the copied
 * runs (prelude, generated declarations). */
size_t ctu_lit_off(const struct ctu *t, size_t buf_off);

/* The children of cursor c, in order, in scratch memory; returns how
 * many and sets *out. */
int ctu_kids(struct ctu *t, CXCursor c, CXCursor **out);

/* layout.c: give every struct object its field locations, then check that
 * every location named like a field or element is one.  Returns 1 on
 * success, 0 with the error recorded. */
int layout_objects(struct ctu *t);

/* Lower the body of process p (thread tid), whose litmus "{...}" is the
 * compound statement body, into fe->prog->threads[tid].body.  Returns 1 on
 * success, 0 with the error recorded. */
int clower_thread(struct ctu *t, const struct fe_proc *p, CXCursor body);

#endif
