/* stdbool.h - lkmmc's <stdbool.h>: bool, true, false. */
#ifndef LKMMC_BOOL_DEFINED
#define LKMMC_BOOL_DEFINED
typedef _Bool bool;
#define true 1
#define false 0
#endif
