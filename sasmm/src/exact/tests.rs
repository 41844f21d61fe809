//! Unit tests of the exact model: set stacks by hand and against the cache simulator, the
//! hierarchies against `rdcachesim::Hierarchy`.

use super::*;
use proptest::prelude::*;
use rdcachesim::{Cache, Hierarchy};

#[test]
fn power_of_two_pitch_by_hand() {
    // 4 sets, 2 ways. Lines 0, 4, 8 all map to set 0; 1 to set 1.
    // 0 4 1 0: per-set distance of the second 0 is 1 (only 4 in its set since) -> a 2-way
    // hit, although 2 distinct lines (4, 1) were touched in between (the formula's D = 2).
    // Then 8 evicts... nothing yet (set 0 holds 0, 4 at depth 2): 8 is a first touch; 4 has
    // distance 2 (0 and 8 since) -> a 2-way miss, a 3-way hit.
    let mut s = SetStacks::new(4, 3).unwrap();
    let got: Vec<Option<u32>> = [0, 4, 1, 0, 8, 4].iter().map(|&l| s.access(l)).collect();
    assert_eq!(got, [None, None, None, Some(1), None, Some(2)]);
    assert_eq!(s.hits(2), 1);
    assert_eq!(s.hits(3), 2);
    assert_eq!(s.references(), 6);
    assert_eq!(s.beyond(), 4);
}

#[test]
fn stream_just_larger_than_the_cache_never_hits() {
    // A cyclic stream over 2500 lines through a 2048-line 16-way cache: every set sees
    // 19 or 20 > 16 distinct lines per cycle, so LRU misses every reference (eq. 5 gives
    // D = 2499 a hit probability of several percent: it lets some sets receive few lines).
    let c = CacheConfig::paper_l2();
    let mut s = SetStacks::for_caches(&[c]).unwrap();
    for _ in 0..4 {
        for l in 0..2500u64 {
            s.access(l);
        }
    }
    assert_eq!(s.hits(16), 0);
}

#[test]
fn sampled_run_reports_rates_of_the_kept_sets_and_scaled_references() {
    // A cyclic sweep over 64 KiB: every set sees the same pattern, so any sample has the
    // exact rates, and the references scale back to the full count.
    let l1 = CacheConfig::default(); // 8K:8:64, 16 sets
    let l2 = CacheConfig::paper_l2(); // 128K:16:64, 128 sets
    let sweep = |sim: &mut MultiHierarchy| {
        for _ in 0..4 {
            for a in (0..64u64 << 10).step_by(8) {
                sim.access(0, a, 8);
            }
        }
    };
    let req = [(Some(0), l2), (None, l2)];
    let mut full = MultiHierarchy::new(&[l1], &req).unwrap();
    sweep(&mut full);
    let cfg = SetSampleConfig {
        rate: 0.01,
        seed: 3,
    };
    let mut part = MultiHierarchy::sampled(&[l1], &req, Some(&cfg)).unwrap();
    sweep(&mut part);
    // L1 and L2 share set bits 6..10: one of 16 values; the shared cache alone has 7 bits.
    assert_eq!(part.l1_sample(0).map(SetSample::rate), Some(1.0 / 16.0));
    assert_eq!(part.l2_sample(0).map(SetSample::rate), Some(1.0 / 16.0));
    assert_eq!(part.l2_sample(1).map(SetSample::rate), Some(1.0 / 128.0));
    assert_eq!(part.rates(0, 0), full.rates(0, 0));
    let refs = |m: &MultiHierarchy| m.l1_counts(0).0.iter().sum::<u64>();
    assert_eq!(scaled(part.l1_sample(0), refs(&part)), refs(&full));
    assert_eq!(refs(&part) * 16, refs(&full));
}

