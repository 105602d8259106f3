/* dynamic allocation in a thread */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

#include <stdlib.h>
int *p;
void *P0(void *a) { p = malloc(sizeof(int)); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
