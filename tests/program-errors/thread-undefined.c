/* a thread function declared but not defined */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

void *P0(void *a);
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
