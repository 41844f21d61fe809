/* OpenMP shapes the pass must recognise: static and dynamic worksharing loops, a reduction,
 * a plain parallel region with a barrier and atomics, a shared array argument and a private local. Regenerate the .ll files with
 *   clang-19 -fopenmp -O0 -g -S -emit-llvm omp_loops.c -o omp_loops_O0.ll
 *   clang-19 -fopenmp -O2 -g -S -emit-llvm omp_loops.c -o omp_loops_O2.ll */
#include <omp.h>
#include <stdlib.h>

#define N 1000

void scale(double *a, double f, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
    double t = a[i] * f;
    a[i] = t;
  }
}

void dyn(double *a, const double *b, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; i++)
    a[i] += b[i];
}

double sum(const double *a, int n) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

void phases(int *hist, int n) {
#pragma omp parallel
  {
    int local = omp_get_thread_num();
#pragma omp atomic
    hist[local % 4] += n;
#pragma omp barrier
#pragma omp atomic
    hist[0] += local;
  }
}

int main(void) {
  double *a = malloc(N * sizeof *a);
  double *b = calloc(N, sizeof *b);
  for (int i = 0; i < N; i++)
    a[i] = i;
  scale(a, 2.0, N);
  dyn(a, b, N);
  double s = sum(a, N);
  int hist[4] = {0};
  phases(hist, 3);
  free(a);
  free(b);
  return s > 0 ? 0 : 1;
}