fn geometry() -> impl Strategy<Value = (u64, u32)> {
    (1u64..=9, 1u32..=10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every associativity up to the depth gets exactly the hits of an LRU cache simulation.
    #[test]
    fn set_distances_equal_lru_simulation(
        (sets, depth) in geometry(),
        trace in prop::collection::vec(0u64..80, 0..600),
    ) {
        let mut s = SetStacks::new(sets, depth).unwrap();
        let mut caches: Vec<Cache> = (1..=depth)
            .map(|w| Cache::new(CacheConfig::new(sets * w as u64, w, 1).unwrap()))
            .collect();
        for &l in &trace {
            let d = s.access(l);
            for (w, c) in (1..=depth).zip(caches.iter_mut()) {
                prop_assert_eq!(c.access_line(l), d.is_some_and(|d| d < w), "sets {} ways {}", sets, w);
            }
        }
        for (w, c) in (1..=depth).zip(&caches) {
            prop_assert_eq!(s.hits(w), c.stats().hits);
        }
    }

    /// The deep single-set (fully associative) path agrees with the simulator too.
    #[test]
    fn deep_fully_associative_stack_equals_lru_simulation(
        trace in prop::collection::vec(0u64..300, 0..1500),
        ways in prop::sample::select(vec![1u32, 7, 65, 100, 200]),
    ) {
        let mut s = SetStacks::new(1, 200).unwrap();
        let mut c = Cache::new(CacheConfig::new(ways as u64, ways, 1).unwrap());
        for &l in &trace {
            let d = s.access(l);
            prop_assert_eq!(c.access_line(l), d.is_some_and(|d| d < ways));
        }
    }

    /// Set sampling is exact per set: the counts of samples that partition the kept values
    /// add up to the unsampled counts, for every L1, every L2 behind it and a shared cache
    /// with no L1 in front. So the scaled count of a simple random sample of the values is
    /// an unbiased estimate of the full count (each value is kept with probability K/n).
    #[test]
    fn set_samples_partition_the_unsampled_counts(
        accesses in prop::collection::vec(
            (0usize..3, prop_oneof![0u64..1 << 14, 0u64..256], 1u64..40),
            0..800,
        ),
        classes in 2u64..5,
    ) {
        let l1 = vec![
            CacheConfig::new(256, 2, 16).unwrap(),
            CacheConfig::new(512, 2, 16).unwrap(),
            CacheConfig::new(256, 1, 32).unwrap(),
        ];
        let l2s = [
            CacheConfig::new(2048, 4, 32).unwrap(),
            CacheConfig::new(1024, 2, 64).unwrap(),
        ];
        let mut req: Vec<(Option<usize>, CacheConfig)> = Vec::new();
        for i in 0..l1.len() {
            for c in l2s {
                req.push((Some(i), c));
            }
        }
        req.push((None, l2s[0]));
        let run = |part: Option<u64>| {
            let mut m = MultiHierarchy::new(&l1, &req).unwrap();
            if let Some(c) = part {
                m.choose_samples(|shift, bits| {
                    let values: Vec<u64> = (0..1u64 << bits).filter(|v| v % classes == c).collect();
                    Some(SetSample::with_values(shift, bits, &values))
                });
                assert!(m.l1_groups.iter().all(|g| g.sample.is_some()));
            }
            for &(core, addr, len) in &accesses {
                m.access(core, addr, len);
            }
            m
        };
        let full = run(None);
        let parts: Vec<MultiHierarchy> = (0..classes).map(|c| run(Some(c))).collect();
        for i in 0..l1.len() {
            let (refs, hits) = full.l1_counts(i);
            for core in 0..refs.len() {
                let sum = |f: &dyn Fn(&MultiHierarchy) -> u64| parts.iter().map(f).sum::<u64>();
                let at = |v: &[u64]| v.get(core).copied().unwrap_or(0);
                prop_assert_eq!(sum(&|p| at(p.l1_counts(i).0)), refs[core]);
                prop_assert_eq!(sum(&|p| at(p.l1_counts(i).1)), hits[core]);
            }
        }
        for j in 0..req.len() {
            let (a, h) = parts.iter().fold((0, 0), |(a, h), p| {
                let (pa, ph) = p.l2_counts(j);
                (a + pa, h + ph)
            });
            prop_assert_eq!((a, h), full.l2_counts(j), "L2 request {}", j);
        }
    }

    /// Many hierarchies at once equal one `rdcachesim::Hierarchy` each. Half the accesses
    /// fall in a few lines, so a core often repeats its last line (the shortcut that
    /// counts a distance-0 hit without a lookup, per L1 group and per shared cache).
    #[test]
    fn multi_hierarchy_equals_hierarchy_simulations(
        accesses in prop::collection::vec(
            (0usize..3, prop_oneof![0u64..4096, 0u64..96], 1u64..20),
            0..800,
        ),
    ) {
        let l1 = vec![
            CacheConfig::new(256, 2, 16).unwrap(),
            CacheConfig::new(256, 4, 16).unwrap(),
            CacheConfig::new(512, 1, 32).unwrap(),
        ];
        let l2s = [
            CacheConfig::new(1024, 4, 32).unwrap(),
            CacheConfig::new(1024, 8, 32).unwrap(),
            CacheConfig::new(768, 3, 16).unwrap(),
        ];
        let mut req = Vec::new();
        for i in 0..l1.len() {
            for c in l2s {
                req.push((Some(i), c));
            }
        }
        req.push((None, l2s[0]));
        let mut multi = MultiHierarchy::new(&l1, &req).unwrap();
        let mut sims: Vec<Hierarchy> = req[..9]
            .iter()
            .map(|&(i, c)| Hierarchy::new(l1[i.unwrap()], c, 0))
            .collect();
        // Per simulation and core: L2 hits of the accesses that core's L1 misses caused.
        let mut sim_l2_hits = vec![[0u64; 3]; sims.len()];
        let mut alone = Cache::new(l2s[0]);
        // One L1 and one L2 take the direct path.
        let mut single = MultiHierarchy::new(&l1[2..], &[(Some(0), l2s[2])]).unwrap();
        assert!(single.single.is_some());
        let mut single_sim = Hierarchy::new(l1[2], l2s[2], 0);
        for &(core, addr, len) in &accesses {
            single.access(core, addr, len);
            single_sim.access(core, addr, len);
            multi.access(core, addr, len);
            for (h, hits) in sims.iter_mut().zip(&mut sim_l2_hits) {
                h.access_with(core, addr, len, |s| {
                    hits[core] += u64::from(s == rdcachesim::Served::L2);
                });
            }
            alone.access(addr, len);
        }
        for (j, h) in sims.iter().enumerate() {
            let i = req[j].0.unwrap();
            let st = h.stats();
            let (refs, hits) = multi.l1_counts(i);
            for (c, s) in st.l1.iter().enumerate() {
                prop_assert_eq!(refs.get(c).copied().unwrap_or(0), s.accesses);
                prop_assert_eq!(hits.get(c).copied().unwrap_or(0), s.hits);
            }
            prop_assert_eq!(multi.l2_counts(j), (st.l2.accesses, st.l2.hits));
            // Each L2 access belongs to the core whose L1 missed; the per-core counts add
            // up to the combined ones.
            let per_core = multi.core_counts(i, j);
            prop_assert_eq!(per_core.len(), multi.cores());
            for (c, n) in per_core.iter().enumerate() {
                prop_assert_eq!(n.l2_hits, sim_l2_hits[j][c]);
                prop_assert_eq!(n.l2_accesses, st.l1[c].misses());
            }
            let sum = CoreCounts::sum(&per_core);
            prop_assert_eq!(
                (sum.references, sum.l1_hits, sum.l2_accesses, sum.l2_hits),
                (st.references(), st.l1_total().hits, st.l2.accesses, st.l2.hits)
            );
            let r = multi.rates(i, j);
            prop_assert!((r.l2_hit_global - st.l2_global_hit_rate()).abs() < 1e-12);
            prop_assert!((r.l2_hit_local - st.l2_local_hit_rate()).abs() < 1e-12);
        }
        prop_assert_eq!(multi.l2_counts(9), (alone.stats().accesses, alone.stats().hits));
        let st = single_sim.stats();
        let (refs, hits) = single.l1_counts(0);
        for (c, s) in st.l1.iter().enumerate() {
            prop_assert_eq!((refs[c], hits[c]), (s.accesses, s.hits));
        }
        prop_assert_eq!(single.l2_counts(0), (st.l2.accesses, st.l2.hits));
    }
}

// Coherence (issue 29 point 2) and the 3C split of the exact model's misses.

use rdcachesim::{CoherentHierarchy, MissKinds};

/// A classed hierarchy of one L1 and one L2.
fn classed(l1: CacheConfig, l2: CacheConfig) -> MultiHierarchy {
    let mut m = MultiHierarchy::new(&[l1], &[(Some(0), l2)]).unwrap();
    m.classify(1, 1);
    m
}

/// compulsory + capacity + conflict + coherence = misses, coherence = true + false.
fn assert_sums(k: &MissKinds, misses: u64) {
    assert_eq!(k.total(), misses, "{k:?}");
    assert_eq!(k.coherence, k.true_sharing + k.false_sharing, "{k:?}");
}

#[test]
fn unpadded_counters_give_false_sharing_every_round_but_the_first() {
    // Two cores alternately increment their own 8-byte counter of one 64-byte line: read then
    // write, 10 rounds each. Core 0's first read is compulsory; from then on, each core finds
    // its copy invalidated by the other's write to the other 8 bytes: one false-sharing miss
    // per round after the first; the write right after the read hits (an upgrade).
    let mut m = classed(CacheConfig::default(), CacheConfig::paper_l2());
    for _ in 0..10 {
        for c in 0..2u64 {
            m.access_rw(c as usize, 8 * c, 8, false);
            m.access_rw(c as usize, 8 * c, 8, true);
        }
    }
    for c in 0..2 {
        let k = m.l1_miss_kinds(0)[c];
        assert_eq!(
            (k.compulsory, k.coherence, k.false_sharing, k.true_sharing),
            (1, 9, 9, 0)
        );
        let (refs, hits) = m.l1_counts(0);
        assert_eq!((refs[c], hits[c]), (20, 10));
        assert_sums(&k, refs[c] - hits[c]);
    }
    // The shared L2 is never invalidated: one compulsory miss, every coherence miss hits it.
    let l2 = m.l2_miss_kinds(0);
    assert_eq!(l2[0].compulsory + l2[1].compulsory, 1);
    assert_eq!(m.l2_counts(0), (20, 19));
}

#[test]
fn padded_counters_and_reads_only_have_no_coherence_misses() {
    let mut m = classed(CacheConfig::default(), CacheConfig::paper_l2());
    for _ in 0..10 {
        for c in 0..2u64 {
            m.access_rw(c as usize, 64 * c, 8, false);
            m.access_rw(c as usize, 64 * c, 8, true);
            // Both read a line neither writes.
            m.access_rw(c as usize, 4096, 8, false);
        }
    }
    for c in 0..2 {
        let k = m.l1_miss_kinds(0)[c];
        assert_eq!((k.compulsory, k.coherence), (2, 0), "{k:?}");
    }
}

#[test]
fn a_shared_sum_gives_true_sharing() {
    // Both cores add to the same 8 bytes in turn (an atomic read-modify-write is one write
    // access): after the first round, each core's copy was invalidated by the other's write
    // of those very bytes: 2 (10 - 1) true-sharing misses, 2 compulsory.
    let mut m = classed(CacheConfig::default(), CacheConfig::paper_l2());
    for _ in 0..10 {
        for c in 0..2 {
            m.access_rw(c, 128, 8, true);
        }
    }
    let mut all = MissKinds::default();
    m.l1_miss_kinds(0).iter().for_each(|k| all.add(k));
    assert_eq!(
        (all.compulsory, all.true_sharing, all.false_sharing),
        (1 + 1, 18, 0)
    );
}

#[test]
fn an_invalidation_leaves_a_hole_and_does_not_bring_back_an_evicted_line() {
    // One set; a 2-way and a 4-way cache of 64-byte lines share one stack, 4 deep. Core 0
    // reads a, b, c: in the 2-way cache c evicts a ({c, b}), the 4-way one holds all three.
    // Core 1 writes c: core 0 loses c. The 2-way cache keeps only {b}, one way empty; the
    // stack without c is [b, a], so a is at distance 1 < 2 ways, yet a was evicted before: a
    // miss (capacity: the 2-line shadow lost a too), which fills the hole. Then b hits (the
    // cache holds {a, b}), and c misses by coherence, true sharing (core 1 wrote the bytes
    // core 0 reads). The 4-way cache hits a and b and misses c by coherence.
    let l1 = [
        CacheConfig::new(128, 2, 64).unwrap(),
        CacheConfig::new(256, 4, 64).unwrap(),
    ];
    let l2 = CacheConfig::paper_l2();
    let mut m = MultiHierarchy::new(&l1, &[(Some(0), l2), (Some(1), l2)]).unwrap();
    m.classify(2, 2);
    let (a, b, c) = (0u64, 64, 128);
    let ops = [(0, a, false), (0, b, false), (0, c, false), (1, c, true)]
        .into_iter()
        .chain([a, b, c].map(|x| (0, x, false)));
    for (core, x, w) in ops.clone() {
        m.access_rw(core, x, 8, w);
    }
    let (refs, hits) = m.l1_counts(0);
    assert_eq!((refs[0], hits[0]), (6, 1));
    let k = m.l1_miss_kinds(0)[0];
    assert_eq!(
        (
            k.compulsory,
            k.capacity,
            k.conflict,
            k.true_sharing,
            k.false_sharing
        ),
        (3, 1, 0, 1, 0)
    );
    assert_sums(&k, 5);
    let (refs, hits) = m.l1_counts(1);
    assert_eq!((refs[0], hits[0]), (6, 2));
    let k4 = m.l1_miss_kinds(1)[0];
    assert_eq!(
        (k4.compulsory, k4.capacity, k4.conflict, k4.true_sharing),
        (3, 0, 0, 1)
    );
    // What a simulation of each cache says.
    for (i, &c1) in l1.iter().enumerate() {
        let mut sim = CoherentHierarchy::new(c1, l2, None);
        for (core, x, w) in ops.clone() {
            sim.access(core, x, 8, w);
        }
        assert_eq!(sim.stats().l1[0].misses, m.l1_miss_kinds(i)[0]);
    }
}

#[test]
fn reads_only_give_the_old_counts_and_a_3c_split_without_coherence() {
    let l1 = CacheConfig::new(256, 2, 64).unwrap(); // 2 sets
    let l2 = CacheConfig::new(1024, 2, 64).unwrap();
    let mut plain = MultiHierarchy::new(&[l1], &[(Some(0), l2)]).unwrap();
    let mut m = classed(l1, l2);
    let mut x = 7u64;
    for _ in 0..2000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (core, addr) = ((x >> 60) as usize % 3, (x >> 20) % 3000);
        plain.access(core, addr, 8);
        m.access_rw(core, addr, 8, false);
    }
    assert_eq!(plain.l1_counts(0), m.l1_counts(0));
    assert_eq!(plain.l2_counts(0), m.l2_counts(0));
    let (refs, hits) = m.l1_counts(0);
    for c in 0..3 {
        let k = m.l1_miss_kinds(0)[c];
        assert_eq!(k.coherence, 0);
        assert!(k.capacity > 0 && k.conflict > 0, "{k:?}");
        assert_sums(&k, refs[c] - hits[c]);
    }
    let mut l2k = MissKinds::default();
    m.l2_miss_kinds(0).iter().for_each(|k| l2k.add(k));
    let (acc, h2) = m.l2_counts(0);
    assert_sums(&l2k, acc - h2);
}

