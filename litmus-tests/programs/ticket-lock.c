/*
 * ticket-lock.c - a ticket lock (the kernel's pre-qspinlock
 * arch_spin_lock) with N threads created in a loop, each passed its
 * index: take a ticket with atomic_fetch_inc(), spin until it is served
 * with atomic_read_acquire(), then, inside the critical section, check
 * that nobody else is in it and count; release with atomic_inc_return_release
 * on the owner.  Mutual exclusion holds and every increment counts.
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

#define N 3

atomic_t next, owner;
int in_cs;
int count;

void *worker(void *arg)
{
	long me = (long)arg;
	int ticket = atomic_fetch_inc_relaxed(&next);

	while (atomic_read_acquire(&owner) != ticket)
		cpu_relax();
	assert(in_cs == 0);
	in_cs = me + 1;
	count = count + 1;
	in_cs = 0;
	atomic_inc_return_release(&owner);
	return NULL;
}

int main(void)
{
	pthread_t t[N];

	for (int i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	assert(count == N);
	return 0;
}
