/* Plain pthreads (no OpenMP): T = 4 workers each sum their own quarter of a[0..N) and add it
 * to a shared total under a mutex.
 *
 * Expected: prints "total = N(N-1)/2" (a[i] = i; N = 40000: 799980000); the trace has T + 1
 * threads; each worker's load `s += a[i]` runs exactly N/T times, over a contiguous quarter of
 * a[] (stride 4 bytes), and the main thread makes none of those loads.
 */
#include <pthread.h>
#include <stdio.h>

#ifndef N
#define N 40000
#endif
#define T 4

int a[N];
static long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *work(void *arg) {
    long k = (long)arg;
    long s = 0;
    for (int i = k * (N / T); i < (k + 1) * (N / T); i++)
        s += a[i];
    pthread_mutex_lock(&lock);
    total += s;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    for (int i = 0; i < N; i++)
        a[i] = i;
    pthread_t t[T];
    for (long k = 0; k < T; k++)
        pthread_create(&t[k], NULL, work, (void *)k);
    for (int k = 0; k < T; k++)
        pthread_join(t[k], NULL);
    printf("total = %ld\n", total);
    return 0;
}
