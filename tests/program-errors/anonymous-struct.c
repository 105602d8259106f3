/* a global of an anonymous struct type that no typedef names */
#include <pthread.h>
#include <lkmm.h>

struct { int a, b; } pair;
void *P0(void *a) { WRITE_ONCE(pair.a, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
