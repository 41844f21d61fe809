/* Tiny vector library shared by the multifile test program. */
#ifndef MULTIFILE_VEC_H
#define MULTIFILE_VEC_H

#include <stddef.h>

typedef struct {
    long *data;
    size_t len;
} vec_t;

vec_t vec_new(size_t len);
void vec_free(vec_t *v);
/* data[i] = start + i */
void vec_iota(vec_t *v, long start);
void vec_reverse(vec_t *v);
long vec_sum(const vec_t *v);
long vec_dot(const vec_t *a, const vec_t *b);

/* stats.c (OpenMP) */
long stats_sum_squares(const vec_t *v);
void stats_square_into(const vec_t *in, vec_t *out);
void stats_histogram_mod(const vec_t *v, long modulus, long *counts);

#endif
