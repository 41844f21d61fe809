/* An allocator with one global lock, as glibc's malloc has, wrapped around the real one.
 *
 * Built with plain clang (not instrumented: it stands for libc's allocator) and linked with
 *   -Wl,--wrap=malloc,--wrap=free,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,
 *   --wrap=aligned_alloc,--wrap=memalign
 * so every allocation of the program AND of the linked tracing runtime goes through it.
 *
 * `malloc_lock_crash_next(sig)` makes the next malloc raise `sig` while it holds the lock (sig
 * SIGABRT calls abort()). Anything that allocates from the signal handler then re-enters the
 * allocator on the thread that holds its lock: a real allocator would deadlock there; this one
 * reports it on stderr ("allocation inside the fatal-signal flush") and exits with status 97,
 * so a test sees the bug instead of hanging.
 *
 * `malloc_lock_hold()` takes the lock as a malloc in progress would, and keeps it;
 * `malloc_lock_wait_for_waiter(ms)` then waits until another thread blocks on it (1) or the
 * time is up (0). Together they stop the tracing runtime's writer thread inside the allocator
 * at a known point, as a crash inside malloc can.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void *__real_malloc(size_t n);
void __real_free(void *p);
void *__real_calloc(size_t n, size_t k);
void *__real_realloc(void *p, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void *__real_memalign(size_t a, size_t n);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic long owner;
static _Atomic int crash_sig;
/* Threads blocked on the lock. */
static _Atomic int waiters;

void malloc_lock_crash_next(int sig) { atomic_store(&crash_sig, sig); }

static void enter(void) {
    long me = syscall(SYS_gettid);
    if (atomic_load(&owner) == me) {
        static const char msg[] = "allocation inside the fatal-signal flush\n";
        write(2, msg, sizeof msg - 1);
        _exit(97);
    }
    atomic_fetch_add(&waiters, 1);
    pthread_mutex_lock(&lock);
    atomic_fetch_sub(&waiters, 1);
    atomic_store(&owner, me);
}

void malloc_lock_hold(void) { enter(); }

int malloc_lock_wait_for_waiter(int ms) {
    struct timespec tick = {0, 1000000};
    for (int i = 0; i < ms; i++) {
        if (atomic_load(&waiters) > 0)
            return 1;
        nanosleep(&tick, NULL);
    }
    return atomic_load(&waiters) > 0;
}

static void leave(void) {
    atomic_store(&owner, 0);
    pthread_mutex_unlock(&lock);
}

void *__wrap_malloc(size_t n) {
    enter();
    int sig = atomic_exchange(&crash_sig, 0);
    if (sig == SIGABRT)
        abort();
    if (sig != 0)
        raise(sig);
    void *p = __real_malloc(n);
    leave();
    return p;
}

void __wrap_free(void *p) {
    enter();
    __real_free(p);
    leave();
}

void *__wrap_calloc(size_t n, size_t k) {
    enter();
    void *p = __real_calloc(n, k);
    leave();
    return p;
}

void *__wrap_realloc(void *q, size_t n) {
    enter();
    void *p = __real_realloc(q, n);
    leave();
    return p;
}

int __wrap_posix_memalign(void **p, size_t a, size_t n) {
    enter();
    int r = __real_posix_memalign(p, a, n);
    leave();
    return r;
}

void *__wrap_aligned_alloc(size_t a, size_t n) {
    enter();
    void *p = __real_aligned_alloc(a, n);
    leave();
    return p;
}

void *__wrap_memalign(size_t a, size_t n) {
    enter();
    void *p = __real_memalign(a, n);
    leave();
    return p;
}
