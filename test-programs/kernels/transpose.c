/* Out-of-place transposition B = A^T of an N x N matrix of doubles, rows of A split over
 * threads (schedule(static)), repeated REPS times.
 * Size: -DN=... (default 64), -DREPS=... (default 2). Prints a checksum.
 *
 * Expected behaviour (L1 8K:8:64 = 16 sets): A is read along rows (7 of 8 loads hit the line
 * the previous one brought). B is written down a column: with N = 64 a row of B is 512 bytes
 * = 8 lines, so the column's lines are 8 apart and fall into only 2 of the 16 sets; the 64
 * lines of one column hold 32 lines per set against 8 ways, so under LRU no line of B survives
 * until row i + 1 writes the next double of it: the stores to B all miss L1 (44 % hits over the
 * transposition's loads and stores, (7/8 + 0) / 2; with the serial initialisation of A and the
 * checksum loop over B, 7/8 hits each, about (2 x 7/8 + 2 x 7/8) / 6 = 58 % overall, a little
 * less for the first pass's cold lines). Eq. 5 sees a reuse distance of ~65 lines in a
 * 128-line cache and predicts most of those stores to hit. A and B (64 KiB) fit the L2. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef REPS
#define REPS 2
#endif

int main(void) {
  double *A = malloc(sizeof(double) * N * N);
  double *B = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; i++)
    A[i] = (double)(i % 23);
  for (int r = 0; r < REPS; r++) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        B[j * N + i] = A[i * N + j] + r;
  }
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += B[i] * (i % 7);
  printf("transpose N=%d REPS=%d checksum %.1f\n", N, REPS, sum);
  free(A);
  free(B);
  return 0;
}
