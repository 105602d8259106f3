/*
 * sb-asserts.c - store buffering without barriers, with an assertion in
 * a thread (which holds) and one in main (which store buffering
 * violates): one answer for both, no "none can fail".  -D THREAD_COND=...
 * and -D FINAL_COND=... change them (tests/e2e-programs.sh).
 * Expected: Assertion violated at line 44
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

#ifndef THREAD_COND
#define THREAD_COND r0 <= 1
#endif
#ifndef FINAL_COND
#define FINAL_COND !(r0 == 0 && r1 == 0)
#endif

int x, y;
int r0, r1;

void *P0(void *arg)
{
	WRITE_ONCE(x, 1);
	r0 = READ_ONCE(y);
	assert(THREAD_COND);
	return NULL;
}

void *P1(void *arg)
{
	WRITE_ONCE(y, 1);
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
	assert(FINAL_COND);
	return 0;
}
