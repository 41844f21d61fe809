/* multifile: a small program split over three translation units (main.c, vec.c, stats.c with
 * OpenMP) for testing separate compilation and linking with rdcc.
 *
 * With N = 1000 and a = 1, 2, ..., N the output is, by arithmetic:
 *   sum          = N(N+1)/2                   = 500500
 *   sum_squares  = N(N+1)(2N+1)/6             = 333833500
 *   dot_reversed = sum i(N+1-i)
 *                = (N+1) sum i - sum i^2      = 501000500 - 333833500 = 167167000
 *   squares_sum  = sum_squares (element-wise squares, then a serial sum)
 *   last_square  = N^2                        = 1000000
 *   hist_mod7    : 1000 = 7 * 142 + 6, so residue 0 occurs 142 times and residues 1..6
 *                  occur 143 times each
 */
#include <stdio.h>

#include "vec.h"

#define N 1000
#define MODULUS 7

int main(void) {
    vec_t a = vec_new(N);
    vec_t b = vec_new(N);
    vec_t squares = vec_new(N);
    long counts[MODULUS];

    vec_iota(&a, 1);
    vec_iota(&b, 1);
    vec_reverse(&b);
    stats_square_into(&a, &squares);
    stats_histogram_mod(&a, MODULUS, counts);

    printf("n = %d\n", N);
    printf("sum = %ld\n", vec_sum(&a));
    printf("sum_squares = %ld\n", stats_sum_squares(&a));
    printf("dot_reversed = %ld\n", vec_dot(&a, &b));
    printf("squares_sum = %ld\n", vec_sum(&squares));
    printf("last_square = %ld\n", squares.data[N - 1]);
    printf("hist_mod7 =");
    for (int r = 0; r < MODULUS; r++)
        printf(" %ld", counts[r]);
    printf("\n");

    vec_free(&a);
    vec_free(&b);
    vec_free(&squares);
    return 0;
}
