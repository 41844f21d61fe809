//! HP-RDA: exact where the paper's method is exact, and close on the benchmark workload.

mod common;

use proptest::prelude::*;
use rdengines::naive::naive_histogram;
use rdengines::workload::{generate, SplitMix64};
use rdengines::{histogram_error, Histogram, HpRdaConfig, HpRdaEngine, ReuseEngine};

fn hprda(blocks: &[u64], cfg: HpRdaConfig) -> Histogram {
    let mut e = Box::new(HpRdaEngine::new(cfg, None));
    e.process(blocks);
    e.finish()
}

fn cfg(st: usize, nb: usize, batch: usize, adjust: bool) -> HpRdaConfig {
    HpRdaConfig {
        st,
        nb,
        batch,
        adjust,
        threads: 2,
    }
}

/// A stream whose collapsed form (no consecutive repeats) is cut into thread-local traces of
/// `st` references that use pairwise disjoint blocks; each reference is then repeated 1..=3
/// times (the run-length pre-processing must remove exactly those).
fn disjoint_traces(seed: u64, traces: usize, st: usize, per_trace_blocks: u64) -> Vec<u64> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for t in 0..traces as u64 {
        let mut prev = u64::MAX;
        for _ in 0..st {
            let mut b = t * 1_000_000 + rng.below(per_trace_blocks);
            if b == prev {
                b = t * 1_000_000 + (b - t * 1_000_000 + 1) % per_trace_blocks;
            }
            prev = b;
            for _ in 0..1 + rng.below(3) {
                out.push(b);
            }
        }
    }
    out
}

#[test]
fn exact_without_cross_trace_reuse() {
    for (st, nb, batch) in [(16, 1, 16), (16, 4, 64), (32, 2, 1000), (7, 3, 5)] {
        for adjust in [true, false] {
            let t = disjoint_traces(st as u64, 23, st, 9);
            let want = naive_histogram(&t, None);
            let got = hprda(&t, cfg(st, nb, batch, adjust));
            assert!(!got.exact);
            assert_eq!(got.counts, want.counts, "st={st} nb={nb}");
            assert_eq!(got.cold, want.cold);
            assert_eq!(histogram_error(&want, &got), 0.0);
        }
    }
}

#[test]
fn formula_one_is_exact_without_overlap() {
    // ST = 4: [a b c d] [e f g a] — a's reuse crosses traces with nothing in common between
    // them: latest_0(a) = 3, first_1(a) = 3 → 6 = |{b c d e f g}|.
    let t: Vec<u64> = "abcdefga".bytes().map(u64::from).collect();
    for nb in [1, 2] {
        let h = hprda(&t, cfg(4, nb, 8, true));
        assert_eq!(h.counts.get(&6), Some(&1), "nb={nb}");
        assert_eq!(h.cold, 7);
    }
    // Across thread blocks and batches: NB = 1, batch = 4.
    let h = hprda(&t, cfg(4, 1, 4, false));
    assert_eq!(h.counts.get(&6), Some(&1));
}

#[test]
fn formula_one_overestimates_with_overlap_and_adjustment_corrects() {
    // ST = 2 with NB = 1: traces [a b] [c b] [c b] [a ...]: the true distance of the last a is
    // 2 (b, c), formula (1) counts b and c once per trace: 1 + 2 + 2 + 0 = 5.
    let t: Vec<u64> = "abcbcba".bytes().map(u64::from).collect();
    let raw = hprda(&t, cfg(2, 1, 2, false));
    assert_eq!(raw.counts.get(&5), Some(&1), "{raw:?}");
    // With adjustment: M = 3, Σ count = 2+2+2+1 = 7, ef = 3/7; 5 > 3 → round(5·3/7) = 2.
    let adj = hprda(&t, cfg(2, 1, 2, true));
    assert_eq!(
        adj.counts.get(&2).copied().unwrap_or(0),
        raw.counts.get(&2).copied().unwrap_or(0) + 1
    );
    assert_eq!(adj.counts.get(&5), None);
    let exact = naive_histogram(&t, None);
    assert!(histogram_error(&exact, &adj) <= histogram_error(&exact, &raw));
}

#[test]
fn repeats_are_distance_zero() {
    let t = vec![3, 3, 3, 4, 4, 3, 3];
    let h = hprda(&t, cfg(2, 2, 4, true));
    assert_eq!(
        h,
        Histogram {
            exact: false,
            ..naive_histogram(&t, None)
        }
    );
}

/// HP-RDA's error on the benchmark workload at test scale.
///
/// The bound, and why it is loose: the paper reports < 1 % average error (0.37 % mean with
/// adjustment) on SPEC with ST = 2048. This workload is adversarial for formula (1): half of it
/// is a sweep whose reuses span many thread-local traces that all share the hot lines of the
/// u³ half, and formula (1) counts a shared line once per trace, so sweep reuses land one log2
/// bin too high (≈ 3–4 % with this metric, measured). So we require (a) < 5 %, and (b) to beat
/// a concrete wrong answer: the exact histogram with every distance doubled (each reuse moved
/// exactly one log2 bin up), which is what a merge that over-counts by a factor 2 everywhere
/// would produce. A broken merge (e.g. cross-trace reuses dropped to ∞ or to the local
/// distance) fails (b).
#[test]
fn error_on_workload_is_small() {
    let t = generate(400_000, 20_000, 11);
    let exact = naive_free_exact(&t);
    let mut doubled = exact.clone();
    doubled.counts = exact.counts.iter().map(|(&d, &n)| (2 * d + 1, n)).collect();
    let strawman = histogram_error(&exact, &doubled);
    for adjust in [true, false] {
        let h = hprda(&t, cfg(256, 8, 1 << 16, adjust));
        assert_eq!(h.total(), exact.total());
        assert_eq!(h.cold, exact.cold);
        let e = histogram_error(&exact, &h);
        eprintln!(
            "HP-RDA error on workload (adjust = {adjust}): {e:.4} % (doubled: {strawman:.4} %)"
        );
        assert!(
            e.is_finite() && e < 5.0 && e < strawman,
            "error {e}, strawman {strawman}"
        );
    }
}

/// The exact histogram via the fast engine (the naive stack is too slow at this size; the
/// fast engine is itself checked against it elsewhere).
fn naive_free_exact(t: &[u64]) -> Histogram {
    common::run(Box::new(rdengines::FastEngine::new()), t)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Whatever the stream, HP-RDA accounts for every reference, gets cold misses and
    /// distance-0 repeats exactly, and never reports more than the trace's distinct blocks.
    #[test]
    fn hprda_invariants(blocks in prop::collection::vec(0..50u64, 0..600), st in 1..20usize, nb in 1..4usize, adjust: bool) {
        let exact = naive_histogram(&blocks, None);
        let h = hprda(&blocks, cfg(st, nb, 37, adjust));
        prop_assert_eq!(h.total(), exact.total());
        prop_assert_eq!(h.cold, exact.cold);
        let e = histogram_error(&exact, &h);
        prop_assert!(e.is_finite() && (0.0..=200.0).contains(&e));
        if st == 1 {
            // One reference per trace: every reuse crosses traces; formula (1) then counts each
            // intermediate trace as one distinct block, i.e. the time distance.
            prop_assert!(h.counts.keys().all(|&d| d <= blocks.len() as u64));
        }
    }
}
