//! Unit tests of the exact model's three-level hierarchy (a private L2 per core between the
//! L1s and a shared L3) against `CoherentHierarchy` with an L3, the ground truth of
//! `measure --l3`.

use super::tests::rw_access;
use super::*;
use proptest::prelude::*;
use rdcachesim::CoherentHierarchy;

/// Asserts that the three-level `m` (L1 configuration 0, its private L2, L3 request 0) counts
/// what `sim` (`CoherentHierarchy` with an L3) counted, per core and class for class (`classed`:
/// `m` classes every miss; else only the coherence misses are compared).
fn assert_three_levels_equal(
    m: &MultiHierarchy,
    sim: &CoherentHierarchy,
    classed: bool,
) -> std::result::Result<(), TestCaseError> {
    let st = sim.stats();
    let (refs, hits) = m.l1_counts(0);
    let (acc2, hits2) = m.l2_private_counts().unwrap();
    let coh = |k: &MissKinds| (k.coherence, k.true_sharing, k.false_sharing);
    for (c, want) in st.l1.iter().enumerate() {
        prop_assert_eq!(
            (refs[c], hits[c]),
            (want.stats.accesses, want.stats.hits),
            "L1 core {}",
            c
        );
        let l2 = &st.l2_private[c];
        prop_assert_eq!(
            (acc2[c], hits2[c]),
            (l2.stats.accesses, l2.stats.hits),
            "L2 core {}",
            c
        );
        let (k1, k2) = (m.l1_miss_kinds(0)[c], m.l2_private_miss_kinds().unwrap()[c]);
        if classed {
            prop_assert_eq!(k1, want.misses, "L1 core {}", c);
            prop_assert_eq!(k2, l2.misses, "L2 core {}", c);
            prop_assert_eq!(k2.total(), acc2[c] - hits2[c]);
        } else {
            prop_assert_eq!(coh(&k1), coh(&want.misses), "L1 core {}", c);
            prop_assert_eq!(coh(&k2), coh(&l2.misses), "L2 core {}", c);
        }
    }
    let (acc3, h3) = m.l2_counts(0);
    prop_assert_eq!((acc3, h3), (st.shared.stats.accesses, st.shared.stats.hits));
    // Each L3 lookup is a private-L2 miss of the core it is counted for.
    for c in 0..st.l1.len() {
        prop_assert!(m.l2_hits_per_core(0)[c] <= acc2[c] - hits2[c]);
    }
    if classed {
        let mut k3 = MissKinds::default();
        m.l2_miss_kinds(0).iter().for_each(|k| k3.add(k));
        prop_assert_eq!(k3, st.shared.misses);
    }
    Ok(())
}

/// A hand-made parallel loop whose iterations read `A[i]` (stride `stride`), add to one shared
/// sum (true sharing) and write `B[i]` 8 bytes apart (false sharing at chunk edges), with
/// serial code before and after that writes and reads a global: the sequential run the
/// three-level model is tested on end to end.
fn rw_program(iterations: u64, stride: u64) -> (rdtrace::meta::ProgramMeta, Vec<rdtrace::Event>) {
    use rdtrace::meta::*;
    use rdtrace::testing::{block, function, mem_instr, natural_loop, program, region, workshare};
    use rdtrace::Event;
    let blk = |f: u32, name: &str, parallel: bool, loop_id: Option<u32>| BlockMeta {
        parallel,
        loop_id,
        ..block(f, name)
    };
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
            blk(0, "entry", false, None),
            blk(0, "after", false, None),
            blk(1, "entry", true, None),
            blk(1, "header", true, Some(0)),
            blk(1, "body", true, Some(0)),
            blk(1, "exit", true, None),
        ],
        mem_instrs: vec![
            mem_instr(0, AccessKind::Store, VarClass::Shared),
            mem_instr(4, AccessKind::Load, VarClass::Shared),
            mem_instr(4, AccessKind::Store, VarClass::Shared),
            mem_instr(4, AccessKind::Store, VarClass::Shared),
            mem_instr(1, AccessKind::Load, VarClass::Shared),
        ],
        loops: vec![natural_loop(1, 3, None, 1)],
        workshares: vec![WorkshareMeta {
            schedule: Some(34),
            ..workshare(1, 2, WorkshareKind::Static, Some(0))
        }],
        regions: vec![region(1, 0)],
        ..Default::default()
    };
    let meta = program(ModuleMeta {
        name: "rw.c".into(),
        content_hash: 0,
        tables,
    });
    let (g, a, sum, b) = (0x1000u64, 0x10000u64, 0x2000u64, 0x40000u64);
    let acc = |mi: u32, addr: u64| Event::Access { mi, addr, len: 8 };
    let mut e = vec![
        Event::Block { bb: 0 },
        acc(0, g),
        Event::Fork { region: 0 },
        Event::RegionEnter {
            region: 0,
            omp_thread: 0,
            team_size: 1,
        },
        Event::Block { bb: 2 },
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
        e.extend([Event::Block { bb: 3 }, Event::Block { bb: 4 }]);
        e.extend([acc(1, a + stride * i), acc(2, sum), acc(3, b + 8 * i)]);
    }
    e.extend([
        Event::Block { bb: 5 },
        Event::WorkshareFini { ws: 0 },
        Event::RegionExit { region: 0 },
        Event::Join { region: 0 },
        Event::Block { bb: 1 },
        acc(4, g),
    ]);
    (meta, e)
}

