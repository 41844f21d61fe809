/* Sequential shapes: nested loops, a loop with `continue` (two back-edges at -O0), a switch,
 * memcpy/memset, globals and locals. Regenerate with
 *   clang-19 -O0 -g -S -emit-llvm loops.c -o loops_O0.ll
 *   clang-19 -O2 -g -S -emit-llvm loops.c -o loops_O2.ll */
#include <string.h>

int grid[16][16];
int counts[4];

int nested(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += grid[i & 15][j & 15];
  return s;
}

int skip_odd(const int *v, int n) {
  int s = 0;
  int i = 0;
  while (i < n) {
    if (v[i] & 1) {
      i++;
      continue;
    }
    s += v[i];
    i++;
  }
  return s;
}

void classify(const int *v, int n) {
  for (int i = 0; i < n; i++) {
    switch (v[i]) {
    case 0: counts[0]++; break;
    case 1: counts[1]++; break;
    case 7: counts[2]++; break;
    default: counts[3]++; break;
    }
  }
}

void copy(int *dst, const int *src, int n) {
  int tmp[8];
  memset(tmp, 0, sizeof tmp);
  memcpy(dst, src, (size_t)n * sizeof *dst);
  memmove(dst + 1, dst, sizeof tmp);
  dst[0] = tmp[3];
}
