//! Loops recorded in runs whose 32-bit index wraps in the middle of the loop.

use super::*;

/// Two loops over a 4 GiB reservation whose index is 32 bits wide and wraps halfway: an
/// `unsigned` index (zero-extended into the address) and, built with `-fwrapv`, an `int` one
/// (sign-extended; the add that wraps has no `nsw`, as in flang's loops). At the wrap the
/// address jumps by 4 GiB; only the pages either side of each jump are mapped. The program
/// prints the reservation's base and the iterations on either side of the wrap.
const WRAPS: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <limits.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 700;   /* iterations on each side of the wrap */
    unsigned long window = 1ul << 17, span = (1ul << 32) + window;
    char *base = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED || n < 1 || n > 60000) return 1;
    if (mprotect(base, window, PROT_READ | PROT_WRITE) ||
        mprotect(base + (1ul << 32), window, PROT_READ | PROT_WRITE)) return 1;
    printf("%p %d\n", (void *)base, n);
    /* u runs from 2^32 - n through 0 to n - 1: u0 + 2^32 - n .. then u0 + 0 ..; with
       u0 = base + 65536 both sides are mapped. */
    volatile char *u0 = base + 65536;
    unsigned start = 0u - (unsigned)n;
    for (int k = 0; k < 2 * n; k++) u0[start + (unsigned)k] = (char)k;
    /* i runs from INT_MAX - n + 1 through INT_MIN (wrapping): s0 + 2^31 - n .. then
       s0 - 2^31 ..; with s0 = base + 2^31 + 65536 both sides are mapped. */
    volatile char *s0 = base + (1ul << 31) + 65536;
    int first = INT_MAX - n + 1;
    long sum = 0;
    for (int k = 0; k < 2 * n; k++) sum += s0[first + k];
    printf("%ld\n", sum);
    munmap(base, span);
    return 0;
}
"#;

#[test]
fn loop_runs_end_where_a_narrow_index_could_wrap() {
    // Both loops are recorded in runs with a wrap check on their narrow index: a run ends after
    // the iteration from which the next could wrap, so no run spans the jump. The build that
    // records every iteration (--rd-no-loop-runs) must give every access at the same offset in
    // the reservation, in the same order, with the same blocks and branches; runs of 37
    // iterations between stamps put the wrap inside a countdown's stretch.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("wraps.c");
    std::fs::write(&src, WRAPS).unwrap();
    let mut seqs = Vec::new();
    let mut loops = Vec::new();
    for (i, extra) in [&[][..], &["--rd-no-loop-runs"][..]].iter().enumerate() {
        let exe = dir.path().join(format!("w{i}"));
        let mut flags = vec!["-O2", "-fwrapv"];
        flags.extend_from_slice(extra);
        rdcc(std::slice::from_ref(&src), &flags, &exe);
        let tp = dir.path().join(format!("w{i}.rdtrace"));
        let out = output_traced(
            std::process::Command::new(&exe)
                .env("RDTRACE_QUIET", "1")
                .env("RDTRACE_STAMP_EVERY", "37"),
            &tp,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let first = stdout.lines().next().unwrap();
        let base = u64::from_str_radix(
            first.split(' ').next().unwrap().trim_start_matches("0x"),
            16,
        )
        .unwrap();
        let span = (1u64 << 32) + (1 << 17);
        let trace = rdtrace::Trace::open(&tp).unwrap();
        let mut events = Vec::new();
        trace.visit_thread(0, &mut events).unwrap();
        let (mut low, mut high) = (0, 0);
        let norm: Vec<(Event, Option<u64>)> = (events.into_iter())
            .filter(|e| !matches!(e, Event::Stamp { .. }))
            .map(|e| match e {
                Event::Access { mi, addr, len } => {
                    let offset = (addr >= base && addr < base + span).then(|| addr - base);
                    match offset {
                        Some(o) if o < 1 << 32 => low += 1,
                        Some(_) => high += 1,
                        None => {}
                    }
                    (Event::Access { mi, addr: 0, len }, offset)
                }
                other => (other, None),
            })
            .collect();
        // Each loop makes 700 accesses on each side of its jump.
        assert_eq!((low, high), (1400, 1400), "build {i}");
        loops.push(
            (trace.meta.branches.iter())
                .filter(|b| b.loop_run.is_some())
                .count(),
        );
        seqs.push(norm);
    }
    assert!(loops[0] >= 2 && loops[1] == 0, "{loops:?} loops in runs");
    assert_runs_match_every_iteration("wraps.c", &seqs[0], &seqs[1]);
}
