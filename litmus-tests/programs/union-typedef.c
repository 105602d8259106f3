/*
 * union-typedef.c - the record types a program may declare its globals
 * with: a union global (each union used through one member), a typedef'd
 * anonymous union, and an array of a typedef'd anonymous struct holding
 * one, reached through a pointer in a helper.  The final assert reads the
 * values the thread stored (tests/e2e-programs.sh changes one it expects:
 * then it is violated).
 * Expected: No errors
 */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

union counter {
	int n;
	atomic_t v;
} hits;

typedef union {
	long word;
	int *ptr;
} slot_t;

typedef struct {
	atomic_t state;
	slot_t slot;
} entry_t;

slot_t spare;
entry_t table[2];

static void fill(entry_t *e, int v)
{
	atomic_set(&e->state, v);
	WRITE_ONCE(e->slot.word, v + 10);
}

void *filler(void *arg)
{
	WRITE_ONCE(hits.n, 1);
	WRITE_ONCE(spare.word, 7);
	fill(&table[1], 5);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, filler, NULL);
	pthread_join(t, NULL);
	assert(hits.n == 1 && spare.word == 7);
	assert(atomic_read(&table[1].state) == 5 && table[1].slot.word == 15);
	assert(table[0].slot.word == 0);
	return 0;
}
