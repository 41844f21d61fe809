/* Matrix multiply whose size comes from the command line, as real codes have it: the k loop
 * walks B down a column by a stride (n doubles) that only the running program knows.
 * Usage: matmul_dyn [n] (default 300). Prints the trace of C. */
#include <stdio.h>
#include <stdlib.h>

static void multiply(int n, const double *A, const double *B, double *C) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 300;
    if (n <= 0 || n > 4096)
        return 2;
    double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n),
           *C = malloc(sizeof(double) * n * n);
    if (!A || !B || !C)
        return 1;
    for (long i = 0; i < (long)n * n; i++) {
        A[i] = (i % 7) * 0.5;
        B[i] = (i % 5) * 0.25;
    }
    multiply(n, A, B, C);
    double t = 0;
    for (int i = 0; i < n; i++)
        t += C[i * n + i];
    printf("%.3f\n", t);
    free(A);
    free(B);
    free(C);
    return 0;
}
