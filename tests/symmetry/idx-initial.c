/*
 * idx-initial.c - threads given their index, one of which is the initial
 * value of the variable where they write it: a thread sees its own index
 * there before writing it only when that is the initial 0, so P0's
 * assertion alone can fail.  Renaming P0 with the
 * others (scalarset.h) would report the failure in every thread.
 * Result: Sometimes
 */
#include <pthread.h>
#include <assert.h>
#include <stdint.h>
#include <lkmm.h>

#define N 4

int who;	/* the last thread's index, initially 0 */

void *worker(void *arg)
{
	int me = (int)(intptr_t)arg;
	int r = READ_ONCE(who);

	assert(r != me);
	WRITE_ONCE(who, me);
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
