/* a union */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

union u { int a; long b; } v;
void *P0(void *a) { WRITE_ONCE(v.a, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
