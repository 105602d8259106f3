/*
 * repair_menu.h - the program changes --repair may try on one litmus test
 * (fences to insert, accesses to annotate more strongly), and for --prune
 * the fences and annotations the test already has that could go, each as
 * an edit of the litmus file's text.
 *
 * The menu is read off the parsed program (frontend/ir.h: every
 * instruction knows its line and column) and the file's text: a fence goes
 * on a line of its own before a statement that starts its line, or after
 * one that ends its line; an annotation replaces the primitive's name and,
 * where the argument form differs (READ_ONCE(*x) / smp_load_acquire(x)),
 * its argument.  It never removes or reorders code and never makes a
 * dependency.  It does not check anything: whether an edit parses is left
 * to the caller (repair.c parses every edited text from scratch).
 */
#ifndef LKMMC_REPAIR_MENU_H
#define LKMMC_REPAIR_MENU_H

#include <stddef.h>

#include "frontend/ir.h"
#include "repair/repair_cost.h"

/* One edit of the text: replace text[off, off+del) by ins. */
struct repair_edit {
	size_t off;   /* where, a byte offset in the original text */
	size_t del;   /* how many bytes go */
	char *ins;    /* what comes instead (owned) */
};

/* One change of the menu. */
struct repair_change {
	enum repair_kind kind; /* what it adds (or, for --prune, removes) */
	int slot;          /* changes in one slot exclude each other (one
			    * fence per gap, one annotation per access) */
	int strongest;     /* 1: it orders at least what every other change
			    * of its slot orders (smp_mb at a gap, a fully
			    * ordered RMW) */
	int thread;        /* the process it is in */
	int line;          /* the line of the statement it is next to or in */
	struct repair_edit edit; /* the edit of the text */
	char *what;        /* e.g. "smp_mb() before line 18 in P0" (owned) */
};

/* A list of changes. */
struct repair_menu {
	struct repair_change *ch; /* the changes, in program order */
	int n, cap;               /* how many, allocated */
	int nslots;               /* slots are 0 .. nslots-1 */
};

/* The changes --repair may make to prog, read from text. */
void repair_menu_build(struct repair_menu *m, const struct ir_program *prog,
		       const char *text);
/* The fences and acquire/release annotations of prog that could be
 * removed or weakened to ONCE (--prune, and stripping for bench/repair.sh):
 * the kind says what goes. */
void repair_menu_removals(struct repair_menu *m, const struct ir_program *prog,
			  const char *text);
/* Drop change i (freeing it), keeping the order. */
void repair_menu_drop(struct repair_menu *m, int i);
void repair_menu_free(struct repair_menu *m);

/* text with the edits of the chosen changes applied (pick[i] != 0 for
 * change i); malloc'ed.  The edits must not overlap. */
char *repair_apply(const struct repair_menu *m, const int *pick, const char *text);

#endif
