/* An OpenMP program with a long serial phase between two parallel loops: the shape that makes a
 * live merge wait for idle workers unless they park (see rdtrace::stream).
 *
 * Known behaviour: a parallel loop writes x[0..X) (each thread its static chunk), then the
 * master alone walks NODES 64-byte nodes linked by a full-period LCG (next(i) = 5 i + 1 mod
 * NODES) for argv[1] steps (default 10^6), then a second parallel loop updates x[]. The
 * workers are idle (in libomp) for the whole walk. Output: the final node index and x[5] = 6.
 */
#include <stdio.h>
#include <stdlib.h>

#define NODES (1 << 14)
#define X 100000

struct node {
    struct node *next;
    long pad[7];
};

struct node nodes[NODES] __attribute__((aligned(64)));
double x[X];

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 1000000L;
#pragma omp parallel for
    for (int i = 0; i < X; i++)
        x[i] = i;
    for (long i = 0; i < NODES; i++)
        nodes[i].next = &nodes[(5 * i + 1) & (NODES - 1)];
    struct node *p = &nodes[0];
    for (long s = 0; s < steps; s++)
        p = p->next;
#pragma omp parallel for
    for (int i = 0; i < X; i++)
        x[i] += 1;
    printf("%ld %.1f\n", (long)(p - nodes), x[5]);
    return 0;
}
