/* main taking a lock before the threads start: not an initial value */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y = 1;
DEFINE_SPINLOCK(l);
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	x = y;
	spin_lock(&l);
	pthread_create(&t, NULL, P0, NULL);
	return 0; }
