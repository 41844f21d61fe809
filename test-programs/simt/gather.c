/* SIMT test kernel: a gather through an index array. Thread i loads idx[i] = i % M, then
 * x[idx[i]], and stores y[i]. In a block of T threads (M divides T) the gather MI touches the
 * M elements of x, each T / M times (multiplicity T / M), and every block's gather MI touches
 * the same M elements: gather MIs of different blocks reuse all of them.
 *
 * Usage: gather [n]   (n ≤ 8192, default 512); M = 16. */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 8192
#define M 16

static int idx[NMAX];
static double x[M];
static double y[NMAX];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "n must be in 1..%d\n", NMAX);
        return 2;
    }
    for (int k = 0; k < M; k++)
        x[k] = k + 1;
    for (int i = 0; i < n; i++)
        idx[i] = i % M;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * x[idx[i]];
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += y[i];
    printf("gather n=%d sum=%.0f\n", n, sum);
    return 0;
}
