/*
 * address.c - the address constants of shared locations (see encoder.h).
 *
 * Its own file so that the symbolic execution (symex*.c) and execution.c,
 * which both need addresses, do not depend on each other for them.  It knows nothing of events.
 */
#include "encoder/encoder.h"

#include <stdio.h>

/* Far from any value a litmus test uses, so that a pointer value prints as
 * the location it names. */
#define ADDR_BASE 0x40000000L

long enc_loc_address(int loc)
{
	return ADDR_BASE + loc;
}

int enc_address_loc(const struct encoding *enc, long value)
{
	long i = value - ADDR_BASE;
	if (i < 0 || i >= enc->prog->nlocs)
		return -1;
	return (int)i;
}

Z3_ast enc_choice(Z3_context z, long k)
{
	char name[48];
	snprintf(name, sizeof name, "repair-choice-%ld", k);
	return Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bool_sort(z));
}
