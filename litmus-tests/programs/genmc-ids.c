/*
 * genmc-ids.c - threads given the address of their slot of ids[] (filled
 * by main first), an initial value computed by main from another
 * global's, and a main that returns without joining: its threads still
 * run to the end, and their assertions are checked.  The reader thread
 * sees start's initial value, 2 * base, or the writer's 0.
 * Expected: No errors
 */
#include <stdlib.h>
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int base = 5;
int start;
int ids[2];

void *worker(void *arg)
{
	int id = *(int *)arg;

	if (id == 0) {
		WRITE_ONCE(start, 0);
	} else {
		int r = READ_ONCE(start);
		assert(r == 2 * base || r == 0);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	WRITE_ONCE(start, base * 2);
	for (int i = 0; i < 2; i++)
		ids[i] = i;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)&ids[i]) != 0)
			exit(1);
	return 0;
}
