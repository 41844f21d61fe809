/* Irregular benchmark: chase a random cyclic permutation of NODES nodes for STEPS steps.
 * Each step is one dependent load at an unpredictable address. Defaults: 2^16 nodes (fits in
 * L2), 10^8 steps. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NODES
#define NODES (1 << 16)
#endif
#ifndef STEPS
#define STEPS 100000000L
#endif

struct node {
    struct node *next;
    long pad[7]; /* one node per 64-byte line */
};

int main(void) {
    struct node *nodes = malloc(sizeof(struct node) * NODES);
    int *perm = malloc(sizeof(int) * NODES);
    if (!nodes || !perm)
        return 1;
    for (int i = 0; i < NODES; i++)
        perm[i] = i;
    unsigned long x = 88172645463325252UL; /* xorshift: same list every run */
    for (int i = NODES - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int j = (int)(x % (unsigned long)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < NODES; i++)
        nodes[perm[i]].next = &nodes[perm[(i + 1) % NODES]];
    struct node *p = &nodes[perm[0]];
    for (long s = 0; s < STEPS; s++)
        p = p->next;
    printf("%ld\n", (long)(p - nodes));
    free(nodes);
    free(perm);
    return 0;
}
