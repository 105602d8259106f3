/*
 * ctu.h - private to the front end's libclang part: one parsed test (the
 * virtual C file, how its bytes map back to the litmus file, the libclang
 * translation unit) and the two questions every walker asks of it.  cparse.c
 * (a litmus test) and cprog.c (a whole C program, mapped one to one) build
 * it; layout.c and clower.c read it.  It does not parse or lower.
 */
#ifndef LKMMC_CTU_H
#define LKMMC_CTU_H

#include <stddef.h>

#include <clang-c/Index.h>

struct fe;
struct arena;

/* A run of the virtual file copied byte for byte from the litmus file. */
struct ctu_chunk {
	size_t buf_off; /* where it starts in the virtual file */
	size_t lit_off; /* where it starts in the litmus text */
	size_t len;     /* its length */
	int fixed;      /* 1: a header the preamble includes, copied in;
			 * every byte maps to lit_off (the #include) */
};

/* The member through which a union type is accessed (clower_expr.c):
 * lkmmc gives each member its own location, which is right only while
 * every access goes through the same one. */
struct ctu_union_use {
	const char *type;   /* the union's canonical type */
	const char *member; /* the member first accessed */
	int line;           /* where (a line of the test) */
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
	int program;               /* 1: a whole C program (cprog.c): its
				    * file-scope variables are the shared
				    * locations of the same names */
	struct ctu_union_use *unions; /* unions accessed so far, in scratch */
	int nunions, unions_cap;   /* count, room */
};

/* Litmus offset of a virtual-file offset; (size_t)-1 outside the copied
 * runs (prelude, generated declarations). */
size_t ctu_lit_off(const struct ctu *t, size_t buf_off);

/* The children of cursor c, in order, in scratch memory; returns how
 * many and sets *out. */
int ctu_kids(struct ctu *t, CXCursor c, CXCursor **out);

#endif
