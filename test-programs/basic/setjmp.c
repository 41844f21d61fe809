/* setjmp/longjmp out of a recursion: R times, dive(D) recurses to depth 0 storing a[n] = n in
 * every frame on the way down, and longjmps from the bottom straight back to main, skipping
 * every frame's code after the recursive call.
 *
 * Expected: prints "jumps = R" (R = 50, D = 300); the store `a[n] = n` runs R * (D + 1) =
 * 15050 times; the store after the call (`a[n] += 1`) never runs.
 */
#include <setjmp.h>
#include <stdio.h>

#ifndef R
#define R 50
#endif
#ifndef D
#define D 300
#endif

int a[D + 1];
static jmp_buf env;

__attribute__((noinline)) static void dive(int n) {
    a[n] = n;
    if (n == 0)
        longjmp(env, 1);
    dive(n - 1);
    a[n] += 1;
}

int main(void) {
    volatile int jumps = 0;
    for (int r = 0; r < R; r++) {
        if (setjmp(env) == 0)
            dive(D);
        else
            jumps++;
    }
    printf("jumps = %d\n", jumps);
    return 0;
}
