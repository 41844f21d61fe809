/* Shared and private variables in a parallel region.
 *
 *   table  : global array            -> shared
 *   heap   : malloc'd array          -> shared
 *   out    : array declared in main, passed to the region as a shared variable -> shared
 *   tmp    : private(tmp) scalar     -> private (an alloca of the outlined function)
 *   local  : array declared inside the region -> private
 * Built at -O0 so every variable lives in memory and each class shows up as loads/stores.
 */
#include <stdio.h>
#include <stdlib.h>

#define M 64

int table[M];

int main(void) {
    int *heap = malloc(M * sizeof(int));
    int out[M];
    int tmp = 0;
    for (int i = 0; i < M; i++) {
        table[i] = i;
        heap[i] = 2 * i;
        out[i] = 0;
    }
#pragma omp parallel for private(tmp) schedule(static)
    for (int i = 0; i < M; i++) {
        int local[4];
        tmp = table[i] + heap[i];
        local[i % 4] = tmp;
        out[i] = local[i % 4];
    }
    long total = 0;
    for (int i = 0; i < M; i++)
        total += out[i];
    printf("total=%ld\n", total);
    free(heap);
    return 0;
}
