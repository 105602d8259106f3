/* abort() in a helper a thread calls: it would have to leave every frame */
#include <pthread.h>
#include <stdlib.h>
#include <lkmm.h>

int x;
static void check(void) { if (READ_ONCE(x)) abort(); }
void *P0(void *a) { check(); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
