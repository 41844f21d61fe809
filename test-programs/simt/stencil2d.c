/* SIMT test kernel: 2-D 5-point stencil over the interior of an R x C grid, with the two loops
 * collapsed into one worksharing loop: GPU thread g is interior point (1 + g / (C-2),
 * 1 + g % (C-2)). Each thread loads in[i-1][j], in[i+1][j], in[i][j-1], in[i][j+1], in[i][j]
 * (in that order) and stores out[i][j]. With blocks of C-2 threads a block is one row: its
 * west, east and centre MIs share a row of `in`, and block i's row i+1 (south) is block i+1's
 * centre row and block i+2's north row.
 *
 * R = 10 and C = 34 give 8 rows of 32 interior points. */
#include <stdio.h>

#define R 10
#define C 34

static double in[R][C];
static double out[R][C];

int main(void) {
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            in[i][j] = (i * C + j) % 5;
#pragma omp parallel for collapse(2) schedule(static)
    for (int i = 1; i < R - 1; i++)
        for (int j = 1; j < C - 1; j++)
            out[i][j] = in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1] + in[i][j];
    double sum = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            sum += out[i][j];
    printf("stencil2d %dx%d sum=%.0f\n", R, C, sum);
    return 0;
}
