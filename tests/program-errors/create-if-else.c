/* a tested pthread_create whose else branch is the failure branch's
 * opposite: code that runs when the call succeeds */
#include <pthread.h>
#include <stdlib.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t;
	if (pthread_create(&t, NULL, P0, NULL) == 0)
		x = 2;
	return 0; }
