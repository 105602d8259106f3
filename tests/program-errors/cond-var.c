/* a pthread condition variable */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

pthread_cond_t c;
int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
