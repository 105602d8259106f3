/*
 * assert.h - lkmmc's <assert.h>: assert(c) is an assertion lkmmc checks
 * (in a thread where it stands, in main after the joins on the final
 * state).  NDEBUG is not honoured: an assertion is what lkmmc checks.
 */
#ifndef LKMMC_ASSERT_H
#define LKMMC_ASSERT_H
void assert(int c);
#endif