/// One access of a random coherence trace: core, address, length, write.
pub(super) fn rw_access() -> impl Strategy<Value = (usize, u64, u64, bool)> {
    (
        0usize..3,
        0u64..12 * 64,
        1u64..=16,
        prop::bool::weighted(0.4),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The stack-distance rule with holes equals `measure`'s write-invalidate simulation
    /// (`CoherentHierarchy`) count for count and class for class, for every associativity of
    /// one set count at once, and the classes add up to the misses.
    #[test]
    fn coherent_stacks_equal_the_coherent_simulation(
        ops in prop::collection::vec(rw_access(), 1..300),
        sets_log in 0u32..3,
        l2_line in prop::sample::select(vec![64u32, 128]),
    ) {
        let sets = 1u64 << sets_log;
        let l1: Vec<CacheConfig> = [1u32, 2, 3]
            .iter()
            .map(|&w| CacheConfig::new(sets * w as u64 * 64, w, 64).unwrap())
            .collect();
        let l2c = CacheConfig::new(4 * 2 * l2_line as u64, 2, l2_line).unwrap();
        let req: Vec<_> = (0..l1.len()).map(|i| (Some(i), l2c)).collect();
        let mut m = MultiHierarchy::new(&l1, &req).unwrap();
        m.classify(l1.len(), req.len());
        // Unclassed, the same counts and the same coherence misses, without the shadows.
        let mut plain = MultiHierarchy::new(&l1, &req).unwrap();
        // One L1 and one L2, unclassed: the inline path of the usual request.
        let mut single = MultiHierarchy::new(&l1[1..2], &[(Some(0), l2c)]).unwrap();
        let mut sims: Vec<_> = l1.iter().map(|&c| CoherentHierarchy::new(c, l2c, None)).collect();
        for &(core, addr, len, write) in &ops {
            m.access_rw(core, addr, len, write);
            plain.access_rw(core, addr, len, write);
            single.access_rw(core, addr, len, write);
            for s in &mut sims {
                s.access(core, addr, len, write);
            }
        }
        for (i, s) in sims.iter().enumerate() {
            let st = s.stats();
            let (refs, hits) = m.l1_counts(i);
            for (c, want) in st.l1.iter().enumerate() {
                prop_assert_eq!((refs[c], hits[c]), (want.stats.accesses, want.stats.hits), "L1 {} core {}", l1[i], c);
                let k = m.l1_miss_kinds(i)[c];
                prop_assert_eq!(k, want.misses, "L1 {} core {}", l1[i], c);
                prop_assert_eq!(k.total(), refs[c] - hits[c]);
                let p = plain.l1_miss_kinds(i)[c];
                prop_assert_eq!(
                    (p.coherence, p.true_sharing, p.false_sharing, p.compulsory + p.capacity + p.conflict),
                    (k.coherence, k.true_sharing, k.false_sharing, 0)
                );
            }
            prop_assert_eq!(plain.l1_counts(i), m.l1_counts(i));
            if i == 1 {
                prop_assert_eq!(single.l1_counts(0), m.l1_counts(1));
                prop_assert_eq!(single.l2_counts(0), m.l2_counts(1));
                let coh = |k: &[MissKinds]| -> Vec<(u64, u64)> {
                    k.iter().map(|k| (k.true_sharing, k.false_sharing)).collect()
                };
                prop_assert_eq!(coh(single.l1_miss_kinds(0)), coh(m.l1_miss_kinds(1)));
            }
            prop_assert_eq!(plain.l2_counts(i), m.l2_counts(i));
            let (acc, h2) = m.l2_counts(i);
            prop_assert_eq!((acc, h2), (st.shared.stats.accesses, st.shared.stats.hits));
            let mut l2k = MissKinds::default();
            m.l2_miss_kinds(i).iter().for_each(|k| l2k.add(k));
            prop_assert_eq!(l2k, st.shared.misses);
            prop_assert_eq!(l2k.total(), acc - h2);
        }
    }
}
