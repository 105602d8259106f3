/* a thread function passed through a variable */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
void *(*fp)(void *) = P0;
int main(void) { pthread_t t; pthread_create(&t, NULL, fp, NULL); return 0; }
