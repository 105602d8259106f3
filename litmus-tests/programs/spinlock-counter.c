/*
 * spinlock-counter.c - N threads, created in a loop, each add one to a
 * plain counter under a spinlock (DEFINE_SPINLOCK); after the joins the
 * counter is N.  lock.cat's critical sections are ordered, so no
 * increment is lost and the plain accesses do not race.
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

#define N 3

DEFINE_SPINLOCK(lock);
int counter;

void *inc(void *arg)
{
	spin_lock(&lock);
	counter = counter + 1;
	spin_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[N];

	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, inc, NULL);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(counter == N);
	return 0;
}
