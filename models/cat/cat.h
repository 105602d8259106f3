/*
 * cat.h - herd7's cat language: the model files (.cat, .bell) as data.
 *
 * catparse.c reads a .cat or .bell file into the syntax tree below, with
 * located errors (file:line:col) for anything it does not support; nothing
 * is skipped silently except show/unshow, which only shape herd7's drawings.
 * The compiler (catcomp.c and its parts, see catcomp_int.h) compiles a
 * parsed model over one encoding into the relation algebra of
 * encoder/rel.h and fills the same struct lkmm as the built-in model
 * (models/lkmm.h).  cat_model_load() (catload.c) reads a whole model (a
 * tools/memory-model folder, or a linux-kernel.cfg naming its files).
 *
 * Neither the parser nor the compiler knows the LKMM: what the model's definitions mean comes from
 * the files.  What herd7 computes by enumerating candidates (rf, co, the
 * with-from choices) comes from the encoder; catcomp.c says how.
 */
#ifndef LKMMC_CAT_H
#define LKMMC_CAT_H

#include "encoder/encoder.h"
#include "common/diag.h"

struct arena;
struct lkmm;

/* Expression kinds. */
enum cat_ek {
	CE_VAR,      /* name */
	CE_EMPTY,    /* 0: the empty relation */
	CE_UNIV,     /* _: every event */
	CE_EMPTYSET, /* {} */
	CE_TAG,      /* 'name */
	CE_STRING,   /* "text" (only as an if-condition) */
	CE_UNION, CE_INTER, CE_DIFF, CE_SEQ, CE_CROSS, CE_ADD, /* | & \ ; * ++ */
	CE_COMPL,    /* ~a */
	CE_INV, CE_OPT, CE_STAR, CE_PLUS, /* a^-1 a? a* a+ */
	CE_BRACKET,  /* [a] */
	CE_APP,      /* a b (args in b; a tuple for several) */
	CE_TUPLE,    /* (a, b, ...) */
	CE_SETLIT,   /* {a, b, ...} */
	CE_LET,      /* let [rec] bindings in body */
	CE_TRY,      /* try a with b */
	CE_IF,       /* if "variant" then a else b */
	CE_FUN,      /* fun params -> body */
};

struct cat_binding;

struct cat_expr {
	enum cat_ek kind;        /* what it is */
	int line, col;           /* where it starts */
	const char *name;        /* CE_VAR, CE_TAG, CE_STRING: the text */
	struct cat_expr *a, *b;  /* operands (CE_IF: then, else) */
	struct cat_expr **items; /* CE_TUPLE, CE_SETLIT elements */
	int nitems;              /* how many */
	struct cat_binding *binds; /* CE_LET: the bindings */
	int nbinds;              /* how many */
	int rec;                 /* CE_LET: let rec */
	const char **params;     /* CE_FUN: parameter names */
	int nparams;             /* how many (a tuple when more than one) */
	int site;                /* CE_STAR/CE_PLUS/CE_LET rec: approximation
				  * site number (catcomp.c), -1 if none */
};

/* name = e, or name(params) = e (stored as a CE_FUN). */
struct cat_binding {
	const char *name;     /* bound name */
	struct cat_expr *e;   /* value */
	int line, col;        /* where the name is */
};

/* Statement kinds. */
enum cat_sk {
	CS_LET,       /* let [rec] bindings */
	CS_CHECK,     /* [flag] [~]acyclic|irreflexive|empty e [as name] */
	CS_INCLUDE,   /* include "file" */
	CS_ENUM,      /* enum Name = 'a || 'b */
	CS_INSTR,     /* instructions X[e] (no effect on the semantics) */
	CS_WITH,      /* with x from e */
	CS_SHOW,      /* show/unshow: ignored */
};

enum cat_check { CC_ACYCLIC, CC_IRREFLEXIVE, CC_EMPTY };

struct cat_stmt {
	enum cat_sk kind;        /* what it is */
	int line, col;           /* where it starts */
	struct cat_binding *binds; /* CS_LET */
	int nbinds;              /* how many */
	int rec;                 /* CS_LET: let rec */
	enum cat_check check;    /* CS_CHECK: the test */
	int negated;             /* CS_CHECK: ~acyclic etc. */
	int flag;                /* CS_CHECK: a flag, not an axiom */
	struct cat_expr *e;      /* CS_CHECK, CS_WITH: the expression */
	const char *name;        /* CS_CHECK: "as" name (or NULL); CS_WITH:
				  * the bound name; CS_INCLUDE: the file;
				  * CS_ENUM: the enum's name */
	const char **tags;       /* CS_ENUM: the tags, without the quote */
	int ntags;               /* how many */
	int site;                /* CS_LET rec: approximation site */
	const char *file;        /* the file it was read from */
};

struct cat_file {
	const char *path;        /* as opened */
	const char *title;       /* the leading string, or NULL */
	struct cat_stmt *stmts;  /* in order */
	int nstmts;              /* how many */
};

/* Parse text (the contents of path) into f, allocated in arena.  *site is
 * the next free approximation-site number, advanced past the ones used.
 * Returns 0 and fills d at the first unsupported or malformed construct. */
int cat_parse(struct arena *arena, const char *path, const char *text,
	      struct cat_file *f, int *site, struct diag *d);

/* A whole model: the bell and the cat with their includes, in the order
 * herd7 reads them (library includes are built in, see catlib.c). */
struct cat_model;

/*
 * Load a model.  dir: a tools/memory-model folder (its linux-kernel.cfg is
 * read if present, else linux-kernel.bell and linux-kernel.cat), or
 * cfg_path: a configuration file whose bell/model/macros/variant lines name
 * the files, looked up relative to the configuration file's folder.
 * Exactly one of them is non-NULL.  Returns NULL and fills d on error.
 */
struct cat_model *cat_model_load(const char *dir, const char *cfg_path,
				 struct diag *d);
void cat_model_free(struct cat_model *m);
/* The model's name for messages (its folder). */
const char *cat_model_name(const struct cat_model *m);
/* Does the model have the coherence axiom: an axiom "acyclic E" (not a
 * flag) whose E provably contains po-loc, rf, co and fr whatever the test
 * (see enum contains in catcomp_int.h)?  Then the encoder may order co and
 * rule out rf by program order (encoder_options.coherent). */
int cat_model_coherent(const struct cat_model *m);
/* Does it have the atomicity axiom: an axiom "empty E" (not a flag) whose
 * E provably contains rmw & (fre ; coe)?  With the coherence axiom, each
 * RMW then reads its write's co-predecessor (encoder_options.atomic). */
int cat_model_atomic(const struct cat_model *m);
/* The primitives its .def defines (frontend/kapi.h), NULL when it has no
 * .def: the front end lowers tests with them (frontend_set_macros). */
struct kapi_table;
const struct kapi_table *cat_model_macros(const struct cat_model *m);

/* Compile the model over enc into out (the same fields as lkmm_build
 * fills, plus the named axioms and flags of the cat).  Returns 0 and fills
 * d when the model needs something the encoding cannot give. */
int cat_model_build(struct cat_model *m, struct encoding *enc,
		    struct lkmm *out, struct diag *d);
/* The same for lkmm_violation() (as lkmm_build_exact): closures keep
 * their Horn variables (rel_exact_defs makes them exact), every let rec is
 * unrolled into at most stages Kleene stages, and out->rcu_unconverged
 * holds iff one more stage of some let rec would change it. */
int cat_model_build_exact(struct cat_model *m, struct encoding *enc, int stages,
			  struct lkmm *out, struct diag *d);

#endif
