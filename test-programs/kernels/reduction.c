/* Reductions: a dot product and a sum of squares over two vectors with reduction(+:...),
 * repeated REPS times. Size: -DN=... (vector length, default 16384), -DREPS=... (default 4).
 * Prints the results. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 16384
#endif
#ifndef REPS
#define REPS 4
#endif

int main(void) {
  double *x = malloc(sizeof(double) * N);
  double *y = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 17) / 17.0;
    y[i] = (double)(i % 13) / 13.0;
  }
  double dot = 0, sq = 0;
  for (int r = 0; r < REPS; r++) {
#pragma omp parallel for schedule(static) reduction(+ : dot, sq)
    for (int i = 0; i < N; i++) {
      dot += x[i] * y[i];
      sq += x[i] * x[i];
    }
  }
  printf("reduction N=%d REPS=%d dot %.6f sq %.6f\n", N, REPS, dot, sq);
  free(x);
  free(y);
  return 0;
}
