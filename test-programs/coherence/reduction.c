/* A true-sharing reduction: issue 29 coherence e2e (tests/tests/coherence_e2e.rs).
 *
 * Two threads each add to one shared `sum` with an atomic update (ATOMIC ADD), ROUNDS times,
 * with a barrier after every add, so every round both threads write `sum` (in either order).
 *
 * Expected (write-invalidate): in each round the later writer invalidates the earlier one's
 * copy, so in the next round at least one thread misses on `sum`: at least ROUNDS - 1 coherence
 * misses at ATOMIC ADD, at most 2 ROUNDS, and all of them true sharing (the same 8 bytes were
 * written). Prints "sum S" with S = 2 * (0 + 1 + ... + ROUNDS-1).
 */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 2000

static long sum __attribute__((aligned(64)));

int main(void) {
#pragma omp parallel num_threads(2)
    {
        for (long r = 0; r < ROUNDS; r++) {
#pragma omp atomic
            sum += r; /* ATOMIC ADD */
#pragma omp barrier
        }
    }
    printf("sum %ld\n", sum);
    return 0;
}
