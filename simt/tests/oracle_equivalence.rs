//! The occurrence-list analyzer equals the thesis's Algorithm 1 on random MI streams, with and
//! without a reuse-distance window, and scenario streams built from random kernels agree too.

use proptest::prelude::*;
use rdsimt::grid::{aggregate_block, BlockStream};
use rdsimt::oracle::dr_analysis;
use rdsimt::{analyze_stream, MemInstr};

fn stream() -> impl Strategy<Value = Vec<MemInstr>> {
    // Few distinct addresses, so pairs share addresses often and multiplicities repeat.
    let mi = (0u64..6, prop::collection::vec(0u64..24, 1..12)).prop_map(|(pc, lanes)| MemInstr {
        pc,
        lanes,
        ..Default::default()
    });
    prop::collection::vec(mi, 0..60)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn analyzer_equals_algorithm_1(s in stream(), w in prop::option::of(1u64..20)) {
        prop_assert_eq!(analyze_stream(&s, w), dr_analysis(&s, w));
    }

    #[test]
    fn aggregate_streams_agree(blocks in prop::collection::vec(stream(), 1..5)) {
        let blocks: Vec<BlockStream> = blocks
            .into_iter()
            .enumerate()
            .map(|(id, mut mis)| {
                for (k, m) in mis.iter_mut().enumerate() {
                    m.pos = k as u64 + 1;
                }
                BlockStream { id: id as u64, mis }
            })
            .collect();
        let refs: Vec<&BlockStream> = blocks.iter().collect();
        let agg = aggregate_block(&refs);
        prop_assert_eq!(analyze_stream(&agg.mis, None), dr_analysis(&agg.mis, None));
        let lanes: u64 = blocks.iter().map(BlockStream::lanes).sum();
        prop_assert_eq!(agg.lanes(), lanes);
    }
}

/// A seeded stream large enough that ring-buffer wrap-around and occurrence-list compaction
/// in the windowed analyzer are exercised.
#[test]
fn long_seeded_stream_with_window() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let s: Vec<MemInstr> = (0..500)
        .map(|_| MemInstr {
            lanes: (0..8).map(|_| next() % 300).collect(),
            ..Default::default()
        })
        .collect();
    for w in [1, 7, 64, 400, 5000] {
        assert_eq!(
            analyze_stream(&s, Some(w)),
            dr_analysis(&s, Some(w)),
            "window {w}"
        );
    }
    assert_eq!(analyze_stream(&s, None), dr_analysis(&s, None));
}

/// A stream long enough (10^4 MIs) that the windowed analyzer sweeps away addresses whose
/// occurrences all left the window (every 4096 MIs), with addresses that come back after
/// long absences (a wide address range) and ones that stay hot (a narrow one).
#[test]
fn stream_past_the_sweeps_with_window() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let s: Vec<MemInstr> = (0..10_000)
        .map(|i| MemInstr {
            lanes: (0..6)
                .map(|k| {
                    if k < 2 {
                        next() % 40
                    } else {
                        1000 + next() % (20 + i % 5000)
                    }
                })
                .collect(),
            ..Default::default()
        })
        .collect();
    for w in [1, 7, 64] {
        assert_eq!(
            analyze_stream(&s, Some(w)),
            dr_analysis(&s, Some(w)),
            "window {w}"
        );
    }
}
