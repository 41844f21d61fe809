/* if/else inside a loop, with counts known by reasoning.
 *
 * For i in [0, N): i % 3 == 0 is true for ceil(N/3) values of i and false for the rest.
 * With N = 300: 100 times the then-branch (loads a[i] into x), 200 times the else-branch
 * (loads b[i] into y). A nested if inside the else-branch (i % 2 == 0) is true for the even i
 * that are not multiples of 3: 100 times. Build at -O0 so the branches stay branches.
 */
#include <stdio.h>

#define N 300

int a[N], b[N];

int main(void) {
    int x = 0, y = 0, z = 0;
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 2 * i;
    }
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            x += a[i];
        } else {
            y += b[i];
            if (i % 2 == 0)
                z++;
        }
    }
    printf("%d %d %d\n", x, y, z);
    return 0;
}
