/* A wild pointer: scribbles over the records its own thread has just put in the trace buffer
 * (on the heap, next to the runtime's cursor) and then dies of SIGSEGV.
 *
 * Issue 10: the trace must stay readable. The runtime's signal-time flush encodes the clobbered
 * records as they are, so the last chunk of thread 0 names a block no module has; the reader
 * ends thread 0 at the last good event before it with a warning naming the file, the chunk's
 * offset and the thread, and `info`/`histogram` analyse everything up to there (exit 0).
 */
#include <stdint.h>
#include <stdio.h>

#ifndef N
#define N 20000
#endif

/* The runtime's per-thread write position in its event buffer (see runtime/src/tls.c). */
extern __thread void *__rdt_cursor;

int a[N];
int *volatile nowhere = 0;

int main(void) {
    for (int i = 0; i < N; i++)
        a[i] = i;
    uint64_t *cur = (uint64_t *)__rdt_cursor;
    /* Records are 16 bytes (head, value); head = tag << 56 | id, tag 1 = block. Overwrite the
     * last eight records with blocks 0xfffff0.. that exist in no module. */
    for (int k = 1; k <= 8; k++) {
        cur[-2 * k] = (1ull << 56) | (0xfffff0u + (unsigned)k);
        cur[-2 * k + 1] = 0;
    }
    *nowhere = 1; /* SIGSEGV */
    printf("not reached\n");
    return 0;
}
