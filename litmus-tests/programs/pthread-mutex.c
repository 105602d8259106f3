/*
 * pthread-mutex.c - a pthread mutex is the model's lock (spinlock_t):
 * pthread_mutex_lock() is spin_lock(), _unlock() spin_unlock(), and
 * _trylock() spin_trylock() with pthread's value (0 when it took the
 * lock).  Two threads add to a plain counter under the mutex, a third
 * adds only when its trylock succeeds: the counter ends at 2 or 3, and
 * the plain accesses never race (tests/e2e-programs.sh takes the locking
 * out of one thread: then they do).
 * Expected: No errors
 */
#include <stdlib.h>
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *add(void *arg)
{
	if (pthread_mutex_lock(&m))
		abort();
	count++;
	pthread_mutex_unlock(&m);
	return NULL;
}

void *try_add(void *arg)
{
	if (pthread_mutex_trylock(&m) == 0) {
		count++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2], u;

	pthread_mutex_init(&m, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, add, NULL);
	pthread_create(&u, NULL, try_add, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_join(u, NULL);
	assert(count == 2 || count == 3);
	pthread_mutex_destroy(&m);
	return 0;
}
