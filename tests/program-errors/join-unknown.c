/* joining a handle no thread was started in */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t[2];
	pthread_create(&t[0], NULL, P0, NULL);
	pthread_join(t[1], NULL);
	return 0; }
