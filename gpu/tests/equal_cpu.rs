//! `hprda-gpu` on the Vulkan adapter (lavapipe in CI) against the CPU `hprda` engine: equal
//! histograms for equal parameters, on random, adversarial and realistic streams; and its
//! error against the exact histogram on the benchmark workload.
//!
//! These tests need a Vulkan adapter. They fail (never skip) without one: run
//! `scripts/setup.sh`, which installs Mesa's lavapipe (`mesa-vulkan-drivers`).

use rdengines::workload::{generate, SplitMix64};
use rdengines::{histogram_error, FastEngine, Histogram, HpRdaConfig, HpRdaEngine, ReuseEngine};
use rdgpu::GpuHpRdaEngine;

fn cfg(st: usize, nb: usize, batch: usize, adjust: bool) -> HpRdaConfig {
    HpRdaConfig {
        st,
        nb,
        batch,
        adjust,
        threads: 2,
    }
}

fn cpu(blocks: &[u64], c: HpRdaConfig, bound: Option<u64>) -> Histogram {
    let mut e = Box::new(HpRdaEngine::new(c, bound));
    e.process(blocks);
    e.finish()
}

/// Runs the GPU engine, feeding the stream in pieces of `piece` references (the engine's
/// streaming id mapping and batching must not depend on how the stream arrives).
fn gpu(blocks: &[u64], c: HpRdaConfig, bound: Option<u64>, piece: usize) -> Histogram {
    let mut e = Box::new(GpuHpRdaEngine::new(c, bound, None).unwrap_or_else(|err| {
        panic!("no usable GPU adapter ({err}); run scripts/setup.sh to install lavapipe")
    }));
    for p in blocks.chunks(piece.max(1)) {
        e.process(p);
    }
    e.finish()
}

/// Asserts equality, naming the first differences instead of printing whole histograms.
fn assert_same(got: &Histogram, want: &Histogram, what: &str) {
    if got == want {
        return;
    }
    let diff: Vec<(u64, u64, u64)> = want
        .counts
        .keys()
        .chain(got.counts.keys())
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter_map(|d| {
            let (g, w) = (
                got.counts.get(&d).copied().unwrap_or(0),
                want.counts.get(&d).copied().unwrap_or(0),
            );
            (g != w).then_some((d, g, w))
        })
        .take(8)
        .collect();
    panic!(
        "{what}: GPU != CPU: cold {} vs {}, overflow {} vs {}, total {} vs {}, first (distance, gpu, cpu) differences {diff:?}",
        got.cold, want.cold, got.overflow, want.overflow, got.total(), want.total()
    );
}

fn check(name: &str, blocks: &[u64], c: HpRdaConfig, bound: Option<u64>) {
    let want = cpu(blocks, c, bound);
    let got = gpu(blocks, c, bound, 1000);
    assert_eq!(got.total(), blocks.len() as u64, "{name} {c:?}");
    assert_same(&got, &want, &format!("{name} {c:?} bound {bound:?}"));
}

/// Parameter sets: ST not a multiple of 32 and ST > 32 (bitmap words), NB = 1 (every reuse
/// across traces is block-level), batches of one thread block and of several, batch not a
/// multiple of the thread block (rounded up), both adjustment settings.
const SETS: [(usize, usize, usize); 7] = [
    (1, 1, 1),
    (2, 1, 2),
    (7, 3, 5),
    (32, 2, 64),
    (33, 4, 1000),
    (64, 8, 1 << 12),
    (100, 3, 1 << 16),
];

/// Many tiny streams with tiny ST/NB (every phase and every cross-thread-block case is hit;
/// a failure prints the whole stream, small enough to reason about by hand).
#[test]
fn equal_on_many_small_streams() {
    let mut rng = SplitMix64::new(77);
    for i in 0..150 {
        let st = 1 + rng.below(6) as usize;
        let nb = 1 + rng.below(3) as usize;
        let n = 1 + rng.below(40) as usize;
        let u = 2 + rng.below(10);
        let t: Vec<u64> = (0..n).map(|_| rng.below(u)).collect();
        let c = cfg(st, nb, 1, i % 2 == 0);
        let want = cpu(&t, c, None);
        let got = gpu(&t, c, None, 1000);
        if got != want {
            panic!("{t:?} st {st} nb {nb}: gpu {got:?} cpu {want:?}");
        }
    }
}

#[test]
fn equal_on_random_streams() {
    let mut rng = SplitMix64::new(5);
    for (i, &(st, nb, batch)) in SETS.iter().enumerate() {
        for universe in [3u64, 60, 5000] {
            let n = 200 + rng.below(3000) as usize;
            let t: Vec<u64> = (0..n).map(|_| rng.below(universe)).collect();
            check(
                &format!("random u={universe}"),
                &t,
                cfg(st, nb, batch, i % 2 == 0),
                None,
            );
            check(
                &format!("random u={universe}"),
                &t,
                cfg(st, nb, batch, i % 2 == 1),
                None,
            );
        }
    }
}

