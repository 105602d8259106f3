/*
 * ticket-lock-noacq.c - ticket-lock.c with the wait made with a relaxed
 * atomic_read() instead of atomic_read_acquire(): the critical section may
 * read the shared data before the previous holder's writes, so the count
 * can lose an increment (and the plain accesses race).
 * Expected: Assertion violated at line 41
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

	while (atomic_read(&owner) != ticket)
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
