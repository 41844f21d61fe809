/* OpenMP parallel for with a reduction over a shared heap array.
 *
 * Known behaviour: the loop body runs N times in total whatever the thread count; the loads of
 * x[i] are shared accesses with stride 8 inside each thread's static chunk, and the same
 * multiset of addresses is read with 1 and with 4 threads. The outlined region's blocks are
 * parallel; main's are serial.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10000
#endif

int main(void) {
    double *x = malloc(N * sizeof(double));
    if (!x)
        return 1;
    for (int i = 0; i < N; i++)
        x[i] = (double)(i % 100);
    double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (int i = 0; i < N; i++)
        sum += x[i];
    printf("sum=%.0f\n", sum);
    free(x);
    return 0;
}
