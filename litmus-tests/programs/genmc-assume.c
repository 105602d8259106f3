/*
 * genmc-assume.c - GenMC's __VERIFIER_assume() from <genmc.h>: an
 * execution where the condition is false where the call stands is
 * discarded.  The reader keeps only the executions where it saw the
 * flag, so with smp_wmb() and smp_rmb() the data it reads next is the
 * writer's; without the assume (tests/e2e-programs.sh takes it out) the
 * flag may be 0 and the thread's assert can fail.  main's assume after
 * the joins keeps the executions where the writer's store of flag came
 * last, which it always does: its assert holds.
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>
#include <genmc.h>

int data, flag;
int seen;

void *writer(void *arg)
{
	WRITE_ONCE(data, 1);
	smp_wmb();
	WRITE_ONCE(flag, 1);
	return NULL;
}

void *reader(void *arg)
{
	int f = READ_ONCE(flag);

	__VERIFIER_assume(f == 1);
	smp_rmb();
	int d = READ_ONCE(data);
	assert(d == 1);
	WRITE_ONCE(seen, f);
	return NULL;
}

int main(void)
{
	pthread_t w, r;

	if (pthread_create(&w, NULL, writer, NULL))
		abort();
	if (pthread_create(&r, NULL, reader, NULL))
		abort();
	if (pthread_join(w, NULL))
		abort();
	if (pthread_join(r, NULL))
		abort();
	__VERIFIER_assume(flag == 1);
	assert(seen == 1);
	return 0;
}
