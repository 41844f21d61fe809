/* Regular benchmark: 2-D 5-point Jacobi sweeps over an n x n grid (doubles), T iterations.
 * Default: n = 2048, T = 8 -> about 2 * 10^8 scalar memory accesses before vectorisation. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 2048
#endif
#ifndef T
#define T 8
#endif

int main(void) {
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    if (!a || !b)
        return 1;
    for (long i = 0; i < (long)N * N; i++)
        a[i] = b[i] = (double)(i % 17);
    for (int t = 0; t < T; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                b[i * N + j] = 0.2 * (a[i * N + j] + a[(i - 1) * N + j] + a[(i + 1) * N + j] + a[i * N + j - 1] +
                                      a[i * N + j + 1]);
        double *tmp = a;
        a = b;
        b = tmp;
    }
    double s = 0;
    for (long i = 0; i < (long)N * N; i += N + 1)
        s += a[i];
    printf("%.6f\n", s);
    free(a);
    free(b);
    return 0;
}
