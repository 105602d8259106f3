/*
 * sb-barriers.c - sb-mbs.c with barrier() instead of smp_mb(): a compiler
 * barrier orders nothing between CPUs, so both loads may read 0 (SB+pos:
 * Sometimes).
 * Expected: Assertion violated at line 37
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y;
int r0, r1;

void *P0(void *arg)
{
	WRITE_ONCE(x, 1);
	barrier();
	r0 = READ_ONCE(y);
	return NULL;
}

void *P1(void *arg)
{
	WRITE_ONCE(y, 1);
	barrier();
	r1 = READ_ONCE(x);
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;
	pthread_create(&t0, NULL, P0, NULL);
	pthread_create(&t1, NULL, P1, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	assert(r0 == 1 || r1 == 1);
	return 0;
}
