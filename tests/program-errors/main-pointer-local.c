/* a pointer variable in main */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t; int *p = &x;
	pthread_create(&t, NULL, P0, p);
	return 0; }
