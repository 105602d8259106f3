/* pthread_create in a loop whose bound is a global */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, n = 2;
void *P0(void *a) { WRITE_ONCE(x, 1); return NULL; }
int main(void) { pthread_t t[4]; for (int i = 0; i < n; i++) pthread_create(&t[i], NULL, P0, NULL); return 0; }
