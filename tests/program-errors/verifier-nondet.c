/* a GenMC builtin other than __VERIFIER_assume */
#include <pthread.h>
#include <lkmm.h>
#include <genmc.h>

int x;
void *P0(void *a) { WRITE_ONCE(x, __VERIFIER_nondet_int()); return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, P0, NULL); return 0; }
