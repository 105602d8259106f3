/*
 * pthread.h - lkmmc's <pthread.h> for whole C programs: the declarations
 * of the thread calls lkmmc understands in main (pthread_create,
 * pthread_join) and of the mutex calls, a pthread_mutex_t being the
 * model's one kind of lock (spinlock_t: pthread_mutex_lock() is
 * spin_lock(), pthread_mutex_trylock() is spin_trylock() returning 0 when
 * it takes the lock).  lkmmc builds it in instead of the system's (see
 * docs/c-programs.md).  The other calls are declared so that
 * their use gets lkmmc's "unsupported" error.
 */
#ifndef LKMMC_PTHREAD_H
#define LKMMC_PTHREAD_H

#include <stdint.h> /* intptr_t for a thread's index, as GenMC's */

typedef unsigned long pthread_t;
typedef struct { int lkmmc_attr; } pthread_attr_t;
typedef int pthread_mutex_t; /* starts unlocked, as a spinlock_t */
typedef struct { int lkmmc_mutexattr; } pthread_mutexattr_t;
typedef struct { int lkmmc_cond; } pthread_cond_t;
#define PTHREAD_MUTEX_INITIALIZER 0
#ifndef NULL
#define NULL ((void *)0)
#endif

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **retval);
pthread_t pthread_self(void);
void pthread_exit(void *retval);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_destroy(pthread_mutex_t *m);

#endif
