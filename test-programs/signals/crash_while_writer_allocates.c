/* Dies by SIGSEGV while the tracing runtime's writer thread is blocked inside the allocator,
 * compressing a chunk it has taken off its queue (see malloc_lock.c, linked with --wrap for
 * every allocation function).
 *
 * Main first stores w[] a few times, so its buffer is encoded once (the encoder's tables are
 * sized: nothing allocates on main later) without closing a chunk. A short thread records a
 * few events and exits: its tiny chunk makes zstd size its workspace for tiny inputs, and its
 * buffer returns to the runtime's pool. Then main takes the allocator's lock and keeps it, and
 * stores a[0..N): that closes exactly one chunk (which takes the pooled buffer: no
 * allocation), and that chunk needs a larger zstd workspace, so the writer, compressing it,
 * blocks in malloc.
 * Once the writer waits for the lock, main raises SIGSEGV. The fatal-signal flush must write
 * that chunk itself (the writer will never finish it), then main's open buffer and the end
 * chunk, allocating nothing.
 *
 * Expected trace: exit reason Signal(SIGSEGV); exactly N stores to a[] on the main thread, one
 * store to a[0] on the short thread, and no sequence gaps. (Main records 3 events per store,
 * block, branch and access: about 9000 + 3N events in all, so N = 30000 closes exactly one
 * chunk of 65536 events while the lock is held.) Exit status 98 means the writer never
 * blocked (the test then proves nothing and fails).
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
