/* Serial work before and after one OpenMP region: where the runtime stamps.
 *
 * Known behaviour: main runs SERIAL iterations of a loop alone, then a `parallel for` of PAR
 * iterations split between the threads (static schedule), then SERIAL iterations alone again.
 * With OMP_NUM_THREADS=2 the worker exists from its first block in the region and waits in
 * libomp after its region exit, so main records alone before and after the region: by default
 * it stamps every 256 block entries there (nothing to be ordered against), where the worker,
 * which records only while main is registered, stamps every 16.
 */
#include <stdio.h>

#ifndef SERIAL
#define SERIAL 100000
#endif
#ifndef PAR
#define PAR 200000
#endif

static volatile double a[1024];

static double serial(int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i & 1023];
    return s;
}

int main(void) {
    double s = serial(SERIAL);
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (int i = 0; i < PAR; i++)
        s += a[i & 1023];
    s += serial(SERIAL);
    printf("%.0f\n", s);
    return 0;
}
