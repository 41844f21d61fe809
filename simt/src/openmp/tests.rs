//! Unit tests of MI formation (lockstep merge) and of kernel building.

use super::kernel::{build_kernel, lockstep_merge, Instance};
use super::part_accesses::PartAccesses;
use super::*;

fn seq(items: &[(u32, u32, u64)]) -> Vec<(Instance, u64)> {
    items.iter().map(|&(m, k, a)| ((m, k), a)).collect()
}

#[test]
fn uniform_threads_issue_together() {
    let s = vec![
        seq(&[(1, 0, 10), (2, 0, 20)]),
        seq(&[(1, 0, 11), (2, 0, 21)]),
    ];
    assert_eq!(
        lockstep_merge(&s),
        vec![(1, vec![10, 11]), (2, vec![20, 21])]
    );
}

#[test]
fn divergent_branches_reconverge() {
    // Even threads take path b, odd ones path a; all then run c.
    let s = vec![
        seq(&[(5, 0, 0), (9, 0, 100)]),
        seq(&[(4, 0, 1), (9, 0, 101)]),
        seq(&[(5, 0, 2), (9, 0, 102)]),
    ];
    assert_eq!(
        lockstep_merge(&s),
        vec![(5, vec![0, 2]), (4, vec![1]), (9, vec![100, 101, 102])]
    );
}

#[test]
fn shorter_inner_loops_leave_threads_inactive() {
    // Thread t runs the inner load t times, then the store.
    let s: Vec<_> = (0..4u32)
        .map(|t| {
            let mut v: Vec<_> = (0..t).map(|k| ((7, k), k as u64)).collect();
            v.push(((8, 0), 50 + t as u64));
            v
        })
        .collect();
    let m = lockstep_merge(&s);
    let shape: Vec<(u32, usize)> = m.iter().map(|(pc, l)| (*pc, l.len())).collect();
    assert_eq!(shape, vec![(7, 3), (7, 2), (7, 1), (8, 4)]);
}

#[test]
fn crossing_orders_fall_back_to_the_first_thread() {
    let s = vec![seq(&[(1, 0, 0), (2, 0, 0)]), seq(&[(2, 0, 1), (1, 0, 1)])];
    let m = lockstep_merge(&s);
    assert_eq!(m.len(), 3);
    assert_eq!(m.iter().map(|x| x.1.len()).sum::<usize>(), 4);
}

/// A thread's part holding `accesses` in their order.
fn part(accesses: &[(i64, u32, u64)]) -> PartAccesses {
    let mut p = PartAccesses::default();
    for &(it, mi, addr) in accesses {
        p.push(it, mi, addr);
    }
    p
}

fn accesses(threads: i64, per: &[(u32, i64)]) -> Vec<(i64, u32, u64)> {
    let mut v = Vec::new();
    for it in 0..threads {
        for &(mi, off) in per {
            v.push((it, mi, ((it + off) * 8) as u64));
        }
    }
    v
}

#[test]
fn blocks_and_warps_partition_iterations() {
    let cfg = SimtConfig {
        block_size: 8,
        warp_size: 4,
        mi_scope: MiScope::Warp,
        ..Default::default()
    };
    let k = build_kernel(
        "k".into(),
        vec![part(&accesses(10, &[(0, 0), (1, 1)]))],
        0,
        10,
        &cfg,
    );
    assert_eq!(k.blocks.len(), 2);
    let b0 = &k.blocks[0];
    // Two warps of two MIs each, interleaved: w0 m0, w1 m0, w0 m1, w1 m1.
    let shape: Vec<(u64, u64, usize)> = b0
        .mis
        .iter()
        .map(|m| (m.pc, m.pos, m.lanes.len()))
        .collect();
    assert_eq!(shape, vec![(0, 1, 4), (0, 2, 4), (1, 3, 4), (1, 4, 4)]);
    assert_eq!(b0.mis[1].lanes, vec![32, 40, 48, 56]);
    // The last block has two threads.
    assert_eq!(k.blocks[1].mis.len(), 2);
    assert_eq!(k.blocks[1].mis[0].lanes, vec![64, 72]);
    assert_eq!(k.blocks[1].mis[1].gpos, 6);
}

#[test]
fn block_scope_and_granularity() {
    let cfg = SimtConfig {
        block_size: 8,
        granularity: Granularity::Line(64),
        ..Default::default()
    };
    let k = build_kernel("k".into(), vec![part(&accesses(8, &[(3, 0)]))], 0, 8, &cfg);
    assert_eq!(k.blocks.len(), 1);
    assert_eq!(k.blocks[0].mis[0].lanes, vec![0; 8]);
}

