/* Serial loops with known behaviour.
 *
 * A 64-byte-aligned global array of N doubles (N/8 cache lines) is written once and then read
 * in two full sweeps. At -O2 nothing else touches memory (the sums live in registers; the FP
 * reduction is not reassociated, so the reads stay in order), hence at 64-byte granularity:
 *   cold misses       = N/8            (the init sweep touches every line first)
 *   distance N/8 - 1  = 2 * N/8        (first access to each line in each read sweep)
 *   distance 0        = every other access (the rest of the line)
 * At -O0 the loop structure is plain: for.cond runs N+1 times per loop, for.body N times.
 */
#include <stdio.h>

#ifndef N
#define N 4096
#endif

double a[N] __attribute__((aligned(64)));

int main(void) {
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
    double s1 = 0, s2 = 0;
    for (int i = 0; i < N; i++)
        s1 += a[i];
    for (int i = 0; i < N; i++)
        s2 += a[i];
    printf("%.1f %.1f\n", s1, s2);
    return 0;
}
