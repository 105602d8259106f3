/* a C library function the model does not have, in a thread */
#include <pthread.h>
#include <string.h>
#include <lkmm.h>

int x;
void *P0(void *a) { memset(&x, 0, sizeof x); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
