//! Tests of the threaded engine against the sequential exact one, over many phases, both
//! merges, the bounded mode and a rank 0 that claims a whole filling phase.

use super::*;
use crate::workload::generate;
use crate::{FastEngine, Histogram, ReuseEngine};

fn parda(blocks: &[u64], threads: usize, chunk: usize, bound: Option<u64>) -> Histogram {
    let mut e = Box::new(PardaEngine::new(PardaConfig {
        threads,
        chunk,
        bound,
    }));
    // Uneven batches, so phases straddle `process` calls.
    for piece in blocks.chunks(7777) {
        e.process(piece);
    }
    e.finish()
}

/// Long streams over a mid-sized working set: chunks that cover most of it take the
/// prepend merge, short ones the append merge, and chunks longer than [`STREAM_PIECE`]
/// stream their local infinities in several pieces; all must equal the sequential engine.
#[test]
fn many_phases_both_merges_equal_fast() {
    let blocks = generate(400_000, 6000, 3);
    let mut f = Box::new(FastEngine::new());
    f.process(&blocks);
    let want = f.finish();
    for (threads, chunk) in [(2, 300), (2, 20_000), (3, 90_000), (4, 5000), (2, 150_000)] {
        assert_eq!(
            parda(&blocks, threads, chunk, None),
            want,
            "t={threads} c={chunk}"
        );
    }
    let mut f = Box::new(FastEngine::with_bound(Some(700)));
    f.process(&blocks);
    let want = f.finish();
    for (threads, chunk) in [(2, 20_000), (3, 90_000)] {
        assert_eq!(
            parda(&blocks, threads, chunk, Some(700)),
            want,
            "bounded t={threads} c={chunk}"
        );
    }
}

/// A stream that arrives slowly: rank 0 keeps up with the filling phase and claims every
/// piece but the last (which completes the phase and closes it at once), so the balanced
/// split (7 of 16 pieces) is overruled and rank 1 gets one piece; exact anyway.
#[test]
fn rank_0_that_claims_the_whole_phase_stays_exact() {
    let blocks = generate(40_000, 3000, 5);
    let mut f = Box::new(FastEngine::new());
    f.process(&blocks);
    let want = f.finish();
    let mut e = Box::new(PardaEngine::new(PardaConfig {
        threads: 2,
        chunk: 10_000,
        bound: None,
    }));
    // Pieces of 20 000 / 16 = 1250 references; rank 0 needs well under a millisecond
    // for one.
    for piece in blocks.chunks(1250) {
        e.process(piece);
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    assert_eq!(e.finish(), want);
}

#[test]
fn default_chunks() {
    assert_eq!(default_chunk(2), 1 << 23);
    assert_eq!(default_chunk(64), 1 << 21);
}
