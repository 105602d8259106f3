/*
 * rcu-publish.c - RCU publication through a pointer: the updater
 * initialises an object, then publishes its address with
 * rcu_assign_pointer(); a reader that finds it with rcu_dereference()
 * sees the initialised field (address dependency, MP+rcuptr: Never).
 * The reader checks where it stands, with BUG_ON().  Each thread is
 * passed the address of the global it works on.
 * Expected: No errors
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
	rcu_assign_pointer(gp, p);
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
