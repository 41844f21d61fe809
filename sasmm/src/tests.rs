//! Unit tests of every SASMM step on a hand-made program whose expected results are worked out
//! by hand in the comments.
//!
//! The program: `main` runs block 0 (one shared access), forks region 0 whose outlined function
//! runs block 2 (a private and a shared-variable access, then `__kmpc_for_static_init` for
//! iterations 0..=3), the worksharing loop 0 (header block 3, body block 4 with one access to
//! `A[i]` 64 bytes apart), exit block 5, and after the join block 1 (one shared access).

use crate::interleave::{for_each_shared_access, Interleave};
use crate::measure::{measure, MeasureConfig, Measurer};
use crate::mimic::{static_owner, MimicConfig, MimickedTrace, OffsetPolicy, StaticSplit};
use crate::model::Profile;
use crate::predict::{predict, SasmmConfig};
use crate::profile::{
    block_probabilities, concurrent_profile, private_block_probabilities, private_profile,
    sample_windows,
};
use crate::seq::{Placement, SequentialTrace, StreamLimits};
use proptest::prelude::*;
use rdcachesim::{CacheConfig, Hierarchy};
use rdengines::{analyse, EngineConfig, EngineKind};
use rdtrace::meta::*;
use rdtrace::testing::{function, mem_instr, natural_loop, program, region, workshare};
use rdtrace::Event;

const A: u64 = 0x10000;
const STACK: u64 = 0x7000;
const N_VAR: u64 = 0x2000;
const G: u64 = 0x1000;

fn block(function: u32, name: &str, parallel: bool, loop_id: Option<u32>) -> BlockMeta {
    BlockMeta {
        parallel,
        loop_id,
        ..rdtrace::testing::block(function, name)
    }
}

fn mi(block: u32, class: VarClass, derivation: &str) -> MemInstrMeta {
    MemInstrMeta {
        derivation: derivation.into(),
        ..mem_instr(block, AccessKind::Load, class)
    }
}

fn module() -> ModuleMeta {
    let tables = MetaTables {
        functions: vec![
            function("main", 0, 2),
            FunctionMeta {
                outlined: true,
                parallel: true,
                ..function("main.omp_outlined", 2, 4)
            },
        ],
        blocks: vec![
            block(0, "entry", false, None),
            block(0, "after", false, None),
            block(1, "entry", true, None),
            block(1, "header", true, Some(0)),
            block(1, "body", true, Some(0)),
            block(1, "exit", true, None),
        ],
        mem_instrs: vec![
            mi(0, VarClass::Shared, "global @G"),
            mi(2, VarClass::Private, "alloca %i in main.omp_outlined"),
            mi(4, VarClass::Shared, "%A loaded -> pointer loaded from memory at %0 -> shared variable argument %A of main.omp_outlined"),
            mi(2, VarClass::Shared, "shared variable argument %n of main.omp_outlined"),
            mi(1, VarClass::Shared, "global @G"),
        ],
        loops: vec![natural_loop(1, 3, None, 1)],
        workshares: vec![WorkshareMeta {
            schedule: Some(34),
            ..workshare(1, 2, WorkshareKind::Static, Some(0))
        }],
        // The region the hand-made streams fork (the reader checks region ids).
        regions: vec![region(1, 0)],
        ..Default::default()
    };
    ModuleMeta {
        name: "hand.c".into(),
        content_hash: 0,
        tables,
    }
}

fn meta() -> ProgramMeta {
    program(module())
}

fn acc(mi: u32, addr: u64) -> Event {
    Event::Access { mi, addr, len: 8 }
}

/// The sequential run's events (one thread).
fn events(iterations: u64) -> Vec<Event> {
    let mut e = vec![
        Event::Block { bb: 0 },
        acc(0, G),
        Event::Fork { region: 0 },
        Event::RegionEnter {
            region: 0,
            omp_thread: 0,
            team_size: 1,
        },
        Event::Block { bb: 2 },
        acc(1, STACK),
        acc(3, N_VAR),
        Event::WorkshareInit {
            ws: 0,
            schedule: 34,
            lower: 0,
            upper: iterations as i64 - 1,
            stride: iterations as i64,
            incr: 1,
            chunk: 1,
        },
    ];
    for i in 0..iterations {
        e.push(Event::Block { bb: 3 });
        e.push(Event::Block { bb: 4 });
        e.push(acc(2, A + 64 * i));
    }
    e.extend([
        Event::Block { bb: 5 },
        Event::WorkshareFini { ws: 0 },
        Event::RegionExit { region: 0 },
        Event::Join { region: 0 },
        Event::Block { bb: 1 },
        acc(4, G),
    ]);
    e
}

fn seq(iterations: u64) -> SequentialTrace {
    SequentialTrace::from_events(&meta(), events(iterations)).unwrap()
}

fn mimic(s: &SequentialTrace, cores: usize, policy: OffsetPolicy) -> MimickedTrace<'_> {
    MimickedTrace::build(
        s,
        MimicConfig {
            cores,
            offset_policy: policy,
            ..MimicConfig::default()
        },
    )
    .unwrap()
}

const OFF: u64 = 1 << 44;

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

