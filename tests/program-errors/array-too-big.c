/* a global array of more than 64 elements */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int a[100];
void *P0(void *u) { WRITE_ONCE(a[0], 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
