/* Control flow the pass's block entries must survive: a threaded interpreter (computed goto:
 * `blockaddress` constants and an `indirectbr` whose targets have PHIs at -O2), a block that
 * loops to itself, deep recursion with work after each return, and blocks of more records than
 * one run of inline records may hold. The output is fixed; the traces built with and without
 * inline records must be the same event for event.
 *
 * Usage: computed_goto [N] (default 2000). */
#include <stdio.h>
#include <stdlib.h>

static long cells[64];

/* A tiny threaded-code machine: counts down from n, adding to an accumulator. */
__attribute__((noinline)) static long threaded(long n) {
    static void *const ops[] = {&&op_dec, &&op_add, &&op_test, &&op_halt};
    static const unsigned char prog[] = {1, 0, 2, 3};
    long acc = 0;
    int pc = 0;
    goto *ops[prog[pc]];
op_dec:
    n--;
    pc = 2;
    goto *ops[prog[pc]];
op_add:
    acc += n & 7;
    cells[n & 63] += acc;
    pc = 1;
    goto *ops[prog[pc]];
op_test:
    if (n > 0) {
        pc = 0;
        goto *ops[prog[pc]];
    }
    pc = 3;
    goto *ops[prog[pc]];
op_halt:
    return acc;
}

/* Recursion with loads and stores after the recursive call returns. */
__attribute__((noinline)) static long deep(int n) {
    if (n == 0)
        return 1;
    long r = deep(n - 1);
    cells[n & 63] += r & 15;
    return r + cells[(n * 7) & 63] % 3;
}

/* One block of many accesses (more than INLINE_RECORDS_BETWEEN_CHECKS). */
__attribute__((noinline)) static void wide(long *p) {
#define S(k) p[k] = p[(k) + 1] + (k);
#define S8(k) S(k) S((k) + 1) S((k) + 2) S((k) + 3) S((k) + 4) S((k) + 5) S((k) + 6) S((k) + 7)
    S8(0) S8(8) S8(16) S8(24) S8(32) S8(40) S8(48)
#undef S8
#undef S
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000;
    long s = threaded(n);
    for (int i = 0; i < 50; i++)
        s += deep((int)n);
    wide(cells);
    /* A loop of one block (spins on itself). */
    long k = 0;
    do
        k += cells[k & 63] & 1;
    while (++k < n);
    s += k;
    for (int i = 0; i < 64; i++)
        s += cells[i] % 1000;
    printf("%ld\n", s);
    return 0;
}
