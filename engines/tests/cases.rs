//! Hand-computed cases, adversarial streams, batch splits and the engine factory.

mod common;

use common::{check_all_exact, exact_engines, kinds, run, small_config};
use proptest::prelude::*;
use rdengines::naive::naive_histogram;
use rdengines::{analyse, make_engine, EngineConfig, EngineKind, Histogram};

fn letters(s: &str) -> Vec<u64> {
    s.bytes().map(u64::from).collect()
}

#[test]
fn two_sweeps_over_k_blocks() {
    for k in [1u64, 2, 5, 64, 513, 2000] {
        let blocks: Vec<u64> = (0..k).chain(0..k).collect();
        for (name, e) in exact_engines(None) {
            let h = run(e, &blocks);
            assert_eq!(h.cold, k, "{name}");
            assert_eq!(h.counts.len(), 1, "{name}");
            assert_eq!(h.counts.get(&(k - 1)), Some(&k), "{name} k={k}");
            assert_eq!(h.overflow, 0);
            assert!(h.exact);
        }
    }
}

#[test]
fn parda_paper_table_two() {
    // PARDA Table II: d a c b c c g e f a f b c, global distances
    // ∞ ∞ ∞ ∞ 1 0 ∞ ∞ ∞ 5 1 5 5.
    let t = letters("dacbccgefafbc");
    let mut want = Histogram::new_exact();
    want.cold = 7;
    want.add(1, 2);
    want.add(0, 1);
    want.add(5, 3);
    assert_eq!(naive_histogram(&t, None), want);
    check_all_exact(&t, None);
    // The two-processor split of the table (6 + 7 references).
    let cfg = EngineConfig {
        threads: 2,
        chunk: 7,
        ..EngineConfig::default()
    };
    assert_eq!(analyse(EngineKind::Parda, &cfg, &t), want);
}

#[test]
fn parda_paper_table_three_three_ranks() {
    let t = letters("dacbccgefafbcmtmacfbdcac");
    assert_eq!(t.len(), 24);
    let want = naive_histogram(&t, None);
    for chunk in [8, 3, 1, 24, 100] {
        let cfg = EngineConfig {
            threads: 3,
            chunk,
            ..EngineConfig::default()
        };
        assert_eq!(analyse(EngineKind::Parda, &cfg, &t), want, "chunk {chunk}");
    }
    for b in 0..10 {
        check_all_exact(&t, Some(b));
    }
}

#[test]
fn adversarial_streams() {
    let sweep: Vec<u64> = (0..700).collect();
    let repeated: Vec<u64> = (0..5).flat_map(|_| 0..300u64).collect();
    let alternating: Vec<u64> = (0..600).map(|i| i % 2).collect();
    let alt3: Vec<u64> = (0..600).map(|i| [7, 7, 9, 11, 9][i % 5]).collect();
    let bursts: Vec<u64> = (0..100u64)
        .flat_map(|b| (0..1 + b % 7).map(move |_| b % 13))
        .collect();
    let backwards: Vec<u64> = (0..300u64).chain((0..300).rev()).collect();
    let sparse: Vec<u64> = (0..400u64)
        .map(|i| (i % 37).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 7)
        .collect();
    let streams: Vec<(&str, Vec<u64>)> = vec![
        ("empty", vec![]),
        ("one address", vec![42; 500]),
        ("one reference", vec![u64::MAX]),
        ("all distinct", sweep),
        ("repeated sweeps", repeated),
        ("alternating", alternating),
        ("alternating 3", alt3),
        ("bursts", bursts),
        ("forward then backward", backwards),
        ("sparse ids", sparse),
    ];
    for (name, s) in &streams {
        for bound in [
            None,
            Some(0),
            Some(1),
            Some(2),
            Some(17),
            Some(299),
            Some(300),
            Some(10_000),
        ] {
            let want = naive_histogram(s, bound);
            for (ename, e) in exact_engines(bound) {
                assert_eq!(run(e, s), want, "{ename} on {name} bound {bound:?}");
            }
        }
    }
}

#[test]
fn one_address_histogram() {
    let h = naive_histogram(&[5; 10], None);
    assert_eq!(h.cold, 1);
    assert_eq!(h.counts.get(&0), Some(&9));
}

#[test]
fn bounded_hand_case() {
    // a b c a b c with B = 3: both reuses at distance 2 < 3; with B = 2 they overflow.
    let t = [1, 2, 3, 1, 2, 3];
    for (name, e) in exact_engines(Some(3)) {
        let h = run(e, &t);
        assert_eq!(
            (h.cold, h.overflow, h.counts.get(&2).copied()),
            (3, 0, Some(3)),
            "{name}"
        );
    }
    for (name, e) in exact_engines(Some(2)) {
        let h = run(e, &t);
        assert_eq!((h.cold, h.overflow, h.counts.len()), (3, 3, 0), "{name}");
        assert_eq!(h.bound, Some(2));
    }
}

#[test]
fn larger_random_stream_against_naive() {
    // A longer stream than the proptests, so that PARDA runs many phases and the fast core
    // compacts its slot space many times.
    let t = rdengines::workload::generate(30_000, 400, 3);
    let want = naive_histogram(&t, None);
    for (name, e) in exact_engines(None) {
        assert_eq!(run(e, &t), want, "{name}");
    }
    let want_b = naive_histogram(&t, Some(50));
    for (name, e) in exact_engines(Some(50)) {
        assert_eq!(run(e, &t), want_b, "{name} bounded");
    }
}

#[test]
fn engine_kind_names_round_trip() {
    for k in kinds() {
        assert_eq!(k.to_string().parse::<EngineKind>().unwrap(), k);
        assert_eq!(make_engine(k, &small_config(None)).name(), k.as_str());
        assert_eq!(make_engine(k, &small_config(None)).is_exact(), k.is_exact());
    }
    assert!("splay".parse::<EngineKind>().is_err());
    assert_eq!(EngineKind::default(), EngineKind::Fast);
}

#[test]
fn every_kind_honours_the_bound() {
    let t = rdengines::workload::generate(5_000, 300, 9);
    for bound in [None, Some(10u64)] {
        let cfg = small_config(bound);
        let want = naive_histogram(&t, bound);
        for k in kinds() {
            let h = analyse(k, &cfg, &t);
            assert_eq!(h.total(), t.len() as u64, "{k}");
            assert_eq!(h.bound, bound, "{k}");
            if let Some(b) = bound {
                assert!(h.counts.keys().all(|&d| d < b), "{k}");
            }
            if k.is_exact() {
                assert_eq!(h, want, "{k}");
            } else {
                assert!(!h.exact);
                assert_eq!(h.cold, want.cold, "{k}: cold misses are exact in HP-RDA");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Feeding the same stream in different batch splits gives the same histogram.
    #[test]
    fn batch_splits_do_not_matter(
        blocks in prop::collection::vec(0..60u64, 0..400),
        cuts in prop::collection::vec(0..400usize, 0..8),
        bound in prop::option::of(1..20u64),
    ) {
        let cfg = small_config(bound);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(blocks.len())).collect();
        cuts.sort_unstable();
        for k in kinds() {
            let whole = analyse(k, &cfg, &blocks);
            let mut e = make_engine(k, &cfg);
            let mut start = 0;
            for &c in &cuts {
                e.process(&blocks[start..c]);
                start = c;
            }
            e.process(&blocks[start..]);
            prop_assert_eq!(e.finish(), whole, "{}", k);
        }
    }
}
