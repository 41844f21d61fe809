/* A small OpenMP program that fills every section of `rda-report html`: a worksharing loop
 * (per-thread reuse, SASMM prediction vs measurement, SIMT DS/RD), serial loops whose loads
 * have a spatial and a temporal pattern (multi-pattern instructions), and a few hot lines.
 *
 * Build: rdcc -fopenmp -O1 -g report.c -o report
 * Runs:  OMP_NUM_THREADS=1 RDTRACE=seq.rdtrace ./report; OMP_NUM_THREADS=2 RDTRACE=t2.rdtrace ./report
 * Page:  rda-report html t2.rdtrace -o report.html --seq seq.rdtrace --real 1=seq.rdtrace \
 *          --real 2=t2.rdtrace --simt 1 --source-dir . */
#include <stdio.h>

#define N 8192
static double A[N] __attribute__((aligned(64)));
static double B[N] __attribute__((aligned(64)));

int main(void) {
    volatile int reps_source = 3;
    int reps = reps_source;
    double sum = 0;
    for (int i = 0; i < N; i++)
        A[i] = i;
    for (int r = 0; r < reps; r++) {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < N - 1; i++)
            B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3; /* STENCIL */
        if (r & 1)
            for (int i = 0; i < N; i++)
                A[i] += B[i]; /* FORWARD */
        else
            for (int i = N - 1; i >= 0; i--)
                A[i] -= B[i]; /* BACKWARD */
        for (int i = 0; i < N; i += 2)
            sum += A[i]; /* SUM */
    }
    printf("%g\n", sum);
    return 0;
}
