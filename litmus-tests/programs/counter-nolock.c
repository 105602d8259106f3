/*
 * counter-nolock.c - spinlock-counter.c without the lock: two threads
 * add one to a plain counter.  An increment can be lost, and the plain
 * accesses race (the LKMM's data-race flag: undefined behaviour).
 * Expected: Assertion violated at line 27
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int counter;

void *inc(void *arg)
{
	counter = counter + 1;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, inc, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(counter == 2);
	return 0;
}
