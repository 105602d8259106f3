/*
 * local-once.c - READ_ONCE(), WRITE_ONCE() and rcu_dereference() of a
 * thread's own local variable (GenMC's tests write rcu_dereference(r1)
 * of a local r1): a local is thread-private, a register with no events
 * in the model, so the access is its value, and the address dependency
 * from the rcu_dereference() of p through the locals q and q2 to the read
 * of *q3 is kept.  With the publisher's smp_store_release() the reader
 * that sees &y sees y's 1; with WRITE_ONCE() instead
 * (tests/e2e-programs.sh) nothing orders the two stores and its assert
 * can fail.
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y;
int *p = &x;

void *publisher(void *arg)
{
	WRITE_ONCE(y, 1);
	smp_store_release(&p, &y);
	return NULL;
}

void *reader(void *arg)
{
	int *q = rcu_dereference(p);
	int *q2;

	WRITE_ONCE(q2, q);
	int *q3 = rcu_dereference(q2);
	int v = READ_ONCE(*q3);
	assert(!(q == &y && v == 0));
	return NULL;
}

int main(void)
{
	pthread_t t, u;

	pthread_create(&t, NULL, publisher, NULL);
	pthread_create(&u, NULL, reader, NULL);
	pthread_join(t, NULL);
	pthread_join(u, NULL);
	return 0;
}
