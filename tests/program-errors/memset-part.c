/* memset of part of a global's bytes */
#include <pthread.h>
#include <string.h>
#include <lkmm.h>

struct pair { int a, b; } p;
void *P0(void *arg) { WRITE_ONCE(p.a, 1); return NULL; }
int main(void)
{
	pthread_t t;
	memset(&p, 0, sizeof(int));
	pthread_create(&t, NULL, P0, NULL);
	return 0;
}
