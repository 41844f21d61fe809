/* Regular benchmark: naive i-j-k matrix multiply of n x n doubles.
 * Default n = 400: 6.4 * 10^7 inner iterations, two loads each. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 400
#endif

int main(void) {
    double *A = malloc(sizeof(double) * N * N), *B = malloc(sizeof(double) * N * N),
           *C = malloc(sizeof(double) * N * N);
    if (!A || !B || !C)
        return 1;
    for (int i = 0; i < N * N; i++) {
        A[i] = (i % 7) * 0.5;
        B[i] = (i % 5) * 0.25;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += A[i * N + k] * B[k * N + j];
            C[i * N + j] = s;
        }
    double t = 0;
    for (int i = 0; i < N * N; i += N + 1)
        t += C[i];
    printf("%.3f\n", t);
    free(A);
    free(B);
    free(C);
    return 0;
}
