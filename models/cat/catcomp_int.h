/*
 * catcomp_int.h - private to the cat compiler (the files of models/cat/): the loaded
 * model, the values the compiler computes with, one compilation's state,
 * and the functions its files share.
 *
 * catload.c loads a model from disk; catval.c makes and combines values;
 * catlet.c binds let and let rec; cateval.c evaluates expressions;
 * catstar.c builds closures inside sequences; catwithin.c the right
 * operands of & and \ only where the left one can hold;
 * catlib.c is herd7's primitives and library files (stdlib.cat, cross.cat,
 * cos-opt.cat) and function application; catcomp.c runs the statements
 * and drives the compilations (its first comment says how the compiler
 * works).  Nothing outside models/cat/ includes this header: the rest
 * of lkmmc sees models/cat/cat.h.
 */
#ifndef LKMMC_CATCOMP_INT_H
#define LKMMC_CATCOMP_INT_H

#include <stdint.h>

#include "models/cat/cat.h"
#include "models/lkmm.h"

struct cat_include {
	const char *name;     /* as written in include "..." */
	struct cat_file file; /* parsed */
};

struct cat_model {
	struct arena *arena;      /* everything of the model */
	const char *dir;          /* folder of the model files */
	struct cat_file bell;     /* the .bell (no statements if none) */
	struct cat_file cat;      /* the .cat */
	struct cat_include *incs; /* included files, parsed once */
	int nincs, incs_cap;      /* count, capacity */
	const char **variants;    /* variant names set by the configuration */
	int nvariants;            /* how many */
	int nsites;               /* approximation sites numbered */
	uint64_t exact;           /* sites learnt to need exact compilation */
	struct kapi_table *macros; /* its .def read (frontend/kapi.h), NULL
				   * when it has none: the built-in events */
	int checked;              /* compiled once, eagerly: every name and
				   * type is right, later compilations may be
				   * lazy (struct comp) */
	int coherent;             /* that compilation found the coherence
				   * axiom among the axioms (enum contains) */
	int atomic;               /* and the atomicity axiom (same) */
};

enum vk {
	VK_SET,     /* s */
	VK_REL,     /* r */
	VK_EMPTY,   /* 0, {}: empty, a set or a relation as needed */
	VK_TAG,     /* 'name (only inside enum/instructions) */
	VK_FUN,     /* a cat function: fun + its environment */
	VK_BUILTIN, /* a library function implemented in C */
	VK_TUPLE,   /* (a, b, ...) */
	VK_COLL,    /* a collection (set of sets/relations): its union in u */
	VK_CHOICE,  /* cross(...)/generate_orders(...): candidate pairs */
	VK_LAZY,    /* a let binding not evaluated yet (see cc_force()) */
};

enum builtin {
	B_DOMAIN, B_RANGE, B_FENCEREL, B_TOID, B_CTRLCFENCE, B_IMPLY, B_NODETOUR,
	B_SINGLESTEP, B_MAP, B_DIFFERENT_VALUES, B_CROSS, B_GENERATE_ORDERS,
	B_GENERATE_COS,
};

/*
 * What a value provably contains, whatever the test (struct val.contains),
 * for one purpose: knowing that an axiom "acyclic E" has the coherence
 * axiom acyclic(po-loc | rf | co | fr) in it, which lets the encoder order
 * co and rule out rf by program order (encoder_options.coherent).  Each
 * bit says the value includes one of herd7's primitives as the initial
 * environment binds it (rf and co between the plain reads and writes,
 * fr = (rf^-1 ; co) \ id of those, po-loc, every plain write W).  The
 * rules only keep what the algebra guarantees whatever the operands' other
 * pairs are: a union keeps both operands' bits, an intersection the
 * common ones, a closure or a? its operand's, an inverse maps rf to rf^-1,
 * "a ; b" is at least fr when a is at least rf^-1 and b at least co;
 * anything else knows nothing.  po and loc each contain po-loc.
 * A second purpose, the same way: knowing that an axiom "empty E" has the
 * atomicity axiom empty(rmw & (fre ; coe)) in it (encoder_options.atomic):
 * "a ; b" is at least fre ; coe when a is at least fre (fr & ext, herd7's
 * stdlib; fr is) and b at least coe (co & ext; co is); "a & b" is at least
 * fre (coe) when one is at least fr (co) and the other at least ext, and
 * at least rmw & (fre ; coe) when one is at least rmw (the RMW pairs other
 * than the locks') and the other at least fre ; coe.
 */
