/* A long irregular walk for live analysis: NODES nodes of one 64-byte line each, linked by a
 * full-period LCG (next(i) = (5 i + 1) mod NODES, NODES a power of two: one cycle through every
 * node, with irregular address deltas), walked for argv[1] steps (default 10^6).
 *
 * Known behaviour at 64-byte granularity (at -O2 the walk's only memory access is the load of
 * p->next; the setup stores each node's `next` once, in order):
 *   references      = NODES (setup stores) + STEPS (walk loads) + 1 (the load of argv[1], when
 *                     given)
 *   cold            = NODES + 1 (the setup touches every node's line first; argv's line)
 *   every distance  <= NODES - 1, and the walk's loads from its second lap on are all at
 *                      distance exactly NODES - 1 (a full lap of distinct lines since the last
 *                      visit), so the count at NODES - 1 is at least STEPS - NODES.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef NODES
#define NODES (1 << 14)
#endif

struct node {
    struct node *next;
    long pad[7];
};

struct node nodes[NODES] __attribute__((aligned(64)));

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 1000000L;
    for (long i = 0; i < NODES; i++)
        nodes[i].next = &nodes[(5 * i + 1) & (NODES - 1)];
    struct node *p = &nodes[0];
    for (long s = 0; s < steps; s++)
        p = p->next;
    printf("end %ld\n", (long)(p - nodes));
    return 0;
}
