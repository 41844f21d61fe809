/* More threads alive at once than the runtime's registry holds (4096, with the main thread).
 *
 * T = 4100 workers each register (first hook) and then wait at a barrier, so all T + 1 threads
 * are alive together; after the barrier each adds 0 + 1 + ... + 99 = 4950 into its own slot.
 *
 * Expected: the program's output is unchanged (sum = 4100 * 4950 = 20295000); the trace holds
 * exactly 4096 threads (the registry's size), the end record counts exactly those 4096 thread
 * indices (threads that found the registry full get no index, and are not registered again on
 * every hook), and the runtime warns once.
 */
#include <pthread.h>
#include <stdio.h>

#ifndef T
#define T 4100
#endif

static pthread_barrier_t barrier;
static long hits[T];

static void *work(void *arg) {
    long k = (long)arg;
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 100; i++)
        hits[k] += i;
    return NULL;
}

int main(void) {
    static pthread_t threads[T];
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_barrier_init(&barrier, NULL, T);
    for (long k = 0; k < T; k++)
        if (pthread_create(&threads[k], &attr, work, (void *)k) != 0) {
            perror("pthread_create");
            return 1;
        }
    long sum = 0;
    for (long k = 0; k < T; k++) {
        pthread_join(threads[k], NULL);
        sum += hits[k];
    }
    printf("sum = %ld\n", sum);
    return 0;
}