enum contains {
	HAS_PO_LOC = 1 << 0,
	HAS_RF = 1 << 1,
	HAS_RF_INV = 1 << 2,
	HAS_CO = 1 << 3,
	HAS_FR = 1 << 4,
	HAS_W = 1 << 5,     /* an event set: every plain write */
	HAS_RMW = 1 << 6,
	HAS_FRE = 1 << 7,
	HAS_COE = 1 << 8,
	HAS_FRE_COE = 1 << 9,  /* fre ; coe */
	HAS_ATOMIC = 1 << 10,  /* rmw & (fre ; coe) */
	HAS_EXT = 1 << 11,
};
#define HAS_COHERENCE (HAS_PO_LOC | HAS_RF | HAS_CO | HAS_FR)

struct env;

#define CC_MAX_FACTORS 4

struct val {
	enum vk k;              /* kind */
	set_t s;                /* VK_SET */
	rel_t r;                /* VK_REL; VK_CHOICE: candidate pairs */
	uint64_t over, under;   /* approximation sites (see the top) */
	unsigned contains;      /* enum contains bits */
	int transitive;         /* VK_REL known transitive (a co order): its
				 * closure is itself */
	const struct cat_expr *fun; /* VK_FUN: the CE_FUN */
	struct env *fenv;       /* VK_FUN: where it was defined */
	enum builtin b;         /* VK_BUILTIN */
	struct val **items;     /* VK_TUPLE */
	int nitems;             /* how many */
	struct val *u;          /* VK_COLL: union of the members */
	set_t keys;             /* VK_COLL made by map f S over an event set
				 * S, VK_CHOICE of cross over such: S, one
				 * member per event; else NULL */
	set_t order_set;        /* VK_CHOICE from generate_orders: S */
	rel_t order_base;       /* VK_CHOICE from generate_orders: pco */
	const struct cat_expr *lazy; /* VK_LAZY: the expression */
	struct env *lenv;       /* VK_LAZY: its environment */
	const char *lfile;      /* VK_LAZY: the file it is in */
	set_t dom, rng;         /* VK_REL: an event set every pair starts
				 * in, ends in (NULL: not known; catstar.c) */
	set_t ident;            /* VK_REL that is [S]: S */
	const struct val *base; /* VK_REL known to be head ; base* (the
				 * true relations, see catstar.c), else NULL */
	rel_t head;             /* with base: the head */
	int nfac;               /* > 0: VK_REL known to be part | fl[0] ;
				 * fr[0] | ..., each fl[i] ; fr[i] through
				 * few events (catstar.c's walks) */
	rel_t part;             /* with nfac: the rest (NULL: none) */
	rel_t fl[CC_MAX_FACTORS], fr[CC_MAX_FACTORS]; /* with nfac */
};

struct env {
	const char *name;       /* bound name */
	struct val *v;          /* its value */
	struct env *next;       /* older bindings */
};

/* A closure built (see cc_closure()). */
struct closure {
	rel_t r;                /* of this relation */
	int exact;              /* by repeated squaring, else Horn */
	rel_t plus;             /* r+ */
	uint64_t over;          /* the site of its Horn variables, if any */
};

struct star_rows;
struct star_cols;
struct within;

/* The rows of a let binding built for the uses "x ; name" (cateval.c's rows_of). */
struct rows {
	struct val *binding;    /* the binding, not evaluated whole */
	set_t from;             /* the rows built: true or NULL per event */
	struct val *value;      /* [from] ; its expression */
};

