/* Teams of one: a `parallel for num_threads(1)` (a team of one thread, whatever
 * OMP_NUM_THREADS says) and a `parallel num_threads(1)` region whose body runs a dynamic
 * worksharing loop, between two loops with the default team. The first loop loads a[i] and
 * stores out[i] (two shared memory instructions per iteration); the others load out[i] and
 * a[i] and store out[i] (three).
 *
 * Usage: team_of_one [n]   (n <= 4096, default 256)
 * Prints the checksum of out. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NMAX 4096

static double a[NMAX], out[NMAX];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "n must be in 1..%d\n", NMAX);
        return 2;
    }
    for (int i = 0; i < n; i++)
        a[i] = i % 7;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        out[i] = a[i] + 1;
#pragma omp parallel for schedule(static) num_threads(1)
    for (int i = 0; i < n; i++)
        out[i] += a[i] * 2;
#pragma omp parallel num_threads(1)
    {
#pragma omp for schedule(dynamic, 8)
        for (int i = 0; i < n; i++)
            out[i] += a[i];
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        out[i] -= a[i];
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += out[i];
    printf("team_of_one n=%d sum=%.0f\n", n, sum);
    return 0;
}
