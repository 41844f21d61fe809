/* Producer/consumer through a shared buffer: issue 29 coherence e2e
 * (tests/tests/coherence_e2e.rs).
 *
 * Thread 0 fills a 4 KiB buffer (64 lines of 64 bytes; PRODUCE), hands it over (a flag on a line
 * of its own), thread 1 sums it (CONSUME) and hands it back; ROUNDS rounds.
 *
 * Expected (write-invalidate, an 8 KiB 8-way L1 that holds the buffer and the flag):
 * - the consumer's first round: 64 compulsory misses; every later round the producer has
 *   rewritten every line, so all 64 lines miss again as coherence misses with true sharing:
 *   64 (ROUNDS - 1) at CONSUME, none false.
 * - the producer's copies are never invalidated (the consumer only reads): no coherence misses at
 *   PRODUCE (its writes to lines the consumer shares are upgrades, not misses).
 * Prints "total T".
 */
#include <omp.h>
#include <sched.h>
#include <stdio.h>

#define ROUNDS 100
#define N 512

static long buf[N] __attribute__((aligned(64)));

static struct {
    int v;
    char pad[64 - sizeof(int)];
} turn __attribute__((aligned(64)));

int main(void) {
    long total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
    {
        int t = omp_get_thread_num();
        for (int r = 0; r < ROUNDS; r++) {
            while (__atomic_load_n(&turn.v, __ATOMIC_ACQUIRE) != t)
                sched_yield();
            if (t == 0) {
                for (int i = 0; i < N; i++)
                    buf[i] = (long)r * i; /* PRODUCE */
            } else {
                for (int i = 0; i < N; i++)
                    total += buf[i]; /* CONSUME */
            }
            __atomic_store_n(&turn.v, 1 - t, __ATOMIC_RELEASE);
        }
    }
    printf("total %ld\n", total);
    return 0;
}
