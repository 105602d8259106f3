/* a kernel macro lkmmc does not know */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { smp_mb__before_spinlock(); WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
