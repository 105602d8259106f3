/*
 * printing.c - a program with the C library's headers and printing in
 * its threads and main: printing has no effect on the memory the model
 * sees, but what its arguments read is read (P0's READ_ONCE(y)), and
 * puts()'s value is 0.
 * Expected: No errors
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x, y;

void *P0(void *arg)
{
	printf("P0 sees y = %d\n", READ_ONCE(y));
	WRITE_ONCE(x, 1);
	fprintf(stderr, "P0 done\n");
	return NULL;
}

void *P1(void *arg)
{
	int r = puts("P1");

	WRITE_ONCE(y, 1 + r);
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;

	printf("start\n");
	pthread_create(&t0, NULL, P0, NULL);
	pthread_create(&t1, NULL, P1, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	printf("x = %d, y = %d\n", READ_ONCE(x), y);
	assert(x == 1 && y == 1);
	return 0;
}
