/* The program of Figure 2 of "path-based reuse distance analysis": an if/else chooses loop 1
 * or loop 2 over A, then loop 3 walks A again. An outer repetition runs it twice so both arms
 * occur: r = 0 takes the else arm (loop 2), r = 1 the then arm (loop 1).
 *
 * Elements are 32-byte vectors, so a 64-byte line holds l = 2 of them and every A[i] is one
 * 32-byte access. In loop 3, A[i] with even i starts a line last touched by loop 1 or 2 (a long,
 * temporal reuse: all other N/2 - 1 lines of A came in between) and A[i] with odd i reuses the
 * line the previous iteration brought (distance 0, spatial reuse).
 *
 * The repetition count is read through a volatile so that the compiler cannot unroll the outer
 * loop and resolve the if at compile time. With l = 2, branch histories of l + 1 = 3 bits or more
 * separate the two patterns of loop 3's A[i] and shorter ones do not (history aliasing); the
 * derivation, bit by bit, is in tests/tests/paths_e2e.rs.
 *
 * Build: rdcc -O1 -g fig2.c -o fig2; run: RDTRACE=fig2.rdtrace ./fig2;
 * analyse: rda-report paths fig2.rdtrace --history 1,2,3,4,8. */
#include <stdio.h>

#ifndef N
#define N 4096
#endif

typedef double vec4 __attribute__((vector_size(32)));

static vec4 A[N] __attribute__((aligned(64)));

int main(void) {
  volatile int reps_source = 2;
  int reps = reps_source;
  vec4 sum = {0, 0, 0, 0};
  const vec4 one = {1, 1, 1, 1};
  for (int r = 0; r < reps; r++) {
    if (r & 1) {
      for (int i = 0; i < N; i++) /* loop 1 */
        A[i] += one;
    } else {
      for (int i = 0; i < N; i++) /* loop 2 */
        A[i] *= one + one;
    }
    for (int i = 0; i < N; i++) /* loop 3 */
      sum += A[i];
  }
  printf("%g\n", sum[0] + sum[1] + sum[2] + sum[3]);
  return 0;
}
