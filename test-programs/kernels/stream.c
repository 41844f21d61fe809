/* A read stream just larger than the L2: the sum of an array of N doubles, split over threads
 * (schedule(static), reduction), repeated REPS times.
 * Size: -DN=... (default 20480 = 160 KiB = 2560 lines), -DREPS=... (default 4). Prints the sum.
 *
 * Expected behaviour (L1 8K:8:64, L2 128K:16:64 = 2048 lines in 128 sets): each 64-byte line
 * holds 8 doubles, so 7 of 8 loads hit L1 and every line's first load misses; the reduction's
 * private copy of s is stored on the stack every iteration (always a hit), so about
 * (7/8 + 1) / 2 = 94 % of the loop's references and 92-93 % of all hit L1. Each pass sweeps 2560
 * lines, 20 per L2 set against 16 ways, so in LRU order every line is evicted before the next
 * pass reaches it: on one thread the L2 local hit rate is 0 % and the global L2 hit rate equals
 * the L1 hit rate. The formula (eq. 5 with D = 2559 lines in a 2048-line cache) predicts
 * around 12 % local L2 hits instead.
 * With several threads each sweeps its own contiguous part, and the L2 hit rate depends on how
 * the threads progress relative to each other: in lockstep (what SASMM's round-robin
 * interleaving assumes) the first pass hits the part of the array the serial initialisation
 * left in L2 (a few % local hits), later passes miss; if the OS runs one thread's part before
 * another's, and in a different order in the next pass, the part swept last in one pass is
 * still in L2 when it comes first in the next (up to ~20 % local hits measured with 4 threads
 * on 2 CPUs). Only the local L2 rate is sensitive: L1 misses are ~7 % of references, so the
 * global L2 rate moves by about a point. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 20480
#endif
#ifndef REPS
#define REPS 4
#endif

int main(void) {
  double *x = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++)
    x[i] = (double)(i % 19);
  double total = 0;
  for (int r = 0; r < REPS; r++) {
    double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int i = 0; i < N; i++)
      s += x[i];
    total += s;
  }
  printf("stream N=%d REPS=%d sum %.1f\n", N, REPS, total);
  free(x);
  return 0;
}
