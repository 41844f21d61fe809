/* LU decomposition without pivoting (PolyBench lu style), in place on a diagonally dominant
 * matrix; for each pivot k the trailing rows are updated in parallel (triangular work).
 * Size: -DN=... (default 48); -DCHUNK=c switches to schedule(static, c). Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 48
#endif

int main(void) {
  double *A = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i * N + j] = (i == j) ? N + 1.0 : (double)((i + j) % 7) / 7.0;
  for (int k = 0; k < N - 1; k++) {
#ifdef CHUNK
#pragma omp parallel for schedule(static, CHUNK)
#else
#pragma omp parallel for schedule(static)
#endif
    for (int i = k + 1; i < N; i++) {
      double f = A[i * N + k] / A[k * N + k];
      A[i * N + k] = f;
      for (int j = k + 1; j < N; j++)
        A[i * N + j] -= f * A[k * N + j];
    }
  }
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += A[i];
  printf("lu N=%d checksum %.6f\n", N, sum);
  free(A);
  return 0;
}
