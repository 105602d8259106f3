/* a union accessed through two of its members */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

union u { int a; long b; } v;
void *P0(void *a) { WRITE_ONCE(v.a, 1); return NULL; }
void *P1(void *a) { WRITE_ONCE(v.b, 2); return NULL; }
int main(void) { pthread_t t, s; pthread_create(&t, NULL, P0, NULL); pthread_create(&s, NULL, P1, NULL); return 0; }
