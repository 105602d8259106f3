/* a C11 anonymous union member */
#include <pthread.h>
#include <lkmm.h>

struct lock { union { int word; atomic_t v; }; int owner; } l;
void *P0(void *a) { WRITE_ONCE(l.word, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
