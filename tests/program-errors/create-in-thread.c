/* pthread_create in a thread */
#include <pthread.h>
#include <lkmm.h>

int x;
void *P1(void *a) { WRITE_ONCE(x, 1); return NULL; }
void *P0(void *a) { pthread_t u; pthread_create(&u, NULL, P1, NULL); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
