/* __VERIFIER_assume in main while the threads run */
#include <pthread.h>
#include <lkmm.h>
#include <genmc.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, P0, NULL);
	__VERIFIER_assume(x == 1);
	pthread_join(t, NULL);
	return 0;
}
