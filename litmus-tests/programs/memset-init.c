/*
 * memset-init.c - memset() and memcpy() of whole globals in main before
 * the threads start: they give initial values, one store per location of
 * the object (each field and element).  main fills a struct, copies it
 * into a spare, clears it, and copies a constant-initialised array; the
 * threads read what that left.  tests/e2e-programs.sh takes out the
 * memset (then the checker's assert fails) and the array's memcpy (then
 * main's does).
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <string.h>
#include <lkmm.h>

struct config {
	int mode;
	int limits[2];
	int *target;
};

int data = 1;
int seeds[3] = { 4, 5, 6 };
int work[3];
struct config cfg, spare;

void *user(void *arg)
{
	int mode = READ_ONCE(spare.mode);
	int *t = READ_ONCE(spare.target);

	WRITE_ONCE(*t, mode + READ_ONCE(work[2]));
	return NULL;
}

void *checker(void *arg)
{
	assert(READ_ONCE(cfg.mode) == 0 && READ_ONCE(cfg.limits[1]) == 0);
	return NULL;
}

int main(void)
{
	pthread_t u, c;

	cfg.mode = 2;
	cfg.limits[1] = 9;
	cfg.target = &data;
	memcpy(&spare, &cfg, sizeof spare);
	memset(&cfg, 0, sizeof cfg);
	memcpy(work, seeds, sizeof work);
	pthread_create(&u, NULL, user, NULL);
	pthread_create(&c, NULL, checker, NULL);
	pthread_join(u, NULL);
	pthread_join(c, NULL);
	assert(data == 8 && spare.limits[1] == 9 && work[0] == 4);
	return 0;
}
