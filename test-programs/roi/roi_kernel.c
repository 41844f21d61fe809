/* A run that is mostly setup: the input generation (setup, SETUP_REPS sweeps writing two
 * arrays: 2 * SETUP_REPS * N stores) is four times larger than the kernel (one parallel sweep:
 * N loads of a and N stores of b), and a serial checksum (N loads of b) follows it.
 *
 * Traced with RDTRACE_ROI=kernel (no source change), or built with -DUSE_MARKERS so that
 * RDTRACE_START()/RDTRACE_STOP() from rdtrace.h bracket the kernel call: either way the trace
 * holds exactly the kernel's 2 * N accesses to a and b (plus the outlined body's few accesses
 * to its loop bounds and arguments). Built with a plain compiler and -DUSE_MARKERS the markers
 * compile to nothing. Output: the checksum, the same native and traced. */
#include <stdio.h>
#ifdef USE_MARKERS
#include <rdtrace.h>
#endif

#define N 4096
#define SETUP_REPS 4

double a[N], b[N];

__attribute__((noinline)) void setup(void) {
  for (int r = 0; r < SETUP_REPS; r++)
    for (int i = 0; i < N; i++) {
      a[i] = 0.5 * i + r; /* setup store a */
      b[i] = r;           /* setup store b */
    }
}

__attribute__((noinline)) void kernel(void) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++)
    b[i] = 2.0 * a[i]; /* kernel access */
}

__attribute__((noinline)) double checksum(void) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += b[i]; /* checksum load */
  return s;
}

int main(void) {
  setup();
#ifdef USE_MARKERS
  RDTRACE_START();
#endif
  kernel();
#ifdef USE_MARKERS
  RDTRACE_STOP();
#endif
  printf("checksum %.1f\n", checksum());
  return 0;
}
