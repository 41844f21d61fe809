/* OpenMP statistics. Integer arithmetic only, so results do not depend on the number of
 * threads or the order in which the reduction combines partial sums. */
#include "vec.h"

long stats_sum_squares(const vec_t *v) {
    long s = 0;
    long n = (long)v->len;
#pragma omp parallel for reduction(+ : s) schedule(static)
    for (long i = 0; i < n; i++)
        s += v->data[i] * v->data[i];
    return s;
}

void stats_square_into(const vec_t *in, vec_t *out) {
    long n = (long)in->len;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        out->data[i] = in->data[i] * in->data[i];
}

void stats_histogram_mod(const vec_t *v, long modulus, long *counts) {
    for (long r = 0; r < modulus; r++)
        counts[r] = 0;
    for (size_t i = 0; i < v->len; i++)
        counts[v->data[i] % modulus]++;
}
