/* 2-D Jacobi stencil (PolyBench jacobi-2d style): TSTEPS sweeps of a 5-point average from A
 * into B and back. Serial initialisation, parallel sweeps with static scheduling.
 * Size: -DN=... (grid side, default 64), -DTSTEPS=... (default 4). Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

int main(void) {
  double *A = malloc(sizeof(double) * N * N);
  double *B = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = ((double)i * (j + 2) + 2) / N;
      B[i * N + j] = ((double)i * (j + 3) + 3) / N;
    }
  for (int t = 0; t < TSTEPS; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i * N + j] = 0.2 * (A[i * N + j] + A[i * N + j - 1] + A[i * N + j + 1] +
                              A[(i + 1) * N + j] + A[(i - 1) * N + j]);
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i * N + j] = 0.2 * (B[i * N + j] + B[i * N + j - 1] + B[i * N + j + 1] +
                              B[(i + 1) * N + j] + B[(i - 1) * N + j]);
  }
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += A[i];
  printf("jacobi2d N=%d T=%d checksum %.6f\n", N, TSTEPS, sum);
  free(A);
  free(B);
  return 0;
}
