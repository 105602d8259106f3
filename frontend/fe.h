/*
 * fe.h - private to the front end: the state of one litmus file being
 * parsed, shared by litmus.c (header, init block, processes), clause.c
 * (final clauses), cparse.c (process bodies through libclang) and their
 * helpers (fe.c).  Nothing here is visible to the encoder.
 */
#ifndef LKMMC_FE_H
#define LKMMC_FE_H

#include <stddef.h>

#include "common/diag.h"
#include "ir.h"

struct arena;
struct cparse;
struct kapi_table;

/* One parameter of a process, "int *x" / "spinlock_t *l". */
struct fe_param {
	const char *name;   /* parameter (= location) name */
	const char *ctype;  /* pointee type, normalised ("int", "int *") */
	size_t off;         /* offset of the name in the litmus text */
};

/* Where one process sits in the litmus text. */
struct fe_proc {
	int id;                  /* N of PN */
	size_t name_off;         /* offset of the 'P' of "PN" */
	size_t rparen_off;       /* offset of the ')' closing the parameters */
	size_t body_off;         /* offset of the '{' opening the body */
	size_t body_end;         /* offset of the matching '}' */
	struct fe_param *params; /* its parameters, in order */
	int nparams;             /* how many */
};

/* Private bookkeeping per location (parallel to prog->locs). */
struct fe_locx {
	int kind_known;      /* 1 once a declaration fixed the kind */
	struct ir_pos kpos;  /* where that declaration is */
	int has_init;        /* 1 once the init block gave it a value */
	int is_object;       /* a struct or array: its fields and elements
			      * are the locations "name.f", "name[i]" and it
			      * holds nothing itself (its address is &name) */
	int in_layout;       /* created as a field or element of an object */
	int typedef_obj;     /* its type is a name the preamble may typedef
			      * (layout.c resolves it) */
};

/* The state of one parse. */
struct fe {
	struct ir_program *prog; /* the program being built */
	struct arena *arena;     /* prog->arena */
	struct diag *d;          /* where the first error goes */
	const char *file;        /* path for messages */
	const char *text;        /* the whole litmus text */
	size_t len;              /* its length */
	size_t *lines;           /* offset of the start of each line */
	int nlines;              /* how many lines */
	int locs_cap;            /* room in prog->locs and locx */
	struct fe_locx *locx;    /* per-location bookkeeping */
	int *regs_cap;           /* per thread: room in threads[i].regs */
	int *ntemps;             /* per thread: temporaries made so far */
	struct fe_proc *procs;   /* processes in file order */
	int nprocs;              /* how many */
	size_t clauses_off;      /* where the final clauses start */
	size_t preamble_off;     /* the C preamble between the init block and
				  * P0 (shared #defines, structs, helpers) */
	size_t preamble_end;     /* its end; == preamble_off when none */
	int typedefs;            /* 1: a type name of one word that is no
				  * kernel type may be a typedef of the C
				  * code, which layout.c resolves (a whole
				  * program; a litmus test with a preamble) */
	int unroll;              /* helper recursion bound (--unroll) */
	const struct kapi_table *macros; /* the primitives (kapi.h), NULL:
				  * the built-in ones */
	int choices;             /* __lkmmc_choice(K) is IR_E_CHOICE K
				  * (frontend_set_choices) */
};

/* Line and column (1-based, bytes) of a text offset. */
struct ir_pos fe_pos(const struct fe *fe, size_t off);
/* Record a located error at a text offset; returns 0. */
int fe_error(struct fe *fe, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The kind a C type (normalised text) gives a location; -1 if the type is
 * not one lkmmc models. */
int fe_type_kind(const char *ctype);
/* Is ctype one name, maybe with stars ("foo_t", "foo_t *")? */
int fe_typedef_name(const char *ctype);
/* Is ctype "struct NAME" (other than srcu_struct) or "union NAME"? */
int fe_is_struct_type(const char *ctype);
/* Name of a kind for messages. */
const char *fe_kind_name(enum ir_loc_kind kind);

/* Find or create location name (an int initialised to 0) first seen at off. */
int fe_loc_use(struct fe *fe, const char *name, size_t off);
/* Declare location name with a type (from the init block or a parameter);
 * checks the kind against earlier declarations.  Returns its index or -1. */
int fe_loc_declare(struct fe *fe, const char *name, const char *ctype,
		   size_t off);

/* Declare array name of n elements of type ctype (from the init block):
 * the object name (ctype "ELEM[n]", holding nothing) and the locations
 * name[0]..name[n-1].  Returns the object's index or -1. */
int fe_array_declare(struct fe *fe, const char *name, const char *ctype,
		     long n, size_t off);

/* Find or create register name in thread tid (ctype "int" when NULL).
 * Returns its index. */
int fe_reg_use(struct fe *fe, int tid, const char *name, const char *ctype,
	       struct ir_pos pos);
/* Find a register; -1 if absent. */
int fe_reg_find(const struct fe *fe, int tid, const char *name);
/* A fresh temporary "%tN" in thread tid. */
int fe_reg_temp(struct fe *fe, int tid, struct ir_pos pos);

/* A copy of text[a, b) with runs of white space folded into one space and
 * no leading or trailing space. */
char *fe_text_squash(struct fe *fe, size_t a, size_t b);

/* Room for element n of the arena array arr (elements of size elem, room
 * *cap): returns arr, or a doubled copy with *cap updated. */
void *fe_reserve(struct arena *arena, void *arr, size_t elem, int n, int *cap);

/* Is p (n bytes) exactly the word w? */
int fe_word_is(const char *p, size_t n, const char *w);

/* litmus.c: the header, init block and process headers; then calls
 * cparse_bodies and clause_parse.  Returns 1 on success. */
int litmus_parse(struct fe *fe, struct cparse *cp);
/* clause.c: the final clauses from fe->clauses_off.  Returns 1 on success. */
int clause_parse(struct fe *fe);
/* A condition as herd7 prints it, in parentheses: "(0:r0=1 /\\ [x]=2)".
 * The caller frees the string. */
char *clause_cond_string(const struct ir_program *prog, const struct ir_cond *c);

#endif
