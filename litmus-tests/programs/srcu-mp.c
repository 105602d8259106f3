/*
 * srcu-mp.c - SRCU's grace period: synchronize_srcu() waits for readers
 * inside srcu_read_lock()/srcu_read_unlock() on the same srcu_struct, so a
 * reader cannot see the update after the grace period and miss the one
 * before (the kernel's SRCU variant of RCU-MP: Never).
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

DEFINE_SRCU(ss);
int x, y;
int r_x, r_y;

void *reader(void *arg)
{
	int idx = srcu_read_lock(&ss);

	r_y = READ_ONCE(y);
	r_x = READ_ONCE(x);
	srcu_read_unlock(&ss, idx);
	return NULL;
}

void *updater(void *arg)
{
	WRITE_ONCE(x, 1);
	synchronize_srcu(&ss);
	WRITE_ONCE(y, 1);
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], NULL, reader, NULL);
	pthread_create(&t[1], NULL, updater, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	assert(!(r_y == 1 && r_x == 0));
	return 0;
}
