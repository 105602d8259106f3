/* a thread's argument stored between the creates: it would race */
#include <pthread.h>
#include <stdlib.h>
#include <lkmm.h>

int ids[2];
void *P0(void *a) { WRITE_ONCE(ids[0], *(int *)a); return NULL; }
int main(void) { pthread_t t[2];
	for (int i = 0; i < 2; i++) {
		ids[i] = i;
		if (pthread_create(&t[i], NULL, P0, &ids[i]))
			abort();
	}
	return 0; }
