/* SIMT test kernel: loop divergence. Thread i runs an inner loop i % 4 times, loading
 * a[4i + k], then stores out[i]. The k-th execution of the load is one MI in which only the
 * threads with i % 4 > k are active: in a warp of 32, the three load MIs have 24, 16 and 8
 * active threads, and the store MI has all 32.
 *
 * Usage: divergent [n]   (n ≤ 1024, default 64) */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 1024

static double a[4 * NMAX];
static double out[NMAX];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 64;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "n must be in 1..%d\n", NMAX);
        return 2;
    }
    for (int i = 0; i < 4 * n; i++)
        a[i] = i % 3;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < i % 4; k++)
            s += a[4 * i + k];
        out[i] = s;
    }
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += out[i];
    printf("divergent n=%d sum=%.0f\n", n, sum);
    return 0;
}
