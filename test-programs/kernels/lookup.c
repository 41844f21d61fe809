/* Threads sharing a read-only table: every thread translates its part of an array of KEYS
 * pseudo-random keys through one table of TABLE ints (schedule(static)), summing the results.
 * Size: -DTABLE=... (default 4096 ints = 16 KiB = 256 lines), -DKEYS=... (default 32768).
 * Prints the sum.
 *
 * Expected behaviour (L1 8K:8:64, L2 128K:16:64): the table is twice the L1, and keys are
 * uniform, so a table lookup hits L1 about half the time at most (fewer, as the streamed key
 * array also takes room); the key array is read sequentially (15 of 16 int loads hit L1). The
 * table is shared, not copied per thread: it fits the shared L2 once, so after its first
 * touches every table lookup that misses L1 hits L2, whatever the number of threads; a model
 * that gave each core its own copy would see m tables in L2. Keys come from a fixed LCG, so
 * the sum does not depend on the thread count. How the threads' key streams interleave changes
 * the L2 only slightly (the table and the keys, 144 KiB, just exceed the L2). */
#include <stdio.h>
#include <stdlib.h>

#ifndef TABLE
#define TABLE 4096
#endif
#ifndef KEYS
#define KEYS 32768
#endif

int main(void) {
  int *table = malloc(sizeof(int) * TABLE);
  int *key = malloc(sizeof(int) * KEYS);
  for (int i = 0; i < TABLE; i++)
    table[i] = (i * 37) % 101;
  unsigned s = 12345;
  for (int i = 0; i < KEYS; i++) {
    s = s * 1103515245u + 12345u;
    key[i] = (int)((s >> 8) % TABLE);
  }
  long sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (int i = 0; i < KEYS; i++)
    sum += table[key[i]];
  printf("lookup TABLE=%d KEYS=%d sum %ld\n", TABLE, KEYS, sum);
  free(table);
  free(key);
  return 0;
}
