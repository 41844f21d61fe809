/* Dies by a fatal signal raised inside malloc while the allocator's lock is held
 * (see malloc_lock.c, linked with --wrap for every allocation function).
 *
 * A worker thread stores b[0..M) and then waits, alive, without allocating; the main thread
 * then stores a[0..N) and calls malloc, which raises SIG (-DSIG=..., SIGSEGV by default) with
 * the lock held. The runtime's fatal-signal flush must write both threads' buffers and the end
 * chunk without allocating (an allocation would re-enter the allocator: exit status 97).
 *
 * Expected trace: exit reason Signal(SIG); exactly N stores to a[] (one instruction, stride 4)
 * on the main thread and exactly M stores to b[] on the worker.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef N
#define N 50000
#endif
#ifndef M
#define M 30000
#endif
#ifndef SIG
#define SIG SIGSEGV
#endif

void malloc_lock_crash_next(int sig);

int a[N];
int b[M];
static atomic_int worker_done;

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < M; i++)
        b[i] = i;
    atomic_store(&worker_done, 1);
    for (;;)
        pause(); /* alive until the process dies */
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load(&worker_done))
        ;
    for (int i = 0; i < N; i++)
        a[i] = i;
    malloc_lock_crash_next(SIG);
    void *p = malloc(64);
    printf("not reached %p\n", p);
    return 0;
}
