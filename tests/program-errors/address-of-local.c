/* the address of a local variable */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int *p;
void *P0(void *a) { int r = 0; WRITE_ONCE(p, &r); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
