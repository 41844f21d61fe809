/* A program whose reuse distances grow with a size parameter N (-DN=...), for path-based
 * prediction across inputs (rda-report paths-predict). Each repetition sweeps A and B twice:
 *
 *   loop 1: a branch with period 3 (i % 3) picks one of two updates of A[i], one of which also
 *           reads B[i] — three different paths into the same loads;
 *   loop 2: A[i] against B walked backwards.
 *
 * With 8-byte elements a 64-byte line holds 8 of them: in every loop the first access to a
 * line reuses it from the previous sweep (temporal, a distance proportional to N) and the
 * other seven reuse it from the previous iteration (spatial, a constant distance). The branch
 * pattern repeats every 24 iterations (period 3 against the squash period 8), so the set of
 * paths does not depend on N, while the long distances scale linearly with it.
 *
 * Build: rdcc -O1 -g -DN=4096 sized.c -o sized. */
#include <stdio.h>

#ifndef N
#define N 4096
#endif

static double A[N] __attribute__((aligned(64)));
static double B[N] __attribute__((aligned(64)));

int main(void) {
  volatile int reps_source = 3;
  int reps = reps_source;
  double s = 0;
  for (int i = 0; i < N; i++)
    B[i] = i;
  for (int r = 0; r < reps; r++) {
    for (int i = 0; i < N; i++) { /* loop 1 */
      if (i % 3 == 0)
        A[i] += B[i];
      else
        A[i] -= 1.0;
    }
    for (int i = 0; i < N; i++) /* loop 2 */
      s += A[i] * B[N - 1 - i];
  }
  printf("%g\n", s);
  return 0;
}
