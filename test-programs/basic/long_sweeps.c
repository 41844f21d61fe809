/* A long trace with a constant footprint (issue 16: every command runs in memory bounded by the
 * program, not by the trace length).
 *
 * argv[1] = S sweeps. A 64-byte-aligned global array of N = 4096 doubles (512 cache lines,
 * 32 KiB) is written once, then read S times, each sweep one `parallel for` with a reduction.
 * The FP reduction is not reassociated, so each sweep issues N scalar loads in order (plus the
 * block and branch events of the loop): the trace grows linearly with S, while the distinct
 * lines (512 and a few), memory instructions, paths and threads stay the same. Run with
 * OMP_NUM_THREADS=1 the trace is a sequential run for `predict`, each sweep one parallel
 * section (a region ends it).
 *
 * argv[2] = "one": the same S * N loads in ONE `parallel for` (one parallel section of the
 * sequential run, which `predict` cannot hold in memory when S is large).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

double a[N] __attribute__((aligned(64)));

int main(int argc, char **argv) {
    long sweeps = argc > 1 ? atol(argv[1]) : 1;
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
    double s = 0;
    if (argc > 2) {
#pragma omp parallel for reduction(+ : s)
        for (long j = 0; j < sweeps * N; j++)
            s += a[j % N];
    } else {
        for (long k = 0; k < sweeps; k++) {
#pragma omp parallel for reduction(+ : s)
            for (int i = 0; i < N; i++)
                s += a[i];
        }
    }
    printf("%.1f\n", s);
    return 0;
}
