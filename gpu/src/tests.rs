//! Tests of the GPU engine against the CPU's arithmetic and its failure path (need a Vulkan
//! adapter; lavapipe is set up).

use crate::GpuHpRdaEngine;
use rdengines::{HpRdaConfig, ReuseEngine};
use std::collections::BTreeMap;

/// The `adjust` kernel's 128-bit arithmetic equals the CPU's `u128` rounding on edge values:
/// d just above M, at 32- and 64-bit boundaries, halves, Σ count equal to M, far above it,
/// and (outside the engine's precondition) below it, where both truncate to 64 bits alike.
#[test]
fn gpu_adjustment_is_the_cpu_rounding_bit_for_bit() {
    let mut e = GpuHpRdaEngine::new(HpRdaConfig::default(), None, None)
        .unwrap_or_else(|err| panic!("no Vulkan adapter (lavapipe is set up): {err}"));
    let ms = [1u64, 2, 3, 1000, 65_537, (1 << 31) + 7, u32::MAX as u64 - 1];
    let mut rng = rdengines::SplitMix64::new(5);
    for &m in &ms {
        let ts = [
            m,
            m + 1,
            2 * m + 1,
            3 * m,
            1 << 33,
            (1 << 40) + 12_345,
            u64::MAX / 3,
            u64::MAX,
            (m / 2).max(1),
        ];
        for &t in &ts {
            let mut ds: Vec<u64> = vec![
                0,
                m,
                m + 1,
                2 * m,
                2 * m + 1,
                u32::MAX as u64,
                1 << 32,
                (1 << 32) + 1,
                1 << 63,
                (1 << 63) + 12_345,
                u64::MAX - 1,
                u64::MAX,
            ];
            ds.extend((0..40).map(|_| rng.next_u64() >> (rng.next_u64() % 64)));
            let merged: BTreeMap<u64, u64> = ds.iter().map(|&d| (d, 1)).collect();
            e.thread_counts = t;
            let got = e.adjust_on_gpu(&merged, m);
            for ((d, _), (a, n)) in merged.iter().zip(&got) {
                assert_eq!(*n, 1);
                let want = rdengines::hprda::adjust_distance(*d, m, t);
                assert_eq!(*a, want, "d {d} m {m} T {t}");
            }
        }
    }
}

/// More distinct blocks than 32-bit ids can name is a reported failure, not a panic, and
/// the engine ignores the rest of the stream. (The limit is lowered to 100 here.)
#[test]
fn too_many_distinct_blocks_is_a_failure_not_a_panic() {
    let mut e = match GpuHpRdaEngine::new(HpRdaConfig::default(), None, None) {
        Ok(e) => Box::new(e),
        Err(err) => panic!("no Vulkan adapter (lavapipe is installed by set-up): {err}"),
    };
    e.max_ids = 100;
    let blocks: Vec<u64> = (0..100).chain(0..100).collect();
    e.process(&blocks);
    assert_eq!(e.failure(), None, "100 distinct blocks fit");
    e.process(&[7, 100, 101]);
    let why = e.failure().expect("the 101st distinct block fails");
    assert!(why.contains("more than 100 distinct blocks"), "{why}");
    e.process(&[1, 2, 3]);
    let h = (e as Box<dyn ReuseEngine>).finish();
    // The 200 references before the failure (100 cold) plus the 7 that preceded it.
    assert_eq!(h.cold, 100);
    assert_eq!(h.total(), 201);
}
