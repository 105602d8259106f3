/* a local of main given a final value twice */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y;
void *P0(void *a) { WRITE_ONCE(x, 1); WRITE_ONCE(y, 1); return NULL; }
int main(void) { pthread_t t;
	int r;
	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	r = READ_ONCE(x);
	r = READ_ONCE(y);
	assert(r == 1);
	return 0; }
