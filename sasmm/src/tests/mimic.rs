//! The sequential trace's windows, sections and placements, the static schedules, the mimicked
//! per-core traces (Alg. 1, chunked loops included) and their interleavings into the shared
//! trace (Alg. 2).

use super::*;

#[test]
fn windows_sections_and_placements() {
    let s = seq(4);
    let bbs: Vec<u32> = s.windows.iter().map(|w| w.bb).collect();
    // The empty continuation of block 0 after the join is dropped.
    assert_eq!(bbs, [0, 2, 3, 4, 3, 4, 3, 4, 3, 4, 5, 1]);
    let place: Vec<Placement> = s.windows.iter().map(|w| w.placement).collect();
    let it = |i| Placement::Iteration {
        workshare: 0,
        iteration: i,
    };
    assert_eq!(
        place,
        [
            Placement::Serial,
            Placement::Replicated,
            it(0),
            it(0),
            it(1),
            it(1),
            it(2),
            it(2),
            it(3),
            it(3),
            Placement::Replicated,
            Placement::Serial
        ]
    );
    let sections: Vec<(bool, std::ops::Range<u32>)> = s
        .sections
        .iter()
        .map(|x| (x.parallel, x.windows.clone()))
        .collect();
    assert_eq!(sections, [(false, 0..1), (true, 1..11), (false, 11..12)]);
    assert_eq!(s.workshares[0].iterations, 4);
    assert_eq!(s.workshares[0].chunk, None);
    // Block 2 holds the private access and the shared-variable access.
    assert_eq!(s.window_accesses(1).len(), 2);
    assert_eq!(s.mi_shared_variable, [false, false, false, true, false]);
    assert_eq!(s.block_instances()[3], 4);
}

#[test]
fn static_schedules_by_hand() {
    // Balanced: 10 iterations on 4 threads → 3,3,2,2.
    let owners: Vec<usize> = (0..10)
        .map(|i| static_owner(i, 10, 4, None, StaticSplit::Balanced))
        .collect();
    assert_eq!(owners, [0, 0, 0, 1, 1, 1, 2, 2, 3, 3]);
    // Greedy: ceil(10/4) = 3 → 3,3,3,1.
    let owners: Vec<usize> = (0..10)
        .map(|i| static_owner(i, 10, 4, None, StaticSplit::Greedy))
        .collect();
    assert_eq!(owners, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]);
    // Chunk 2 dealt round-robin on 3 threads.
    let owners: Vec<usize> = (0..10)
        .map(|i| static_owner(i, 10, 3, Some(2), StaticSplit::Balanced))
        .collect();
    assert_eq!(owners, [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]);
    // Fewer iterations than threads: one each.
    let owners: Vec<usize> = (0..3)
        .map(|i| static_owner(i, 3, 8, None, StaticSplit::Balanced))
        .collect();
    assert_eq!(owners, [0, 1, 2]);
    // libomp's split observed on this machine: 62 iterations on 4 threads → 16,16,15,15.
    let counts = (0..62).fold([0; 4], |mut c, i| {
        c[static_owner(i, 62, 4, None, StaticSplit::Balanced)] += 1;
        c
    });
    assert_eq!(counts, [16, 16, 15, 15]);
}

proptest! {
    /// The remembered owner of a window (`Owners`) is the split's owner: `owner_range` gives
    /// `static_owner`'s core, and every iteration of its range (past the last one included) has
    /// that owner, for every schedule; so is a walk in any order through a run's iterations.
    #[test]
    fn remembered_owners_are_the_static_owners(
        n in 0u64..200,
        m in 1usize..9,
        chunk in prop::option::of(0u64..12),
        greedy in any::<bool>(),
        walk in prop::collection::vec(0u64..220, 1..60),
    ) {
        use crate::mimic::{owner_range, Owners};
        let split = if greedy { StaticSplit::Greedy } else { StaticSplit::Balanced };
        for i in 0..n + 20 {
            let want = static_owner(i, n, m, chunk, split);
            let (core, lo, hi) = owner_range(i, n, m, chunk, split);
            prop_assert_eq!(core, want);
            prop_assert!(lo <= i && i < hi);
            for j in lo..hi.min(n + 20) {
                prop_assert_eq!(static_owner(j, n, m, chunk, split), core, "{} in {}..{}", j, lo, hi);
            }
        }
        let config = MimicConfig { cores: m, chunk, split, ..MimicConfig::default() };
        let runs = [crate::window::WorkshareRun { ws: 0, schedule: 34, iterations: n, chunk: None }];
        let mut owners = Owners::default();
        for &i in &walk {
            let p = Placement::Iteration { workshare: 0, iteration: i };
            prop_assert_eq!(owners.core_of(&config, p, &runs), config.core_of(p, &runs));
        }
    }
}

