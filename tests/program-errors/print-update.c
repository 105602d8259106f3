/* main printing the value of an update: the update would run in main */
#include <pthread.h>
#include <stdio.h>
#include <lkmm.h>

atomic_t v;
void *P0(void *a) { atomic_inc(&v); return NULL; }
int main(void) { pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	printf("%d\n", atomic_inc_return(&v));
	return 0; }