/* One compilation. */
struct comp {
	struct cat_model *m;    /* the model */
	struct encoding *enc;   /* over this encoding */
	struct rel_ctx *rc;     /* its relation algebra */
	struct arena *a;        /* per-test allocations */
	struct diag *d;         /* errors */
	const char *file;       /* file being compiled (for messages) */
	uint64_t exact;         /* sites compiled exactly */
	uint64_t bad;           /* sites found to need it */
	struct env *env;        /* current environment */
	/* results */
	struct model_axiom *ax; /* axioms (their rel set by compile_once) */
	int nax, ax_cap;        /* count, capacity */
	const char **fl_name;   /* flags: names (merged by name) */
	Z3_ast *fl;             /* flags: formulas */
	int nfl, fl_cap;        /* count, capacity */
	int depth;              /* call depth */
	rel_t *ax_rel;          /* axioms: the relation of a check not
				 * negated, else NULL */
	int stages;             /* > 0: the build for cubes' violation
				 * question: closures Horn (made exact by
				 * rel_exact_defs), every let rec this many
				 * Kleene stages (see catlet.c) */
	Z3_ast unconverged;     /* stages > 0: one more stage of some let rec
				 * would change it */
	struct closure *clos;   /* closures built so far */
	int nclos;              /* how many */
	int lazy;               /* let bindings are evaluated when used, and
				 * the right operand of & \ ; only when the
				 * left one is not statically empty (after
				 * a model's first, eager compilation has
				 * found any error it has) */
	int coherent;           /* an axiom "acyclic E" whose E contains
				 * HAS_COHERENCE was compiled */
	int atomic;             /* an axiom "empty E" whose E contains
				 * HAS_ATOMIC was */
	struct rows *rows;      /* let bindings built for some rows only */
	int nrows;              /* how many */
	struct star_rows *stars; /* rows of closures built (catstar.c) */
	int nstars;             /* how many */
	struct star_cols *cols; /* columns of closures built (catwithin.c) */
	int ncols;              /* how many */
	struct within *within;  /* let bindings built within some rows and
				 * columns (catwithin.c) */
	int nwithin;            /* how many */
};

/* --- catval.c: values --- */

/* The bit of approximation site site (0 past 64: such sites are always
 * exact), and whether c compiles site exactly. */