#[test]
fn private_traces_alg1() {
    let s = seq(4);
    let t = mimic(&s, 2, OffsetPolicy::Private);
    // Serial sections only on core 0; the parallel section: block 2 and 5 copied, iterations
    // 0-1 on core 0 and 2-3 on core 1.
    assert_eq!(t.sections[0].per_core, [vec![0], vec![]]);
    assert_eq!(
        t.sections[1].per_core,
        [vec![1, 2, 3, 4, 5, 10], vec![1, 6, 7, 8, 9, 10]]
    );
    assert_eq!(t.sections[2].per_core, [vec![11], vec![]]);
    let mut core1 = Vec::new();
    t.for_each_private_access(1, |_, a, _| core1.push(a));
    // Private policy: only the stack access moves.
    assert_eq!(core1, [STACK + OFF, N_VAR, A + 128, A + 192]);
    let mut core0 = Vec::new();
    t.for_each_private_access(0, |_, a, _| core0.push(a));
    assert_eq!(core0, [G, STACK, N_VAR, A, A + 64, G]);
    // Paper policy: everything but the shared-variable access moves on core 1.
    let p = mimic(&s, 2, OffsetPolicy::Paper);
    let mut core1 = Vec::new();
    p.for_each_private_access(1, |_, a, _| core1.push(a));
    assert_eq!(core1, [STACK + OFF, N_VAR, A + 128 + OFF, A + 192 + OFF]);
    // A chunk override of 1 deals iterations alternately.
    let c = MimickedTrace::build(
        &s,
        MimicConfig {
            cores: 2,
            chunk: Some(1),
            ..MimicConfig::default()
        },
    )
    .unwrap();
    assert_eq!(
        c.sections[1].per_core,
        [vec![1, 2, 3, 6, 7, 10], vec![1, 4, 5, 8, 9, 10]]
    );
    assert!(MimickedTrace::build(
        &s,
        MimicConfig {
            cores: 0,
            ..MimicConfig::default()
        }
    )
    .is_err());
}

#[test]
fn shared_trace_alg2_round_robin() {
    let s = seq(4);
    let t = mimic(&s, 2, OffsetPolicy::Private);
    let mut out = Vec::new();
    for_each_shared_access(&t, Interleave::RoundRobin, |c, _, a, _| out.push((c, a)));
    assert_eq!(
        out,
        [
            (0, G),
            // Round 0: block 2 on both cores, one access each in turn.
            (0, STACK),
            (1, STACK + OFF),
            (0, N_VAR),
            (1, N_VAR),
            // Rounds of the loop body: iteration 0 with 2, then 1 with 3.
            (0, A),
            (1, A + 128),
            (0, A + 64),
            (1, A + 192),
            (0, G),
        ]
    );
}

#[test]
fn shared_trace_alg2_uniform_is_a_seeded_permutation_within_rounds() {
    let s = seq(64);
    let t = mimic(&s, 4, OffsetPolicy::Private);
    let collect = |seed| {
        let mut out = Vec::new();
        for_each_shared_access(&t, Interleave::Uniform { seed }, |c, w, a, _| {
            out.push((c, w, a))
        });
        out
    };
    let a = collect(7);
    assert_eq!(a, collect(7), "same seed, same trace");
    assert_ne!(a, collect(8), "another seed, another order");
    let mut rr = Vec::new();
    for_each_shared_access(&t, Interleave::RoundRobin, |c, w, a, _| rr.push((c, w, a)));
    let (mut x, mut y) = (a.clone(), rr.clone());
    x.sort_unstable();
    y.sort_unstable();
    assert_eq!(x, y, "both interleavings hold the same accesses");
    // Every core's own accesses stay in program order.
    for core in 0..4 {
        let mine: Vec<u64> = a.iter().filter(|e| e.0 == core).map(|e| e.2).collect();
        let mut private = Vec::new();
        t.for_each_private_access(core, |_, addr, _| private.push(addr));
        assert_eq!(mine, private);
    }
}

/// The hand program with a `schedule(static, 2)` loop: clang's chunk loop (loop 0, header
/// block 3) around the iteration loop (loop 1, a single block 4).
fn chunked_meta() -> ProgramMeta {
    let mut m = module();
    m.blocks[3] = block(1, "chunk.header", true, Some(0));
    m.blocks[4] = block(1, "inner.body", true, Some(1));
    m.loops.push(natural_loop(1, 4, Some(0), 2));
    m.workshares[0].schedule = Some(33);
    m.workshares[0].chunk = Some(2);
    program(m)
}

