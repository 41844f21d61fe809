/* A true-sharing reduction on any number of threads: issue 29 point 2, the predicted coherence
 * misses (tests/tests/predict_coherence_e2e.rs). Like reduction.c, but without num_threads(2),
 * so a one-thread run is the sequential trace SASMM mimics from.
 *
 * Every thread adds to one shared `sum` with an atomic update (ATOMIC ADD, one read-modify-write
 * access) ROUNDS times, with a barrier after every add.
 *
 * Expected (write-invalidate): the region is replicated on every core, and each round is one
 * section (barriers end sections). Model, m cores, round-robin: the m adds of a round come one
 * per core, each finds `sum` written by another core since its own last add: m coherence misses
 * per round after the first (whose adds are compulsory), all true sharing, m (ROUNDS - 1) in
 * all. Real
 * run, T threads: in each round every thread but the one that also added last in the round
 * before misses: between (T - 1) ROUNDS and T ROUNDS, all true sharing.
 * Prints "sum S" with S = T * (0 + 1 + ... + ROUNDS-1).
 */
#include <stdio.h>

#define ROUNDS 1000

static long sum __attribute__((aligned(64)));

int main(void) {
#pragma omp parallel
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