uint64_t cc_site_bit(int site);
int cc_site_exact(const struct comp *c, int site);
/* A new value of kind k (zeroed), an event set, a relation. */
struct val *cc_vnew(struct comp *c, enum vk k);
struct val *cc_vset(struct comp *c, set_t s, uint64_t over, uint64_t under);
struct val *cc_vrel(struct comp *c, rel_t r, uint64_t over, uint64_t under);
/* v with the contains bits bits (v may be NULL). */
struct val *cc_containing(struct val *v, unsigned bits);
unsigned cc_seq_contains(unsigned a, unsigned b);
unsigned cc_inter_contains(unsigned a, unsigned b);
/* A copy of v that claims nothing it contains. */
struct val *cc_unknown_contents(struct comp *c, const struct val *v);
/* Bind name to v in c's environment; the value of name in e (NULL). */
void cc_bind(struct comp *c, const char *name, struct val *v);
struct val *cc_lookup(const struct env *e, const char *name);
/* "an event set", "a relation", ... for messages. */
const char *cc_kind_name(enum vk k);
/* Report an error at e (may be NULL) in c's file; returns 0. */
int cc_err(struct comp *c, const struct cat_expr *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* v as a set / relation (VK_EMPTY converts); NULL and an error if not. */
set_t cc_as_set(struct comp *c, const struct cat_expr *e, const struct val *v);
rel_t cc_as_rel(struct comp *c, const struct cat_expr *e, const struct val *v);
/* a and b are the same relation, entry by entry (a relation evaluated
 * twice is two arrays of the same terms). */
int cc_same_rel(const struct comp *c, rel_t a, rel_t b);
/* A closure's rows (by_column 0) or columns built so far, old, with
 * those of now (non-NULL per event) taken from more instead; marks them
 * in built. */
rel_t cc_merge_built(struct comp *c, rel_t old, rel_t more, set_t now, set_t built,
		     int by_column);
/* r+, exactly or as Horn variables of site site, once per relation. */
rel_t cc_closure(struct comp *c, rel_t r, int exact, int site, uint64_t *over);
/* x op y for e's binary operator (e->kind). */
struct val *cc_binop(struct comp *c, const struct cat_expr *e, struct val *x,
		     struct val *y);
/* A formula: sets or relations x and y differ (NULL: never). */
Z3_ast cc_val_differs(struct comp *c, const struct val *x, const struct val *y);

/* --- catlet.c --- */

/* let [rec] bindings b[0..n-1] into c->env (site: the let rec's
 * approximation site; at: the expression, NULL for a statement). */
int cc_let_bindings(struct comp *c, const struct cat_binding *b, int n, int rec,
		    int site, const struct cat_expr *at);

/* --- cateval.c --- */

/* The value of e in c's environment; NULL after an error. */
struct val *cc_eval(struct comp *c, const struct cat_expr *e);
/* v, evaluated first if it is a lazy binding. */
struct val *cc_force(struct comp *c, struct val *v);
/* Statically empty: no pair or event can be in v. */
int cc_static_empty(const struct comp *c, const struct val *v);
/* x ; b, building of b only what x can reach (at: the "a ; b"). */
struct val *cc_seq_with(struct comp *c, const struct cat_expr *at, struct val *x,
			const struct cat_expr *b);

/* --- catstar.c --- */

/* x ; star (a CE_STAR), only star's rows that x reaches. */
struct val *cc_seq_star(struct comp *c, const struct cat_expr *at, struct val *x,
			const struct cat_expr *star);
/* x ; p* ; q* (p and q CE_STAR), as one closure when q's operand is a
 * sequence ending in p's closure.  at: the expression, for errors. */
struct val *cc_seq_stars(struct comp *c, const struct cat_expr *at, struct val *x,
			 const struct cat_expr *p, const struct cat_expr *q);
/* e = (a1 | ... | ak)+ or * (e->a a union) where some ai's value is a
 * known order A (transitive): (A | B)+ = A | A? ; (B ; A?)+, whose
 * closure is over the events B starts at only (lock.cat's co | critical |
 * (critical^-1 ; co): its lock and unlock events), exactly when e's site
 * is.  NULL when e is not such (*failed: because of an error reported). */
struct val *cc_plus_over_order(struct comp *c, const struct cat_expr *e, int *failed);
/* The rows of base* built so far, after building those of rows (NULL:
 * none more); NULL when none was.  A row's diagonal is true. */
rel_t cc_star_rows(struct comp *c, rel_t base, set_t rows);
/* Row e of base* was built. */
int cc_star_row_built(struct comp *c, rel_t base, int e);
/* v = x ; y: the events its pairs lie within, and head ; base* kept
 * through "; [S]"; a and b: x's and y's relations. */
void cc_seq_shape(struct comp *c, struct val *v, const struct val *x, const struct val *y,
		  rel_t a, rel_t b);
/* v = x | y (relations a, b): its factors through few events, if any. */
void cc_union_shape(struct comp *c, struct val *v, const struct val *x, const struct val *y,
		    rel_t a, rel_t b);
/* y+ as walks through the middle events of y's factors (y->nfac > 0),
 * Horn variables whose approximation sites are bits (into *over), once
 * per relation. */
rel_t cc_plus_walks(struct comp *c, const struct val *y, uint64_t bits, uint64_t *over);

/* --- catwithin.c --- */

/* A value that agrees with e's on every pair of rows x cols (NULL: all
 * events), built only there where it can (the right operands of & and \
 * are asked only at their left operand's pairs). */
struct val *cc_eval_within(struct comp *c, const struct cat_expr *e, set_t rows, set_t cols);
/* e = "a & b" or "a \ b" within rows x cols, b only where a can hold. */
struct val *cc_eval_and_within(struct comp *c, const struct cat_expr *e, set_t rows,
			       set_t cols);

/* --- catlib.c --- */

/* f applied to arg (a cat function, a library function, map's result). */
struct val *cc_apply(struct comp *c, const struct cat_expr *at, struct val *f,
		     struct val *arg);
/* The events tagged t. */
set_t cc_tag_set(struct comp *c, const char *t);
/* Bind herd7's primitives and stdlib.cat; cross.cat; cos-opt.cat. */
void cc_initial_env(struct comp *c);
void cc_lib_cross(struct comp *c);
void cc_lib_cos_opt(struct comp *c, const struct cat_stmt *at);

/* --- catcomp.c --- */

/* Compile m eagerly once over a program of one location: checks every
 * name and type, and learns the sites that must be exact. */
int cc_check_model(struct cat_model *m, struct diag *d);
/* Add an axiom named name that holds iff f does. */
void cc_add_axiom(struct comp *c, const char *name, enum model_check kind, Z3_ast f);

#endif
