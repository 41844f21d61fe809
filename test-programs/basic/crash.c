/* Crashes midway: stores a[0..N/2] and then writes through a null pointer.
 *
 * The trace must hold every store before the crash (N/2 + 1 stores to a[]), be readable, and
 * record that the run ended by SIGSEGV.
 */
#include <stdio.h>

#ifndef N
#define N 200000
#endif

int a[N];
int *volatile nowhere = 0;

int main(void) {
    for (int i = 0; i < N; i++) {
        a[i] = i;
        if (i == N / 2)
            *nowhere = 1; /* SIGSEGV */
    }
    printf("not reached\n");
    return 0;
}
