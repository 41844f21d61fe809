//! Property tests: every exact engine (Olken, fast, PARDA in many shapes, bounded forms) equals
//! the naive LRU stack.

mod common;

use common::check_all_exact;
use proptest::prelude::*;
use rdengines::naive::naive_histogram;
use rdengines::{PardaConfig, PardaEngine, ReuseEngine};

/// Streams mixing the shapes that stress chunk boundaries: random over few or many blocks,
/// sweeps, bursts of repeats, and sparse 64-bit ids (including u64::MAX, the table's marker).
fn stream() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        prop::collection::vec(0..4u64, 0..200),
        prop::collection::vec(0..40u64, 0..300),
        prop::collection::vec(0..3000u64, 0..300),
        prop::collection::vec(
            prop_oneof![any::<u64>(), Just(u64::MAX), Just(0u64)],
            0..120
        ),
        // Sweeps of random length repeated a random number of times.
        (1..60u64, 1..6usize).prop_map(|(k, r)| (0..r).flat_map(|_| 0..k).collect()),
        // Bursts: each element repeated 1..5 times.
        prop::collection::vec((0..30u64, 1..5usize), 0..80).prop_map(|v| v
            .into_iter()
            .flat_map(|(b, n)| (0..n).map(move |_| b))
            .collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn exact_engines_equal_naive(blocks in stream()) {
        check_all_exact(&blocks, None);
    }

    #[test]
    fn bounded_engines_equal_naive_bounded(blocks in stream(), bound in 0..40u64) {
        check_all_exact(&blocks, Some(bound));
    }

    #[test]
    fn parda_any_shape_equals_naive(
        blocks in stream(),
        threads in 1..7usize,
        chunk in 1..50usize,
        bound in prop::option::of(0..30u64),
    ) {
        let mut e = Box::new(PardaEngine::new(PardaConfig { threads, chunk, bound }));
        e.process(&blocks);
        prop_assert_eq!(e.finish(), naive_histogram(&blocks, bound));
    }

    /// Fed in batches of any size, so that phases are buffered across `process` calls and rank
    /// 0 starts on a phase while it fills.
    #[test]
    fn parda_fed_in_batches_equals_naive(
        blocks in stream(),
        threads in 2..6usize,
        chunk in 1..60usize,
        batch in 1..40usize,
        bound in prop::option::of(0..30u64),
    ) {
        let mut e = Box::new(PardaEngine::new(PardaConfig { threads, chunk, bound }));
        for piece in blocks.chunks(batch) {
            e.process(piece);
        }
        prop_assert_eq!(e.finish(), naive_histogram(&blocks, bound));
    }

    #[test]
    fn bounded_is_truncated_unbounded(blocks in stream(), bound in 0..50u64) {
        let full = naive_histogram(&blocks, None);
        let bounded = naive_histogram(&blocks, Some(bound));
        prop_assert_eq!(rdengines::accum::truncate(&full, bound), bounded);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The fronted stack answers every reference as the naive stack does, across the boundary
    /// between its front array and its core (streams over a few blocks to a few thousand).
    #[test]
    fn fronted_stack_equals_naive_per_reference(blocks in stream()) {
        let mut fronted = rdengines::FrontedStack::default();
        let mut naive: Vec<u64> = Vec::new();
        for &b in &blocks {
            let pos = naive.iter().position(|&x| x == b);
            if let Some(p) = pos {
                naive.remove(p);
            }
            naive.insert(0, b);
            prop_assert_eq!(fronted.access(b), pos.map(|p| p as u64));
        }
        prop_assert_eq!(fronted.len(), naive.len());
    }
}
