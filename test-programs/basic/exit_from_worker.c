/* exit() from a worker thread while the main thread waits in pthread_join.
 *
 * Main stores m[0..N), starts the worker and joins it; the worker stores w[0..N) and calls
 * exit(3). Expected: exit status 3, nothing printed after "worker exiting"; the trace ends
 * normally (reason exit) and holds both threads' stores: N to m[] on the main thread and N to
 * w[] on the worker.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 20000
#endif

int m[N], w[N];

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < N; i++)
        w[i] = i;
    printf("worker exiting\n");
    fflush(stdout);
    exit(3);
}

int main(void) {
    for (int i = 0; i < N; i++)
        m[i] = i;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    printf("not reached\n");
    return 0;
}
