/* Matrix multiply C = A x B (i-k-j loop order, rows of C split over threads).
 * Size: -DN=... (default 40). Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 40
#endif

int main(void) {
  double *A = malloc(sizeof(double) * N * N);
  double *B = malloc(sizeof(double) * N * N);
  double *C = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = (double)((i * j + 1) % N) / N;
      B[i * N + j] = (double)((i + 2 * j) % N) / N;
    }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      C[i * N + j] = 0.0;
    for (int k = 0; k < N; k++) {
      double a = A[i * N + k];
      for (int j = 0; j < N; j++)
        C[i * N + j] += a * B[k * N + j];
    }
  }
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += C[i];
  printf("matmul N=%d checksum %.6f\n", N, sum);
  free(A);
  free(B);
  free(C);
  return 0;
}
