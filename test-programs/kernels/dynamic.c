/* Triangular matrix-vector product y = L x with schedule(dynamic, CHUNK): row i costs i + 1
 * multiply-adds, so a dynamic schedule balances the work.
 * Size: -DN=... (default 384), -DCHUNK=... (default 4). Prints a checksum of y.
 *
 * Expected behaviour (L1 8K:8:64, L2 128K:16:64): each row of L is read once, sequentially (7
 * of 8 loads hit L1); x (N doubles = 3 KiB) is read by every row and stays in each core's L1,
 * so about (7/8 + 1) / 2 = 94 % of the product's loads hit L1 whichever thread runs which
 * rows; with the serial initialisation of L (N^2 stores, 7 of 8 hit) about
 * (7/8 + 15/16) / 2 = 91 % of all references. L is N^2 doubles = 1.2 MiB, written once and read
 * once: its L1 misses miss L2 too (L2 local hit rate near 0 %).
 * Which thread runs which chunk is decided at run time; SASMM mimics the loop as a static
 * schedule with the same chunk dealt round-robin. Because each row's locality does not depend
 * on its neighbours, the rates should hardly depend on that assignment; y[i] is computed by one
 * thread in a fixed order, so the output does not depend on it either. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 384
#endif
#ifndef CHUNK
#define CHUNK 4
#endif

int main(void) {
  double *L = malloc(sizeof(double) * N * N);
  double *x = malloc(sizeof(double) * N);
  double *y = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 9) / 9.0;
    for (int j = 0; j < N; j++)
      L[i * N + j] = j <= i ? (double)((i + j) % 5) : 0.0;
  }
#pragma omp parallel for schedule(dynamic, CHUNK)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++)
      s += L[i * N + j] * x[j];
    y[i] = s;
  }
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += y[i] * (i % 11);
  printf("dynamic N=%d CHUNK=%d checksum %.6f\n", N, CHUNK, sum);
  free(L);
  free(x);
  free(y);
  return 0;
}
