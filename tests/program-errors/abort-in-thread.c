/* abort() in a thread */
#include <pthread.h>
#include <stdlib.h>
#include <lkmm.h>

int x;
void *P0(void *a) { if (READ_ONCE(x)) abort(); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
