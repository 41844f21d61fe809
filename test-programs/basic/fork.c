/* fork(): the parent stores a[0..N), forks, waits for the child, then stores c[0..N). The child
 * stores b[0..N) and exits with status 7.
 *
 * The runtime traces the parent only (a forked child shares the parent's trace descriptor and
 * stops tracing rather than interleave its chunks into the parent's file).
 * Expected: prints "child 7" then "parent done"; the trace ends normally (exit) with one
 * thread; N stores to a[] and N to c[], none to b[].
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef N
#define N 10000
#endif

int a[N], b[N], c[N];

int main(void) {
    for (int i = 0; i < N; i++)
        a[i] = i;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        for (int i = 0; i < N; i++)
            b[i] = i;
        exit(7);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    for (int i = 0; i < N; i++)
        c[i] = i;
    printf("parent done\n");
    return 0;
}
