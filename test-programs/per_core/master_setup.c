/* Per-core rates: inside one parallel region the master thread (OpenMP thread 0) first reads
 * a large buffer once, master-only setup work the other threads do not do, then every thread
 * takes its static share of a small array, swept REPS times.
 *
 * Sizes: -DN=... doubles of the small array (default 512: 4 KiB, 64 lines), -DREPS=... sweeps
 * (default 16), -DBIG_LINES=... cache lines of the master's buffer (default 16384: 1 MiB).
 *
 * Expected behaviour with the paper's caches (private L1 8K:8:64, shared L2 128K:16:64), rates
 * per cache-line reference, on T threads:
 * - The master's setup reads BIG_LINES distinct lines once (one byte of each): every one of
 *   these references is a first touch, so it misses its L1 and the L2: at least BIG_LINES L1
 *   misses on thread 0 alone.
 * - The sweeps: thread t owns a contiguous 1/T of the array (at most 64 lines, 4 per L1 set, in
 *   an 8-way L1), so after its first sweep every reference hits its L1: a worker's only misses
 *   are the first touches of its share (N*8/64/T lines) and a few of the region's bookkeeping
 *   accesses. Each element is a load and a store per sweep (fewer references if vectorised,
 *   still at most N*2*REPS/T per thread).
 * - After the region thread 0 sums the array: at most N more references.
 * So thread 0 issues at most N*2*REPS/T + N + BIG_LINES references (plus a few) of which at
 * least BIG_LINES miss: its L1 hit rate is at most about (N*2*REPS/T + N) / (N*2*REPS/T + N +
 * BIG_LINES), 0.35 with the defaults and T = 2 (0.51 with T = 1), while a worker's is above
 * 0.95: the master's rate differs from the workers' by far more than 2x. The output does not
 * depend on T.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 512
#endif
#ifndef REPS
#define REPS 16
#endif
#ifndef BIG_LINES
#define BIG_LINES 16384
#endif

int main(void) {
  double *a = calloc(N, sizeof(double));
  unsigned char *big = calloc((size_t)BIG_LINES, 64);
  long setup = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
      /* Master-only setup: one byte of every line of the buffer. */
      long s = 0;
      for (long i = 0; i < BIG_LINES; i++)
        s += big[i * 64];
      setup = s + 1;
    }
    for (int r = 0; r < REPS; r++) {
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++)
        a[i] += 1.0;
    }
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("master_setup N=%d REPS=%d BIG_LINES=%d sum %.1f setup %ld\n", N, REPS, BIG_LINES,
         sum, setup);
  free(a);
  free(big);
  return 0;
}