#[test]
fn iterations_without_accesses_are_inactive_threads() {
    let cfg = SimtConfig {
        block_size: 4,
        ..Default::default()
    };
    // Iterations 5..=8 (first = 5); iteration 6 touched nothing.
    let acc = vec![(5, 0, 1), (7, 0, 3), (8, 0, 4)];
    let k = build_kernel("k".into(), vec![part(&acc)], 5, 4, &cfg);
    assert_eq!(k.blocks.len(), 1);
    assert_eq!(k.blocks[0].mis[0].lanes, vec![1, 3, 4]);
}

/// The merge as first written (hash maps counted anew every round): what the array-counting
/// merge and its fast path for uniform groups must equal.
fn reference_merge(seqs: &[Vec<(Instance, u64)>]) -> Vec<(u32, Vec<u64>)> {
    use std::collections::HashMap;
    let mut remaining: HashMap<Instance, u32> = HashMap::new();
    for (inst, _) in seqs.iter().flatten() {
        *remaining.entry(*inst).or_insert(0) += 1;
    }
    let mut cursor = vec![0usize; seqs.len()];
    let mut out = Vec::new();
    while seqs.iter().zip(&cursor).any(|(s, &c)| c < s.len()) {
        let heads_of = |inst: &Instance| {
            seqs.iter()
                .zip(&cursor)
                .filter(|(s, &c)| s.get(c).is_some_and(|x| x.0 == *inst))
                .count() as u32
        };
        let next: Vec<Instance> = seqs
            .iter()
            .zip(&cursor)
            .filter_map(|(s, &c)| s.get(c).map(|x| x.0))
            .collect();
        let inst = *next
            .iter()
            .find(|i| heads_of(i) == remaining[*i])
            .unwrap_or(&next[0]);
        let mut lanes = Vec::new();
        for (s, c) in seqs.iter().zip(cursor.iter_mut()) {
            if let Some(&(i, addr)) = s.get(*c) {
                if i == inst {
                    lanes.push(addr);
                    *c += 1;
                }
            }
        }
        *remaining.get_mut(&inst).unwrap() -= lanes.len() as u32;
        out.push((inst.0, lanes));
    }
    out
}

/// Threads running a loop body with branches and inner loops of their own trip counts (the
/// instance numbering `build_kernel` gives), some not running at all.
fn divergent_group() -> impl proptest::strategy::Strategy<Value = Vec<Vec<(Instance, u64)>>> {
    use proptest::prelude::*;
    let thread = prop::collection::vec((0u32..6, 0u64..4), 0..12).prop_map(|body| {
        let mut counts = std::collections::HashMap::new();
        let mut seq = Vec::new();
        for (mi, addr) in body {
            let k = counts.entry(mi).or_insert(0u32);
            seq.push(((mi, *k), addr));
            *k += 1;
        }
        seq
    });
    prop::collection::vec(thread, 1..10)
}

proptest::proptest! {
    #[test]
    fn merge_equals_the_reference_merge(seqs in divergent_group()) {
        proptest::prop_assert_eq!(lockstep_merge(&seqs), reference_merge(&seqs));
    }

    #[test]
    fn uniform_groups_equal_the_reference_merge(
        body in proptest::collection::vec(0u32..4, 0..8),
        threads in 1usize..9,
        idle in proptest::collection::vec(proptest::bool::ANY, 9),
    ) {
        // Every thread runs the same body (its own addresses), some threads nothing.
        let seqs: Vec<Vec<(Instance, u64)>> = (0..threads)
            .map(|t| {
                if idle[t] {
                    return Vec::new();
                }
                let mut counts = std::collections::HashMap::new();
                body.iter()
                    .enumerate()
                    .map(|(r, &mi)| {
                        let k = counts.entry(mi).or_insert(0u32);
                        *k += 1;
                        ((mi, *k - 1), (t * 100 + r) as u64)
                    })
                    .collect()
            })
            .collect();
        proptest::prop_assert_eq!(lockstep_merge(&seqs), reference_merge(&seqs));
    }
}

proptest::proptest! {
    #[test]
    fn parts_build_the_kernel_of_their_sorted_concatenation(
        parts in proptest::collection::vec(
            proptest::collection::vec((0i64..12, 0u32..3, 0u64..8), 0..20), 1..5),
        first in 0i64..3,
        threads in 1u64..12,
        block_size in 1usize..6,
    ) {
        // Parts interleave iterations, run some twice, and some go back (sorted first).
        let cfg = SimtConfig { block_size, ..Default::default() };
        let mut whole: Vec<(i64, u32, u64)> = parts.iter().flatten().copied().collect();
        whole.sort_by_key(|a| a.0);
        let by_parts = build_kernel("k".into(), parts.iter().map(|p| part(p)).collect(), first, threads, &cfg);
        let by_whole = build_kernel("k".into(), vec![part(&whole)], first, threads, &cfg);
        proptest::prop_assert_eq!(by_parts.blocks, by_whole.blocks);
    }
}
