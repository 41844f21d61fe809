/* Blocked (tiled) matrix multiply C += A x B with BS x BS tiles; tile rows of C are split over
 * threads (schedule(static)), each thread owning whole rows of C.
 * Size: -DN=... (default 64, a multiple of BS), -DBS=... (default 16). Prints a checksum.
 *
 * Expected behaviour (L1 8K:8:64, L2 128K:16:64): a 16 x 16 tile of doubles is 2 KiB (32
 * lines); the inner i-k-j loops keep a tile of B, a row of the C tile and an element of A, so
 * the tile working set (~36 lines) is far below the 128-line L1, and a fully associative LRU
 * (or eq. 5, which treats sets as random) would keep it: nearly all hits apart from the first
 * touch of each tile line. But B's tile rows are N doubles = 512 bytes = 8 lines apart, a
 * power of two: the 32 lines of a B tile fall into only 4 of the 16 sets, 8 per set, exactly
 * the associativity, so every A or C line that maps to one of those sets evicts a B line that
 * the next row i reuses. The real L1 hit rate is therefore several points below the formula's.
 * The three matrices (96 KiB for N = 64) fit the L2, so L2 local hits are high. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 64
#endif
#ifndef BS
#define BS 16
#endif

/* Page-aligned so that the set each line maps to does not depend on what the allocator did
 * before (the tracing runtime's start-up allocations, or valgrind's own allocator when
 * cachegrind runs the native build): the power-of-two conflicts this kernel is about would
 * otherwise differ between the traced run and the reference run. */
static double *matrix(void) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, sizeof(double) * N * N) != 0) {
    perror("posix_memalign");
    exit(1);
  }
  return p;
}

int main(void) {
  double *A = matrix();
  double *B = matrix();
  double *C = matrix();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = (double)((i + 3 * j) % 7) / 7.0;
      B[i * N + j] = (double)((2 * i + j) % 5) / 5.0;
      C[i * N + j] = 0.0;
    }
#pragma omp parallel for schedule(static)
  for (int ii = 0; ii < N; ii += BS)
    for (int kk = 0; kk < N; kk += BS)
      for (int jj = 0; jj < N; jj += BS)
        for (int i = ii; i < ii + BS; i++)
          for (int k = kk; k < kk + BS; k++) {
            double a = A[i * N + k];
            for (int j = jj; j < jj + BS; j++)
              C[i * N + j] += a * B[k * N + j];
          }
  double sum = 0;
  for (int i = 0; i < N * N; i++)
    sum += C[i] * (i % 13);
  printf("blockmm N=%d BS=%d checksum %.6f\n", N, BS, sum);
  free(A);
  free(B);
  free(C);
  return 0;
}
