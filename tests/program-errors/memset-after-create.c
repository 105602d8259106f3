/* memset in main while the threads run */
#include <pthread.h>
#include <string.h>
#include <lkmm.h>

int x[2];
void *P0(void *a) { WRITE_ONCE(x[0], 1); return NULL; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	memset(x, 0, sizeof x);
	pthread_join(t, NULL);
	return 0;
}
