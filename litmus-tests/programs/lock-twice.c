/*
 * lock-twice.c - a thread that takes the same spinlock twice: it waits
 * for itself forever, so no execution reaches the end of the program
 * (the corpus's manual/locked/self-deadlock; herd7: Never 0 0).
 * Expected: Deadlock
 */
#include <pthread.h>
#include <lkmm.h>

DEFINE_SPINLOCK(l);
int x;

void *P0(void *arg)
{
	spin_lock(&l);
	spin_lock(&l);
	WRITE_ONCE(x, 1);
	spin_unlock(&l);
	spin_unlock(&l);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	return 0;
}
