/* Serial vector helpers. */
#include <stdio.h>
#include <stdlib.h>

#include "vec.h"

vec_t vec_new(size_t len) {
    vec_t v;
    v.data = calloc(len, sizeof *v.data);
    if (v.data == NULL) {
        fprintf(stderr, "multifile: out of memory\n");
        exit(1);
    }
    v.len = len;
    return v;
}

void vec_free(vec_t *v) {
    free(v->data);
    v->data = NULL;
    v->len = 0;
}

void vec_iota(vec_t *v, long start) {
    for (size_t i = 0; i < v->len; i++)
        v->data[i] = start + (long)i;
}

void vec_reverse(vec_t *v) {
    for (size_t i = 0, j = v->len; i + 1 < j; i++, j--) {
        long t = v->data[i];
        v->data[i] = v->data[j - 1];
        v->data[j - 1] = t;
    }
}

long vec_sum(const vec_t *v) {
    long s = 0;
    for (size_t i = 0; i < v->len; i++)
        s += v->data[i];
    return s;
}

long vec_dot(const vec_t *a, const vec_t *b) {
    long s = 0;
    size_t n = a->len < b->len ? a->len : b->len;
    for (size_t i = 0; i < n; i++)
        s += a->data[i] * b->data[i];
    return s;
}