/// A small cache of `sets` sets and `ways` ways of 64-byte lines.
fn small(sets: u64, ways: u32) -> CacheConfig {
    CacheConfig::new(sets * ways as u64 * 64, ways, 64).unwrap()
}

#[test]
fn a_private_l2_catches_what_the_l1_lost_to_capacity_but_not_to_invalidation() {
    // L1 1 line, L2 4 lines, L3 16 lines, all fully associative. Core 0 reads a, b, a: the
    // second a misses the L1 (b evicted it) and hits its private L2. Core 1 then writes a:
    // core 0's L1 does not hold a (b does), its L2 does and loses it: core 0's next read of a
    // misses both private levels (an L2 coherence miss, true sharing) and hits the L3.
    let (l1, l2, l3) = (small(1, 1), small(1, 4), small(1, 16));
    let mut m = MultiHierarchy::three_level(&[l1], l2, &[(Some(0), l3)], None).unwrap();
    m.classify(1, 1);
    let mut sim = CoherentHierarchy::new(l1, l2, Some(l3));
    let (a, b) = (0u64, 64);
    for (core, x, w) in [
        (0, a, false),
        (0, b, false),
        (0, a, false),
        (1, a, true),
        (0, a, false),
    ] {
        m.access_rw(core, x, 8, w);
        sim.access(core, x, 8, w);
    }
    let (acc2, hits2) = m.l2_private_counts().unwrap();
    assert_eq!((acc2[0], hits2[0]), (4, 1));
    let k2 = m.l2_private_miss_kinds().unwrap()[0];
    assert_eq!((k2.compulsory, k2.true_sharing), (2, 1));
    // L3: a, b (core 0), a (core 1), then core 0's a again hits.
    assert_eq!(m.l2_counts(0), (4, 2));
    assert_eq!(m.l2_hits_per_core(0), [1, 1]);
    assert_three_levels_equal(&m, &sim, true).unwrap();
    // The rates of the hierarchy are of the private L2 (as `measure --l3` reports them).
    assert_eq!(m.core_counts(0, 0)[0], crate::CoreCounts::new(4, 0, 1));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Three levels: the stack-distance rule with holes in the private L1s and L2s equals
    /// `CoherentHierarchy` with an L3 count for count and class for class, on any interleaved
    /// multi-core trace with writes; unclassed, the same counts and coherence misses.
    #[test]
    fn three_level_stacks_equal_the_coherent_simulation(
        ops in prop::collection::vec(rw_access(), 1..300),
        l1_geo in (0u32..2, 1u32..3),
        l2_geo in (0u32..3, 1u32..4),
        l3_geo in (0u32..3, 1u32..5),
    ) {
        let geo = |(s, w): (u32, u32)| small(1 << s, w);
        let (l1, l2, l3) = (geo(l1_geo), geo(l2_geo), geo(l3_geo));
        let mut m = MultiHierarchy::three_level(&[l1], l2, &[(Some(0), l3)], None).unwrap();
        m.classify(1, 1);
        let mut plain = MultiHierarchy::three_level(&[l1], l2, &[(Some(0), l3)], None).unwrap();
        let mut sim = CoherentHierarchy::new(l1, l2, Some(l3));
        for &(core, addr, len, write) in &ops {
            m.access_rw(core, addr, len, write);
            plain.access_rw(core, addr, len, write);
            sim.access(core, addr, len, write);
        }
        assert_three_levels_equal(&m, &sim, true)?;
        assert_three_levels_equal(&plain, &sim, false)?;
    }

    /// Through the whole model: the three-level prediction of a mimicked run equals
    /// `CoherentHierarchy` with an L3 on the model's interleaved trace (its accesses' kinds from
    /// the metadata), and on one core on the sequential run's own accesses.
    #[test]
    fn three_level_prediction_equals_measuring_the_interleaved_trace(
        iterations in 1u64..120,
        stride in prop::sample::select(vec![8u64, 64, 72]),
        cores in 1usize..4,
        geos in ((0u32..2, 1u32..3), (0u32..3, 1u32..4), (0u32..3, 1u32..5)),
        classify in any::<bool>(),
        uniform in any::<bool>(),
    ) {
        let geo = |(s, w): (u32, u32)| small(1 << s, w);
        let (l1, l2, l3) = (geo(geos.0), geo(geos.1), geo(geos.2));
        let (meta, events) = rw_program(iterations, stride);
        let seq = SequentialTrace::from_events(&meta, events.clone()).unwrap();
        let writes = crate::measure::write_table(&meta);
        let interleave = if uniform { Interleave::Uniform { seed: 9 } } else { Interleave::RoundRobin };
        let cfg = ExactConfig {
            l1: vec![l1],
            l2: vec![l2],
            l3: Some(l3),
            interleave,
            classify_misses: classify,
            ..ExactConfig::default()
        };
        let mut run = ExactRun::new(&cfg, cores).unwrap().with_writes(writes.clone());
        run.feed(&seq);
        let p = run.finish();
        let mut sim = CoherentHierarchy::new(l1, l2, Some(l3));
        let mimic = MimickedTrace::build(&seq, MimicConfig { cores, ..cfg.mimic }).unwrap();
        Interleaver::new(interleave).feed_with_mi(&mimic, |core, _, addr, len, mi| {
            sim.access(core, addr, len as u64, writes[mi as usize]);
        });
        if cores == 1 {
            // One core: the mimicked trace is the sequential run itself.
            let mut solo = CoherentHierarchy::new(l1, l2, Some(l3));
            for e in &events {
                if let rdtrace::Event::Access { mi, addr, len } = *e {
                    solo.access(0, addr, len, writes[mi as usize]);
                }
            }
            prop_assert_eq!(solo.stats(), sim.stats());
        }
        let st = sim.stats();
        let h = &p.hierarchies[0];
        let l3p = h.l3.as_ref().unwrap();
        prop_assert_eq!(h.l2, l2);
        prop_assert_eq!(l3p.l3, l3);
        let mut l2_total = MissKinds::default();
        for c in 0..cores {
            // A core the simulation never saw (fewer iterations than cores) has zero counts.
            let at = |v: &[rdcachesim::CacheCounts]| v.get(c).copied().unwrap_or_default();
            let (want1, want2) = (at(&st.l1), at(&st.l2_private));
            let got = h.per_core[c].counts;
            prop_assert_eq!((got.references, got.l1_hits), (want1.stats.accesses, want1.stats.hits));
            prop_assert_eq!((got.l2_accesses, got.l2_hits), (want2.stats.accesses, want2.stats.hits));
            let l3c = l3p.per_core[c];
            prop_assert_eq!(l3c.l3_accesses, want2.stats.accesses - want2.stats.hits);
            if classify {
                prop_assert_eq!(h.l1_misses_per_core[c], want1.misses);
                prop_assert_eq!(l3p.l2_misses_per_core[c], want2.misses);
            } else {
                prop_assert_eq!(h.l1_misses_per_core[c].coherence, want1.misses.coherence);
                prop_assert_eq!(l3p.l2_misses_per_core[c].coherence, want2.misses.coherence);
            }
            l2_total.add(&want2.misses);
        }
        let s3 = st.shared.stats;
        prop_assert_eq!((l3p.counts.l3_accesses, l3p.counts.l3_hits), (s3.accesses, s3.hits));
        prop_assert_eq!(h.rates.l1_hit, st.l1.iter().map(|c| c.stats.hits).sum::<u64>() as f64 / h.references as f64);
        let global = 1.0 - (s3.accesses - s3.hits) as f64 / h.references as f64;
        prop_assert!((l3p.counts.l3_hit_global - global).abs() < 1e-12);
        if classify {
            prop_assert_eq!(h.l2_misses, l2_total);
            prop_assert_eq!(l3p.l3_miss_classes, st.shared.misses);
        }
    }
}

