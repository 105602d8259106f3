/* the branch taken when pthread_create fails does more than end main */
#include <pthread.h>
#include <stdlib.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	if (pthread_create(&t, NULL, P0, NULL)) {
		x = 3;
		abort();
	}
	return 0; }
