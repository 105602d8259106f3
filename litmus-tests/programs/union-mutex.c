/*
 * union-mutex.c - a lock in the shape of musl's mutex: a typedef'd
 * anonymous struct whose lock word is a union (its members int and
 * atomic_t), taken with atomic_cmpxchg_acquire() and released with
 * atomic_set_release() through a pointer, and a plain counter the lock
 * protects.  The union is always accessed through its atomic_t member:
 * lkmmc gives each member a location of its own, which is right while a
 * program uses one member (a second one is a located error).  With the
 * acquire the critical sections are ordered, the plain accesses never
 * race and the counter ends at 2; with a relaxed cmpxchg instead
 * (tests/e2e-programs.sh) they race.
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

typedef struct {
	union {
		int raw;
		atomic_t word;
	} lock;
	atomic_t waiters;
} mutex_t;

mutex_t m;
int count;

static void mutex_lock(mutex_t *mx)
{
	while (atomic_cmpxchg_acquire(&mx->lock.word, 0, 1) != 0)
		;
}

static void mutex_unlock(mutex_t *mx)
{
	atomic_set_release(&mx->lock.word, 0);
}

void *worker(void *arg)
{
	mutex_lock(&m);
	count++;
	mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(count == 2);
	assert(atomic_read(&m.lock.word) == 0);
	return 0;
}
