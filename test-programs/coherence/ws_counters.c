/* Per-thread counters in rounds of a worksharing loop: issue 29 point 2, the predicted
 * coherence misses (tests/tests/predict_coherence_e2e.rs). Unlike counters.c, whose turns depend
 * on omp_get_thread_num() and so cannot run on one thread, this program runs the same code on
 * any number of threads, so SASMM can mimic it from a one-thread trace.
 *
 * Usage: ws_counters NT [padded]. ROUNDS rounds; in each, a `schedule(static)` loop over NT
 * iterations (iteration t is thread t's with NT threads, and model core t's with m = NT cores)
 * increments counter t (one load, one store: COUNTER UPDATE); its implicit barrier ends the
 * round. The NT counters are 8 bytes each in one 64-byte line (unpadded), or one line each.
 *
 * Expected (write-invalidate, 64-byte lines), NT = number of threads or cores:
 * - unpadded, real run with T threads: in each round every thread finds the line written by
 *   another thread since its own last update, except the thread that updated last in the
 *   round before when it also goes first: between (T - 1) and T coherence misses per round,
 *   all false sharing (each thread writes only its own 8 bytes).
 * - unpadded, model at m cores (round-robin, one access per core in turn: L0 .. Lm-1, S0 ..
 *   Sm-1): core 0's load misses (core m-1 wrote last), every store but core 0's misses (the
 *   store before it invalidated the line), and the loads of cores 1 .. m-2 miss too: 2 (m - 1)
 *   misses per round, all false sharing: 2 per round at m = 2, 6 at m = 4. The lockstep puts
 *   every core's load before any store, which real updates separated in time never do, so the
 *   model gives between 1 and 2 times the real count (m = 2: 2 against 1-2; m = 4: 6 against
 *   3-4).
 * - padded: no coherence miss at the update, in the run and in the model.
 * Prints "counters C0 .. CNT-1" (each ROUNDS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2000
#define MAX_NT 8

static struct {
    volatile long v[MAX_NT];
} unpadded __attribute__((aligned(64)));

static struct {
    volatile long v;
    char pad[64 - sizeof(long)];
} padded[MAX_NT] __attribute__((aligned(64)));

int main(int argc, char **argv) {
    int nt = argc > 1 ? atoi(argv[1]) : 2;
    int pad = argc > 2 && strcmp(argv[2], "padded") == 0;
    if (nt < 1 || nt > MAX_NT)
        return 2;
    volatile long *counter[MAX_NT];
    for (int t = 0; t < nt; t++)
        counter[t] = pad ? &padded[t].v : &unpadded.v[t];
#pragma omp parallel
    for (int r = 0; r < ROUNDS; r++) {
        /* Not unrolled: SASMM splits a loop by its block instances, one per iteration. */
#pragma omp for schedule(static)
#pragma clang loop unroll(disable)
        for (int t = 0; t < nt; t++)
            *counter[t] += 1; /* COUNTER UPDATE */
    }
    printf("counters");
    for (int t = 0; t < nt; t++)
        printf(" %ld", *counter[t]);
    printf("\n");
    return 0;
}
