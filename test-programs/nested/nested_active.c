/* Nested parallelism that really runs in parallel: omp_set_max_active_levels(2) lets the
 * inner `parallel for num_threads(2)` of each of the two outer threads fork a team of two, so
 * up to four threads run at once and two teams of the same inner region (and two launches of
 * the same worksharing loop) are in flight together.
 *
 * Each outer thread t works on its own row: the inner static loop loads a[i] and b[i] and
 * stores out[t][i]; the inner dynamic loop loads out[t][i] and stores c[t][i]. Repeated REPS
 * times.
 *
 * Usage: nested_active [n]   (n <= 4096, default 256)
 * Prints the checksum of out and c. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NMAX 4096
#define REPS 3

static double a[NMAX], b[NMAX];
static double out[2][NMAX], c[2][NMAX];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "n must be in 1..%d\n", NMAX);
        return 2;
    }
    omp_set_max_active_levels(2);
    for (int i = 0; i < n; i++) {
        a[i] = i % 7;
        b[i] = i % 5;
    }
    for (int r = 0; r < REPS; r++) {
#pragma omp parallel num_threads(2)
        {
            int t = omp_get_thread_num();
#pragma omp parallel for schedule(static) num_threads(2)
            for (int i = 0; i < n; i++)
                out[t][i] = a[i] + b[i] * (t + 1);
#pragma omp parallel for schedule(dynamic, 16) num_threads(2)
            for (int i = 0; i < n; i++)
                c[t][i] = out[t][i] * 2;
        }
    }
    double sum = 0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < n; i++)
            sum += out[t][i] + c[t][i];
    printf("nested_active n=%d sum=%.0f\n", n, sum);
    return 0;
}
