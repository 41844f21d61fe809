/* Per-thread statistics records, unpadded (16-byte structs, four to a 64-byte line) or padded
 * (one line each): issue 29 false-sharing view e2e (tests/tests/false_sharing_e2e.rs).
 *
 * Two threads take strict turns (a handshake on `turn`, on a line of its own, as in counters.c)
 * and each updates its own record: `count` (COUNT UPDATE) and `sum` (SUM UPDATE), both 8-byte
 * fields, loads and stores. Run with RDTRACE_STAMP_EVERY=1 so the merge in stamp order puts
 * every turn where it ran.
 *
 * Expected (write-invalidate, 64-byte lines, an L1 that holds the few lines):
 * - unpadded: both records share the line at `unpadded` (64-byte aligned); thread t reads and
 *   writes bytes 16t .. 16t+15 of it (count then sum): thread 0 bytes 0-15, thread 1 bytes
 *   16-31. From its second round on, each thread's first access of a round (the load of
 *   `count`) finds the line invalidated by the other's stores to other bytes: one false-sharing
 *   miss per round and thread, 2 (ROUNDS - 1) at COUNT UPDATE, none at SUM UPDATE (the line is
 *   back by then). Disjoint 16-byte slots 16 bytes apart, written by the same instructions in
 *   both threads: per-thread elements of one 16-byte-element array, so the fix is to pad each
 *   element to 64 bytes (48 bytes of padding).
 * - padded: no other thread writes a record's line: no coherence misses at the updates.
 * - either way the spin on `turn` misses once per round and thread: true sharing.
 * Prints "stats R S R S" (count and sum of each thread).
 */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 3000

struct stats {
    volatile long count;
    volatile long sum;
};

struct padded_stats {
    volatile long count;
    volatile long sum;
    char pad[64 - 2 * sizeof(long)];
};

static struct stats unpadded[2] __attribute__((aligned(64)));
static struct padded_stats padded[2] __attribute__((aligned(64)));

static struct {
    int v;
    char pad[64 - sizeof(int)];
} turn __attribute__((aligned(64)));

int main(int argc, char **argv) {
    int pad = argc > 1 && strcmp(argv[1], "padded") == 0;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        struct stats *mine = pad ? (struct stats *)&padded[t] : &unpadded[t];
        for (int r = 0; r < ROUNDS; r++) {
            while (__atomic_load_n(&turn.v, __ATOMIC_ACQUIRE) != t)
                sched_yield();
            mine->count += 1; /* COUNT UPDATE */
            mine->sum += r;   /* SUM UPDATE */
            __atomic_store_n(&turn.v, 1 - t, __ATOMIC_RELEASE);
        }
    }
    struct stats *s0 = pad ? (struct stats *)&padded[0] : &unpadded[0];
    struct stats *s1 = pad ? (struct stats *)&padded[1] : &unpadded[1];
    printf("stats %ld %ld %ld %ld\n", s0->count, s0->sum, s1->count, s1->sum);
    return 0;
}
