/* a thread argument read from a global */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, n;
void *P0(void *a) { WRITE_ONCE(x, (long)a); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, (void *)(long)n); return 0; }
