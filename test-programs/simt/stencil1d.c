/* SIMT test kernel: 1-D 3-point stencil. For i in 1..n-2, iteration g = i - 1 (GPU thread g)
 * loads a[g], a[g+1], a[g+2] (in that order) and stores b[g+1]. Within a block of T threads the
 * three load MIs cover T consecutive elements shifted by one: neighbouring load MIs share all
 * but one address (DS = T - 1), loads two apart share T - 2; the store touches another array.
 *
 * Usage: stencil1d [n]   (3 ≤ n ≤ 4096, default 258: 256 threads) */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 4096

static double a[NMAX];
static double b[NMAX];

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 258;
    if (n < 3 || n > NMAX) {
        fprintf(stderr, "n must be in 3..%d\n", NMAX);
        return 2;
    }
    for (int i = 0; i < n; i++)
        a[i] = i % 7;
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += b[i];
    printf("stencil1d n=%d sum=%.3f\n", n, sum);
    return 0;
}
