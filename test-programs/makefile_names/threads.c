/* Prints how many OpenMP threads ran a parallel region (1 when built without OpenMP), and a
 * checksum of a parallel sum over N = 4096 doubles a[i] = i: N(N-1)/2 = 8386560.
 * Expected: "threads=T sum=8386560" with T = OMP_NUM_THREADS under -fopenmp, else T = 1. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 4096
static double a[N];

int main(void) {
    int threads = 1;
    double sum = 0;
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma omp parallel reduction(+ : sum)
    {
#ifdef _OPENMP
#pragma omp single
        threads = omp_get_num_threads();
#endif
#pragma omp for
        for (int i = 0; i < N; i++)
            sum += a[i];
    }
    printf("threads=%d sum=%.0f\n", threads, sum);
    return 0;
}
