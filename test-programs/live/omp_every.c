/* Every analysis of `rda-report live` on one small OpenMP run (tests/tests/live_every_e2e.rs).
 *
 * Known behaviour: a parallel worksharing loop (schedule(static)) over a shared array writes
 * a[i] from b[i] and b[i - 1] under a data-dependent branch, so each analysis has something to
 * report: measure (misses per thread, coherence between threads when OMP_NUM_THREADS > 1),
 * annotate (per source line), check (regions and worksharing pairs), simt (the loop mapped to
 * GPU threads), paths (the branch's history), html. Prints one line on stdout ("sum S", S the
 * same for every thread count) and exits with the status given as argv[1] (default 0), through
 * a return from main so the runtime's exit flush runs.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4096
#endif

int a[N];
int b[N];

int main(int argc, char **argv) {
    int status = argc > 1 ? atoi(argv[1]) : 0;
    for (int i = 0; i < N; i++)
        b[i] = i % 7;
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N; i++) {
        if (b[i] > 3)
            a[i] = b[i] + b[i - 1];
        else
            a[i] = 2 * b[i];
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("sum %ld\n", s);
    return status;
}
