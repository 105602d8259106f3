/*
 * spin-lost-wakeup.c - a waiter posts a request and spins until it is
 * acknowledged; the waker acknowledges only a request it already sees.
 * When the waker looks before the request reaches it, nobody will ever
 * set ack: the waiter spins forever (a lost wake-up; the shape of
 * waitqueue_active() without its barrier, kernel-fragments/).
 * Expected: Spins forever at line 24
 */
#include <pthread.h>
#include <lkmm.h>

int req, ack;

void *waker(void *arg)
{
	if (READ_ONCE(req))
		WRITE_ONCE(ack, 1);
	return NULL;
}

void *waiter(void *arg)
{
	WRITE_ONCE(req, 1);
	while (!READ_ONCE(ack))
		;
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, waker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