#[test]
fn block_probabilities_eq1_to_3() {
    let s = seq(4);
    // Instances: b0 1, b1 1, b2 1, b3 4, b4 4, b5 1 → 12.
    let p = block_probabilities(&s);
    let expect = [1.0, 1.0, 1.0, 4.0, 4.0, 1.0, 0.0].map(|x: f64| x / 12.0);
    for (a, b) in p.iter().zip(expect) {
        assert!((a - b).abs() < 1e-12);
    }
    // Eq. 2-3 with m = 2: serial mass 2/12, parallel 10/12 halved → Z = 2/12 + 5/12 = 7/12.
    let par = s.block_parallel();
    assert_eq!(par, [false, false, true, true, true, true, false]);
    let q = private_block_probabilities(&p, &par, 2);
    assert!((q[0] - 1.0 / 7.0).abs() < 1e-12);
    assert!((q[3] - 2.0 / 7.0).abs() < 1e-12);
    assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn sampling_alg3() {
    let s = seq(200);
    let all = sample_windows(&s, 1.0, 1, 3);
    assert!(all.iter().all(|&x| x));
    let some = sample_windows(&s, 0.01, 1, 3);
    // 200 body windows at 1 % → 2; blocks with one window keep it (min 1).
    let body: usize = s
        .windows
        .iter()
        .zip(&some)
        .filter(|(w, &x)| w.bb == 4 && x)
        .count();
    assert_eq!(body, 2);
    assert!(some[0] && some[1]);
    assert_eq!(some, sample_windows(&s, 0.01, 1, 3));
}

#[test]
fn profiles_match_the_naive_engine_and_full_sampling_equals_exact() {
    let s = seq(300);
    let t = mimic(&s, 4, OffsetPolicy::Private);
    let all = sample_windows(&s, 1.0, 1, 0);
    let prd = private_profile(&t, 64, &all);
    for core in 0..4 {
        let mut lines = Vec::new();
        t.for_each_private_access(core, |_, a, _| lines.push(a >> 6));
        let naive = analyse(EngineKind::Naive, &EngineConfig::default(), &lines);
        assert_eq!(prd.exact[core].counts, naive.counts);
        assert_eq!(prd.exact[core].cold, naive.cold);
    }
    let crd = concurrent_profile(&t, Interleave::RoundRobin, 64, &all);
    let mut lines = Vec::new();
    for_each_shared_access(&t, Interleave::RoundRobin, |_, _, a, _| lines.push(a >> 6));
    let naive = analyse(EngineKind::Naive, &EngineConfig::default(), &lines);
    assert_eq!(crd.exact[0].counts, naive.counts);
    // Eq. 4 with every window sampled and reference weights is the exact profile.
    let weights: Vec<f64> = crd.instances.iter().map(|&n| n as f64).collect();
    let mix = crd.mixture(&weights, true);
    let exact = Profile::from_histogram(&crd.exact_total());
    assert!((mix.cold - exact.cold).abs() < 1e-12);
    for (d, p) in &exact.finite {
        assert!((mix.finite[d] - p).abs() < 1e-12, "d={d}");
    }
}

#[test]
fn prediction_is_exact_when_distances_decide_everything() {
    // A fully associative L1 and L2 make eq. 5 a step, so with every window sampled the
    // prediction for the mimicked trace equals an exact simulation of that same trace.
    let s = seq(500);
    let l1 = CacheConfig::parse("512:full:64").unwrap();
    let l2 = CacheConfig::parse("4K:full:64").unwrap();
    let mut cfg = SasmmConfig {
        l1,
        l2,
        ..SasmmConfig::default()
    };
    cfg.profile.sample_rate = 1.0;
    for m in [1, 2, 4] {
        let p = predict(&s, &cfg, m).unwrap();
        let t = mimic(&s, m, OffsetPolicy::Private);
        let mut l1_hits = 0u64;
        let mut refs = 0u64;
        for core in 0..m {
            let mut c = rdcachesim::Cache::new(l1);
            t.for_each_private_access(core, |_, a, len| {
                l1_hits += c.access(a, len as u64);
                refs += 1;
            });
        }
        assert!(
            (p.l1.hit - l1_hits as f64 / refs as f64).abs() < 1e-9,
            "m={m}"
        );
        let mut c = rdcachesim::Cache::new(l2);
        let mut l2_hits = 0u64;
        for_each_shared_access(&t, cfg.interleave, |_, _, a, len| {
            l2_hits += c.access(a, len as u64)
        });
        assert!(
            (p.l2.hit - l2_hits as f64 / refs as f64).abs() < 1e-9,
            "m={m}"
        );
    }
}

#[test]
fn measurer_matches_hierarchy_and_hand_counts() {
    let l1 = CacheConfig::new(128, 2, 64).unwrap();
    let l2 = CacheConfig::new(1024, 16, 64).unwrap();
    let mut m = Measurer::new(MeasureConfig { l1, l2 });
    let mut h = Hierarchy::new(l1, l2, 2);
    // Core 0 touches 0, 64, 0; core 1 touches 0, 128.
    for (c, a) in [(0, 0), (0, 64), (1, 0), (0, 0), (1, 128)] {
        m.access(c, a, 8);
        h.access(c, a, 8);
    }
    let r = m.finish();
    assert_eq!(r.threads, 2);
    assert_eq!(r.references, 5);
    assert_eq!(r.l1_per_thread, h.stats().l1);
    // L1 hits: core 0's second access to 0 only. L2: accesses 0,64,0(core1),128 → 1 hit.
    assert!((r.l1_hit - 0.2).abs() < 1e-12);
    assert_eq!((r.l2.accesses, r.l2.hits), (4, 1));
    assert!((r.l2_hit - 0.4).abs() < 1e-12);
    // PRD of core 0: 0 cold, 64 cold, 0 at distance 1. CRD: 0,64,0 (d=1),0 (d=0),128 cold.
    assert_eq!(r.prd[0].counts.get(&1), Some(&1));
    assert_eq!(r.prd[1].cold, 2);
    assert_eq!(r.crd.counts.get(&0), Some(&1));
    assert_eq!(r.crd.cold, 3);
    // Per thread: core 0 has 3 references, 1 L1 hit, and its 2 misses (0, 64) both miss the
    // L2; core 1 has 2 references, no L1 hit, and its miss on 0 hits the L2 (core 0 brought it
    // there), its miss on 128 does not.
    let per: Vec<(u64, u64, u64, u64)> = r
        .per_thread
        .iter()
        .map(|t| {
            let c = t.rates.counts;
            (c.references, c.l1_hits, c.l2_accesses, c.l2_hits)
        })
        .collect();
    assert_eq!(per, [(3, 1, 2, 0), (2, 0, 2, 1)]);
    assert_eq!(r.per_thread[1].thread, 1);
    assert!((r.per_thread[1].rates.rates.l2_hit_local - 0.5).abs() < 1e-12);
}

/// Two cores, round-robin: core 0 streams 1024 lines (64 KiB) four times, core 1 sweeps 16
/// lines four times as often. With the paper's L1 (8K:8:64: 16 sets of 8 ways) core 0 puts 64
/// lines into every set per pass, so its L1 misses every reference; core 1's 16 lines take one
/// way of each set, so it misses only their first touch. The shared L2 (128K:16:64: 128 sets
/// of 16 ways) holds all 1024 + 16 lines (at most 9 per set): core 0's misses hit from its
/// second pass on (3 × 1024 L2 hits), core 1's 16 misses are first touches.
#[test]
fn per_core_counts_of_a_streaming_and_a_reusing_core_by_hand() {
    let config = MeasureConfig::default();
    let mut exact =
        crate::exact::MultiHierarchy::new(&[config.l1], &[(Some(0), config.l2)]).unwrap();
    let mut meas = Measurer::new(config);
    let (big, small) = (0x100_0000u64, 0x200_0000u64);
    for pass in 0..4u64 {
        for k in 0..1024u64 {
            let (a, b) = (big + 64 * k, small + 8 * ((pass * 1024 + k) % 128));
            for (core, addr) in [(0, a), (1, b)] {
                exact.access(core, addr, 8);
                meas.access(core, addr, 8);
            }
        }
    }
    let expected = [
        crate::CoreCounts::new(4096, 0, 3 * 1024),
        crate::CoreCounts::new(4096, 4096 - 16, 0),
    ];
    assert_eq!(exact.core_counts(0, 0), expected);
    let m = meas.finish();
    let measured: Vec<crate::CoreCounts> = m.per_thread.iter().map(|t| t.rates.counts).collect();
    assert_eq!(measured, expected);
    // Core 0 never hits its L1 (1000 misses per 1000 references), core 1 almost always does.
    let (r0, r1) = (expected[0].rates(), expected[1].rates());
    assert_eq!((r0.l1_hit, r0.l1_mpka), (0.0, 1000.0));
    assert!(r1.l1_hit > 0.99 && r1.l1_mpka < 4.0);
    assert_eq!(r0.l2_hit_local, 0.75);
    // The combined rates are those of the summed counts: the per-core rates weighted by
    // references.
    let all = exact.rates(0, 0);
    assert_eq!(all, crate::CoreCounts::sum(&expected).rates());
    assert_eq!(all.l1_hit, (r0.l1_hit + r1.l1_hit) / 2.0);
    assert_eq!(all, m.rates());
    assert_eq!(m.l2.hits, 3 * 1024);
}

/// Through the whole exact model: a static loop of 2K iterations whose first half (core 0's
/// under the balanced split) streams K distinct lines and whose second half (core 1's)
/// cycles over 4 lines. Besides the loop, core 0 runs the serial accesses (G before the
/// region, G after it) and each core its copy of the region's entry block (its private
/// STACK slot, offset per core, and the shared N_VAR), all first touches except the last G,
/// which the stream has pushed out of its L1 set (set 0 takes G, N_VAR, STACK and 16 stream
/// lines).
#[test]
fn exact_model_attributes_each_core_its_own_references() {
    const K: u64 = 256;
    let mut e = events(2 * K);
    let mut i = 0;
    for ev in e.iter_mut() {
        if let Event::Access { mi: 2, addr, .. } = ev {
            *addr = if i < K {
                A + 64 * i
            } else {
                A + 64 * (K + i % 4)
            };
            i += 1;
        }
    }
    assert_eq!(i, 2 * K);
    let s = SequentialTrace::from_events(&meta(), e).unwrap();
    let p = crate::exact::predict_exact(&s, &crate::exact::ExactConfig::default(), 2).unwrap();
    let h = &p.hierarchies[0];
    let c: Vec<(u64, u64)> = h
        .per_core
        .iter()
        .map(|x| (x.counts.references, x.counts.l1_hits))
        .collect();
    assert_eq!(c, [(K + 4, 0), (K + 2, K - 4)]);
    // Core 0's misses go to memory except perhaps the shared N_VAR (core 1 may have brought
    // it into the L2 first) and the last G (still in the L2).
    let c0 = h.per_core[0].counts;
    assert!((1..=2).contains(&c0.l2_hits), "{c0:?}");
    assert!(h.per_core[1].counts.l2_hits <= 1);
    assert_eq!(h.per_core[0].rates.l1_hit, 0.0);
    assert!(h.per_core[1].rates.l1_hit > 0.97);
    assert_eq!(sum_of(&h.per_core).rates(), h.rates);
    assert_eq!(h.l1_hit_per_core, [0.0, h.per_core[1].rates.l1_hit]);
}

/// The per-core counts added up.
fn sum_of(per_core: &[crate::CoreRates]) -> crate::CoreCounts {
    crate::CoreCounts::sum(per_core.iter().map(|c| &c.counts))
}

#[test]
fn trace_files_round_trip_through_the_model_and_the_measurement() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, threads: &[Vec<Event>]| {
        let path = dir.path().join(name);
        rdtrace::testing::write_trace(&path, &module(), threads).unwrap();
        path
    };
    let seq_path = write("seq.rdtrace", &[events(8)]);
    let s = SequentialTrace::open(&seq_path).unwrap();
    assert_eq!(s.accesses.len(), 2 + 2 + 8);
    let two = write("two.rdtrace", &[events(8), events(8)]);
    let err = SequentialTrace::open(&two).unwrap_err().to_string();
    assert!(err.contains("sequential"), "{err}");
    // The streamed model reads the file in one pass and agrees with the in-memory one.
    let cfg = crate::exact::ExactConfig::default();
    let seq_trace = rdtrace::Trace::open(&seq_path).unwrap();
    let limits = [
        StreamLimits { flush: 0, spill: 0 },
        StreamLimits {
            flush: 1 << 20,
            spill: 1 << 20,
        },
    ];
    for limits in limits {
        let cfg = crate::exact::ExactConfig {
            limits,
            ..cfg.clone()
        };
        for cores in [1, 3] {
            assert_eq!(
                crate::exact::predict_exact_trace(&seq_trace, &cfg, cores).unwrap(),
                crate::exact::predict_exact(&s, &cfg, cores).unwrap()
            );
        }
        // One pass for several core counts equals one pass each.
        let many = crate::exact::predict_exact_many_trace(&seq_trace, &cfg, &[3, 1, 3]).unwrap();
        for (p, m) in many.iter().zip([3, 1, 3]) {
            assert_eq!(p, &crate::exact::predict_exact(&s, &cfg, m).unwrap());
        }
    }
    // So does the streamed formula model (two passes), for each configuration and core count;
    // the third configuration differs from the first only in its caches' sizes and ways, so the
    // two share one run of the stacks per core count.
    let configs = [
        SasmmConfig::default(),
        {
            let mut c = SasmmConfig::default();
            c.profile.sample_rate = 0.5;
            c.profile.min_samples = 1;
            c.l2 = CacheConfig::new(1024, 4, 128).unwrap();
            c
        },
        SasmmConfig {
            l1: CacheConfig::new(16 << 10, 4, 64).unwrap(),
            l2: CacheConfig::new(256 << 10, 8, 64).unwrap(),
            ..SasmmConfig::default()
        },
    ];
    for limits in limits {
        let configs = configs.map(|c| SasmmConfig { limits, ..c });
        let streamed = crate::formula::predict_many_trace(&seq_trace, &configs, &[1, 3]).unwrap();
        for (c, per_core) in configs.iter().zip(&streamed) {
            for (m, p) in [1, 3].iter().zip(per_core) {
                assert_eq!(p, &predict(&s, c, *m).unwrap());
            }
        }
    }
    let trace = rdtrace::Trace::open(&two).unwrap();
    let err = crate::exact::predict_exact_trace(&trace, &cfg, 2)
        .unwrap_err()
        .to_string();
    assert!(err.contains("sequential"), "{err}");
    let err = crate::formula::predict_many_trace(&trace, &configs, &[2])
        .unwrap_err()
        .to_string();
    assert!(err.contains("sequential"), "{err}");
    let m = measure(&trace, MeasureConfig::default()).unwrap();
    assert_eq!(m.threads, 2);
    assert_eq!(m.references, 2 * 12);
    // One entry per trace thread, by trace index, with its OpenMP number; each ran the 12
    // references of the program.
    let named: Vec<(u32, Option<u32>, u64)> = m
        .per_thread
        .iter()
        .map(|t| (t.thread, t.omp_thread, t.rates.counts.references))
        .collect();
    assert_eq!(named, [(0, Some(0), 12), (1, Some(0), 12)]);
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

#[test]
fn predict_many_equals_one_by_one() {
    let s = seq(300);
    let cfg = SasmmConfig::default();
    let many = crate::predict::predict_many(&s, &cfg, &[4, 1, 2]).unwrap();
    for (p, m) in many.iter().zip([4, 1, 2]) {
        let one = predict(&s, &cfg, m).unwrap();
        assert_eq!(p.cores, m);
        assert_eq!(p.l1, one.l1);
        assert_eq!(p.l2, one.l2);
        assert_eq!(p.crd, one.crd);
    }
}

#[test]
fn exact_model_equals_measuring_the_materialised_mimicked_trace() {
    // The exact model must give what `measure` gives on the interleaved mimicked trace written
    // out access by access: same hierarchy, same order, nothing approximated. Caches small
    // enough that the 64-byte stride of A[i] conflicts (4 sets) and several configurations.
    use crate::exact::{predict_exact, predict_exact_many, ExactConfig};
    let s = seq(700);
    let l1 = [
        CacheConfig::new(512, 2, 64).unwrap(),
        CacheConfig::new(512, 4, 64).unwrap(),
    ];
    let l2 = [
        CacheConfig::new(4096, 4, 64).unwrap(),
        CacheConfig::parse("2K:full:64").unwrap(),
    ];
    let cfg = ExactConfig {
        l1: l1.to_vec(),
        l2: l2.to_vec(),
        mrc: vec![1024, 8192],
        ..ExactConfig::default()
    };
    let many = predict_exact_many(&s, &cfg, &[4, 1, 2]).unwrap();
    for (p, m) in many.iter().zip([4, 1, 2]) {
        assert_eq!(p, &predict_exact(&s, &cfg, m).unwrap());
        let t = mimic(&s, m, OffsetPolicy::Private);
        assert_eq!(p.hierarchies.len(), 4);
        for h in &p.hierarchies {
            let mut meas = Measurer::new(MeasureConfig { l1: h.l1, l2: h.l2 });
            for_each_shared_access(&t, cfg.interleave, |c, _, a, len| {
                meas.access(c, a, len as u64)
            });
            let r = meas.finish();
            assert_eq!(h.references, r.references, "m={m}");
            assert!((h.rates.l1_hit - r.l1_hit).abs() < 1e-12, "m={m}");
            assert!((h.rates.l2_hit_global - r.l2_hit).abs() < 1e-12, "m={m}");
            assert!(
                (h.rates.l2_hit_local - r.l2_local_hit).abs() < 1e-12,
                "m={m}"
            );
            assert_eq!(h.l1_hit_per_core.len(), m);
            // Per core, the same counts as the simulation of each core's thread.
            assert_eq!(h.per_core.len(), m);
            for (c, t) in h.per_core.iter().zip(&r.per_thread) {
                assert_eq!(c, &t.rates, "m={m}");
            }
        }
        // The curve: private caches over each core's trace, one shared cache over all.
        assert_eq!(p.mrc.len(), 2);
        for pt in &p.mrc {
            let mut refs = 0u64;
            let mut hits = 0u64;
            for core in 0..m {
                let mut c = rdcachesim::Cache::new(pt.private);
                t.for_each_private_access(core, |_, a, len| {
                    hits += c.access(a, len as u64);
                });
                refs += c.stats().accesses;
            }
            assert!((pt.private_miss_ratio - (refs - hits) as f64 / refs as f64).abs() < 1e-12);
            let mut c = rdcachesim::Cache::new(pt.shared);
            for_each_shared_access(&t, cfg.interleave, |_, _, a, len| {
                c.access(a, len as u64);
            });
            assert!((pt.shared_miss_ratio - (1.0 - c.stats().hit_rate())).abs() < 1e-12);
        }
        // Bigger caches never miss more (LRU inclusion at fixed set count holds for the curve's
        // 1K -> 8K only because the associativity also grows; check the concrete numbers).
        assert!(p.mrc[1].private_miss_ratio <= p.mrc[0].private_miss_ratio);
    }
}

/// A random sequential run of the hand program: serial stretches, parallel regions with
/// barriers, and worksharing loops of every schedule kind, finished or not (dynamic loops
/// without a `WorkshareFini`), sometimes several in one section.
fn random_program() -> impl Strategy<Value = Vec<Event>> {
    // (kind, iterations, accesses per iteration, address seed)
    let part = (0u8..6, 1u64..12, 0usize..4, 0u64..64);
    prop::collection::vec(part, 0..12).prop_map(|parts| {
        let mut e = vec![Event::Block { bb: 0 }];
        let mut depth = 0;
        for (kind, n, k, seed) in parts {
            let addr = |i: u64, j: usize| A + 64 * ((seed * 7 + i * 3 + j as u64) % 97);
            match kind {
                0 => {
                    // Serial stretch (closes any open region first).
                    if depth > 0 {
                        e.push(Event::RegionExit { region: 0 });
                        e.push(Event::Join { region: 0 });
                        depth = 0;
                    }
                    for i in 0..n {
                        e.push(Event::Block { bb: (i % 2) as u32 });
                        for j in 0..k {
                            e.push(acc(if j % 2 == 0 { 0 } else { 4 }, addr(i, j)));
                        }
                    }
                }
                1 if depth == 0 => {
                    e.push(Event::Fork { region: 0 });
                    e.push(Event::RegionEnter {
                        region: 0,
                        omp_thread: 0,
                        team_size: 1,
                    });
                    e.push(Event::Block { bb: 2 });
                    e.push(acc(1, STACK + 8 * (seed % 4)));
                    e.push(acc(3, N_VAR));
                    depth = 1;
                }
                2 if depth > 0 => e.push(Event::Barrier),
                _ if depth > 0 => {
                    // A worksharing loop: 3 static unchunked, 4 static chunked, 5 dynamic
                    // (never finished).
                    let (schedule, chunk) = match kind {
                        3 => (34, 1),
                        4 => (33, 2),
                        _ => (35, 1),
                    };
                    e.push(Event::WorkshareInit {
                        ws: 0,
                        schedule,
                        lower: 0,
                        upper: n as i64 - 1,
                        stride: n as i64,
                        incr: 1,
                        chunk,
                    });
                    for i in 0..n {
                        e.push(Event::Block { bb: 3 });
                        e.push(Event::Block { bb: 4 });
                        for j in 0..=k {
                            e.push(acc(2, addr(i, j)));
                        }
                    }
                    e.push(Event::Block { bb: 5 });
                    e.push(acc(1, STACK));
                    if kind != 5 {
                        e.push(Event::WorkshareFini { ws: 0 });
                    }
                }
                _ => {
                    e.push(Event::Block { bb: 1 });
                    e.push(acc(4, G + 64 * (seed % 5)));
                }
            }
        }
        if depth > 0 {
            e.push(Event::RegionExit { region: 0 });
        }
        e.push(Event::Block { bb: 1 });
        e.push(acc(4, G));
        e
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The exact model fed the streamed fragments equals it over the whole sequential trace,
    /// for every flush threshold (0: a serial section is cut at every window), spill threshold
    /// (0: every parallel fragment goes through a temporary file), core count and
    /// interleaving; the fragments hold every access once.
    #[test]
    fn streamed_fragments_give_the_exact_model_of_the_whole_trace(
        events in random_program(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 2, 7, 1 << 20]),
    ) {
        use crate::exact::{predict_exact, ExactConfig, ExactRun};
        let whole = SequentialTrace::from_events(&meta(), events.clone()).unwrap();
        let cfg = |interleave| ExactConfig {
            l1: vec![CacheConfig::new(256, 2, 64).unwrap()],
            l2: vec![
                CacheConfig::new(1024, 4, 64).unwrap(),
                CacheConfig::parse("512:full:64").unwrap(),
            ],
            interleave,
            mrc: vec![512, 2048],
            ..ExactConfig::default()
        };
        for interleave in [Interleave::RoundRobin, Interleave::Uniform { seed: 3 }] {
            for cores in [1, 2, 3] {
                let c = cfg(interleave);
                let expected = predict_exact(&whole, &c, cores).unwrap();
                let mut run = ExactRun::new(&c, cores).unwrap();
                let mut accesses = 0;
                let mut windows = 0;
                let limits = StreamLimits { flush, spill };
                let mut spilled = 0;
                let seen = SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut |f| {
                    accesses += f.accesses() as usize;
                    windows += f.windows() as usize;
                    spilled += matches!(f, crate::Fragment::Spilled(_)) as usize;
                    run.feed_fragment(f)
                })
                .unwrap();
                let parallel = whole.sections.iter().any(|s| s.parallel);
                prop_assert_eq!(spill == 0 && parallel, spill == 0 && spilled > 0);
                prop_assert_eq!(seen as usize, whole.accesses.len());
                prop_assert_eq!(accesses, whole.accesses.len());
                prop_assert_eq!(windows, whole.windows.len());
                prop_assert_eq!(run.finish(), expected);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The formula model over the streamed fragments (two passes: block counts, then the
    /// sampled profiles) equals the in-memory model over the whole sequential trace, bit for
    /// bit, for every flush threshold, core count, interleaving and sample rate; the sparse
    /// shuffle marks the same windows as the in-memory sampler.
    #[test]
    fn streamed_formula_equals_the_in_memory_formula(
        events in random_program(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 2, 7, 1 << 20]),
        rate in prop::sample::select(vec![1.0f64, 0.5, 0.2, 0.01]),
        min_samples in 0u64..3,
        seed in 0u64..4,
    ) {
        use crate::formula::{BlockCounts, FormulaRun, WindowSample};
        let whole = SequentialTrace::from_events(&meta(), events.clone()).unwrap();
        let mut counts = BlockCounts::default();
        let limits = StreamLimits { flush, spill };
        SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut |f| {
            counts.add_fragment(f)
        })
        .unwrap();
        prop_assert_eq!(&counts, &BlockCounts::of(&whole));
        let sample = WindowSample::draw(&counts.windows, rate, min_samples, seed);
        let expected_flags = sample_windows(&whole, rate, min_samples, seed);
        let mut whole_cursor = sample.cursor();
        prop_assert_eq!(whole_cursor.mark(&whole), &expected_flags[..]);
        prop_assert_eq!(
            sample.len(&counts.windows),
            expected_flags.iter().filter(|&&x| x).count() as u64
        );
        // With equal line sizes one core's CRD is its PRD (the formula run computes it once):
        // 64-byte L2 lines take that path, 128-byte ones the shared stack.
        for (interleave, l2_line) in [
            (Interleave::RoundRobin, 128),
            (Interleave::Uniform { seed: 3 }, 128),
            (Interleave::RoundRobin, 64),
            (Interleave::Uniform { seed: 3 }, 64),
        ] {
            for cores in [1, 2, 3] {
                let mut config = SasmmConfig {
                    l1: CacheConfig::new(256, 2, 64).unwrap(),
                    l2: CacheConfig::new(1024, 4, l2_line).unwrap(),
                    interleave,
                    ..SasmmConfig::default()
                };
                config.profile.sample_rate = rate;
                config.profile.min_samples = min_samples;
                config.profile.seed = seed;
                if seed % 2 == 1 {
                    config.profile.weighting = crate::profile::BbWeighting::Paper;
                }
                let expected = predict(&whole, &config, cores).unwrap();
                let mut run = FormulaRun::new(&config, cores, whole.num_blocks()).unwrap();
                let mut cursor = sample.cursor();
                SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut |f| {
                    run.feed_fragment(f, &mut cursor)
                })
                .unwrap();
                prop_assert_eq!(run.finish(&counts, &config), expected);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Per-core counts add up to the combined ones, and the combined rates are exactly the
    /// rates of the summed counts (the reference-weighted combination of the per-core rates),
    /// for every hierarchy, core count and interleaving; on one core the one per-core entry is
    /// the combined rates. The formula model's per-core rates (eq. 7 on each core's exact PRD)
    /// combine, weighted by each core's references, to its exact-profile rate.
    #[test]
    fn per_core_counts_add_up_to_the_combined_counts(events in random_program()) {
        use crate::exact::{predict_exact, ExactConfig};
        let whole = SequentialTrace::from_events(&meta(), events).unwrap();
        for interleave in [Interleave::RoundRobin, Interleave::Uniform { seed: 5 }] {
            let cfg = ExactConfig {
                l1: vec![
                    CacheConfig::new(256, 2, 64).unwrap(),
                    CacheConfig::new(512, 1, 32).unwrap(),
                ],
                l2: vec![
                    CacheConfig::new(1024, 4, 64).unwrap(),
                    CacheConfig::parse("512:full:64").unwrap(),
                ],
                interleave,
                ..ExactConfig::default()
            };
            for cores in [1, 2, 3] {
                let p = predict_exact(&whole, &cfg, cores).unwrap();
                for h in &p.hierarchies {
                    prop_assert_eq!(h.per_core.len(), cores);
                    let sum = sum_of(&h.per_core);
                    prop_assert_eq!(sum.references, h.references);
                    prop_assert_eq!(sum.rates(), h.rates);
                    for (c, x) in h.per_core.iter().enumerate() {
                        prop_assert_eq!(x.rates, x.counts.rates());
                        prop_assert_eq!(x.counts.l2_accesses, x.counts.l1_misses);
                        prop_assert!(x.counts.l2_hits <= x.counts.l2_accesses);
                        if let Some(&rate) = h.l1_hit_per_core.get(c) {
                            prop_assert_eq!(rate, x.rates.l1_hit);
                        }
                    }
                    if cores == 1 {
                        prop_assert_eq!(h.per_core[0].rates, h.rates);
                    }
                }
                let config = SasmmConfig {
                    l1: cfg.l1[0],
                    l2: cfg.l2[0],
                    interleave,
                    ..SasmmConfig::default()
                };
                let f = predict(&whole, &config, cores).unwrap();
                let refs = f.l1_references_per_core();
                prop_assert_eq!(refs.len(), cores);
                prop_assert_eq!(refs.iter().sum::<u64>(), f.l1.references);
                if f.l1.references > 0 {
                    let weighted: f64 = refs
                        .iter()
                        .zip(&f.l1_per_core)
                        .map(|(&r, &h)| r as f64 * h)
                        .sum::<f64>()
                        / f.l1.references as f64;
                    prop_assert!((weighted - f.l1.hit_exact_profile).abs() < 1e-12);
                }
            }
        }
    }
}

/// [`measure`] as it was before it streamed: cores are the threads' ranks among the trace's
/// thread indices from the start (the oracle of the next test).
fn measure_in_index_order(
    trace: &rdtrace::Trace,
    config: MeasureConfig,
) -> crate::measure::Measurement {
    let threads = trace.thread_indices();
    let mut m = Measurer::new(config);
    let mut omp: Vec<Option<u32>> = vec![None; threads.len()];
    for r in trace.merged().unwrap() {
        let (t, e) = r.unwrap();
        match e {
            Event::Access { addr, len, .. } => {
                m.access(threads.binary_search(&t).unwrap_or(0), addr, len)
            }
            Event::RegionEnter { omp_thread, .. } => {
                if let Ok(core) = threads.binary_search(&t) {
                    omp[core].get_or_insert(omp_thread);
                }
            }
            _ => {}
        }
    }
    let mut out = m.finish();
    for (slot, o) in out.omp_thread.iter_mut().zip(&omp) {
        *slot = *o;
    }
    out.per_thread.resize(
        threads.len().max(out.per_thread.len()),
        crate::measure::ThreadRates {
            thread: 0,
            omp_thread: None,
            rates: crate::CoreRates::default(),
        },
    );
    for (core, t) in out.per_thread.iter_mut().enumerate() {
        t.thread = threads.get(core).copied().unwrap_or(core as u32);
        t.omp_thread = omp.get(core).copied().flatten();
    }
    out
}

/// `measure` numbers cores by thread index although it meets the threads in another order
/// (here 3, 1, 2; thread 0 and thread 4 make no access, thread 2 enters no region): the same
/// measurement as numbering them up front.
#[test]
fn measuring_in_stamp_order_renumbers_cores_by_thread_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("five.rdtrace");
    let part = |t: u32, time: u64, addrs: &[u64], region: bool| -> Vec<Event> {
        let mut e = vec![Event::Stamp { time }];
        if region {
            e.push(Event::RegionEnter {
                region: 0,
                omp_thread: t,
                team_size: 5,
            });
        }
        e.extend(addrs.iter().map(|&a| acc(0, a)));
        e.push(Event::Stamp { time: time + 50 });
        e.extend(addrs.iter().map(|&a| acc(0, a + 4096)));
        if region {
            e.push(Event::RegionExit { region: 0 });
        }
        e
    };
    let threads = vec![
        (1, vec![part(0, 400, &[], true)]),
        (2, vec![part(1, 200, &[A, A + 64, A], true)]),
        (3, vec![part(2, 300, &[A, G, G + 8], false)]),
        (4, vec![part(3, 100, &[G, A + 128], true)]),
        (5, vec![part(4, 500, &[], true)]),
    ];
    rdtrace::testing::write_trace_chunks(&path, &module(), &threads).unwrap();
    let trace = rdtrace::Trace::open(&path).unwrap();
    let config = MeasureConfig {
        l1: CacheConfig::new(256, 2, 64).unwrap(),
        l2: CacheConfig::new(1024, 4, 64).unwrap(),
    };
    let new = measure(&trace, config).unwrap();
    let old = measure_in_index_order(&trace, config);
    // Every field (rates as their exact bits through Debug; PRD and CRD histograms too).
    assert_eq!(format!("{new:?}"), format!("{old:?}"));
    assert_eq!(new.l1_per_thread.len(), 4, "cores up to thread 3");
    assert_eq!(new.per_thread.len(), 5);
}

/// The measurer's fast path (a core's access to the line it touched last) changes no count:
/// on streams full of such runs, with accesses that straddle lines and several cores, its
/// results equal the hierarchy simulated access by access and stack distances computed by the
/// naive engine over each core's and the whole run's lines.
#[test]
fn measurer_fast_path_equals_the_plain_simulation() {
    use rdengines::naive::NaiveEngine;
    use rdengines::ReuseEngine;
    let l1 = CacheConfig::new(512, 2, 64).unwrap();
    // L2 lines larger than L1's, and equal (then the CRD is a core's PRD until a second core
    // accesses, see `Measurer::solo`).
    let l2s = [
        CacheConfig::new(4096, 4, 128).unwrap(),
        CacheConfig::new(4096, 4, 64).unwrap(),
    ];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..40 {
        let cores = 1 + round % 4;
        let l2 = l2s[round / 20];
        let mut m = Measurer::new(MeasureConfig { l1, l2 });
        let mut h = Hierarchy::new(l1, l2, cores);
        let mut prd: Vec<Vec<u64>> = vec![Vec::new(); cores];
        let mut crd = Vec::new();
        let mut addr = 0u64;
        for _ in 0..3000 {
            let r = rnd();
            let core = (r % cores as u64) as usize;
            // Mostly small steps (runs on one line), sometimes a jump; sizes 1..=16 bytes, so
            // some accesses straddle a line.
            addr = if r >> 8 & 7 == 0 {
                (r >> 16) % 16384
            } else {
                addr + (r >> 24) % 6
            };
            let len = 1 + (r >> 32) % 16;
            m.access(core, addr, len);
            h.access(core, addr, len);
            l1.for_each_line(addr, len, |l| prd[core].push(l));
            l2.for_each_line(addr, len, |l| crd.push(l));
        }
        let r = m.finish();
        assert_eq!(r.l1_per_thread, h.stats().l1, "round {round}");
        assert_eq!(r.l2, h.stats().l2, "round {round}");
        let naive = |lines: &[u64]| {
            let mut e: Box<dyn ReuseEngine> = Box::new(NaiveEngine::new());
            e.process(lines);
            e.finish()
        };
        for (c, lines) in prd.iter().enumerate() {
            assert_eq!(r.prd[c], naive(lines), "round {round} core {c}");
        }
        assert_eq!(r.crd, naive(&crd), "round {round}");
    }
}

/// [`random_program`] with barriers and bare accesses (no block event before them) inserted at
/// random places: more empty continuation windows (a barrier's continuation followed by a
/// block), accesses before the first block and before a region's first block, and
/// continuations opened by an access after a fragment was handed over.
fn random_program_with_cuts() -> impl Strategy<Value = Vec<Event>> {
    let inserts = prop::collection::vec((0usize..256, 0u8..3), 0..8);
    (random_program(), inserts).prop_map(|(mut e, inserts)| {
        for (at, kind) in inserts {
            let event = match kind {
                0 => Event::Barrier,
                1 => acc(4, G + 8),
                _ => acc(2, A),
            };
            e.insert(at % (e.len() + 1), event);
        }
        e
    })
}

/// The first pass of the formula model counts, with the window-only builder, the hand program's
/// blocks: the empty continuations (of the exit block after the loop, of `main`'s entry block
/// after the join) are dropped and the loop's windows counted as parallel, whether the parallel
/// fragment is held or spilled.
#[test]
fn counting_windows_drops_empty_continuations_held_or_spilled() {
    use crate::formula::BlockCounts;
    for spill in [0, 1, 1 << 20] {
        let limits = StreamLimits { flush: 1, spill };
        let mut counts = BlockCounts::new(SequentialTrace::block_ids(&meta()));
        let accesses =
            SequentialTrace::stream_windows_events(&meta(), events(4), limits, &mut |b, c, p| {
                counts.add_window(b, c, p)
            })
            .unwrap();
        assert_eq!(accesses, 8);
        // Blocks: main entry, main after, outlined entry, loop header, loop body, loop exit,
        // before the first block.
        assert_eq!(counts.windows, [1, 1, 1, 4, 4, 1, 0], "spill {spill}");
        assert_eq!(counts.instances, counts.windows);
        assert_eq!(
            counts.parallel,
            [false, false, true, true, true, true, false]
        );
        assert_eq!(counts, BlockCounts::of(&seq(4)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Counting windows only (no access kept, nothing spilled: the formula model's first pass)
    /// hands over the same windows, in the same order and with the same flags, as the
    /// fragments of the full streamed builder with the same thresholds, held or spilled, so
    /// both count the same blocks; empty continuation windows are dropped alike.
    #[test]
    fn counting_windows_gives_the_block_counts_of_the_fragments(
        events in random_program_with_cuts(),
        flush in prop::sample::select(vec![0usize, 1, 3, 1 << 20]),
        spill in prop::sample::select(vec![0usize, 1, 2, 7, 1 << 20]),
    ) {
        use crate::formula::BlockCounts;
        let limits = StreamLimits { flush, spill };
        let mut full = Vec::new();
        let mut from_fragments = BlockCounts::default();
        let mut each_fragment = |f: crate::Fragment<'_>| {
            match f {
                crate::Fragment::Memory(s) => full.extend(
                    s.windows
                        .iter()
                        .map(|w| (w.bb, w.continuation, w.placement != Placement::Serial)),
                ),
                crate::Fragment::Spilled(s) => s.for_each_window(|b, c, p| full.push((b, c, p)))?,
            }
            from_fragments.add_fragment(f)
        };
        let full_accesses =
            SequentialTrace::stream_events(&meta(), events.clone(), limits, &mut each_fragment)
                .unwrap();
        let mut counted = Vec::new();
        let mut counts = BlockCounts::new(SequentialTrace::block_ids(&meta()));
        let counted_accesses =
            SequentialTrace::stream_windows_events(&meta(), events, limits, &mut |b, c, p| {
                counted.push((b, c, p));
                counts.add_window(b, c, p);
            })
            .unwrap();
        prop_assert_eq!(counted_accesses, full_accesses);
        prop_assert_eq!(&counted, &full);
        // (Without any window no fragment is handed over, and the fragments' counts stay
        // empty instead of zero per block.)
        if !full.is_empty() {
            prop_assert_eq!(&counts, &from_fragments);
        }
    }
}
