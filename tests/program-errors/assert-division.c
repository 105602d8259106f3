/* a final assert with a division (C truncates, the solver floors): not accepted */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	pthread_join(t, NULL);
	assert(x < 2 && x / 2 == 0);
	return 0; }
