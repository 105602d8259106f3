/*
 * rcu-mp.c - RCU's grace-period guarantee as a program: a reader that sees
 * the update made after synchronize_rcu() also sees the one made before.
 * The kernel's RCU-MP / Documentation/RCU/Design: the outcome r_x == 0 &&
 * r_y == 1 is forbidden.
 * Expected: No errors
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
	synchronize_rcu();
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
