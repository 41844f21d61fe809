/* Producer/consumer through a shared buffer, with the roles given by worksharing iterations:
 * issue 29 point 2, the predicted coherence misses (tests/tests/predict_coherence_e2e.rs).
 * Unlike producer_consumer.c (roles by omp_get_thread_num() and a spin handshake), it runs the
 * same on any number of threads, so SASMM can mimic it from a one-thread trace.
 *
 * Each of ROUNDS rounds has two worksharing loops of 2 iterations (schedule(static): iteration
 * 0 is thread and core 0's, iteration 1 thread and core 1's, also with 4 threads), each ended by
 * its implicit barrier: in the first, iteration 0 fills a 4 KiB buffer (64 lines of 64 bytes;
 * PRODUCE); in the second, iteration 1 sums it (CONSUME).
 *
 * Expected (write-invalidate, an 8 KiB 8-way L1 that holds the buffer), in the real run and in
 * the model alike (the barriers fix the order, so the model's interleaving changes nothing):
 * the consumer's first round has 64 compulsory misses; every later round the producer has
 * rewritten every line: 64 (ROUNDS - 1) coherence misses at CONSUME, all true sharing. The
 * producer's copies are never invalidated (the consumer only reads): none at PRODUCE.
 * Prints "total T".
 */
#include <stdio.h>

#define ROUNDS 100
#define N 512

static long buf[N] __attribute__((aligned(64)));

int main(void) {
    long total = 0;
#pragma omp parallel reduction(+ : total)
    {
        for (int r = 0; r < ROUNDS; r++) {
#pragma omp for schedule(static)
            for (int w = 0; w < 2; w++)
                if (w == 0)
                    for (int i = 0; i < N; i++)
                        buf[i] = (long)r * i; /* PRODUCE */
#pragma omp for schedule(static)
            for (int w = 0; w < 2; w++)
                if (w == 1)
                    for (int i = 0; i < N; i++)
                        total += buf[i]; /* CONSUME */
        }
    }
    printf("total %ld\n", total);
    return 0;
}
