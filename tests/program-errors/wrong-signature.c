/* a thread function that does not take and return a pointer */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
int P0(int a) { WRITE_ONCE(x, a); return 0; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
