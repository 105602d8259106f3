/*
 * fold-overflow.c - constants the front end folds with the encoding's
 * own arithmetic (ir_apply_binop): LONG_MIN / -1 overflows a long, so it
 * is not folded (it used to be divided by the host's CPU, which traps),
 * and the index stays an expression the encoder evaluates; so is
 * -LONG_MIN.
 * Expected: No errors
 */
#include <lkmm.h>
#include <pthread.h>
#include <assert.h>

int a[2];

void *writer(void *arg)
{
	WRITE_ONCE(a[((-9223372036854775807L - 1) / -1) & 1], 1);
	WRITE_ONCE(a[(-(-9223372036854775807L - 1)) & 1], 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	pthread_join(t, NULL);
	assert(a[0] == 1);
	return 0;
}
