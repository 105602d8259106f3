/*
 * check.h - invariants as code: what is true by construction, checked
 * where it is relied on, instead of said in a comment.
 *
 * CHECK(cond, fmt, ...) is always on: for what costs a comparison or two
 * (an index in range, a field set) at a boundary.  CHECK_DEEP(...) and
 * code under `if (check_deep)` are on in the ASan and fuzz builds (the
 * Makefile defines LKMMC_CHECK_DEEP there) and compiled but dead
 * otherwise: for checks that walk a structure (the whole IR, every flag of
 * a model).  A failed check is a bug of lkmmc, never of the test: it
 * prints "lkmmc: check failed: FILE:LINE: COND: MESSAGE" on stderr and
 * aborts (in a batch, the worker's crash is reported with the test; under
 * libFuzzer, a finding).  It does not replace a located error (diag.h):
 * anything a user's input can cause is one of those.
 */
#ifndef LKMMC_CHECK_H
#define LKMMC_CHECK_H

#ifdef LKMMC_CHECK_DEEP
enum { check_deep = 1 };
#else
enum { check_deep = 0 };
#endif

/* Print the failed check and abort. */
void check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

#define CHECK(cond, ...) \
	((cond) ? (void)0 : check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__))

#define CHECK_DEEP(cond, ...) \
	((void)(!check_deep || (cond) || \
		(check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__), 0)))

/* A case that cannot happen, where a switch must say so. */
#define CHECK_UNREACHABLE(...) \
	check_failed(__FILE__, __LINE__, "unreachable", __VA_ARGS__)

#endif
