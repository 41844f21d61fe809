//! Shared helpers for the integration tests (included with `mod common;`).
#![allow(dead_code)]

use rdengines::naive::naive_histogram;
use rdengines::{
    EngineConfig, EngineKind, FastEngine, Histogram, HpRdaConfig, OlkenEngine, PardaConfig,
    PardaEngine, ReuseEngine,
};

/// Runs an engine over `blocks` in one `process` call.
pub fn run(mut e: Box<dyn ReuseEngine>, blocks: &[u64]) -> Histogram {
    e.process(blocks);
    e.finish()
}

/// PARDA (threads, chunk) shapes exercised everywhere: one rank, chunk = 1, more chunks than
/// references, uneven chunks, and a single phase.
pub const PARDA_SHAPES: [(usize, usize); 7] =
    [(1, 1), (2, 1), (3, 2), (4, 7), (2, 1000), (8, 3), (5, 64)];

/// Every exact engine (with the given bound) paired with a label.
pub fn exact_engines(bound: Option<u64>) -> Vec<(String, Box<dyn ReuseEngine>)> {
    let mut v: Vec<(String, Box<dyn ReuseEngine>)> = vec![
        ("olken".into(), Box::new(OlkenEngine::with_bound(bound))),
        ("fast".into(), Box::new(FastEngine::with_bound(bound))),
    ];
    for (threads, chunk) in PARDA_SHAPES {
        v.push((
            format!("parda t={threads} c={chunk}"),
            Box::new(PardaEngine::new(PardaConfig {
                threads,
                chunk,
                bound,
            })),
        ));
    }
    v
}

/// Asserts every exact engine equals the naive stack on `blocks` (bounded or not).
pub fn check_all_exact(blocks: &[u64], bound: Option<u64>) {
    let want = naive_histogram(blocks, bound);
    assert_eq!(want.total(), blocks.len() as u64);
    for (name, e) in exact_engines(bound) {
        let got = run(e, blocks);
        assert_eq!(
            got, want,
            "{name} differs from naive (bound {bound:?}) on {blocks:?}"
        );
    }
}

/// Engine config used by the `make_engine` tests.
pub fn small_config(bound: Option<u64>) -> EngineConfig {
    EngineConfig {
        threads: 3,
        chunk: 5,
        bound,
        hprda: HpRdaConfig {
            st: 8,
            nb: 2,
            batch: 40,
            adjust: true,
            threads: 2,
        },
    }
}

/// All kinds, for loops.
pub fn kinds() -> [EngineKind; 5] {
    EngineKind::ALL
}
