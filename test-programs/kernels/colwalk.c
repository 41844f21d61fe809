/* Column walk with a power-of-two row pitch: column sums of a ROWS x 32 matrix of doubles,
 * columns split over threads (schedule(static)), repeated REPS times.
 * Size: -DROWS=... (default 40), -DREPS=... (default 8). Prints the column sums.
 *
 * Expected behaviour (L1 8K:8:64 = 16 sets of 8 ways): a row is 32 doubles = 256 bytes = 4
 * lines, so walking a column touches lines 4 apart, which fall into only 4 of the 16 sets. The
 * walk of one column touches ROWS = 40 lines, 10 per set: more than the 8 ways, so under LRU
 * every line is evicted before the next column (the same line, one double to the right)
 * comes back to it, and every matrix load of the walk misses L1. Only the serial initialisation
 * (7 of 8 stores hit the line the previous one brought) and the sum[] updates hit: with the
 * defaults about 1600 hits of 11900 references, an L1 hit rate near 14 %. The stack-distance
 * formula (eq. 5) sees a reuse distance of 39 lines in a 128-line cache and predicts almost
 * all hits (around 90 %): this is the case that made the formula err. The whole matrix
 * (10 KiB) fits the L2, so the L2 local hit rate is near 100 % after the first pass. */
#include <stdio.h>
#include <stdlib.h>

#ifndef ROWS
#define ROWS 40
#endif
#ifndef REPS
#define REPS 8
#endif
#define COLS 32

int main(void) {
  double *M = malloc(sizeof(double) * ROWS * COLS);
  double *sum = malloc(sizeof(double) * COLS);
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      M[i * COLS + j] = (double)((i * 7 + j * 3) % 11);
  for (int j = 0; j < COLS; j++)
    sum[j] = 0;
  for (int r = 0; r < REPS; r++) {
#pragma omp parallel for schedule(static)
    for (int j = 0; j < COLS; j++) {
      double s = 0;
      for (int i = 0; i < ROWS; i++)
        s += M[i * COLS + j];
      sum[j] += s;
    }
  }
  double total = 0;
  for (int j = 0; j < COLS; j++)
    total += sum[j] * (j + 1);
  printf("colwalk ROWS=%d REPS=%d weighted sum %.1f\n", ROWS, REPS, total);
  free(M);
  free(sum);
  return 0;
}
