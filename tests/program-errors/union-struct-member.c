/* a union with a struct member */
#include <pthread.h>
#include <lkmm.h>

struct lock { union { int word; struct { short lo, hi; } half; } u; } l;
void *P0(void *a) { WRITE_ONCE(l.u.word, 1); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