#[test]
fn chunked_static_schedule_deals_chunks_round_robin() {
    let mut e = vec![
        Event::RegionEnter {
            region: 0,
            omp_thread: 0,
            team_size: 1,
        },
        Event::Block { bb: 2 },
        // One thread: libomp reports the first chunk [0, 1] and the stride between chunks.
        Event::WorkshareInit {
            ws: 0,
            schedule: 33,
            lower: 0,
            upper: 1,
            stride: 2,
            incr: 1,
            chunk: 2,
        },
    ];
    for chunk in 0..4u64 {
        e.push(Event::Block { bb: 3 });
        for i in 0..2 {
            e.push(Event::Block { bb: 4 });
            e.push(acc(2, A + 64 * (2 * chunk + i)));
        }
    }
    e.extend([
        Event::Block { bb: 5 },
        Event::WorkshareFini { ws: 0 },
        Event::RegionExit { region: 0 },
    ]);
    let s = SequentialTrace::from_events(&chunked_meta(), e).unwrap();
    assert_eq!(s.workshares[0].chunk, Some(2));
    assert_eq!(s.workshares[0].iterations, 8);
    let t = mimic(&s, 2, OffsetPolicy::Private);
    let mut core0 = Vec::new();
    t.for_each_private_access(0, |_, a, _| core0.push((a - A) / 64));
    let mut core1 = Vec::new();
    t.for_each_private_access(1, |_, a, _| core1.push((a - A) / 64));
    // Chunks 0 and 2 (iterations 0,1,4,5) on core 0, chunks 1 and 3 on core 1.
    assert_eq!(core0, [0, 1, 4, 5]);
    assert_eq!(core1, [2, 3, 6, 7]);
}

#[test]
fn without_loop_metadata_the_paper_per_block_rule_applies() {
    let mut m = module();
    m.loops.clear();
    m.blocks[3].loop_id = None;
    m.blocks[4].loop_id = None;
    m.workshares[0].loop_id = None;
    let p = program(m);
    let s = SequentialTrace::from_events(&p, events(4)).unwrap();
    // Blocks 3 and 4 have four windows each in the construct: split as iterations 0..3; block
    // 5 has one: copied to every core (SASMM Alg. 1 lines 8-19).
    let place: Vec<Placement> = s.windows.iter().map(|w| w.placement).collect();
    let it = |i| Placement::Iteration {
        workshare: 0,
        iteration: i,
    };
    assert_eq!(
        &place[2..10],
        &[it(0), it(0), it(1), it(1), it(2), it(2), it(3), it(3)]
    );
    assert_eq!(place[10], Placement::Replicated);
}

#[test]
fn chunked_loop_given_its_whole_range_at_once_is_split_by_inner_iterations() {
    // With one thread libomp reports the whole range [0, 7] for schedule(static, 2): the chunk
    // loop (block 3) runs once and the iteration loop (block 4) eight times.
    let mut e = vec![
        Event::RegionEnter {
            region: 0,
            omp_thread: 0,
            team_size: 1,
        },
        Event::Block { bb: 2 },
        Event::WorkshareInit {
            ws: 0,
            schedule: 33,
            lower: 0,
            upper: 7,
            stride: 8,
            incr: 1,
            chunk: 2,
        },
        Event::Block { bb: 3 },
    ];
    for i in 0..8u64 {
        e.push(Event::Block { bb: 4 });
        e.push(acc(2, A + 64 * i));
    }
    e.extend([
        Event::Block { bb: 5 },
        Event::WorkshareFini { ws: 0 },
        Event::RegionExit { region: 0 },
    ]);
    let s = SequentialTrace::from_events(&chunked_meta(), e).unwrap();
    assert_eq!(s.workshares[0].iterations, 8);
    // The chunk loop's own block is overhead every thread runs.
    assert_eq!(s.windows[1].bb, 3);
    assert_eq!(s.windows[1].placement, Placement::Replicated);
    let t = mimic(&s, 2, OffsetPolicy::Private);
    let lines = |c| {
        let mut v = Vec::new();
        t.for_each_private_access(c, |_, a, _| v.push((a - A) / 64));
        v
    };
    assert_eq!(lines(0), [0, 1, 4, 5]);
    assert_eq!(lines(1), [2, 3, 6, 7]);
}
