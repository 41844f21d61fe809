/* Exits with the status given as argv[1] (default 3) after a small known loop, through exit()
 * so the runtime's exit flush runs; prints one line on stdout and one on stderr.
 *
 * Known behaviour, built with -O2 -fno-vectorize -fno-slp-vectorize (so each element is one
 * access): N stores to a[] (N/16 lines of 64 bytes, 4-byte ints), then N loads of the same
 * elements, plus two loads of pointers outside a[]: argv[1] (when given) and the global
 * `stderr`. At 64-byte granularity: 2N + 2 references, N/16 + 2 cold misses.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4096
#endif

int a[N] __attribute__((aligned(64)));

int main(int argc, char **argv) {
    int status = argc > 1 ? atoi(argv[1]) : 3;
    for (int i = 0; i < N; i++)
        a[i] = i;
    long s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    printf("out %ld\n", s);
    fprintf(stderr, "err %d\n", status);
    exit(status);
}
