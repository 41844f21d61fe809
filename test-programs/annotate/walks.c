/* Known hot lines for `rda-report annotate`: one row-major initialisation, one column walk and
 * one row walk over a 256 x 256 array of doubles (512 KiB, 8192 lines of 64 bytes), with the
 * default caches (L1 8 KiB 8-way = 16 sets, L2 128 KiB 16-way = 128 sets, 64-byte lines).
 *
 * A row is 2048 bytes = 32 lines, so element A[i][j] lies on line 32*i + j/8 of the array, and
 * the array starts on an 8 KiB boundary (set 0 of both caches). Expected counts, per line:
 *
 * INIT (row walk, writes): 65536 accesses; 8192 cold references; each line misses L1 and L2
 *   once (first touch) and the next 7 elements hit L1: 8192 L1 misses, 8192 L2 misses.
 *
 * COLUMN (A[i][j], i inner): 65536 accesses, 0 cold. All 256 lines of a column share one L1
 *   set (32*i mod 16 = 0, 8 ways) and four L2 sets (32*i mod 128, 64 lines each, 16 ways), so
 *   each walk down a column cycles through more lines than a set holds and, with LRU, every
 *   access misses both levels: 65536 L1 misses, 65536 L2 misses. (At the first column of a line
 *   group the L2 holds rows 192..255 of that group from the previous walk, but the 48 misses of
 *   rows 0..191 evict them before the walk gets there.) Reuse distance of A[i][j] for j % 8 != 0:
 *   the previous use was A[i][j-1], and the 255 other rows' lines came in between: exactly 255,
 *   for 7/8 of the references, so the median is 255.
 *
 * ROW (A[i][j], j inner): 65536 accesses, 0 cold; each line misses L1 on its first element and
 *   hits on the next 7: 8192 L1 misses. After the column walk the L2 holds exactly rows
 *   192..255; walking rows 0..191 first puts 48 misses into every set, evicting those before
 *   they are reached: 8192 L2 misses. 7/8 of the references reuse the line just touched:
 *   median distance 0.
 *
 * Built with -O1 (no vectorisation, sums kept in registers), so these three lines are the only
 * memory accesses apart from printf's.
 */
#include <stdio.h>

#define N 256
static double A[N][N] __attribute__((aligned(8192)));

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = i + j; /* INIT */
    double col = 0, row = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            col += A[i][j]; /* COLUMN */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            row += A[i][j]; /* ROW */
    printf("%g %g\n", col, row);
    return 0;
}