#[test]
fn three_levels_need_one_l1_and_one_l2_of_the_same_line() {
    let base = ExactConfig {
        l3: Some(small(4, 4)),
        ..ExactConfig::default()
    };
    let two_l1 = ExactConfig {
        l1: vec![small(1, 1), small(1, 2)],
        ..base.clone()
    };
    assert!(ExactRun::new(&two_l1, 2).is_err());
    let long_l2 = ExactConfig {
        l2: vec![CacheConfig::new(4096, 4, 128).unwrap()],
        ..base.clone()
    };
    assert!(ExactRun::new(&long_l2, 2).is_err());
    assert!(ExactRun::new(&base, 2).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Set sampling with three levels: samples that partition the values of the bits the L1,
    /// its private L2 and the L3 behind them all index sets by add up to the unsampled counts
    /// at every level (so the sample keeps whole private-L2 and L3 sets behind kept L1 sets),
    /// coherence misses included; also with a second L1 (a miss-ratio curve's) and a cache
    /// with no L1 in front.
    #[test]
    fn three_level_set_samples_partition_the_unsampled_counts(
        ops in prop::collection::vec(
            (0usize..3, prop_oneof![0u64..1 << 13, 0u64..256], 1u64..40, prop::bool::weighted(0.3)),
            0..600,
        ),
        classes in 2u64..5,
    ) {
        let l1 = [CacheConfig::new(256, 2, 16).unwrap(), CacheConfig::new(512, 2, 16).unwrap()];
        let l2 = CacheConfig::new(1024, 2, 16).unwrap();
        let req = [
            (Some(0), CacheConfig::new(2048, 4, 32).unwrap()),
            (Some(1), CacheConfig::new(1024, 2, 64).unwrap()),
            (None, CacheConfig::new(512, 2, 64).unwrap()),
        ];
        let run = |part: Option<u64>| {
            let mut m = MultiHierarchy::three_level(&l1, l2, &req, None).unwrap();
            if let Some(c) = part {
                m.choose_samples(|shift, bits| {
                    let values: Vec<u64> = (0..1u64 << bits).filter(|v| v % classes == c).collect();
                    Some(crate::set_sample::SetSample::with_values(shift, bits, &values))
                });
            }
            for &(core, addr, len, write) in &ops {
                m.access_rw(core, addr, len, write);
            }
            m
        };
        let full = run(None);
        let parts: Vec<MultiHierarchy> = (0..classes).map(|c| run(Some(c))).collect();
        let cores = full.cores();
        let sum = |f: &dyn Fn(&MultiHierarchy) -> u64| parts.iter().map(f).sum::<u64>();
        let at = |v: &[u64], c: usize| v.get(c).copied().unwrap_or(0);
        for c in 0..cores {
            for i in 0..l1.len() {
                let (refs, hits) = full.l1_counts(i);
                prop_assert_eq!(sum(&|p| at(p.l1_counts(i).0, c)), refs[c]);
                prop_assert_eq!(sum(&|p| at(p.l1_counts(i).1, c)), hits[c]);
            }
            let (acc2, hits2) = full.l2_private_counts().unwrap();
            prop_assert_eq!(sum(&|p| at(p.l2_private_counts().unwrap().0, c)), acc2[c]);
            prop_assert_eq!(sum(&|p| at(p.l2_private_counts().unwrap().1, c)), hits2[c]);
            let coh = |p: &MultiHierarchy| {
                p.l2_private_miss_kinds().unwrap().get(c).map_or(0, |k| k.coherence)
            };
            prop_assert_eq!(sum(&coh), coh(&full));
        }
        for j in 0..req.len() {
            let (a, h) = parts.iter().fold((0, 0), |(a, h), p| {
                let (pa, ph) = p.l2_counts(j);
                (a + pa, h + ph)
            });
            prop_assert_eq!((a, h), full.l2_counts(j), "shared request {}", j);
        }
    }
}
