/* a final assert that is not an equality */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	assert(x < 2);
	return 0; }
