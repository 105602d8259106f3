/* main reading a global into a local before every thread is joined */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t, u;
	pthread_create(&t, NULL, P0, NULL);
	pthread_create(&u, NULL, P0, NULL);
	pthread_join(t, NULL);
	int r = READ_ONCE(x);
	pthread_join(u, NULL);
	assert(r == 1);
	return 0; }
