/* main initialising a global from another */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y = 1;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	x = y;
	pthread_create(&t, NULL, P0, NULL);
	return 0; }
