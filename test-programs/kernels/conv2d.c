/* 2-D convolution with a 3x3 filter (PolyBench convolution-2d style), output rows split over
 * threads. Size: -DN=... (image side, default 96). Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 96
#endif

int main(void) {
  double *A = malloc(sizeof(double) * N * N);
  double *B = malloc(sizeof(double) * N * N);
  const double c[3][3] = {{0.2, 0.5, -0.8}, {-0.3, 0.6, -0.9}, {0.4, 0.7, 0.1}};
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = (double)((i + j) % 10) / 10.0;
      B[i * N + j] = 0.0;
    }
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++)
    for (int j = 1; j < N - 1; j++)
      B[i * N + j] = c[0][0] * A[(i - 1) * N + j - 1] + c[0][1] * A[(i - 1) * N + j] +
                     c[0][2] * A[(i - 1) * N + j + 1] + c[1][0] * A[i * N + j - 1] +
                     c[1][1] * A[i * N + j] + c[1][2] * A[i * N + j + 1] +
                     c[2][0] * A[(i + 1) * N + j - 1] + c[2][1] * A[(i + 1) * N + j] +
                     c[2][2] * A[(i + 1) * N + j + 1];
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += B[i];
  printf("conv2d N=%d checksum %.6f\n", N, sum);
  free(A);
  free(B);
  return 0;
}
