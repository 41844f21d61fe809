/* Per-thread counters, unpadded (both in one 64-byte line) or padded (one line each): issue 29
 * coherence e2e (tests/tests/coherence_e2e.rs).
 *
 * Two threads take strict turns (a handshake on `turn`, which has a line of its own): thread t
 * waits for turn == t, increments its counter (one load, one store: COUNTER UPDATE), and passes
 * the turn. The turns force the fine interleaving a 2-CPU machine would not give on its own, and
 * run with RDTRACE_STAMP_EVERY=1 the trace's stamps order the segments as they ran.
 *
 * Expected (write-invalidate, 64-byte lines, an L1 that holds the few lines):
 * - unpadded: from its second round on, each thread finds its copy of the counters' line
 *   invalidated by the other's store to the other counter: one coherence miss per update,
 *   2 (ROUNDS - 1) in all, all false sharing (the other wrote other bytes); the first update of
 *   each thread is compulsory.
 * - padded: no other thread ever writes a counter's line: no coherence misses at the update.
 * - either way the spin on `turn` (TURN SPIN) misses once per round and thread after the other's
 *   store to `turn`: true sharing (about 2 ROUNDS).
 * Prints "counters R R".
 */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 5000

static struct {
    volatile long v[2];
} unpadded __attribute__((aligned(64)));

static struct {
    volatile long v;
    char pad[64 - sizeof(long)];
} padded[2] __attribute__((aligned(64)));

static struct {
    int v;
    char pad[64 - sizeof(int)];
} turn __attribute__((aligned(64)));

int main(int argc, char **argv) {
    int pad = argc > 1 && strcmp(argv[1], "padded") == 0;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        volatile long *mine = pad ? &padded[t].v : &unpadded.v[t];
        for (int r = 0; r < ROUNDS; r++) {
            while (__atomic_load_n(&turn.v, __ATOMIC_ACQUIRE) != t) /* TURN SPIN */
                sched_yield();
            *mine += 1; /* COUNTER UPDATE */
            __atomic_store_n(&turn.v, 1 - t, __ATOMIC_RELEASE);
        }
    }
    if (pad)
        printf("counters %ld %ld\n", padded[0].v, padded[1].v);
    else
        printf("counters %ld %ld\n", unpadded.v[0], unpadded.v[1]);
    return 0;
}
