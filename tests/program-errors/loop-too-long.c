/* a loop in main that runs more than 64 times */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t[100];
	for (int i = 0; i < 100; i++)
		pthread_create(&t[i], NULL, P0, NULL);
	return 0; }
