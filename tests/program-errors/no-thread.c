/* main that creates no thread */
#include <pthread.h>
#include <assert.h>
#include <lkmm.h>

int x;
int main(void) { x = 1; return 0; }
