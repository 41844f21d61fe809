//! The measurement of threaded runs: the measurer against the simulated hierarchy, hand-counted
//! per-core counts, the numbering of cores by thread index and the measurer's fast path.

use super::*;

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

/// A random stream of accesses: mostly short steps (runs on one line), sometimes a jump, sizes
/// 1..=16 bytes (some straddle a line); `(thread, mi, addr, len)` over `threads` threads and
/// memory instructions 0 and 1.
fn random_accesses(n: usize, threads: u32, mut x: u64) -> Vec<(u32, u32, u64, u64)> {
    let mut addr = 0u64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            addr = if x >> 8 & 7 == 0 {
                (x >> 16) % 65536
            } else {
                addr + (x >> 24) % 6
            };
            let thread = (x >> 40) as u32 % threads;
            (thread, (x >> 50) as u32 % 2, addr, 1 + (x >> 32) % 16)
        })
        .collect()
}

/// The caches simulated and the PRD and CRD counted on threads of their own, fed in batches
/// (several of them, and one cut short at the end), give the measurement of doing both access
/// by access on the caller's thread: every field, on runs of one to four threads that write
/// (memory instruction 1 writes).
#[test]
fn a_measurement_on_threads_of_its_own_equals_one_on_the_callers() {
    use rdtrace::{Analysis, EventVisitor};
    let config = MeasureConfig {
        l1: CacheConfig::new(512, 2, 64).unwrap(),
        l2: CacheConfig::new(4096, 4, 64).unwrap(),
    };
    for threads in 1..=4u32 {
        let accesses = random_accesses(40_000, threads, 0x9e37_79b9 + threads as u64);
        let run = |m: crate::ThreadMeasurer| {
            let mut m = m;
            m.set_threads((0..threads).collect());
            for &(t, mi, addr, len) in &accesses {
                m.thread(t);
                m.access(mi, addr, len);
            }
            format!("{:?}", Analysis::finish(m))
        };
        let new =
            || crate::ThreadMeasurer::with_options(config, Default::default(), vec![false, true]);
        assert_eq!(run(new()), run(new().on_this_thread()), "{threads} threads");
    }
}

/// A one-thread file's chunks, read ahead on other cores and handed to the measurement whole
/// (simulated on the caller's thread, their PRD and CRD counted on another): the measurement
/// of the same accesses fed one by one to a [`Measurer`].
#[test]
fn a_one_thread_file_measured_in_chunks_is_measured_access_by_access() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.rdtrace");
    let accesses = random_accesses(60_000, 1, 0x2545_f491);
    let chunks: Vec<Vec<Event>> = accesses
        .chunks(7_000)
        .map(|c| {
            c.iter()
                .map(|&(_, mi, addr, len)| Event::Access { mi, addr, len })
                .collect()
        })
        .collect();
    rdtrace::testing::write_trace_chunks(&path, &module(), &[(1, chunks)]).unwrap();
    let trace = rdtrace::Trace::open(&path).unwrap();
    let config = MeasureConfig {
        l1: CacheConfig::new(512, 2, 64).unwrap(),
        l2: CacheConfig::new(4096, 4, 64).unwrap(),
    };
    let new = measure(&trace, config).unwrap();
    let old = measure_in_index_order(&trace, config);
    // Line references: accesses that straddle a line count once per line.
    assert!(new.references > 60_000);
    assert_eq!(new.l1_per_thread.len(), 1);
    assert_eq!(format!("{new:?}"), format!("{old:?}"));
}
