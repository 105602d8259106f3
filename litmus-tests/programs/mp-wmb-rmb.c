/*
 * mp-wmb-rmb.c - message passing: the writer orders its stores with
 * smp_wmb(), the reader its loads with smp_rmb(); a reader that sees the
 * flag sees the data (the kernel's MP+wmb+rmb, Never).
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int data, flag;
int r_flag, r_data;

void *writer(void *arg)
{
	WRITE_ONCE(data, 1);
	smp_wmb();
	WRITE_ONCE(flag, 1);
	return NULL;
}

void *reader(void *arg)
{
	r_flag = READ_ONCE(flag);
	smp_rmb();
	r_data = READ_ONCE(data);
	return NULL;
}

int main(void)
{
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	assert(!(r_flag == 1 && r_data == 0));
	return 0;
}
