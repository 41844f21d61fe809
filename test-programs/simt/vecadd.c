/* SIMT test kernel: vector add. Iteration i (GPU thread i) loads a[i] and b[i] and stores c[i].
 * Every address is touched by exactly one thread and one static instruction, so no two MIs
 * share an element: DS = 0 at element granularity in every scenario. The arrays are 64-byte
 * aligned, so at line:64 granularity (8 doubles per line) an MI of T threads covers whole lines
 * exactly when 8 divides T; otherwise neighbouring blocks share the line that straddles them.
 *
 * Usage: vecadd [n]   (n ≤ 4096, default 1024) */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 4096

static double a[NMAX] __attribute__((aligned(64)));
static double b[NMAX] __attribute__((aligned(64)));
static double c[NMAX] __attribute__((aligned(64)));

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "n must be in 1..%d\n", NMAX);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += c[i];
    printf("vecadd n=%d sum=%.0f\n", n, sum);
    return 0;
}
