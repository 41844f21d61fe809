/* Dies by SIGSEGV while a worker of the tracing runtime's writer is blocked inside the allocator,
 * compressing a chunk it has ended, with more of the thread's raw buffers handed over to the
 * writer behind it (see malloc_lock.c, linked with --wrap for every allocation function).
 *
 * Main first stores w[] a few times (about 9000 events, less than one raw buffer of 16384
 * records). A short thread records a few events and exits: its tiny chunk (its chunk 0, which
 * goes to the writer's worker 0) makes that worker's zstd size its workspace for tiny inputs.
 * Then main takes the allocator's lock and keeps it, and stores a[0..N): main hands six full
 * buffers to the writer (about 6 * 16384 of its 9000 + 3N events). The fourth buffer ends main's
 * chunk 0 (four buffers of 16384 records, 65536 events), which worker 0 encodes and then needs a
 * larger zstd workspace to compress: it blocks in malloc. Buffers five and six belong to main's
 * chunk 1, which worker 1 encodes meanwhile (or they are still queued).
 * Once worker 0 waits for the lock, main raises SIGSEGV. The fatal-signal flush must write the
 * chunk worker 0 is stuck on itself, then what follows it (chunk 1 as worker 1 left it, or the
 * queued buffers), then main's open buffer and the end chunk, without a sequence gap and
 * allocating nothing.
 *
 * Expected trace: exit reason Signal(SIGSEGV); exactly N stores to a[] on the main thread, one
 * store to a[0] on the short thread, and no sequence gaps. (Built with --rd-no-implied-blocks,
 * main records 3 events per store, block, branch and access: about 9000 + 3N = 99000 events with
 * N = 30000, which closes exactly one chunk while the lock is held and leaves fewer buffers in
 * flight than main has.) Exit status 98 means the worker never blocked (the test then proves
 * nothing and fails).
 */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#ifndef N
#define N 30000
#endif
#define W 1000

void malloc_lock_hold(void);
int malloc_lock_wait_for_waiter(int ms);

int a[N];
int w[W];

static void *short_thread(void *arg) {
    (void)arg;
    a[0] = -1;
    return NULL;
}

int main(void) {
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < W; i++)
            w[i] = i + r;
    pthread_t t;
    pthread_create(&t, NULL, short_thread, NULL);
    pthread_join(t, NULL);
    usleep(200000); /* the writer compresses the short thread's chunk meanwhile */
    malloc_lock_hold();
    for (int i = 0; i < N; i++)
        a[i] = i;
    if (!malloc_lock_wait_for_waiter(10000)) {
        static const char msg[] = "the writer never blocked in the allocator\n";
        write(2, msg, sizeof msg - 1);
        _exit(98);
    }
    raise(SIGSEGV);
    return 0;
}
