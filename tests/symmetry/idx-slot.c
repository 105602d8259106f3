/*
 * idx-slot.c - threads that each raise their own slot of an array after
 * reading slot 2, named outright: every thread but P2 can see it raised,
 * P2 reads it before raising it, so its assertion alone cannot fail.
 * Renaming P2 with the others, slots and all (scalarset.h), would report
 * the failure in every thread; the slot named outright keeps P2 in place.
 * Result: Sometimes
 */
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
#include <lkmm.h>

#define N 5

int raised[N];	/* raised[i]: thread i has run */
int started;	/* some thread has (the write that orders them) */

void *worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	int r;

	WRITE_ONCE(started, 1);
	r = READ_ONCE(raised[2]);
	WRITE_ONCE(raised[me], 1);
	assert(r == 0);
	return NULL;
}

int main(void)
{
	pthread_t t[N];

	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	return 0;
}
