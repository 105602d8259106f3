/*
 * rcu-publish-once.c - rcu-publish.c publishing with WRITE_ONCE() instead
 * of rcu_assign_pointer(): without the release, the field's
 * initialisation may come after the pointer, and the reader's BUG_ON()
 * fires.
 * Expected: Assertion failed at line 34
 */
#include <pthread.h>
#include <lkmm.h>

struct obj {
	int a;
};

struct obj o;
struct obj *gp;

void *updater(void *arg)
{
	struct obj *p = arg;

	WRITE_ONCE(p->a, 42);
	WRITE_ONCE(gp, p);
	return NULL;
}

void *reader(void *arg)
{
	struct obj *p;

	rcu_read_lock();
	p = rcu_dereference(gp);
	if (p)
		BUG_ON(READ_ONCE(p->a) != 42);
	rcu_read_unlock();
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], NULL, updater, &o);
	pthread_create(&t[1], NULL, reader, NULL);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return 0;
}
