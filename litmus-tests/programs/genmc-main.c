/*
 * genmc-main.c - main written as GenMC's users write it: each
 * pthread_create and pthread_join tested (they never fail in the model),
 * the threads created in a loop with their index as argument, cast back
 * with (intptr_t)arg, an initial value computed from another global's,
 * the final values read into main's locals before the assert.  Each of
 * the N writers adds its index + 1 to its own slot under the counter's
 * atomic_add(); the counter ends at 1 + 2 + 3 plus the base.
 * Expected: No errors
 */
#include <stdlib.h>
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

#define N 3

int base = 10;
atomic_t counter;
int slot[N];
int ids[N];

void *writer(void *arg)
{
	intptr_t i = (intptr_t)arg;

	WRITE_ONCE(slot[i], i + 1);
	atomic_add(i + 1, &counter);
	return NULL;
}

int main(void)
{
	pthread_t t[N];

	atomic_set(&counter, base * 2);
	for (int i = 0; i < N; i++)
		if (pthread_create(&t[i], NULL, writer, (void *)(intptr_t)i))
			abort();
	for (int i = 0; i < N; i++)
		if (pthread_join(t[i], NULL) != 0)
			exit(EXIT_FAILURE);

	int total = atomic_read(&counter);
	int last = READ_ONCE(slot[N - 1]);
	assert(total == 26 && last == N);
	return 0;
}
