/* Branchy code for the path limit (`paths --max-paths`): four data-dependent branches per
 * iteration (xorshift bits; the stores are volatile so that clang keeps them as branches)
 * before one load, so nearly every 32-bit history at the load is new while its 4-bit ones
 * take 16 values. The load reads a 32-line table at a position chosen by the last branch's
 * bit (a reuse within the table) or walks a 512-line array (a long reuse).
 *
 * Build: rdcc -O1 -g branchy.c -o branchy; run: RDTRACE=branchy.rdtrace ./branchy;
 * analyse: rda-report paths branchy.rdtrace --squash 1000 --max-paths 200. */
#include <stdint.h>
#include <stdio.h>

#ifndef N
#define N 20000
#endif

double table[32 * 8];
double array[512 * 8];
static volatile int sink[4];

int main(void) {
  uint64_t x = 88172645463325252ull;
  double s = 0;
  for (int i = 0; i < 512 * 8; i++)
    array[i] = i;
  for (int i = 0; i < 32 * 8; i++)
    table[i] = i;
  for (int i = 0; i < N; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if (x & 1)
      sink[0] = i;
    if (x & 2)
      sink[1] = i;
    if (x & 4)
      sink[2] = i;
    if (x & 8)
      s += table[(x >> 8) & (32 * 8 - 1)];
    else
      s += array[(i * 8) & (512 * 8 - 1)];
  }
  printf("%g\n", s);
  return 0;
}
