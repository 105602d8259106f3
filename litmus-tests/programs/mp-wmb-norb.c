/*
 * mp-wmb-norb.c - mp-wmb-rmb.c with the reader's smp_rmb() left out:
 * nothing orders the reader's two loads, so it may see the flag and
 * stale data (the kernel's MP+wmb+pos... family: Sometimes).
 * Expected: Assertion violated at line 37
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
	/* smp_rmb() left out */
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