#[test]
fn equal_on_adversarial_streams() {
    let sweep = |m: u64, n: usize| (0..n as u64).map(|i| i % m).collect::<Vec<_>>();
    let streams: Vec<(&str, Vec<u64>)> = vec![
        ("empty", vec![]),
        ("one block repeated (all distance 0)", vec![42; 500]),
        ("all distinct (all cold)", (0..3000).collect()),
        // Addresses whose ids would collide if truncated to 32 bits, and u64::MAX.
        (
            "64-bit addresses",
            (0..2000u64)
                .map(|i| ((i % 17) << 40) | (i % 5) | if i % 97 == 0 { u64::MAX } else { 0 })
                .collect(),
        ),
        // Sweeps: every reuse crosses traces/thread blocks/batches at distance m - 1.
        ("sweep 5", sweep(5, 2000)),
        ("sweep 300", sweep(300, 4000)),
        ("sweep 2100", sweep(2100, 9000)),
        // Runs of repeats between sweeps (pre-processing) and ping-pong.
        (
            "runs",
            (0..3000u64).map(|i| (i / 3) % 50).collect::<Vec<_>>(),
        ),
        ("ping-pong", (0..3000u64).map(|i| i % 2).collect()),
    ];
    for (name, t) in &streams {
        for &(st, nb, batch) in &SETS {
            for adjust in [true, false] {
                check(name, t, cfg(st, nb, batch, adjust), None);
            }
        }
    }
}

/// Address stream of a 3-loop matrix multiply C = A · B on n × n doubles in 64-byte lines
/// (row-major; loads of A and B, load and store of C per inner iteration): a realistic kernel.
fn matmul_lines(n: u64) -> Vec<u64> {
    let (a, b, c) = (0x10_0000_0000u64, 0x20_0000_0000u64, 0x30_0000_0000u64);
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                out.push((a + 8 * (i * n + k)) / 64);
                out.push((b + 8 * (k * n + j)) / 64);
                out.push((c + 8 * (i * n + j)) / 64);
                out.push((c + 8 * (i * n + j)) / 64);
            }
        }
    }
    out
}

#[test]
fn equal_on_realistic_streams() {
    let wl = generate(150_000, 20_000, 3);
    let mm = matmul_lines(24);
    for (st, nb, batch) in [(2048, 64, 1 << 22), (256, 8, 1 << 14), (100, 3, 5000)] {
        for adjust in [true, false] {
            check("workload", &wl, cfg(st, nb, batch, adjust), None);
            check("matmul 24", &mm, cfg(st, nb, batch, adjust), None);
        }
    }
    // Bounded: the same truncation as the CPU engine.
    for bound in [1, 64, 5000] {
        check(
            "workload bounded",
            &wl,
            cfg(256, 8, 1 << 14, true),
            Some(bound),
        );
    }
}

/// The stream may arrive in any pieces: the histogram does not depend on it (nor on the GPU
/// batch, which the engine fits to the adapter).
#[test]
fn independent_of_how_the_stream_arrives() {
    let t = generate(40_000, 3_000, 9);
    let c = cfg(64, 4, 1 << 12, true);
    let want = cpu(&t, c, None);
    for piece in [1, 777, 40_000] {
        assert_same(&gpu(&t, c, None, piece), &want, &format!("piece {piece}"));
    }
}

fn exact(t: &[u64]) -> Histogram {
    let mut f = Box::new(FastEngine::new());
    f.process(t);
    f.finish()
}

/// Error of hprda-gpu against the exact histogram (`fast`), with the paper's metric
/// ([`histogram_error`]: mean absolute difference of the log2-bin shares, in %), with the
/// paper's parameters ST = 2048, NB = 64.
///
/// * On the benchmark workload the paper's < 1 % is NOT reached, by construction of the
///   workload, not of the implementation (the GPU histogram equals the CPU one, tested above):
///   half of it is a sweep whose reuses span many thread-local traces that all share the hot
///   lines of the u³ half, and formula (1) counts a shared line once per trace. We measured
///   3.97 % with adjustment at this scale; the bound is the CPU engine's (< 5 %,
///   `engines/tests/hprda.rs`) plus beating a concrete wrong answer (every distance doubled).
/// * On a real kernel's stream (matrix multiply, like the paper's SPEC loops) the paper's
///   bound holds: < 1 % with adjustment.
#[test]
fn error_against_exact() {
    let t = generate(1_000_000, 20_000, 11);
    let ex = exact(&t);
    let mut doubled = ex.clone();
    doubled.counts = ex.counts.iter().map(|(&d, &n)| (2 * d + 1, n)).collect();
    let strawman = histogram_error(&ex, &doubled);
    for adjust in [true, false] {
        let h = gpu(&t, cfg(2048, 64, 1 << 22, adjust), None, 1 << 16);
        assert_eq!((h.total(), h.cold), (ex.total(), ex.cold));
        let e = histogram_error(&ex, &h);
        eprintln!("hprda-gpu error vs fast, workload (adjust {adjust}): {e:.4} % (doubled: {strawman:.4} %)");
        assert!(e < 5.0 && e < strawman, "error {e} %");
    }
    for n in [40, 64] {
        let t = matmul_lines(n);
        let ex = exact(&t);
        for adjust in [true, false] {
            let h = gpu(&t, cfg(2048, 64, 1 << 22, adjust), None, 1 << 16);
            let e = histogram_error(&ex, &h);
            eprintln!("hprda-gpu error vs fast, matmul {n} (adjust {adjust}): {e:.4} %");
            if adjust {
                assert!(e < 1.0, "error {e} % on matmul {n}");
            }
        }
    }
}
