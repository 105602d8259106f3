/*
 * rcu-mp-nosync.c - rcu-mp.c with the updater's synchronize_rcu() left
 * out: the reader may see the later update and miss the earlier one.
 * Expected: Assertion violated at line 37
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y;
int r_x, r_y;

void *P0(void *unused)
{
	rcu_read_lock();
	r_x = READ_ONCE(x);
	r_y = READ_ONCE(y);
	rcu_read_unlock();
	return NULL;
}

void *P1(void *unused)
{
	WRITE_ONCE(x, 1);
	/* synchronize_rcu() left out */
	WRITE_ONCE(y, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	pthread_create(&t[0], NULL, P0, NULL);
	pthread_create(&t[1], NULL, P1, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	assert(!(r_x == 0 && r_y == 1));
	return 0;
}
